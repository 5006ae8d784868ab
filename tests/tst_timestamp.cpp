#include "domain/core/timestamp.h"

#include <QtTest>

#include <cstdint>
#include <limits>

using rd::Timestamp;

class TestTimestamp : public QObject
{
    Q_OBJECT

private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<qint64>("micros");

        QTest::newRow("epoch") << "1970-01-01T00:00:00Z" << true << qint64(0);
        QTest::newRow("lowercase t z") << "1970-01-01t00:00:01z" << true << qint64(1000000);
        QTest::newRow("fraction") << "1970-01-01T00:00:00.25Z" << true << qint64(250000);
        QTest::newRow("microseconds") << "1970-01-01T00:00:00.000001Z" << true << qint64(1);
        QTest::newRow("offset normalized") << "1970-01-01T02:00:00+02:00" << true << qint64(0);
        QTest::newRow("negative offset") << "1969-12-31T23:00:00-01:00" << true << qint64(0);
        QTest::newRow("before epoch") << "1969-12-31T23:59:59Z" << true << qint64(-1000000);
        QTest::newRow("leap day") << "2024-02-29T00:00:00Z" << true << qint64(1709164800000000);
        QTest::newRow("nanoseconds refused")
            << "1970-01-01T00:00:00.0000001Z" << false << qint64(0);
        QTest::newRow("no offset") << "1970-01-01T00:00:00" << false << qint64(0);
        QTest::newRow("not leap") << "2023-02-29T00:00:00Z" << false << qint64(0);
        QTest::newRow("leap century") << "2000-02-29T00:00:00Z" << true << qint64(951782400000000);
        QTest::newRow("not leap century") << "1900-02-29T00:00:00Z" << false << qint64(0);
        QTest::newRow("not leap 2100") << "2100-02-29T00:00:00Z" << false << qint64(0);
        QTest::newRow("april 31") << "2023-04-31T00:00:00Z" << false << qint64(0);
        QTest::newRow("day 0") << "2023-04-00T00:00:00Z" << false << qint64(0);
        QTest::newRow("month 13") << "2023-13-01T00:00:00Z" << false << qint64(0);
        QTest::newRow("hour 24") << "2023-01-01T24:00:00Z" << false << qint64(0);
        QTest::newRow("empty fraction") << "2023-01-01T00:00:00.Z" << false << qint64(0);
        QTest::newRow("trailing junk") << "2023-01-01T00:00:00Zx" << false << qint64(0);
        QTest::newRow("date only") << "2023-01-01" << false << qint64(0);
        QTest::newRow("empty") << "" << false << qint64(0);
        QTest::newRow("space separator") << "2023-01-01 00:00:00Z" << false << qint64(0);
    }

    void parse()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(qint64, micros);
        const auto t = rd::parseRfc3339(text.toStdString());
        QCOMPARE(t.has_value(), valid);
        if (valid)
            QCOMPARE(t->micros, micros);
    }

    // Every Timestamp must survive formatRfc3339 -> PostgreSQL -> rd_rfc3339 -> parseRfc3339:
    // PostgreSQL reads no year 0 and formatRfc3339 writes four-digit years, so the UTC instant
    // must lie in 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999Z, whatever the offset.
    void storableRange_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("storable");
        QTest::addColumn<QString>("utc"); // formatRfc3339 of the instant when storable

        QTest::newRow("first instant") << "0001-01-01T00:00:00Z" << true << "0001-01-01T00:00:00Z";
        QTest::newRow("year 0 in UTC (the audit's)") << "0001-01-01T00:00:00+01:00" << false << "";
        QTest::newRow("a microsecond too early") << "0000-12-31T23:59:59.999999Z" << false << "";
        QTest::newRow("a second too early") << "0001-01-01T00:59:59+01:00" << false << "";
        QTest::newRow("year 0 written, year 1 in UTC")
            << "0000-12-31T23:00:00-01:00" << true << "0001-01-01T00:00:00Z";
        QTest::newRow("year 0") << "0000-06-15T00:00:00Z" << false << "";
        QTest::newRow("before year 0 in UTC") << "0000-01-01T00:00:00+23:59" << false << "";
        QTest::newRow("last instant")
            << "9999-12-31T23:59:59.999999Z" << true << "9999-12-31T23:59:59.999999Z";
        QTest::newRow("last instant, offset")
            << "9999-12-31T23:59:59+00:01" << true << "9999-12-31T23:58:59Z";
        QTest::newRow("year 10000 in UTC") << "9999-12-31T19:00:00-05:00" << false << "";
        QTest::newRow("a microsecond too late")
            << "9999-12-31T23:59:59.999999-00:01" << false << "";
    }

    void storableRange()
    {
        QFETCH(QString, text);
        QFETCH(bool, storable);
        QFETCH(QString, utc);
        rd::TimestampError why = rd::TimestampError::NotRfc3339;
        const auto t = rd::parseRfc3339(text.toStdString(), &why);
        QCOMPARE(t.has_value(), storable);
        if (storable) {
            QVERIFY(rd::isStorable(*t));
            QCOMPARE(QString::fromStdString(rd::formatRfc3339(*t)), utc);
            QCOMPARE(rd::parseRfc3339(utc.toStdString()), t); // and back
        } else {
            QVERIFY(why == rd::TimestampError::OutOfRange);
        }
    }

    void rangeBounds()
    {
        QCOMPARE(rd::formatRfc3339(rd::kMinTimestamp), std::string("0001-01-01T00:00:00Z"));
        QCOMPARE(rd::formatRfc3339(rd::kMaxTimestamp), std::string("9999-12-31T23:59:59.999999Z"));
        QCOMPARE(rd::kMinTimestamp, rd::makeUtc(1, 1, 1));
        QVERIFY(!rd::isStorable(Timestamp {rd::kMinTimestamp.micros - 1}));
        QVERIFY(!rd::isStorable(Timestamp {rd::kMaxTimestamp.micros + 1}));
        // Not a timestamp at all is told apart from one out of range.
        rd::TimestampError why = rd::TimestampError::OutOfRange;
        QVERIFY(!rd::parseRfc3339("yesterday", &why));
        QVERIFY(why == rd::TimestampError::NotRfc3339);
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("whole second") << "2026-11-30T07:38:44Z";
        QTest::newRow("micro") << "2026-11-30T07:38:44.123456Z";
        QTest::newRow("before epoch") << "1901-01-01T00:00:00.5Z";
    }

    void roundTrip()
    {
        QFETCH(QString, text);
        const auto t = rd::parseRfc3339(text.toStdString());
        QVERIFY(t);
        QCOMPARE(QString::fromStdString(rd::formatRfc3339(*t)), text.replace(".5Z", ".500000Z"));
    }

    void addMonths_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<int>("months");
        QTest::addColumn<QString>("to");
        QTest::newRow("plain") << "2026-01-15T10:00:00Z" << 1 << "2026-02-15T10:00:00Z";
        QTest::newRow("clamp to february") << "2026-01-31T00:00:00Z" << 1 << "2026-02-28T00:00:00Z";
        QTest::newRow("leap february") << "2024-01-31T00:00:00Z" << 1 << "2024-02-29T00:00:00Z";
        QTest::newRow("year wrap") << "2026-12-01T00:00:00Z" << 1 << "2027-01-01T00:00:00Z";
        QTest::newRow("backwards") << "2026-01-01T00:00:00Z" << -1 << "2025-12-01T00:00:00Z";
        QTest::newRow("twelve") << "2026-03-01T00:00:00Z" << 12 << "2027-03-01T00:00:00Z";
        QTest::newRow("clamp to september")
            << "2026-08-31T00:00:00Z" << 1 << "2026-09-30T00:00:00Z";
        QTest::newRow("clamp backwards") << "2026-03-31T00:00:00Z" << -1 << "2026-02-28T00:00:00Z";
        QTest::newRow("clamp backwards, leap")
            << "2024-03-31T00:00:00Z" << -1 << "2024-02-29T00:00:00Z";
        QTest::newRow("century not leap") << "2100-01-31T00:00:00Z" << 1 << "2100-02-28T00:00:00Z";
        QTest::newRow("400 years leap") << "2000-01-31T00:00:00Z" << 1 << "2000-02-29T00:00:00Z";
        QTest::newRow("leap day, a year on")
            << "2024-02-29T00:00:00Z" << 12 << "2025-02-28T00:00:00Z";
        QTest::newRow("leap day, four years on")
            << "2024-02-29T00:00:00Z" << 48 << "2028-02-29T00:00:00Z";
        QTest::newRow("keeps the time of day")
            << "2026-01-31T23:59:59.999999Z" << 1 << "2026-02-28T23:59:59.999999Z";
        QTest::newRow("before the epoch") << "1969-12-31T12:00:00Z" << 2 << "1970-02-28T12:00:00Z";
        QTest::newRow("across the epoch") << "1970-01-31T06:00:00Z" << -1 << "1969-12-31T06:00:00Z";
        QTest::newRow("a thousand years")
            << "2026-01-31T00:00:00Z" << 12000 << "3026-01-31T00:00:00Z";
        QTest::newRow("last month") << "9999-11-30T00:00:00Z" << 1 << "9999-12-30T00:00:00Z";
        QTest::newRow("first year") << "0001-03-31T00:00:00Z" << -1 << "0001-02-28T00:00:00Z";
        QTest::newRow("leap year 4") << "0004-03-31T00:00:00Z" << -1 << "0004-02-29T00:00:00Z";
    }

    void addMonths()
    {
        QFETCH(QString, from);
        QFETCH(int, months);
        QFETCH(QString, to);
        const auto t = rd::parseRfc3339(from.toStdString());
        QVERIFY(t);
        QCOMPARE(QString::fromStdString(rd::formatRfc3339(rd::addMonths(*t, months))), to);
    }

    void civilDays()
    {
        QCOMPARE(rd::daysFromCivil(1970, 1, 1), std::int64_t {0});
        QCOMPARE(rd::daysFromCivil(2000, 3, 1), std::int64_t {11017});
        QCOMPARE(rd::daysFromCivil(1, 1, 1), std::int64_t {-719162});
        QCOMPARE(rd::daysFromCivil(1969, 12, 31), std::int64_t {-1});
        // A day past the end of the month rolls over.
        QCOMPARE(rd::daysFromCivil(2023, 2, 29), rd::daysFromCivil(2023, 3, 1));
        QCOMPARE(rd::makeUtc(2026, 1, 20, 9, 30, 15), *rd::parseRfc3339("2026-01-20T09:30:15Z"));
    }

    // Far beyond what can be stored, and beyond std::chrono::year (-32767..32767): the
    // calendar still counts right, as the 400-year Gregorian cycle repeats.
    void farYears()
    {
        const auto text
            = [](rd::Timestamp t) { return QString::fromStdString(rd::formatRfc3339(t)); };
        QCOMPARE(text(rd::makeUtc(100000, 1, 1)), u"100000-01-01T00:00:00Z"_qs);
        QCOMPARE(text(rd::makeUtc(40000, 2, 29, 12)), u"40000-02-29T12:00:00Z"_qs);
        QCOMPARE(text(rd::makeUtc(-50000, 12, 31, 23, 59, 59)), u"-50000-12-31T23:59:59Z"_qs);
        QCOMPARE(
            rd::daysFromCivil(40000, 1, 1) - rd::daysFromCivil(39600, 1, 1), std::int64_t {146097});
        QCOMPARE(text(rd::addMonths(rd::makeUtc(40000, 1, 31), 1)), u"40000-02-29T00:00:00Z"_qs);
        QCOMPARE(text(rd::addMonths(rd::makeUtc(40100, 1, 31), 1)), u"40100-02-28T00:00:00Z"_qs);
        QCOMPARE(text(rd::addMonths(rd::makeUtc(2026, 5, 31), 12 * 100000 + 1)),
            u"102026-06-30T00:00:00Z"_qs);
        QCOMPARE(text(rd::addMonths(rd::makeUtc(2026, 5, 31), -12 * 10000 - 3)),
            u"-7974-02-28T00:00:00Z"_qs);
        // The last microsecond before 1970 and the largest year a Timestamp holds.
        QCOMPARE(text(Timestamp {-1}), u"1969-12-31T23:59:59.999999Z"_qs);
        QCOMPARE(text(Timestamp {std::numeric_limits<std::int64_t>::max()}),
            u"294247-01-10T04:00:54.775807Z"_qs);
    }
};

QTEST_GUILESS_MAIN(TestTimestamp)
#include "tst_timestamp.moc"
