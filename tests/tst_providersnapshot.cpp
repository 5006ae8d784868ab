#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/provider_snapshot.h"

#include <nlohmann/json.hpp>

#include <QtTest>

namespace {

nlohmann::json fixture(const QString &name)
{
    QFile f(QStringLiteral(RD_FIXTURES_DIR "/snapshots/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(name));
    const QByteArray bytes = f.readAll();
    return rd::parseUntrustedJson(std::string_view(bytes.constData(), bytes.size()));
}

} // namespace

class TestProviderSnapshot : public QObject
{
    Q_OBJECT

private slots:
    void parsesOurForm()
    {
        const auto s = rd::providerSnapshotFromJson(fixture("ours_valid.json"));
        QCOMPARE(s.status, std::string("active"));
        QVERIFY(s.currentPeriod);
        QCOMPARE(rd::formatRfc3339(s.currentPeriod->end), std::string("2026-02-01T00:00:00Z"));
        QVERIFY(s.latestRenewal);
        QCOMPARE(s.latestRenewal->paidAmountMinor, 2000);
        QCOMPARE(rd::formatRfc3339(s.capturedAt), std::string("2026-01-05T12:00:00.250000Z"));
        // Round trip through the JSON form is exact.
        QVERIFY(rd::providerSnapshotFromJson(rd::toJson(s)) == s);

        const auto c = rd::providerSnapshotFromJson(fixture("ours_canceled_no_period.json"));
        QVERIFY(!c.currentPeriod);
        QVERIFY(!c.latestRenewal);
        QCOMPARE(c.providerVersion.value_or(""), std::string("2026-03-01T00:00:00.120000Z"));
        QVERIFY(rd::providerSnapshotFromJson(rd::toJson(c)) == c);
    }

    // Found by fuzzing: a number too large for a double escaped parseUntrustedJson as a
    // nlohmann out_of_range instead of an InputError.
    void numberOverflowIsInputError()
    {
        QFile f(QStringLiteral(RD_FIXTURES_DIR "/snapshots/malformed_number_overflow_fuzz.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        try {
            rd::parseUntrustedJson(std::string_view(bytes.constData(), bytes.size()));
            QFAIL("accepted an out-of-range number");
        } catch (const rd::InputError &e) {
            QCOMPARE(e.field(), std::string("body"));
        }
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("field");
        QTest::newRow("end not after start") << "ours_bad_period.json"
                                             << "currentPeriod.end";
        QTest::newRow("provider status name") << "ours_bad_status.json"
                                              << "status";
        QTest::newRow("missing cancelAtPeriodEnd") << "ours_missing_cancel.json"
                                                   << "cancelAtPeriodEnd";
        QTest::newRow("bad nested renewal") << "ours_bad_latest_renewal.json"
                                            << "latestRenewal.paidAmountMinor";
    }

    void rejects()
    {
        QFETCH(QString, file);
        QFETCH(QString, field);
        try {
            rd::providerSnapshotFromJson(fixture(file));
            QFAIL("accepted an invalid snapshot");
        } catch (const rd::InputError &e) {
            QCOMPARE(QString::fromStdString(e.field()), field);
        }
    }

    void outOfRangeTimestampsInOurForm_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("field");
        QTest::newRow("capturedAt") << "/capturedAt"
                                    << "capturedAt";
        QTest::newRow("currentPeriod.start") << "/currentPeriod/start"
                                             << "currentPeriod.start";
        QTest::newRow("latestRenewal.paidAt") << "/latestRenewal/paidAt"
                                              << "latestRenewal.paidAt";
    }

    void outOfRangeTimestampsInOurForm()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, field);
        auto json = fixture("ours_valid.json");
        const nlohmann::json::json_pointer at(pointer.toStdString());
        QVERIFY(json.contains(at));
        json[at] = "0001-01-01T00:00:00+01:00"; // year 0 in UTC
        try {
            rd::providerSnapshotFromJson(json);
            QFAIL("accepted a timestamp PostgreSQL cannot store");
        } catch (const rd::InputError &e) {
            QCOMPARE(QString::fromStdString(e.field()), field);
            QVERIFY2(std::string(e.what()).find("is outside") != std::string::npos, e.what());
        }
    }

    // #28: Stripe's latest_invoice. An id (as Stripe returns it unless expanded) names the
    // renewal that began the current period; an expanded paid subscription_cycle invoice of the
    // current period is that renewal; a proration names none.
    void stripeLatestInvoice_data()
    {
        QTest::addColumn<QString>("latestInvoice"); // JSON text, empty: absent
        QTest::addColumn<QString>("key"); // latestRenewalKey, empty: none
        QTest::addColumn<bool>("renewal"); // latestRenewal set
        const QString invoice
            = uR"({"object":"invoice","id":"in_feb","subscription":"sub_c","billing_reason":"%1",)"
              uR"("status":"paid","created":1769904000,"amount_paid":2900,"currency":"usd",)"
              uR"("status_transitions":{"paid_at":1769904100},"lines":{"has_more":false,)"
              uR"("data":[{"type":"subscription","proration":false,)"
              uR"("period":{"start":1769904000,"end":1772323200}}]}})"_qs;
        QTest::newRow("an id") << uR"("in_feb")"_qs << u"in_feb"_qs << false;
        QTest::newRow("absent") << QString() << QString() << false;
        QTest::newRow("null") << u"null"_qs << QString() << false;
        QTest::newRow("expanded renewal")
            << invoice.arg(u"subscription_cycle"_qs) << u"in_feb"_qs << true;
        QTest::newRow("expanded proration")
            << invoice.arg(u"subscription_update"_qs) << QString() << false;
    }

    void stripeLatestInvoice()
    {
        QFETCH(QString, latestInvoice);
        QFETCH(QString, key);
        QFETCH(bool, renewal);
        QString text = uR"({"id":"sub_c","object":"subscription","status":"active",)"
                       uR"("cancel_at_period_end":false,"current_period_start":1769904000,)"
                       uR"("current_period_end":1772323200)"_qs;
        if (!latestInvoice.isEmpty())
            text += u",\"latest_invoice\":"_qs + latestInvoice;
        text += u'}';
        const auto s = rd::snapshotFromProviderObject(rd::ProviderKind::Stripe, "stripe-main",
            rd::parseUntrustedJson(text.toStdString()), rd::makeUtc(2026, 2, 2, 9, 0));
        QCOMPARE(QString::fromStdString(s.latestRenewalKey.value_or("")), key);
        QCOMPARE(bool(s.latestRenewal), renewal);
        if (renewal) {
            QCOMPARE(s.latestRenewal->providerRenewalKey, std::string("in_feb"));
            QCOMPARE(s.latestRenewal->paidAmountMinor, 2900);
            QCOMPARE(s.latestRenewal->currency, std::string("USD"));
            QVERIFY(s.latestRenewal->period == *s.currentPeriod);
        }
        // Our JSON form carries it, and reads back the same.
        const auto j = rd::toJson(s);
        QCOMPARE(j.contains("latestRenewalKey"), !key.isEmpty());
        QVERIFY(rd::providerSnapshotFromJson(j) == s);
    }

    // #28 item 29: providerVersion is a string (or null) in our form; a number is refused.
    void providerVersionIsAString()
    {
        auto j = fixture("ours_valid.json");
        j["providerVersion"] = 17;
        try {
            rd::providerSnapshotFromJson(j);
            QFAIL("a numeric providerVersion was accepted");
        } catch (const rd::InputError &e) {
            QCOMPARE(e.field(), std::string("providerVersion"));
        }
        j["providerVersion"] = "17";
        QCOMPARE(rd::providerSnapshotFromJson(j).providerVersion.value_or(""), std::string("17"));
        // A latestRenewalKey that is not latestRenewal's own is refused.
        j["latestRenewalKey"] = "in_other";
        try {
            rd::providerSnapshotFromJson(j);
            QFAIL("a latestRenewalKey other than latestRenewal's was accepted");
        } catch (const rd::InputError &e) {
            QCOMPARE(e.field(), std::string("latestRenewalKey"));
        }
    }

    void fromProviderObject_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("subscription");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("start");
        QTest::addColumn<QString>("end");
        QTest::addColumn<bool>("cancelAtPeriodEnd");
        QTest::addColumn<QString>("version");

        QTest::newRow("stripe pre-basil") << "stripe"
                                          << "stripe_subscription_pre_basil.json"
                                          << "sub_1QxSub0001"
                                          << "active"
                                          << "2026-01-01T00:00:00Z"
                                          << "2026-02-01T00:00:00Z" << true << "";
        QTest::newRow("stripe basil, unpaid") << "stripe"
                                              << "stripe_subscription_basil.json"
                                              << "sub_1QxSub0001"
                                              << "past_due"
                                              << "2026-01-01T00:00:00Z"
                                              << "2026-02-01T00:00:00Z" << false << "";
        QTest::newRow("paddle scheduled cancel")
            << "paddle"
            << "paddle_subscription.json"
            << "sub_01hv8x29kz0t586xy6zn1a62ny"
            << "active"
            << "2026-01-01T00:00:00Z"
            << "2026-02-01T00:00:00Z" << true << "2026-01-10T14:22:05.873422Z";
    }

    void fromProviderObject()
    {
        QFETCH(QString, provider);
        QFETCH(QString, file);
        QFETCH(QString, subscription);
        QFETCH(QString, status);
        QFETCH(QString, start);
        QFETCH(QString, end);
        QFETCH(bool, cancelAtPeriodEnd);
        QFETCH(QString, version);

        const auto kind = rd::providerKindFromString(provider.toStdString());
        QVERIFY(kind);
        const rd::Timestamp captured = rd::makeUtc(2026, 1, 20, 9, 30);
        const auto s = rd::snapshotFromProviderObject(
            *kind, provider.toStdString() + "-main", fixture(file), captured);
        QCOMPARE(QString::fromStdString(s.providerSubscriptionId), subscription);
        QCOMPARE(QString::fromStdString(s.status), status);
        QVERIFY(s.currentPeriod);
        QCOMPARE(QString::fromStdString(rd::formatRfc3339(s.currentPeriod->start)), start);
        QCOMPARE(QString::fromStdString(rd::formatRfc3339(s.currentPeriod->end)), end);
        QCOMPARE(s.cancelAtPeriodEnd, cancelAtPeriodEnd);
        QCOMPARE(QString::fromStdString(s.providerVersion.value_or("")), version);
        QVERIFY(s.capturedAt == captured);
        QVERIFY(!s.latestRenewal);
        QVERIFY(rd::providerSnapshotFromJson(rd::toJson(s)) == s);
    }

    void providerObjectErrors_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("field");
        QTest::newRow("stripe unknown status")
            << "stripe"
            << R"({"id":"sub_1","status":"weird","cancel_at_period_end":false,
                  "current_period_start":1,"current_period_end":2})"
            << "status";
        QTest::newRow("stripe basil item end before start")
            << "stripe"
            << R"({"id":"sub_1","status":"active","cancel_at_period_end":false,"items":{"data":[
                  {"current_period_start":5,"current_period_end":5}]}})"
            << "items.data[0].current_period_end";
        QTest::newRow("paddle period missing end")
            << "paddle"
            << R"({"id":"sub_1","status":"active","current_billing_period":
                  {"starts_at":"2026-01-01T00:00:00Z"}})"
            << "current_billing_period.ends_at";
        // Instants PostgreSQL cannot store are refused here, naming the field.
        QTest::newRow("paddle period start in year 0 (UTC)")
            << "paddle"
            << R"({"id":"sub_1","status":"active","current_billing_period":
                  {"starts_at":"0001-01-01T00:00:00+01:00","ends_at":"2026-01-01T00:00:00Z"}})"
            << "current_billing_period.starts_at";
        QTest::newRow("paddle period end in year 10000 (UTC)")
            << "paddle"
            << R"({"id":"sub_1","status":"active","current_billing_period":
                  {"starts_at":"2026-01-01T00:00:00Z","ends_at":"9999-12-31T23:00:00-01:00"}})"
            << "current_billing_period.ends_at";
        QTest::newRow("stripe period before 1970")
            << "stripe"
            << R"({"id":"sub_1","status":"active","cancel_at_period_end":false,
                  "current_period_start":-62135596801,"current_period_end":2})"
            << "current_period_start";
        QTest::newRow("chargebee not mapped") << "chargebee"
                                              << R"({"id":"x"})"
                                              << "";
    }

    void providerObjectErrors()
    {
        QFETCH(QString, provider);
        QFETCH(QString, json);
        QFETCH(QString, field);
        try {
            rd::snapshotFromProviderObject(*rd::providerKindFromString(provider.toStdString()), "p",
                nlohmann::json::parse(json.toStdString()), rd::Timestamp {});
            QFAIL("accepted an invalid provider object");
        } catch (const rd::InputError &e) {
            QCOMPARE(QString::fromStdString(e.field()), field);
        }
    }
};

QTEST_APPLESS_MAIN(TestProviderSnapshot)
#include "tst_providersnapshot.moc"
