#include "domain/core/adapters/normalization.h"
#include "domain/core/json_input.h"
#include "domain/core/renewal_event.h"

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

// The expected normalized event, in the JSON form; "<derived>" stands for the body's hash.
QString renewal(const char *eventId, const char *subscription, const char *key, const char *version,
    const char *start, const char *end, qint64 amount, const char *currency, const char *paidAt)
{
    nlohmann::json e = {{"providerEventId", eventId}, {"providerSubscriptionId", subscription},
        {"providerRenewalKey", key},
        {"providerVersion", version ? nlohmann::json(version) : nlohmann::json(nullptr)},
        {"period", {{"start", start}, {"end", end}}}, {"paidAmountMinor", amount},
        {"currency", currency}, {"paidAt", paidAt}};
    return QString::fromStdString(e.dump());
}

// A renewal of the Stripe fixtures before API 2025-03-31: its invoice names its charge and
// payment intent, which the renewal keeps for the refunds to come (#40).
QString withStripeRefs(const QString &renewalJson)
{
    nlohmann::json e = nlohmann::json::parse(renewalJson.toStdString());
    e["paymentRefs"] = {"ch_3QxCharge0001", "pi_3QxPay0001"};
    return QString::fromStdString(e.dump());
}

constexpr const char *kJan1 = "2026-01-01T00:00:00Z";
constexpr const char *kFeb1 = "2026-02-01T00:00:00Z";

} // namespace

class TestAdapters : public QObject
{
    Q_OBJECT

private slots:
    void fixtures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("reason");
        // For "invalid": the JSON path the message must start with. Otherwise the expected
        // event in JSON form (without providerKey), or empty for none.
        QTest::addColumn<QString>("expected");

        // --- Stripe ---
        QTest::newRow("stripe renewal pre-basil")
            << "stripe/renewal_pre_basil.json"
            << "renewal"
            << "renewal"
            << withStripeRefs(renewal("evt_1QxRenew0001", "sub_1QxSub0001", "in_1QxRenew0001",
                   nullptr, kJan1, kFeb1, 2000, "USD", "2026-01-01T01:01:00Z"));
        QTest::newRow("stripe renewal basil")
            << "stripe/renewal_basil.json"
            << "renewal"
            << "renewal"
            << renewal("evt_1QxRenew0002", "sub_1QxSub0001", "in_1QxRenew0002", nullptr, kJan1,
                   kFeb1, 2000, "USD", "2026-01-01T01:01:00Z");
        QTest::newRow("stripe payment_succeeded, paidAt from event")
            << "stripe/renewal_payment_succeeded_no_paid_at.json"
            << "renewal"
            << "renewal"
            << withStripeRefs(renewal("evt_1QxRenew0003", "sub_1QxSub0001", "in_1QxRenew0003",
                   nullptr, kJan1, kFeb1, 2000, "USD", "2026-01-01T01:01:10Z"));
        QTest::newRow("stripe renewal with proration lines")
            << "stripe/renewal_with_proration_lines.json"
            << "renewal"
            << "renewal"
            << withStripeRefs(renewal("evt_1QxRenew0004", "sub_1QxSub0001", "in_1QxRenew0004",
                   nullptr, kJan1, kFeb1, 3500, "USD", "2026-01-01T01:01:00Z"));
        QTest::newRow("stripe renewal with proration lines basil")
            << "stripe/renewal_with_proration_lines_basil.json"
            << "renewal"
            << "renewal"
            << renewal("evt_1QxRenew0005", "sub_1QxSub0001", "in_1QxRenew0005", nullptr, kJan1,
                   kFeb1, 3500, "USD", "2026-01-01T01:01:00Z");
        QTest::newRow("stripe renewal JPY")
            << "stripe/renewal_jpy.json"
            << "renewal"
            << "renewal"
            << withStripeRefs(renewal("evt_1QxRenewJpy1", "sub_1QxSub0001", "in_1QxRenewJpy1",
                   nullptr, kJan1, kFeb1, 1500, "JPY", "2026-01-01T01:01:00Z"));
        // A metered price bills the period just ended, in arrears: that line's period is no
        // period being renewed into. Alone on the invoice, the renewal needs its subscription
        // fetched (pre-basil carries usage_type, basil does not: told by time, not by type).
        QTest::newRow("stripe metered only (in arrears)")
            << "stripe/renewal_metered_only.json"
            << "needs_snapshot"
            << "missing_period"
            << withStripeRefs(renewal("evt_1QxMetered01", "sub_1QxSubMtr01", "in_1QxMetered01",
                   nullptr, "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", 1234, "USD",
                   "2026-01-01T01:01:00Z"));
        QTest::newRow("stripe metered only basil (in arrears)")
            << "stripe/renewal_metered_only_basil.json"
            << "needs_snapshot"
            << "missing_period"
            << renewal("evt_1QxMetered02", "sub_1QxSubMtr01", "in_1QxMetered02", nullptr,
                   "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", 1234, "USD",
                   "2026-01-01T01:01:00Z");
        // #39, 14: the subscription lines on a later page of lines (lines.has_more): a paid
        // renewal whose period the payload lacks, with its event, so that a case is opened.
        QTest::newRow("stripe subscription lines on a later page")
            << "stripe/renewal_lines_on_later_page.json"
            << "needs_snapshot"
            << "missing_period"
            << withStripeRefs(renewal("evt_1QxMoreLines1", "sub_1QxSubMtr01", "in_1QxMoreLines1",
                   nullptr, "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", 4500, "USD",
                   "2026-01-01T01:01:00Z"));
        // #39, 15: invoices that carry both parent and subscription are read (a webhook by its
        // api_version; a statement by the keys, tst_statement's invoicesWithBothShapesKeys).
        QTest::newRow("stripe parent and subscription naming the same one")
            << "stripe/renewal_parent_and_subscription.json"
            << "renewal"
            << "renewal"
            << renewal("evt_1QxBothKeys01", "sub_1QxSub0001", "in_1QxBothKeys01", nullptr, kJan1,
                   kFeb1, 2000, "USD", "2026-01-01T01:01:00Z");
        QTest::newRow("stripe parent and subscription both null")
            << "stripe/manual_invoice_parent_and_subscription_null.json"
            << "not_a_renewal"
            << "manual_invoice"
            << "";
        // Next to a licensed line (billed in advance), the licensed line's period is renewed
        // into; the usage counts in the amount.
        QTest::newRow("stripe metered and licensed")
            << "stripe/renewal_metered_and_licensed.json"
            << "renewal"
            << "renewal"
            << withStripeRefs(renewal("evt_1QxMetered03", "sub_1QxSubMtr01", "in_1QxMetered03",
                   nullptr, kJan1, kFeb1, 3234, "USD", "2026-01-01T01:01:00Z"));
        QTest::newRow("stripe metered and licensed basil")
            << "stripe/renewal_metered_and_licensed_basil.json"
            << "renewal"
            << "renewal"
            << renewal("evt_1QxMetered04", "sub_1QxSubMtr01", "in_1QxMetered04", nullptr, kJan1,
                   kFeb1, 3234, "USD", "2026-01-01T01:01:00Z");
        QTest::newRow("stripe first invoice") << "stripe/first_invoice.json"
                                              << "not_a_renewal"
                                              << "first_invoice"
                                              << "";
        QTest::newRow("stripe proration invoice") << "stripe/proration_invoice.json"
                                                  << "not_a_renewal"
                                                  << "proration"
                                                  << "";
        QTest::newRow("stripe manual invoice") << "stripe/manual_invoice_basil.json"
                                               << "not_a_renewal"
                                               << "manual_invoice"
                                               << "";
        QTest::newRow("stripe unpaid") << "stripe/unpaid.json"
                                       << "not_a_renewal"
                                       << "unpaid"
                                       << "";
        QTest::newRow("stripe refund") << "stripe/refund_charge_refunded.json"
                                       << "not_a_renewal"
                                       << "refund"
                                       << "";
        QTest::newRow("stripe other event") << "stripe/other_event_type.json"
                                            << "not_a_renewal"
                                            << "other_event_type"
                                            << "";
        QTest::newRow("stripe missing period end") << "stripe/malformed_missing_period_end.json"
                                                   << "invalid"
                                                   << "invalid_payload"
                                                   << "data.object.lines.data[0].period.end";
        QTest::newRow("stripe end before start") << "stripe/malformed_end_before_start.json"
                                                 << "invalid"
                                                 << "invalid_payload"
                                                 << "data.object.lines.data[0].period.end";
        QTest::newRow("stripe amount as string") << "stripe/malformed_amount_string.json"
                                                 << "invalid"
                                                 << "invalid_payload"
                                                 << "data.object.amount_paid";
        QTest::newRow("stripe basil cycle without subscription")
            << "stripe/malformed_basil_cycle_without_subscription.json"
            << "invalid"
            << "invalid_payload"
            << "data.object.parent.subscription_details.subscription";
        QTest::newRow("stripe period start as string")
            << "stripe/malformed_period_start_string.json"
            << "invalid"
            << "invalid_payload"
            << "data.object.lines.data[0].period.start";
        QTest::newRow("stripe not JSON") << "stripe/malformed_not_json.json"
                                         << "invalid"
                                         << "invalid_payload"
                                         << "body";

        // --- Paddle ---
        QTest::newRow("paddle renewal")
            << "paddle/renewal.json"
            << "renewal"
            << "renewal"
            << renewal("evt_01hv8wqbpx5bc6c3f1d0kyqk1a", "sub_01hv8x29kz0t586xy6zn1a62ny",
                   "txn_01hv8wptq8987qeep44cyrewp9", nullptr, kJan1, kFeb1, 2400, "USD",
                   "2026-01-01T00:00:04.120775Z");
        QTest::newRow("paddle renewal JPY")
            << "paddle/renewal_jpy.json"
            << "renewal"
            << "renewal"
            << renewal("evt_01hv9jpy00000000000000000a", "sub_01hv8x29kz0t586xy6zn1a62ny",
                   "txn_01hv9jpy00000000000000000a", nullptr, kJan1, kFeb1, 1500, "JPY",
                   "2026-01-01T00:00:04.120775Z");
        QTest::newRow("paddle renewal without payments")
            << "paddle/renewal_no_payments.json"
            << "renewal"
            << "renewal"
            << renewal("evt_01hv9nocapture000000000000b", "sub_01hv8x29kz0t586xy6zn1a62ny",
                   "txn_01hv9nocapture000000000000b", nullptr, kJan1, kFeb1, 2400, "USD",
                   "2026-01-01T00:00:06.011024Z");
        QTest::newRow("paddle first purchase") << "paddle/first_invoice_web.json"
                                               << "not_a_renewal"
                                               << "first_invoice"
                                               << "";
        QTest::newRow("paddle proration") << "paddle/proration_subscription_update.json"
                                          << "not_a_renewal"
                                          << "proration"
                                          << "";
        QTest::newRow("paddle one-time charge") << "paddle/one_time_charge.json"
                                                << "not_a_renewal"
                                                << "manual_invoice"
                                                << "";
        QTest::newRow("paddle past due") << "paddle/unpaid_past_due.json"
                                         << "not_a_renewal"
                                         << "unpaid"
                                         << "";
        QTest::newRow("paddle refund") << "paddle/refund_adjustment.json"
                                       << "not_a_renewal"
                                       << "refund"
                                       << "";
        QTest::newRow("paddle other event") << "paddle/other_event_type.json"
                                            << "not_a_renewal"
                                            << "other_event_type"
                                            << "";
        QTest::newRow("paddle missing subscription")
            << "paddle/malformed_missing_subscription_id.json"
            << "invalid"
            << "invalid_payload"
            << "data.subscription_id";
        QTest::newRow("paddle end before start") << "paddle/malformed_end_before_start.json"
                                                 << "invalid"
                                                 << "invalid_payload"
                                                 << "data.billing_period.ends_at";
        QTest::newRow("paddle amount as number") << "paddle/malformed_amount_number.json"
                                                 << "invalid"
                                                 << "invalid_payload"
                                                 << "data.details.totals.grand_total";
        QTest::newRow("paddle missing period") << "paddle/malformed_missing_period.json"
                                               << "invalid"
                                               << "invalid_payload"
                                               << "data.billing_period";
        QTest::newRow("paddle number overflow (fuzz)") << "paddle/malformed_number_overflow.json"
                                                       << "invalid"
                                                       << "invalid_payload"
                                                       << "body";
        QTest::newRow("paddle not JSON") << "paddle/malformed_not_json.json"
                                         << "invalid"
                                         << "invalid_payload"
                                         << "body";

        // --- Chargebee ---
        QTest::newRow("chargebee subscription_renewed paid")
            << "chargebee/renewal_subscription_renewed.json"
            << "renewal"
            << "renewal"
            << renewal("ev_AzZTZgTr8a2Lx1d51", "AzZTZgTr8a2Lv1d4Z", "1043", "1767225720417", kJan1,
                   kFeb1, 2900, "USD", "2026-01-01T00:02:00Z");
        QTest::newRow("chargebee payment_succeeded")
            << "chargebee/renewal_payment_succeeded.json"
            << "renewal"
            << "renewal"
            << renewal("ev_AzZTZgTr8a2Lx1d99", "AzZTZgTr8a2Lv1d4Z", "1044", "1767225720417", kJan1,
                   kFeb1, 2900, "USD", "2026-01-01T00:02:00Z");
        QTest::newRow("chargebee renewal with prorated add-on line")
            << "chargebee/renewal_with_proration_lines.json"
            << "renewal"
            << "renewal"
            << renewal("ev_AzZTZgTr8a2Lx1e00", "AzZTZgTr8a2Lv1d4Z", "1045", "1767225720417", kJan1,
                   kFeb1, 3200, "USD", "2026-01-01T00:02:00Z");
        QTest::newRow("chargebee renewal KWD")
            << "chargebee/renewal_kwd.json"
            << "renewal"
            << "renewal"
            << renewal("ev_AzZTZgTr8a2Lx1e01", "AzZTZgTr8a2Lv1d4Z", "1046", "1767225720417", kJan1,
                   kFeb1, 9250, "KWD", "2026-01-01T00:02:00Z");
        QTest::newRow("chargebee first invoice") << "chargebee/first_invoice.json"
                                                 << "not_a_renewal"
                                                 << "first_invoice"
                                                 << "";
        QTest::newRow("chargebee mid-term proration") << "chargebee/proration_mid_term.json"
                                                      << "not_a_renewal"
                                                      << "proration"
                                                      << "";
        QTest::newRow("chargebee one-off invoice") << "chargebee/manual_invoice.json"
                                                   << "not_a_renewal"
                                                   << "manual_invoice"
                                                   << "";
        QTest::newRow("chargebee renewed but payment due") << "chargebee/unpaid_payment_due.json"
                                                           << "not_a_renewal"
                                                           << "unpaid"
                                                           << "";
        QTest::newRow("chargebee credit note") << "chargebee/refund_credit_note.json"
                                               << "not_a_renewal"
                                               << "credit_note"
                                               << "";
        QTest::newRow("chargebee other event") << "chargebee/other_event_type.json"
                                               << "not_a_renewal"
                                               << "other_event_type"
                                               << "";
        QTest::newRow("chargebee missing period") << "chargebee/malformed_missing_period.json"
                                                  << "invalid"
                                                  << "invalid_payload"
                                                  << "content.invoice.line_items[0].date_to";
        QTest::newRow("chargebee end equals start") << "chargebee/malformed_end_before_start.json"
                                                    << "invalid"
                                                    << "invalid_payload"
                                                    << "content.invoice.line_items[0].date_to";
        QTest::newRow("chargebee amount as string") << "chargebee/malformed_amount_string.json"
                                                    << "invalid"
                                                    << "invalid_payload"
                                                    << "content.invoice.amount_paid";
        QTest::newRow("chargebee empty body") << "chargebee/malformed_not_json.json"
                                              << "invalid"
                                              << "invalid_payload"
                                              << "body";

        // --- Recurly ---
        QTest::newRow("recurly renewal")
            << "recurly/renewal.json"
            << "renewal"
            << "renewal"
            << renewal("<derived>", "qx6pb4ypdhwl", "qx6pel8cxbcm", nullptr, kJan1, kFeb1, 2000,
                   "USD", "2026-01-01T00:02:11Z");
        QTest::newRow("recurly renewal KWD string amount")
            << "recurly/renewal_kwd_string_amount.json"
            << "renewal"
            << "renewal"
            << renewal("<derived>", "qx6pb4ypdhwl", "qx6pkwd00001", nullptr, kJan1, kFeb1, 12125,
                   "KWD", "2026-01-01T00:02:11Z");
        QTest::newRow("recurly renewal KWD number amount")
            << "recurly/renewal_kwd_number_amount.json"
            << "renewal"
            << "renewal"
            << renewal("<derived>", "qx6pb4ypdhwl", "qx6pkwd00002", nullptr, kJan1, kFeb1, 12125,
                   "KWD", "2026-01-01T00:02:11Z");
        QTest::newRow("recurly renewal JPY")
            << "recurly/renewal_jpy.json"
            << "renewal"
            << "renewal"
            << renewal("<derived>", "qx6pb4ypdhwl", "qx6pjpy00001", nullptr, kJan1, kFeb1, 1500,
                   "JPY", "2026-01-01T00:02:11Z");
        QTest::newRow("recurly renewal with proration line")
            << "recurly/renewal_with_proration_lines.json"
            << "renewal"
            << "renewal"
            << renewal("<derived>", "qx6pb4ypdhwl", "qx6prenprora", nullptr, kJan1, kFeb1, 2500,
                   "USD", "2026-01-01T00:02:11Z");
        QTest::newRow("recurly purchase") << "recurly/first_invoice_purchase.json"
                                          << "not_a_renewal"
                                          << "first_invoice"
                                          << "";
        QTest::newRow("recurly immediate change") << "recurly/proration_immediate_change.json"
                                                  << "not_a_renewal"
                                                  << "proration"
                                                  << "";
        // Payment trouble since #41: a past-due renewal invoice is the provider's standing.
        QTest::newRow("recurly past due") << "recurly/unpaid_past_due.json"
                                          << "payment_trouble"
                                          << "provider_standing"
                                          << "";
        QTest::newRow("recurly refund") << "recurly/refund_credit_invoice.json"
                                        << "not_a_renewal"
                                        << "credit_note"
                                        << "";
        QTest::newRow("recurly other origin") << "recurly/other_origin_prepayment.json"
                                              << "not_a_renewal"
                                              << "other_billing_reason"
                                              << "";
        QTest::newRow("recurly missing period") << "recurly/malformed_missing_period.json"
                                                << "invalid"
                                                << "invalid_payload"
                                                << "line_items.data[0].end_date";
        QTest::newRow("recurly end before start") << "recurly/malformed_end_before_start.json"
                                                  << "invalid"
                                                  << "invalid_payload"
                                                  << "line_items.data[0].end_date";
        QTest::newRow("recurly amount too precise") << "recurly/malformed_amount_too_precise.json"
                                                    << "invalid"
                                                    << "invalid_payload"
                                                    << "paid";
        // As a double this number is exactly 20.0; its text says otherwise, and the text wins.
        QTest::newRow("recurly number amount too precise")
            << "recurly/malformed_amount_number_too_precise.json"
            << "invalid"
            << "invalid_payload"
            << "paid";
        QTest::newRow("recurly amount boolean") << "recurly/malformed_amount_bool.json"
                                                << "invalid"
                                                << "invalid_payload"
                                                << "paid";
        // Found by fuzzing: the parse error quoted raw invalid UTF-8, and the NormalizeResult
        // could then not be serialized.
        QTest::newRow("recurly invalid UTF-8 (fuzz)") << "recurly/malformed_invalid_utf8_fuzz.json"
                                                      << "invalid"
                                                      << "invalid_payload"
                                                      << "body";
        QTest::newRow("recurly XML") << "recurly/malformed_not_json.json"
                                     << "invalid"
                                     << "invalid_payload"
                                     << "body";

        // --- Lemon Squeezy ---
        QTest::newRow("lemonsqueezy renewal")
            << "lemonsqueezy/renewal_needs_snapshot.json"
            << "needs_snapshot"
            << "missing_period"
            << renewal("<derived>", "1042", "3051", nullptr, "1970-01-01T00:00:00Z",
                   "1970-01-01T00:00:00Z", 999, "USD", "2026-01-01T00:00:04Z");
        QTest::newRow("lemonsqueezy recovered renewal")
            << "lemonsqueezy/renewal_recovered_needs_snapshot.json"
            << "needs_snapshot"
            << "missing_period"
            << renewal("<derived>", "1042", "3052", nullptr, "1970-01-01T00:00:00Z",
                   "1970-01-01T00:00:00Z", 999, "USD", "2026-01-01T00:00:04Z");
        QTest::newRow("lemonsqueezy initial") << "lemonsqueezy/first_invoice_initial.json"
                                              << "not_a_renewal"
                                              << "first_invoice"
                                              << "";
        QTest::newRow("lemonsqueezy updated") << "lemonsqueezy/proration_updated.json"
                                              << "not_a_renewal"
                                              << "proration"
                                              << "";
        QTest::newRow("lemonsqueezy pending") << "lemonsqueezy/unpaid_pending.json"
                                              << "not_a_renewal"
                                              << "unpaid"
                                              << "";
        QTest::newRow("lemonsqueezy refund") << "lemonsqueezy/refund.json"
                                             << "money_movement"
                                             << "refund"
                                             << "";
        QTest::newRow("lemonsqueezy other event") << "lemonsqueezy/other_event_type.json"
                                                  << "not_a_renewal"
                                                  << "other_event_type"
                                                  << "";
        QTest::newRow("lemonsqueezy amount as string")
            << "lemonsqueezy/malformed_amount_string.json"
            << "invalid"
            << "invalid_payload"
            << "data.attributes.total";
        QTest::newRow("lemonsqueezy missing subscription")
            << "lemonsqueezy/malformed_missing_subscription_id.json"
            << "invalid"
            << "invalid_payload"
            << "data.attributes.subscription_id";
        QTest::newRow("lemonsqueezy not JSON") << "lemonsqueezy/malformed_not_json.json"
                                               << "invalid"
                                               << "invalid_payload"
                                               << "body";
    }

    void fixtures()
    {
        QFETCH(QString, file);
        QFETCH(QString, outcome);
        QFETCH(QString, reason);
        QFETCH(QString, expected);

        const QString providerName = file.section(QLatin1Char('/'), 0, 0);
        const auto kind = rd::providerKindFromString(providerName.toStdString());
        QVERIFY(kind);
        const std::string providerKey = providerName.toStdString() + "-main";
        const QByteArray body = readFixture(file);
        const std::string_view raw(body.constData(), static_cast<std::size_t>(body.size()));

        const rd::NormalizeResult n = rd::normalizePayload(*kind, providerKey, raw);
        QCOMPARE(QString::fromStdString(rd::toString(n.outcome)), outcome);
        QCOMPARE(QString::fromStdString(n.reason), reason);
        QVERIFY(!n.message.empty());
        // Whatever the outcome, it can be stored as JSON.
        QVERIFY(!rd::toJson(n).dump().empty());

        const bool derived
            = *kind == rd::ProviderKind::Recurly || *kind == rd::ProviderKind::LemonSqueezy;
        QCOMPARE(n.eventIdDerived, derived);
        const std::string derivedId = "sha256:"
            + QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex().toStdString();
        if (derived)
            QCOMPARE(n.providerEventId, derivedId);

        if (outcome == QLatin1String("invalid")) {
            QVERIFY(!n.event);
            QVERIFY2(QString::fromStdString(n.message).startsWith(expected + QLatin1Char(':')),
                n.message.c_str());
            return;
        }
        QVERIFY(!n.providerEventId.empty());
        if (expected.isEmpty()) {
            QVERIFY(!n.event);
            return;
        }
        QVERIFY(n.event);
        nlohmann::json want = nlohmann::json::parse(expected.toStdString());
        want["providerKey"] = providerKey;
        if (want["providerEventId"] == "<derived>")
            want["providerEventId"] = derivedId;
        const nlohmann::json got = rd::toJson(*n.event);
        QCOMPARE(QString::fromStdString(got.dump(2)), QString::fromStdString(want.dump(2)));
        QCOMPARE(n.providerEventId, n.event->providerEventId);
        QCOMPARE(n.providerSubscriptionId, n.event->providerSubscriptionId);
        if (n.outcome == rd::NormalizeOutcome::Renewal) {
            // What the core receives survives its own strict parser unchanged.
            QCOMPARE(rd::renewalEventFromJson(got), *n.event);
            QVERIFY(n.event->period.start < n.event->period.end);
        }
    }

    // A timestamp PostgreSQL could not store (year 0 in UTC, or beyond 9999) is an invalid
    // payload naming the field, never a renewal that fails later in the database.
    void outOfRangeTimestampsAreInvalid_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("pointer"); // JSON pointer of the field replaced
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("field"); // the path the message starts with
        const QString yearZero = "0001-01-01T00:00:00+01:00";
        const QString year10000 = "9999-12-31T23:00:00-01:00";
        QTest::newRow("paddle period start in year 0")
            << "paddle/renewal.json"
            << "/data/billing_period/starts_at" << yearZero << "data.billing_period.starts_at";
        QTest::newRow("paddle period end in year 10000")
            << "paddle/renewal.json"
            << "/data/billing_period/ends_at" << year10000 << "data.billing_period.ends_at";
        QTest::newRow("paddle captured_at in year 0")
            << "paddle/renewal.json"
            << "/data/payments/0/captured_at" << yearZero << "data.payments[0].captured_at";
        QTest::newRow("recurly line end in year 10000")
            << "recurly/renewal.json"
            << "/line_items/data/0/end_date" << year10000 << "line_items.data[0].end_date";
        QTest::newRow("recurly closed_at in year 0") << "recurly/renewal.json"
                                                     << "/closed_at" << yearZero << "closed_at";
        QTest::newRow("lemonsqueezy created_at in year 0")
            << "lemonsqueezy/renewal_needs_snapshot.json"
            << "/data/attributes/created_at" << yearZero << "data.attributes.created_at";
    }

    void outOfRangeTimestampsAreInvalid()
    {
        QFETCH(QString, file);
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, field);
        auto json = nlohmann::json::parse(readFixture(file).toStdString());
        const nlohmann::json::json_pointer at(pointer.toStdString());
        QVERIFY(json.contains(at));
        json[at] = value.toStdString();
        const std::string body = json.dump();
        const auto kind = rd::providerKindFromString(file.section('/', 0, 0).toStdString());
        QVERIFY(kind);
        const rd::NormalizeResult n = rd::normalizePayload(*kind, "p", body);
        QCOMPARE(rd::toString(n.outcome), std::string("invalid"));
        QVERIFY(!n.event);
        QVERIFY2(
            QString::fromStdString(n.message).startsWith(field + ": '" + value + "' is outside"),
            n.message.c_str());
    }

    // #39, items 6 and 11: an amount above 10^12 minor units, a period longer than 1,827 days
    // or ending more than 1,827 days after its payment is an invalid payload naming the field,
    // whichever adapter read it; the bound itself is accepted.
    void amountsAndPeriodsAreBounded_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("patch"); // a JSON object of pointer -> value
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("message"); // what an invalid one's message starts with
        QTest::newRow("stripe 10^12 minor units") << "stripe/renewal_pre_basil.json"
                                                  << R"({"/data/object/amount_paid":1000000000000})"
                                                  << "renewal"
                                                  << "";
        QTest::newRow("stripe one more")
            << "stripe/renewal_pre_basil.json"
            << R"({"/data/object/amount_paid":1000000000001})"
            << "invalid"
            << "paidAmountMinor: 1000000000001 minor units is more than any payment";
        QTest::newRow("stripe 2^63 - 1") << "stripe/renewal_pre_basil.json"
                                         << R"({"/data/object/amount_paid":9223372036854775807})"
                                         << "invalid"
                                         << "paidAmountMinor: 9223372036854775807 minor units";
        QTest::newRow("chargebee one more") << "chargebee/renewal_subscription_renewed.json"
                                            << R"({"/content/invoice/amount_paid":1000000000001})"
                                            << "invalid"
                                            << "paidAmountMinor: ";
        QTest::newRow("paddle one more")
            << "paddle/renewal.json"
            << R"({"/data/details/totals/grand_total":"1000000000001"})"
            << "invalid"
            << "paidAmountMinor: ";
        // 2026-01-01 + 1,827 days = 2031-01-02.
        QTest::newRow("stripe 1827 days")
            << "stripe/renewal_pre_basil.json"
            << R"({"/data/object/lines/data/0/period/end":1925078400})"
            << "renewal"
            << "";
        QTest::newRow("stripe 1828 days")
            << "stripe/renewal_pre_basil.json"
            << R"({"/data/object/lines/data/0/period/end":1925164800})"
            << "invalid"
            << "period: from 2026-01-01T00:00:00Z to 2031-01-03T00:00:00Z is longer than any plan";
        QTest::newRow("stripe ending 9999-12-31")
            << "stripe/renewal_pre_basil.json"
            << R"({"/data/object/lines/data/0/period/end":253402214400})"
            << "invalid"
            << "period: ";
        QTest::newRow("stripe a month, six years on")
            << "stripe/renewal_pre_basil.json"
            << R"({"/data/object/lines/data/0/period/start":1956614400,)"
               R"("/data/object/lines/data/0/period/end":1959292800})"
            << "invalid"
            << "period.end: 2032-02-02T00:00:00Z is more than 1827 days after the payment";
        QTest::newRow("paddle ending 9999-12-30")
            << "paddle/renewal.json"
            << R"({"/data/billing_period/ends_at":"9999-12-30T00:00:00Z"})"
            << "invalid"
            << "period: ";
    }

    void amountsAndPeriodsAreBounded()
    {
        QFETCH(QString, file);
        QFETCH(QString, patch);
        QFETCH(QString, outcome);
        QFETCH(QString, message);
        auto json = nlohmann::json::parse(readFixture(file).toStdString());
        const auto patches = nlohmann::json::parse(patch.toStdString());
        for (const auto &[pointer, value] : patches.items()) {
            const nlohmann::json::json_pointer at(pointer);
            QVERIFY2(json.contains(at), pointer.c_str());
            json[at] = value;
        }
        const auto kind = rd::providerKindFromString(file.section('/', 0, 0).toStdString());
        QVERIFY(kind);
        const rd::NormalizeResult n = rd::normalizePayload(*kind, "p", json.dump());
        QCOMPARE(QString::fromStdString(rd::toString(n.outcome)), outcome);
        if (outcome == "invalid") {
            QVERIFY(!n.event);
            QVERIFY2(QString::fromStdString(n.message).startsWith(message), n.message.c_str());
        }
    }

    // Every identifier an adapter reads is bounded at kMaxIdentifierBytes (255) bytes of
    // UTF-8: one byte more is an invalid payload naming the field (a renewal key the database
    // cannot index used to fail there, answered 503 for ever); exactly 255 is accepted and
    // carried unchanged. Made of two-byte characters, so that characters are not counted.
    void identifiersAreBounded_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("pointer"); // JSON pointer of the identifier replaced
        QTest::addColumn<QString>("field"); // the path an over-long one's message starts with
        const auto row = [](const char *file, const char *pointer, const char *field) {
            QTest::addRow("%s %s", file, pointer) << file << pointer << field;
        };
        row("stripe/renewal_pre_basil.json", "/id", "id");
        row("stripe/renewal_pre_basil.json", "/data/object/id", "data.object.id");
        row("stripe/renewal_pre_basil.json", "/data/object/subscription",
            "data.object.subscription");
        row("stripe/renewal_basil.json", "/data/object/parent/subscription_details/subscription",
            "data.object.parent.subscription_details.subscription");
        row("paddle/renewal.json", "/event_id", "event_id");
        row("paddle/renewal.json", "/data/id", "data.id");
        row("paddle/renewal.json", "/data/subscription_id", "data.subscription_id");
        row("chargebee/renewal_subscription_renewed.json", "/id", "id");
        row("chargebee/renewal_subscription_renewed.json", "/content/invoice/id",
            "content.invoice.id");
        row("chargebee/renewal_subscription_renewed.json", "/content/invoice/subscription_id",
            "content.invoice.subscription_id");
        row("recurly/renewal.json", "/id", "id");
        row("recurly/renewal.json", "/subscription_ids/0", "subscription_ids[0]");
        row("lemonsqueezy/renewal_needs_snapshot.json", "/data/id", "data.id");
        row("lemonsqueezy/renewal_needs_snapshot.json", "/data/attributes/subscription_id",
            "data.attributes.subscription_id");
    }

    void identifiersAreBounded()
    {
        QFETCH(QString, file);
        QFETCH(QString, pointer);
        QFETCH(QString, field);
        const auto kind = rd::providerKindFromString(file.section('/', 0, 0).toStdString());
        QVERIFY(kind);
        const auto json = nlohmann::json::parse(readFixture(file).toStdString());
        const nlohmann::json::json_pointer at(pointer.toStdString());
        QVERIFY(json.contains(at));
        const std::string original
            = rd::toString(rd::normalizePayload(*kind, "p", json.dump()).outcome);
        QVERIFY(original == "renewal" || original == "needs_snapshot");
        const auto withId = [&](std::size_t bytes) {
            std::string id;
            for (std::size_t i = 0; i < bytes / 2; ++i)
                id += "\xc3\xa9"; // U+00E9, two bytes
            if (bytes % 2)
                id += 'x';
            auto changed = json;
            changed[at] = id;
            return std::pair {id, rd::normalizePayload(*kind, "p", changed.dump())};
        };

        const auto [longest, accepted] = withId(rd::kMaxIdentifierBytes);
        QCOMPARE(longest.size(), std::size_t(255));
        QCOMPARE(rd::toString(accepted.outcome), original);
        QVERIFY(accepted.event);
        const nlohmann::json carried = rd::toJson(*accepted.event);
        bool found = false;
        for (const auto &[key, value] : carried.items())
            found = found || value == longest;
        QVERIFY2(found, carried.dump().c_str());

        const auto [tooLong, refused] = withId(rd::kMaxIdentifierBytes + 1);
        QCOMPARE(rd::toString(refused.outcome), std::string("invalid"));
        QCOMPARE(refused.reason, std::string("invalid_payload"));
        QVERIFY(!refused.event);
        QCOMPARE(QString::fromStdString(refused.message), field + ": is 256 bytes; at most 255");
        QVERIFY(refused.providerEventId != tooLong);
        QVERIFY(refused.providerSubscriptionId != tooLong);
    }

    // An ISO 4217 code the list does not hold is invalid, naming the field; lower case is
    // upper-cased as before.
    void currencyMustBeActiveIso4217_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("expected"); // the event's currency, or the whole message
        QTest::newRow("stripe xyz") << "stripe/renewal_pre_basil.json"
                                    << "/data/object/currency"
                                    << "xyz"
                                    << "data.object.currency: currency 'XYZ' is not an active "
                                       "ISO 4217 code";
        QTest::newRow("stripe eur lower case") << "stripe/renewal_pre_basil.json"
                                               << "/data/object/currency"
                                               << "eur"
                                               << "EUR";
        QTest::newRow("paddle XAU (gold, no minor units)")
            << "paddle/renewal.json"
            << "/data/currency_code"
            << "XAU"
            << "data.currency_code: currency 'XAU' is not an active ISO 4217 code";
        QTest::newRow("chargebee HRK (withdrawn 2023)")
            << "chargebee/renewal_subscription_renewed.json"
            << "/content/invoice/currency_code"
            << "HRK"
            << "content.invoice.currency_code: currency 'HRK' is not an active ISO 4217 code";
        QTest::newRow("recurly XTS (testing code)")
            << "recurly/renewal.json"
            << "/currency"
            << "XTS"
            << "currency: currency 'XTS' is not an active ISO 4217 code";
        QTest::newRow("lemonsqueezy XYZ") << "lemonsqueezy/renewal_needs_snapshot.json"
                                          << "/data/attributes/currency"
                                          << "XYZ"
                                          << "data.attributes.currency: currency 'XYZ' is not "
                                             "an active ISO 4217 code";
    }

    void currencyMustBeActiveIso4217()
    {
        QFETCH(QString, file);
        QFETCH(QString, pointer);
        QFETCH(QString, code);
        QFETCH(QString, expected);
        const auto kind = rd::providerKindFromString(file.section('/', 0, 0).toStdString());
        QVERIFY(kind);
        auto json = nlohmann::json::parse(readFixture(file).toStdString());
        const nlohmann::json::json_pointer at(pointer.toStdString());
        QVERIFY(json.contains(at));
        json[at] = code.toStdString();
        const rd::NormalizeResult n = rd::normalizePayload(*kind, "p", json.dump());
        if (expected.size() == 3) {
            QVERIFY2(n.event, n.message.c_str());
            QCOMPARE(QString::fromStdString(n.event->currency), expected);
            return;
        }
        QCOMPARE(rd::toString(n.outcome), std::string("invalid"));
        QVERIFY(!n.event);
        QCOMPARE(QString::fromStdString(n.message), expected);
    }

    void neverThrows_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("null") << QByteArray("null");
        QTest::newRow("array") << QByteArray("[1,2,3]");
        QTest::newRow("number") << QByteArray("42");
        QTest::newRow("deep") << QByteArray(5000, '[');
        QTest::newRow("bad utf8") << QByteArray("{\"id\":\"\xff\xfe\"}");
        QTest::newRow("huge seconds") << QByteArray(
            R"({"id":"evt_1","type":"invoice.paid","api_version":"2024-06-20","created":1,)"
            R"("data":{"object":{"object":"invoice","id":"in_1","subscription":"sub_1",)"
            R"("billing_reason":"subscription_cycle","status":"paid","amount_paid":1,)"
            R"("currency":"usd","lines":{"data":[{"type":"subscription","proration":false,)"
            R"("period":{"start":9223372036854775807,"end":18446744073709551615}}]}}}})");
        QTest::newRow("ids of wrong type")
            << QByteArray(R"({"id":1,"event_id":[],"meta":{"event_name":{}},"object":7})");
    }

    void neverThrows()
    {
        QFETCH(QByteArray, body);
        const std::string_view raw(body.constData(), static_cast<std::size_t>(body.size()));
        for (const auto kind :
            {rd::ProviderKind::Stripe, rd::ProviderKind::Paddle, rd::ProviderKind::Chargebee,
                rd::ProviderKind::Recurly, rd::ProviderKind::LemonSqueezy}) {
            const rd::NormalizeResult n = rd::normalizePayload(kind, "p", raw);
            // QCOMPARE would pick rd::toString (a std::string) by ADL; compare the names instead.
            QCOMPARE(rd::toString(n.outcome), std::string("invalid"));
            QVERIFY(!n.event);
        }
    }

    void emptyProviderKeyIsInvalid()
    {
        const QByteArray body = readFixture(QStringLiteral("stripe/renewal_basil.json"));
        const auto n = rd::normalizePayload(
            rd::ProviderKind::Stripe, "", std::string_view(body.constData(), body.size()));
        QCOMPARE(rd::toString(n.outcome), std::string("invalid"));
    }

    void providerKindNames()
    {
        for (const auto kind :
            {rd::ProviderKind::Stripe, rd::ProviderKind::Paddle, rd::ProviderKind::Chargebee,
                rd::ProviderKind::Recurly, rd::ProviderKind::LemonSqueezy})
            QVERIFY(rd::providerKindFromString(rd::toString(kind)) == kind);
        QVERIFY(!rd::providerKindFromString("Stripe"));
        QVERIFY(!rd::providerKindFromString(""));
    }

    void toJsonShape()
    {
        const QByteArray body = readFixture(QStringLiteral("stripe/first_invoice.json"));
        const auto j = rd::toJson(rd::normalizePayload(rd::ProviderKind::Stripe, "stripe-main",
            std::string_view(body.constData(), body.size())));
        QCOMPARE(j.at("outcome").get<std::string>(), std::string("not_a_renewal"));
        QCOMPARE(j.at("reason").get<std::string>(), std::string("first_invoice"));
        QCOMPARE(j.at("providerEventId").get<std::string>(), std::string("evt_1QxFirst0001"));
        QCOMPARE(j.at("providerSubscriptionId").get<std::string>(), std::string("sub_1QxSub0001"));
        QVERIFY(j.at("event").is_null());
        QCOMPARE(j.at("eventIdDerived").get<bool>(), false);
    }
};

QTEST_APPLESS_MAIN(TestAdapters)
#include "tst_adapters.moc"
