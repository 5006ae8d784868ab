#include "domain/timestamp.hpp"

#include <QtTest>

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
};

QTEST_GUILESS_MAIN(TestTimestamp)
#include "tst_timestamp.moc"
