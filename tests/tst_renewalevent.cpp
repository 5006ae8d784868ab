#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/renewal_event.h"

#include <nlohmann/json.hpp>

#include <QtTest>

namespace {

nlohmann::json validEvent()
{
    return nlohmann::json::parse(R"({
        "providerKey": "stripe-main",
        "providerEventId": "evt_1",
        "providerSubscriptionId": "sub_1",
        "providerRenewalKey": "in_1",
        "providerVersion": null,
        "period": {"start": "2026-01-01T00:00:00Z", "end": "2026-02-01T00:00:00Z"},
        "paidAmountMinor": 1999,
        "currency": "usd",
        "paidAt": "2026-01-01T00:05:00.123456Z"
    })");
}

} // namespace

class TestRenewalEvent : public QObject
{
    Q_OBJECT

private slots:
    void parsesAndNormalizes()
    {
        const auto e = rd::renewalEventFromJson(validEvent());
        QCOMPARE(e.currency, std::string("USD"));
        QCOMPARE(e.paidAmountMinor, 1999);
        QVERIFY(!e.providerVersion);
        QCOMPARE(rd::formatRfc3339(e.paidAt), std::string("2026-01-01T00:05:00.123456Z"));
        // The JSON form round-trips exactly.
        QCOMPARE(rd::renewalEventFromJson(rd::toJson(e)), e);
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("patch"); // a JSON merge patch applied to the valid event
        QTest::addColumn<QString>("field");

        QTest::newRow("missing key") << R"({"providerKey": null})"
                                     << "providerKey";
        QTest::newRow("empty renewal key") << R"({"providerRenewalKey": ""})"
                                           << "providerRenewalKey";
        QTest::newRow("numeric subscription") << R"({"providerSubscriptionId": 7})"
                                              << "providerSubscriptionId";
        QTest::newRow("negative amount") << R"({"paidAmountMinor": -1})"
                                         << "paidAmountMinor";
        QTest::newRow("fractional amount") << R"({"paidAmountMinor": 19.99})"
                                           << "paidAmountMinor";
        QTest::newRow("string amount") << R"({"paidAmountMinor": "1999"})"
                                       << "paidAmountMinor";
        QTest::newRow("currency length") << R"({"currency": "usdx"})"
                                         << "currency";
        QTest::newRow("currency digits") << R"({"currency": "us1"})"
                                         << "currency";
        QTest::newRow("bad paidAt") << R"({"paidAt": "yesterday"})"
                                    << "paidAt";
        QTest::newRow("bad period start") << R"({"period": {"start": "2026-01-01"}})"
                                          << "period.start";
        QTest::newRow("missing period end") << R"({"period": {"end": null}})"
                                            << "period.end";
        QTest::newRow("period not object") << R"({"period": 5})"
                                           << "period";
        // Valid RFC 3339 whose UTC instant PostgreSQL cannot store (the audit's exit 70).
        QTest::newRow("paidAt year 0 in UTC") << R"({"paidAt": "0001-01-01T00:00:00+01:00"})"
                                              << "paidAt";
        QTest::newRow("period start year 0") << R"({"period": {"start": "0000-12-31T00:00:00Z"}})"
                                             << "period.start";
        QTest::newRow("period end year 10000")
            << R"({"period": {"end": "9999-12-31T23:30:00-01:00"}})"
            << "period.end";
        QTest::newRow("version number") << R"({"providerVersion": 3})"
                                        << "providerVersion";
    }

    void rejects()
    {
        QFETCH(QString, patch);
        QFETCH(QString, field);
        auto json = validEvent();
        json.merge_patch(nlohmann::json::parse(patch.toStdString()));
        try {
            rd::renewalEventFromJson(json);
            QFAIL("expected an InputError");
        } catch (const rd::InputError &e) {
            QCOMPARE(QString::fromStdString(e.field()), field);
        }
    }

    void outOfRangeSaysWhy()
    {
        auto json = validEvent();
        json["paidAt"] = "0001-01-01T00:00:00+01:00";
        try {
            rd::renewalEventFromJson(json);
            QFAIL("expected an InputError");
        } catch (const rd::InputError &e) {
            QCOMPARE(e.field(), std::string("paidAt"));
            QVERIFY2(std::string(e.what()).find(
                         "is outside 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999Z")
                    != std::string::npos,
                e.what());
        }
        // The first and last storable instants parse (a period near the first: one ending
        // more than 1,827 days after its payment is refused, checkEventBounds).
        json["period"] = {{"start", "0001-01-01T00:00:00Z"}, {"end", "0001-02-01T00:00:00Z"}};
        json["paidAt"] = "0000-12-31T23:00:00-01:00";
        QCOMPARE(rd::renewalEventFromJson(json).paidAt, rd::kMinTimestamp);
        json["paidAt"] = "9999-12-31T23:59:59.999999Z";
        QCOMPARE(rd::renewalEventFromJson(json).paidAt, rd::kMaxTimestamp);
    }

    void missingVersionKeyIsAnError()
    {
        auto json = validEvent();
        json.erase("providerVersion");
        QVERIFY_THROWS_EXCEPTION(rd::InputError, rd::renewalEventFromJson(json));
    }

    void untrustedJson_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("not json") << QByteArray("{nope");
        QTest::newRow("deep") << QByteArray(200, '[') + QByteArray(200, ']');
        QTest::newRow("bad utf8") << QByteArray("{\"a\":\"\xff\xfe\"}");
        QTest::newRow("too big") << QByteArray("\"") + QByteArray(1024 * 1024 + 1, 'a') + "\"";
    }

    void untrustedJson()
    {
        QFETCH(QByteArray, body);
        try {
            rd::parseUntrustedJson(std::string_view(body.constData(), body.size()));
            QFAIL("expected an InputError");
        } catch (const rd::InputError &e) {
            QCOMPARE(QString::fromStdString(e.field()), QString("body"));
        }
    }

    void deepButAllowedJsonParses()
    {
        const std::string body = std::string(10, '[') + std::string(10, ']');
        QVERIFY(rd::parseUntrustedJson(body).is_array());
    }
};

QTEST_GUILESS_MAIN(TestRenewalEvent)
#include "tst_renewalevent.moc"
