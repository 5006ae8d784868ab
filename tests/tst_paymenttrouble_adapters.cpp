// Payment trouble (#41), as the five adapters read it: pure, no database. Each fixture is a
// provider's payload (tests/fixtures/<kind>/payment_trouble_*.json) and the row says what the
// adapter must make of it: the outcome, the subscription, each failed attempt (invoice key,
// number, times, decline code, amount) and the standing with its own time and reason. The
// renewal and money back fixtures around them still normalize as before.

#include "domain/core/adapters/normalization.h"
#include "domain/core/payment_trouble.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <string>

namespace {

QByteArray readFixture(const QString &relative)
{
    QFile f(QStringLiteral(RD_FIXTURES_DIR "/") + relative);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(relative));
    return f.readAll();
}

nlohmann::json orNull(const char *text)
{
    return text ? nlohmann::json(text) : nlohmann::json(nullptr);
}

// One failed attempt in PaymentTrouble's JSON form (payment_trouble.h).
nlohmann::json attempt(const char *invoiceKey, int number, const char *failedAt,
    const char *nextAttemptAt, const char *declineCode, qint64 amountMinor, const char *currency)
{
    return {{"invoiceKey", invoiceKey}, {"attempt", number}, {"failedAt", failedAt},
        {"nextAttemptAt", orNull(nextAttemptAt)}, {"declineCode", orNull(declineCode)},
        {"amountMinor", amountMinor}, {"currency", currency}};
}

nlohmann::json standing(const char *what, const char *observedAt, const char *reason)
{
    return {{"standing", what}, {"observedAt", observedAt}, {"reason", orNull(reason)}};
}

QString trouble(nlohmann::json attempts, nlohmann::json standingFact = nullptr)
{
    return QString::fromStdString(nlohmann::json {{"attempts", std::move(attempts)},
        {"standing",
            std::move(standingFact)}}.dump());
}

QString standingOnly(const char *what, const char *observedAt, const char *reason)
{
    return trouble(nlohmann::json::array(), standing(what, observedAt, reason));
}

} // namespace

class TestPaymentTroubleAdapters : public QObject
{
    Q_OBJECT

private slots:
    void fixtures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("reason");
        // The subscription the result names (empty: none expected).
        QTest::addColumn<QString>("subscription");
        // For "invalid": the JSON path the message must start with. For "payment_trouble":
        // the trouble in its JSON form. Otherwise empty.
        QTest::addColumn<QString>("expected");

        // --- Stripe: event `created` dates everything ---
        QTest::newRow("stripe payment failed, retried (pre-basil)")
            << "stripe/payment_trouble_payment_failed_pre_basil.json"
            << "payment_trouble"
            << "payment_failed"
            << "sub_1QxSub0001"
            << trouble({attempt("in_1QxFail0001", 1, "2026-01-01T01:01:10Z", "2026-01-04T01:01:10Z",
                   nullptr, 2000, "USD")});
        QTest::newRow("stripe payment failed, retries exhausted (basil): also unpaid")
            << "stripe/payment_trouble_payment_failed_exhausted_basil.json"
            << "payment_trouble"
            << "payment_failed"
            << "sub_1QxSub0002"
            << trouble({attempt("in_1QxFail0002", 4, "2026-01-15T01:01:10Z", nullptr, nullptr, 2000,
                           "USD")},
                   standing("unpaid", "2026-01-15T01:01:10Z", "retries_exhausted"));
        QTest::newRow("stripe invoice marked uncollectible")
            << "stripe/payment_trouble_marked_uncollectible.json"
            << "payment_trouble"
            << "provider_standing"
            << "sub_1QxSub0001"
            << standingOnly("unpaid", "2026-01-15T01:01:40Z", "marked_uncollectible");
        QTest::newRow("stripe subscription past due")
            << "stripe/payment_trouble_subscription_past_due.json"
            << "payment_trouble"
            << "provider_standing"
            << "sub_1QxSub0001" << standingOnly("past_due", "2026-01-01T01:01:15Z", nullptr);
        QTest::newRow("stripe subscription active again")
            << "stripe/payment_trouble_subscription_recovered.json"
            << "payment_trouble"
            << "provider_standing"
            << "sub_1QxSub0001"
            << standingOnly("active", "2026-01-05T08:00:00Z", "payment_recovered");
        QTest::newRow("stripe subscription deleted for non-payment")
            << "stripe/payment_trouble_subscription_deleted_not_paid.json"
            << "payment_trouble"
            << "provider_standing"
            << "sub_1QxSub0002" << standingOnly("canceled", "2026-01-15T01:02:10Z", "not_paid");
        QTest::newRow("stripe subscription incomplete")
            << "stripe/payment_trouble_subscription_incomplete.json"
            << "not_a_renewal"
            << "first_invoice"
            << "sub_1QxSub0003"
            << "";
        QTest::newRow("stripe failed invoice of no subscription")
            << "stripe/payment_trouble_not_subscription.json"
            << "not_a_renewal"
            << "manual_invoice"
            << ""
            << "";
        QTest::newRow("stripe attempt_count as string")
            << "stripe/payment_trouble_malformed_attempt_count.json"
            << "invalid"
            << "invalid_payload"
            << "sub_1QxSub0001"
            << "data.object.attempt_count";

        // --- Paddle: event occurred_at; attempts numbered by their created_at ---
        QTest::newRow("paddle two failed payments, listed newest first")
            << "paddle/payment_trouble_payment_failed_two.json"
            << "payment_trouble"
            << "payment_failed"
            << "sub_01hv8x29kz0t586xy6zn1a62ny"
            << trouble({attempt("txn_01hv9pastdue0000000000000", 1, "2026-01-01T00:00:02.871442Z",
                            nullptr, "declined", 2400, "USD"),
                   attempt("txn_01hv9pastdue0000000000000", 2, "2026-01-04T00:00:05.117203Z",
                       nullptr, "insufficient_funds", 2400, "USD")});
        QTest::newRow("paddle transaction past due")
            << "paddle/payment_trouble_transaction_past_due.json"
            << "payment_trouble"
            << "payment_failed"
            << "sub_01hv8x29kz0t586xy6zn1a62ny"
            << trouble({attempt("txn_01hv9pastdue0000000000000", 1, "2026-01-01T00:00:02.871442Z",
                           nullptr, "declined", 2400, "USD")},
                   standing("past_due", "2026-01-01T00:00:06.011024Z", nullptr));
        QTest::newRow("paddle subscription past due")
            << "paddle/payment_trouble_subscription_past_due.json"
            << "payment_trouble"
            << "provider_standing"
            << "sub_01hv8x29kz0t586xy6zn1a62ny"
            << standingOnly("past_due", "2026-01-01T00:00:06.697239Z", nullptr);
        QTest::newRow("paddle subscription updated, active")
            << "paddle/payment_trouble_subscription_updated_active.json"
            << "payment_trouble"
            << "provider_standing"
            << "sub_01hv8x29kz0t586xy6zn1a62ny"
            << standingOnly("active", "2026-01-05T10:00:00.120044Z", nullptr);
        QTest::newRow("paddle subscription canceled")
            << "paddle/payment_trouble_subscription_canceled.json"
            << "payment_trouble"
            << "provider_standing"
            << "sub_01hv8x29kz0t586xy6zn1a62ny"
            << standingOnly("canceled", "2026-01-31T00:00:09.400000Z", nullptr);
        QTest::newRow("paddle checkout payment failed (no subscription)")
            << "paddle/payment_trouble_not_subscription.json"
            << "not_a_renewal"
            << "manual_invoice"
            << ""
            << "";
        QTest::newRow("paddle payment time not RFC 3339")
            << "paddle/payment_trouble_malformed_payment_time.json"
            << "invalid"
            << "invalid_payload"
            << "sub_01hv8x29kz0t586xy6zn1a62ny"
            << "data.payments[0].created_at";

        // --- Chargebee: dunning_attempts[] (counted from 0), event occurred_at ---
        QTest::newRow("chargebee payment failed, dunning in progress")
            << "chargebee/payment_trouble_payment_failed_in_progress.json"
            << "payment_trouble"
            << "payment_failed"
            << "AzZTZgTr8a2Lv1d4Z"
            << trouble({attempt("1052", 1, "2026-01-01T00:02:00Z", "2026-01-04T00:02:05Z", "3001",
                           2900, "USD")},
                   standing("past_due", "2026-01-01T00:02:05Z", nullptr));
        QTest::newRow("chargebee dunning exhausted: three attempts, unpaid")
            << "chargebee/payment_trouble_payment_failed_exhausted.json"
            << "payment_trouble"
            << "payment_failed"
            << "AzZTZgTr8a2Lv1d4Z"
            << trouble(
                   {attempt("1052", 1, "2026-01-01T00:02:00Z", "2026-01-04T00:02:00Z", nullptr,
                        2900, "USD"),
                       attempt("1052", 2, "2026-01-04T00:02:00Z", "2026-01-10T00:02:00Z", nullptr,
                           2900, "USD"),
                       attempt("1052", 3, "2026-01-10T00:02:00Z", nullptr, "3001", 2900, "USD")},
                   standing("unpaid", "2026-01-10T00:02:05Z", "dunning_exhausted"));
        QTest::newRow("chargebee cancelled for non-payment")
            << "chargebee/payment_trouble_subscription_cancelled_not_paid.json"
            << "payment_trouble"
            << "provider_standing"
            << "AzZTZgTr8a2Lv1d4Z" << standingOnly("canceled", "2026-01-10T00:02:10Z", "not_paid");
        QTest::newRow("chargebee one-off invoice failed")
            << "chargebee/payment_trouble_not_subscription.json"
            << "not_a_renewal"
            << "manual_invoice"
            << ""
            << "";

        // --- Recurly: the fetched charge invoice; attempts by created_at ---
        QTest::newRow("recurly renewal invoice past due")
            << "recurly/payment_trouble_past_due.json"
            << "payment_trouble"
            << "payment_failed"
            << "qx6pb4ypdhwl"
            << trouble({attempt("qx6ppastdue2", 1, "2026-01-01T00:00:04Z", nullptr,
                           "insufficient_funds", 2000, "USD")},
                   standing("past_due", "2026-01-01T00:02:11Z", nullptr));
        QTest::newRow("recurly renewal invoice failed: dunning exhausted")
            << "recurly/payment_trouble_failed.json"
            << "payment_trouble"
            << "payment_failed"
            << "qx6pb4ypdhwl"
            << trouble({attempt("qx6ppastdue2", 1, "2026-01-01T00:00:04Z", nullptr,
                            "insufficient_funds", 2000, "USD"),
                           attempt("qx6ppastdue2", 2, "2026-01-08T00:00:05Z", nullptr, "declined",
                               2000, "USD")},
                   standing("unpaid", "2026-01-22T00:00:09Z", "dunning_exhausted"));
        // The invoice tst_adapters knew as "unpaid": past due, no transaction listed.
        QTest::newRow("recurly past due without a transaction")
            << "recurly/unpaid_past_due.json"
            << "payment_trouble"
            << "provider_standing"
            << "qx6pb4ypdhwl" << standingOnly("past_due", "2026-01-01T00:02:11Z", nullptr);

        // --- Lemon Squeezy: the object's own times (events carry none) ---
        QTest::newRow("lemonsqueezy payment failed")
            << "lemonsqueezy/payment_trouble_payment_failed.json"
            << "payment_trouble"
            << "payment_failed"
            << "1042"
            << trouble({attempt("3053", 1, "2026-01-01T00:00:04Z", nullptr, nullptr, 999, "USD")});
        QTest::newRow("lemonsqueezy first invoice failed")
            << "lemonsqueezy/payment_trouble_first_invoice.json"
            << "not_a_renewal"
            << "first_invoice"
            << "1042"
            << "";
        QTest::newRow("lemonsqueezy subscription past due")
            << "lemonsqueezy/payment_trouble_subscription_past_due.json"
            << "payment_trouble"
            << "provider_standing"
            << "1042" << standingOnly("past_due", "2026-01-01T00:00:10Z", nullptr);
        QTest::newRow("lemonsqueezy subscription expired")
            << "lemonsqueezy/payment_trouble_subscription_expired.json"
            << "payment_trouble"
            << "provider_standing"
            << "1042" << standingOnly("canceled", "2026-01-15T00:00:12Z", "expired");

        // --- Unchanged: renewals, money back, other events ---
        QTest::newRow("stripe renewal") << "stripe/renewal_pre_basil.json"
                                        << "renewal"
                                        << "renewal"
                                        << "sub_1QxSub0001"
                                        << "";
        QTest::newRow("stripe refund") << "stripe/refund_created.json"
                                       << "money_movement"
                                       << "refund"
                                       << ""
                                       << "";
        QTest::newRow("stripe other event") << "stripe/other_event_type.json"
                                            << "not_a_renewal"
                                            << "other_event_type"
                                            << ""
                                            << "";
        QTest::newRow("paddle renewal") << "paddle/renewal.json"
                                        << "renewal"
                                        << "renewal"
                                        << "sub_01hv8x29kz0t586xy6zn1a62ny"
                                        << "";
        QTest::newRow("paddle transaction.completed past due") << "paddle/unpaid_past_due.json"
                                                               << "not_a_renewal"
                                                               << "unpaid"
                                                               << "sub_01hv8x29kz0t586xy6zn1a62ny"
                                                               << "";
        QTest::newRow("paddle other event") << "paddle/other_event_type.json"
                                            << "not_a_renewal"
                                            << "other_event_type"
                                            << ""
                                            << "";
        QTest::newRow("chargebee renewal") << "chargebee/renewal_payment_succeeded.json"
                                           << "renewal"
                                           << "renewal"
                                           << "AzZTZgTr8a2Lv1d4Z"
                                           << "";
        QTest::newRow("chargebee refund") << "chargebee/refund_payment_refunded.json"
                                          << "money_movement"
                                          << "refund"
                                          << ""
                                          << "";
        QTest::newRow("recurly renewal") << "recurly/renewal.json"
                                         << "renewal"
                                         << "renewal"
                                         << "qx6pb4ypdhwl"
                                         << "";
        QTest::newRow("lemonsqueezy recovered renewal")
            << "lemonsqueezy/renewal_recovered_needs_snapshot.json"
            << "needs_snapshot"
            << "missing_period"
            << "1042"
            << "";
        QTest::newRow("lemonsqueezy refund") << "lemonsqueezy/refund.json"
                                             << "money_movement"
                                             << "refund"
                                             << ""
                                             << "";
    }

    void fixtures()
    {
        QFETCH(QString, file);
        QFETCH(QString, outcome);
        QFETCH(QString, reason);
        QFETCH(QString, subscription);
        QFETCH(QString, expected);

        const QString providerName = file.section(QLatin1Char('/'), 0, 0);
        const auto kind = rd::providerKindFromString(providerName.toStdString());
        QVERIFY(kind);
        const QByteArray body = readFixture(file);
        const std::string_view raw(body.constData(), static_cast<std::size_t>(body.size()));

        const rd::NormalizeResult n
            = rd::normalizePayload(*kind, providerName.toStdString() + "-main", raw);
        QVERIFY2(QString::fromStdString(rd::toString(n.outcome)) == outcome, n.message.c_str());
        QCOMPARE(QString::fromStdString(n.reason), reason);
        QVERIFY(!n.message.empty());
        QVERIFY(!n.providerEventId.empty());
        QVERIFY(!rd::toJson(n).dump().empty());
        if (!subscription.isEmpty())
            QCOMPARE(QString::fromStdString(n.providerSubscriptionId), subscription);

        if (outcome == QLatin1String("invalid")) {
            QVERIFY(!n.trouble);
            QVERIFY2(QString::fromStdString(n.message).startsWith(expected + QLatin1Char(':')),
                n.message.c_str());
            return;
        }
        if (outcome != QLatin1String("payment_trouble")) {
            QVERIFY(!n.trouble);
            return;
        }
        QVERIFY(n.trouble);
        QVERIFY(!n.event);
        QVERIFY(n.movements.empty());
        const nlohmann::json want = nlohmann::json::parse(expected.toStdString());
        QCOMPARE(QString::fromStdString(rd::toJson(*n.trouble).dump(2)),
            QString::fromStdString(want.dump(2)));
    }

    // A redelivery of the same bytes tells the same trouble, and the same attempt told by two
    // events is the same attempt: Paddle's transaction.past_due and the later payment_failed
    // number the first failed payment alike.
    void sameAttemptTwoEvents()
    {
        const auto read = [](const char *file) {
            const QByteArray body = readFixture(QString::fromLatin1(file));
            return rd::normalizePayload(rd::ProviderKind::Paddle, "paddle-main",
                std::string_view(body.constData(), static_cast<std::size_t>(body.size())));
        };
        const rd::NormalizeResult pastDue
            = read("paddle/payment_trouble_transaction_past_due.json");
        const rd::NormalizeResult failed = read("paddle/payment_trouble_payment_failed_two.json");
        QVERIFY(pastDue.trouble && failed.trouble);
        QCOMPARE(pastDue.trouble->attempts.size(), std::size_t(1));
        QCOMPARE(failed.trouble->attempts.size(), std::size_t(2));
        QVERIFY(pastDue.trouble->attempts.front() == failed.trouble->attempts.front());
        QVERIFY(
            *read("paddle/payment_trouble_transaction_past_due.json").trouble == *pastDue.trouble);
    }
};

QTEST_APPLESS_MAIN(TestPaymentTroubleAdapters)
#include "tst_paymenttrouble_adapters.moc"
