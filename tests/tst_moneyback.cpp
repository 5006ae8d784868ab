// Money back (#40): refunds, chargebacks and their reversals, normalized from Stripe's own
// objects and recorded exactly once through record_money_movements, against a real server:
// one movement, one audit row in the subscription's chain and one outbox intent, whatever the
// provider sends; dated by the movement, never by the renewal; refused into a case, never
// forced.

#include "tests/support/fixture_files.h"
#include "tests/support/ingest_outcomes.h"
#include "tests/support/lock_waiters.h"
#include "tests/support/money_back_ledger.h"
#include "tests/support/process_runner.h"
#include "tests/support/statement_runs.h"
#include "tests/support/test_database.h"

#include "domain/core/adapters/normalization.h"
#include "domain/store/webhook_ingestor.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QtTest>

#include <memory>

using rdtest::ctl;
using rdtest::fixtureFile;
using rdtest::outcomeName;
using rdtest::replaceAll;
using rdtest::runProgram;
using rdtest::scalar;
using rdtest::text;
using rdtest::withDb;

namespace {

// `key` of `kind` registered, with `subscription` active until 1 January 2026 (the renewals
// the fixtures pay start there).
void registered(const rdtest::TestDatabase &db, const std::string &key, const std::string &kind,
    const std::string &subscription)
{
    QCOMPARE(runProgram(ctl(),
                 withDb(db,
                     {"providers", "add", QString::fromStdString(key), "--kind",
                         QString::fromStdString(kind)}))
                 .exitCode,
        0);
    rdtest::importSubscriptions(db.conninfo(),
        rdtest::subscriptionLine(
            key, subscription, "active", "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z"));
}

// The renewal the Stripe fixtures refund: in_1QxRenew0001 of sub_1QxSub0001, 20.00 USD paid
// 2025-12-31, its charge ch_3QxCharge0001 and payment intent pi_3QxPay0001.
void renewed(const rdtest::TestDatabase &db, rd::WebhookIngestor &ingestor)
{
    registered(db, "stripe-main", "stripe", "sub_1QxSub0001");
    const auto r = ingestor.ingest("stripe-main", fixtureFile("stripe/renewal_pre_basil.json"));
    QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::Applied));
}

using Ledger = rdtest::MoneyBackLedger;

Ledger ledgerOf(const rdtest::TestDatabase &db)
{
    return rdtest::moneyBackLedgerOf(db);
}

// A body's event id and refund changed, for a movement of its own.
std::string refundOf(const std::string &fixture, const std::string &tag, long long amount)
{
    std::string body = fixtureFile(fixture);
    body = replaceAll(body, "evt_3QxRefundCreated1", "evt_" + tag);
    body = replaceAll(body, "re_3QxRefund0001", "re_" + tag);
    return replaceAll(body, "\"amount\": 500,", "\"amount\": " + std::to_string(amount) + ",");
}

// A result's movements as "key kind amount occurredAt; ...", each checked to be in USD and to
// name `ref` among its renewal refs.
QString movementsText(const rd::NormalizeResult &n, const std::string &ref)
{
    QStringList got;
    for (const auto &m : n.movements) {
        got << QString::fromStdString(m.movementKey + " " + std::string(rd::toString(m.kind)) + " "
            + std::to_string(m.amountMinor) + " " + rd::formatRfc3339(m.occurredAt));
        if (m.currency != "USD"
            || std::find(m.renewalRefs.begin(), m.renewalRefs.end(), ref) == m.renewalRefs.end())
            got << u"(not USD or not naming "_qs + QString::fromStdString(ref) + u")"_qs;
    }
    return got.join(u"; "_qs);
}

} // namespace

class TestMoneyBack : public QObject
{
    Q_OBJECT

private slots:
    // Each of Stripe's shapes, as the adapter reads it: keyed on the refund or dispute, dated
    // by its own time, naming the renewal by charge, payment intent (and invoice when the charge
    // names it).
    void stripeShapesNormalize_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("movements"); // key kind amount occurredAt; ...
        QTest::newRow("refund.created") << "refund_created.json"
                                        << "money_movement"
                                        << "re_3QxRefund0001 refund 500 2026-01-07T23:59:50Z";
        QTest::newRow("charge.refunded listing it")
            << "refund_charge_refunded_listed.json"
            << "money_movement"
            << "re_3QxRefund0001 refund 500 2026-01-07T23:59:50Z";
        QTest::newRow("refund.failed: the refund and its reversal")
            << "refund_failed.json"
            << "money_movement"
            << "re_3QxRefund0002 refund 300 2026-01-09T00:00:00Z; re_3QxRefund0002 "
               "refund_reversal 300 2026-01-10T00:00:00Z";
        QTest::newRow("charge.dispute.funds_withdrawn")
            << "dispute_funds_withdrawn.json"
            << "money_movement"
            << "dp_1QxDispute0001 chargeback 2000 2026-01-11T00:00:00Z";
        QTest::newRow("charge.dispute.funds_reinstated: won")
            << "dispute_funds_reinstated.json"
            << "money_movement"
            << "dp_1QxDispute0001 chargeback 2000 2026-01-11T00:00:00Z; dp_1QxDispute0001 "
               "chargeback_reversal 2000 2026-02-01T00:00:00Z";
        QTest::newRow("charge.dispute.created moves nothing") << "dispute_created.json"
                                                              << "not_a_renewal"
                                                              << "";
        QTest::newRow("a credit note is a document") << "credit_note_created.json"
                                                     << "not_a_renewal"
                                                     << "";
        QTest::newRow("charge.refunded without its list") << "refund_charge_refunded.json"
                                                          << "not_a_renewal"
                                                          << "";
    }
    // A dispute's events whose balance transactions are not expanded (ids only): its chargeback
    // is dated by the dispute's creation by either event, so that whichever arrives first, the
    // movement's month is the same.
    void aChargebackIsDatedAlikeByEitherEvent()
    {
        QStringList dates;
        for (const char *fixture :
            {"dispute_funds_withdrawn.json", "dispute_funds_reinstated.json"}) {
            auto body = nlohmann::json::parse(fixtureFile(std::string("stripe/") + fixture));
            auto &txns = body["data"]["object"]["balance_transactions"];
            for (auto &t : txns)
                t = t["id"];
            const auto n
                = rd::normalizePayload(rd::ProviderKind::Stripe, "stripe-main", body.dump());
            QCOMPARE(QString::fromStdString(rd::toString(n.outcome)), u"money_movement"_qs);
            dates << QString::fromStdString(rd::formatRfc3339(n.movements.front().occurredAt));
        }
        QCOMPARE(dates, QStringList({u"2026-01-10T23:00:00Z"_qs, u"2026-01-10T23:00:00Z"_qs}));
    }

    void stripeShapesNormalize()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, outcome);
        QFETCH(QString, movements);
        const auto n = rd::normalizePayload(rd::ProviderKind::Stripe, "stripe-main",
            fixtureFile("stripe/" + fixture.toStdString()));
        QCOMPARE(QString::fromStdString(rd::toString(n.outcome)), outcome);
        QCOMPARE(movementsText(n, "ch_3QxCharge0001"), movements);
        if (fixture == u"refund_charge_refunded_listed.json"_qs)
            QCOMPARE(n.movements.front().renewalRefs.front(), std::string("in_1QxRenew0001"));
    }

    // Each of Paddle's adjustments, as the adapter reads it: a refund keyed on the adjustment
    // and dated by its approval; the dispute keyed on the transaction (its reversal is another
    // adjustment that names only the transaction); what moves no cash, nothing.
    void paddleShapesNormalize_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("movements"); // key kind amount occurredAt; ...
        const QString txn = u"txn_01hv8wptq8987qeep44cyrewp9"_qs;
        QTest::newRow("refund approved") << "adjustment_refund_approved.json"
                                         << "money_movement"
                                         << "refund"
                                         << "adj_01hvaadjrefund0000000000000 refund 1200 "
                                            "2026-01-06T08:30:00.981231Z";
        QTest::newRow("refund pending approval") << "refund_adjustment.json"
                                                 << "not_a_renewal"
                                                 << "refund"
                                                 << "";
        QTest::newRow("refund rejected") << "adjustment_refund_rejected.json"
                                         << "not_a_renewal"
                                         << "refund"
                                         << "";
        QTest::newRow("chargeback")
            << "adjustment_chargeback.json"
            << "money_movement"
            << "dispute" << txn + u" chargeback 2400 2026-01-20T12:00:00.118832Z"_qs;
        QTest::newRow("chargeback_reverse")
            << "adjustment_chargeback_reverse.json"
            << "money_movement"
            << "dispute" << txn + u" chargeback_reversal 2400 2026-02-15T09:00:00.733211Z"_qs;
        QTest::newRow("the chargeback, reversed")
            << "adjustment_chargeback_reversed.json"
            << "money_movement"
            << "dispute"
            << txn + u" chargeback 2400 2026-01-20T12:00:00.118832Z; "_qs + txn
                + u" chargeback_reversal 2400 2026-02-15T09:00:00.901245Z"_qs;
        QTest::newRow("credit") << "adjustment_credit.json"
                                << "not_a_renewal"
                                << "credit_note"
                                << "";
        QTest::newRow("chargeback warning") << "adjustment_chargeback_warning.json"
                                            << "not_a_renewal"
                                            << "dispute"
                                            << "";
    }
    void paddleShapesNormalize()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, outcome);
        QFETCH(QString, reason);
        QFETCH(QString, movements);
        const auto n = rd::normalizePayload(rd::ProviderKind::Paddle, "paddle-main",
            fixtureFile("paddle/" + fixture.toStdString()));
        QCOMPARE(QString::fromStdString(rd::toString(n.outcome)), outcome);
        QCOMPARE(QString::fromStdString(n.reason), reason);
        QCOMPARE(movementsText(n, "txn_01hv8wptq8987qeep44cyrewp9"), movements);
    }

    // Each of Chargebee's transactions, as the adapter reads it: keyed on the refund or
    // payment-reversal transaction, naming the invoice it links or its credit note refunds; a
    // credit note is a document and a payment no money back.
    void chargebeeShapesNormalize_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("movements"); // key kind amount occurredAt; ...
        QTest::newRow("payment_refunded")
            << "refund_payment_refunded.json"
            << "money_movement"
            << "refund"
            << "txn_AzZcn2RefundTx01 refund 1000 2026-01-12T10:00:00Z";
        QTest::newRow("a refund that failed: the refund and its reversal")
            << "refund_transaction_failed.json"
            << "money_movement"
            << "refund"
            << "txn_AzZcn2RefundTx02 refund 700 2026-01-12T10:10:00Z; txn_AzZcn2RefundTx02 "
               "refund_reversal 700 2026-01-13T10:00:00Z";
        QTest::newRow("payment_reversal: a chargeback")
            << "chargeback_payment_reversal.json"
            << "money_movement"
            << "dispute"
            << "txn_AzZcn2ReversalTx1 chargeback 2900 2026-01-16T10:00:00Z";
        QTest::newRow("a payment transaction") << "payment_transaction_created.json"
                                               << "not_a_renewal"
                                               << "other_event_type"
                                               << "";
        QTest::newRow("a credit note is a document") << "refund_credit_note.json"
                                                     << "not_a_renewal"
                                                     << "credit_note"
                                                     << "";
    }
    void chargebeeShapesNormalize()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, outcome);
        QFETCH(QString, reason);
        QFETCH(QString, movements);
        const auto n = rd::normalizePayload(rd::ProviderKind::Chargebee, "chargebee-main",
            fixtureFile("chargebee/" + fixture.toStdString()));
        QCOMPARE(QString::fromStdString(rd::toString(n.outcome)), outcome);
        QCOMPARE(QString::fromStdString(n.reason), reason);
        QCOMPARE(movementsText(n, "1044"), movements);
    }

    // Against the database: Chargebee's refunds recorded once, a failed one netting nothing,
    // and a chargeback past what is left of the payment a case.
    void chargebeeRefundsAreRecordedOnce()
    {
        rdtest::TestDatabase db("moneyback_chargebee");
        rd::WebhookIngestor ingestor(db.conninfo());
        registered(db, "chargebee-main", "chargebee", "AzZTZgTr8a2Lv1d4Z");
        const auto ingest = [&](const char *f) {
            return outcomeName(
                ingestor.ingest("chargebee-main", fixtureFile("chargebee/" + std::string(f)))
                    .outcome);
        };
        QCOMPARE(ingest("renewal_payment_succeeded.json"), outcomeName(rd::IngestOutcome::Applied));
        QCOMPARE(ingest("refund_credit_note.json"), outcomeName(rd::IngestOutcome::NotARenewal));
        QCOMPARE(ingest("refund_payment_refunded.json"), outcomeName(rd::IngestOutcome::Recorded));
        QCOMPARE(
            ingest("refund_transaction_failed.json"), outcomeName(rd::IngestOutcome::Recorded));
        QCOMPARE(ingest("payment_transaction_created.json"),
            outcomeName(rd::IngestOutcome::NotARenewal));
        // The same refund told again by transaction_updated: the same movement.
        QCOMPARE(
            outcomeName(
                ingestor
                    .ingest("chargebee-main",
                        replaceAll(replaceAll(fixtureFile("chargebee/refund_payment_refunded.json"),
                                       "payment_refunded", "transaction_updated"),
                            "ev_AzZcn2Refund01", "ev_AzZcn2Refund02"))
                    .outcome),
            outcomeName(rd::IngestOutcome::Duplicate));
        const Ledger l = ledgerOf(db);
        QCOMPARE(l.movements, 3LL);
        QCOMPARE(l.audits, 3LL);
        QCOMPARE(l.intents, 3LL);
        // 29.00 paid, 10.00 refunded: a chargeback of 29.00 is past it.
        QCOMPARE(
            ingest("chargeback_payment_reversal.json"), outcomeName(rd::IngestOutcome::Rejected));
        QCOMPARE(text(db, "SELECT error_code FROM reconciliation_cases"),
            std::string("refund_exceeds_payment"));
        QCOMPARE(ledgerOf(db).movements, 3LL);
        QCOMPARE(runProgram(ctl(), withDb(db, {"audit", "verify"})).exitCode, 0);
    }

    // Lemon Squeezy's refunds: a running total on the invoice, with no refund id. Each total is
    // what it adds to what is recorded; a redelivery, or a smaller total after a larger one,
    // adds nothing.
    void lemonSqueezyRefundsAreWhatTheTotalAdds()
    {
        const auto partial = rd::normalizePayload(rd::ProviderKind::LemonSqueezy,
            "lemonsqueezy-main", fixtureFile("lemonsqueezy/refund_partial.json"));
        QCOMPARE(movementsText(partial, "3051"),
            u"3051/refunded/400 refund 400 2026-01-05T08:00:00Z"_qs);
        QCOMPARE(partial.movements.front().cumulativeMinor, std::optional<std::int64_t>(400));
        const auto full = rd::normalizePayload(rd::ProviderKind::LemonSqueezy, "lemonsqueezy-main",
            fixtureFile("lemonsqueezy/refund.json"));
        QCOMPARE(
            movementsText(full, "3051"), u"3051/refunded/999 refund 999 2026-01-09T12:00:00Z"_qs);

        const auto recorded = [](const char *name, const std::vector<std::string> &bodies) {
            rdtest::TestDatabase db(name);
            rd::WebhookIngestor ingestor(db.conninfo());
            registered(db, "lemonsqueezy-main", "lemonsqueezy", "1042");
            auto conn = db.connect();
            rdtest::recordRenewal(*conn,
                nlohmann::json {{"providerKey", "lemonsqueezy-main"},
                    {"providerEventId", "sha256:renewal3051"}, {"providerSubscriptionId", "1042"},
                    {"providerRenewalKey", "3051"},
                    {"period",
                        {{"start", "2026-01-01T00:00:00Z"}, {"end", "2026-02-01T00:00:00Z"}}},
                    {"paidAmountMinor", 999}, {"currency", "USD"},
                    {"paidAt", "2026-01-01T00:00:04Z"}});
            std::string outcomes;
            for (const auto &body : bodies)
                outcomes
                    += outcomeName(ingestor.ingest("lemonsqueezy-main", body).outcome).toStdString()
                    + " ";
            const Ledger l = ledgerOf(db);
            return outcomes + "| "
                + text(db,
                    "SELECT coalesce(string_agg(movement_key || ' ' || amount_minor || ' ' || "
                    "to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), ', ' ORDER BY "
                    "occurred_at), 'none') FROM money_movements")
                + " | " + std::to_string(l.audits) + " audits, " + std::to_string(l.intents)
                + " intents";
        };
        const std::string partialBody = fixtureFile("lemonsqueezy/refund_partial.json");
        const std::string fullBody = fixtureFile("lemonsqueezy/refund.json");
        // Re-serialized: another derived event id, the same total.
        const std::string partialAgain = nlohmann::json::parse(partialBody).dump();
        const std::string smallerLater = replaceAll(
            replaceAll(partialAgain, "\"refunded_amount\":400", "\"refunded_amount\":700"),
            "2026-01-05T08:00:00", "2026-01-10T08:00:00");
        QCOMPARE(recorded("moneyback_ls_in_order",
                     {partialBody, partialBody, partialAgain, fullBody, smallerLater}),
            std::string(
                "recorded duplicate_delivery duplicate recorded duplicate | 3051/refunded/400 "
                "400 2026-01-05, 3051/refunded/999 599 2026-01-09 | 2 audits, 2 intents"));
        QCOMPARE(recorded("moneyback_ls_late_partial", {fullBody, partialBody}),
            std::string(
                "recorded duplicate | 3051/refunded/999 999 2026-01-09 | 1 audits, 1 intents"));
    }

    // Recurly's credit invoices: the cash is their refund transactions, the renewal named by
    // previous_invoice_id or the line items' original invoice; no refund transaction, no cash.
    void recurlyShapesNormalize_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("movements"); // key kind amount occurredAt; ...
        QTest::newRow("a line item refund (the original invoice on the line)")
            << "refund_credit_invoice_refunded.json"
            << "money_movement"
            << "refund"
            << "qx6ptxnref01 refund 500 2026-01-10T09:00:00Z";
        QTest::newRow("a declined refund: the refund and its reversal")
            << "refund_credit_invoice_declined.json"
            << "money_movement"
            << "refund"
            << "qx6ptxnref02 refund 300 2026-01-11T09:00:00Z; qx6ptxnref02 refund_reversal 300 "
               "2026-01-11T09:05:00Z";
        QTest::newRow("a credit invoice without a refund transaction")
            << "refund_credit_invoice.json"
            << "not_a_renewal"
            << "credit_note"
            << "";
    }
    void recurlyShapesNormalize()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, outcome);
        QFETCH(QString, reason);
        QFETCH(QString, movements);
        const auto n = rd::normalizePayload(rd::ProviderKind::Recurly, "recurly-main",
            fixtureFile("recurly/" + fixture.toStdString()));
        QCOMPARE(QString::fromStdString(rd::toString(n.outcome)), outcome);
        QCOMPARE(QString::fromStdString(n.reason), reason);
        QCOMPARE(movementsText(n, "qx6pel8cxbcm"), movements);
    }

    // Against the database: Recurly's refunds once, re-serialized or not, a declined one
    // netting nothing.
    void recurlyRefundsAreRecordedOnce()
    {
        rdtest::TestDatabase db("moneyback_recurly");
        rd::WebhookIngestor ingestor(db.conninfo());
        registered(db, "recurly-main", "recurly", "qx6pb4ypdhwl");
        const auto ingest = [&](const std::string &body) {
            return outcomeName(ingestor.ingest("recurly-main", body).outcome);
        };
        QCOMPARE(
            ingest(fixtureFile("recurly/renewal.json")), outcomeName(rd::IngestOutcome::Applied));
        const std::string refunded = fixtureFile("recurly/refund_credit_invoice_refunded.json");
        QCOMPARE(ingest(refunded), outcomeName(rd::IngestOutcome::Recorded));
        QCOMPARE(ingest(fixtureFile("recurly/refund_credit_invoice_declined.json")),
            outcomeName(rd::IngestOutcome::Recorded));
        // Fetched again later, written another way: another derived event id, the same refund.
        QCOMPARE(
            ingest(replaceAll(refunded, "\n", "\r\n")), outcomeName(rd::IngestOutcome::Duplicate));
        QCOMPARE(ingest(fixtureFile("recurly/refund_credit_invoice.json")),
            outcomeName(rd::IngestOutcome::NotARenewal));
        const Ledger l = ledgerOf(db);
        QCOMPARE(l.movements, 3LL);
        QCOMPARE(l.audits, 3LL);
        QCOMPARE(l.intents, 3LL);
        QCOMPARE(scalar(db,
                     "SELECT sum(CASE kind WHEN 'refund' THEN amount_minor ELSE -amount_minor END) "
                     "FROM money_movements"),
            500LL);
        QCOMPARE(runProgram(ctl(), withDb(db, {"audit", "verify"})).exitCode, 0);
    }

    // An unknown action or status is refused by name, never guessed.
    void paddleUnknownAdjustmentIsInvalid_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("field");
        QTest::newRow("action") << "\"action\": \"refund\""
                                << "\"action\": \"refund_later\""
                                << "data.action";
        QTest::newRow("status") << "\"status\": \"approved\""
                                << "\"status\": \"settled\""
                                << "data.status";
        QTest::newRow("total") << "\"total\": \"1200\""
                               << "\"total\": \"12.00\""
                               << "data.totals.total";
    }
    void paddleUnknownAdjustmentIsInvalid()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, field);
        const std::string body = replaceAll(fixtureFile("paddle/adjustment_refund_approved.json"),
            from.toStdString(), to.toStdString());
        const auto n = rd::normalizePayload(rd::ProviderKind::Paddle, "paddle-main", body);
        QCOMPARE(QString::fromStdString(rd::toString(n.outcome)), u"invalid"_qs);
        QVERIFY2(QString::fromStdString(n.message).startsWith(field), n.message.c_str());
    }

    // Against the database: Paddle's refund recorded once however often it is delivered, and a
    // chargeback reversed by either of the two events that tell of it, once.
    void paddleRefundAndDisputeAreRecordedOnce()
    {
        rdtest::TestDatabase db("moneyback_paddle");
        rd::WebhookIngestor ingestor(db.conninfo());
        registered(db, "paddle-main", "paddle", "sub_01hv8x29kz0t586xy6zn1a62ny");
        const auto ingest = [&](const char *f) {
            return outcomeName(
                ingestor.ingest("paddle-main", fixtureFile("paddle/" + std::string(f))).outcome);
        };
        QCOMPARE(ingest("renewal.json"), outcomeName(rd::IngestOutcome::Applied));
        QCOMPARE(ingest("refund_adjustment.json"), outcomeName(rd::IngestOutcome::NotARenewal));
        QCOMPARE(
            ingest("adjustment_refund_approved.json"), outcomeName(rd::IngestOutcome::Recorded));
        QCOMPARE(ingest("adjustment_refund_approved.json"),
            outcomeName(rd::IngestOutcome::DuplicateDelivery));
        QCOMPARE(ledgerOf(db).movements, 1LL);
        // 24.00 paid, 12.00 refunded: a chargeback of all 24.00 is past it, a case.
        QCOMPARE(ingest("adjustment_chargeback.json"), outcomeName(rd::IngestOutcome::Rejected));
        QCOMPARE(text(db, "SELECT error_code FROM reconciliation_cases"),
            std::string("refund_exceeds_payment"));

        rdtest::TestDatabase disputed("moneyback_paddle_dispute");
        rd::WebhookIngestor second(disputed.conninfo());
        registered(disputed, "paddle-main", "paddle", "sub_01hv8x29kz0t586xy6zn1a62ny");
        const auto deliver = [&](const char *f) {
            return outcomeName(
                second.ingest("paddle-main", fixtureFile("paddle/" + std::string(f))).outcome);
        };
        QCOMPARE(deliver("renewal.json"), outcomeName(rd::IngestOutcome::Applied));
        QCOMPARE(deliver("adjustment_chargeback_warning.json"),
            outcomeName(rd::IngestOutcome::NotARenewal));
        QCOMPARE(deliver("adjustment_chargeback.json"), outcomeName(rd::IngestOutcome::Recorded));
        QCOMPARE(deliver("adjustment_chargeback_reverse.json"),
            outcomeName(rd::IngestOutcome::Recorded));
        QCOMPARE(deliver("adjustment_chargeback_reversed.json"),
            outcomeName(rd::IngestOutcome::Duplicate));
        const Ledger l = ledgerOf(disputed);
        QCOMPARE(l.movements, 2LL);
        QCOMPARE(l.audits, 2LL);
        QCOMPARE(l.intents, 2LL);
        QCOMPARE(text(disputed,
                     "SELECT string_agg(kind || ' ' || amount_minor || ' ' || "
                     "to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), ', ' ORDER BY "
                     "occurred_at) FROM money_movements"),
            std::string("chargeback 2400 2026-01-20, chargeback_reversal 2400 2026-02-15"));
        QCOMPARE(runProgram(ctl(), withDb(disputed, {"audit", "verify"})).exitCode, 0);
    }

    // The renewal keeps what a refund names it by, in both of Stripe's invoice shapes.
    void renewalKeepsItsPaymentRefs()
    {
        const auto pre = rd::normalizePayload(
            rd::ProviderKind::Stripe, "stripe-main", fixtureFile("stripe/renewal_pre_basil.json"));
        QCOMPARE(pre.event->paymentRefs,
            (std::vector<std::string> {"ch_3QxCharge0001", "pi_3QxPay0001"}));
        auto basil = nlohmann::json::parse(fixtureFile("stripe/renewal_basil.json"));
        basil["data"]["object"]["payments"] = {{"object", "list"},
            {"data",
                {{{"id", "inpay_1"}, {"object", "invoice_payment"},
                    {"payment", {{"type", "payment_intent"}, {"payment_intent", "pi_3QxBasil01"}}},
                    {"status", "paid"}}}},
            {"has_more", false}};
        const auto b = rd::normalizePayload(rd::ProviderKind::Stripe, "stripe-main", basil.dump());
        QCOMPARE(b.event->paymentRefs, (std::vector<std::string> {"pi_3QxBasil01"}));
    }

    // refund.created, then charge.refunded and refund.updated of the same refund: one movement,
    // one audit row, one outbox intent; dated by the refund (7 January), not the renewal (paid
    // 1 January).
    void oneRefundByThreeEventsIsRecordedOnce()
    {
        rdtest::TestDatabase db("moneyback_once");
        rd::WebhookIngestor ingestor(db.conninfo());
        renewed(db, ingestor);
        const auto created
            = ingestor.ingest("stripe-main", fixtureFile("stripe/refund_created.json"));
        QCOMPARE(outcomeName(created.outcome), outcomeName(rd::IngestOutcome::Recorded));
        const auto listed = ingestor.ingest(
            "stripe-main", fixtureFile("stripe/refund_charge_refunded_listed.json"));
        QCOMPARE(outcomeName(listed.outcome), outcomeName(rd::IngestOutcome::Duplicate));
        const auto updated = ingestor.ingest("stripe-main",
            replaceAll(replaceAll(fixtureFile("stripe/refund_created.json"), "refund.created",
                           "refund.updated"),
                "evt_3QxRefundCreated1", "evt_3QxRefundUpdated1"));
        QCOMPARE(outcomeName(updated.outcome), outcomeName(rd::IngestOutcome::Duplicate));
        const Ledger l = ledgerOf(db);
        QCOMPARE(l.movements, 1LL);
        QCOMPARE(l.audits, 1LL);
        QCOMPARE(l.intents, 1LL);
        QCOMPARE(text(db,
                     "SELECT to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ' ' || "
                     "amount_minor || ' ' || currency || ' ' || kind FROM money_movements"),
            std::string("2026-01-07 500 USD refund"));
        QCOMPARE(text(db,
                     "SELECT b.provider_renewal_key FROM money_movements m JOIN "
                     "subscription_billing_periods b ON b.id = m.billing_period_id"),
            std::string("in_1QxRenew0001"));
        QCOMPARE(text(db,
                     "SELECT event_type || ' ' || (payload->>'amountMinor') FROM "
                     "subscription_outbox WHERE payload ? 'movementId'"),
            std::string("refund.recorded 500"));
        QCOMPARE(scalar(db, "SELECT count(*) FROM webhook_inbox WHERE outcome = 'recorded'"), 1LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM reconciliation_cases"), 0LL);
        // The audit row is a link of the subscription's chain, which still verifies.
        QCOMPARE(runProgram(ctl(), withDb(db, {"audit", "verify"})).exitCode, 0);
    }

    // A refund that failed, and a dispute won: their own reversing movements, nothing updated
    // in place; the net of each is nothing.
    void reversalsAreMovementsOfTheirOwn()
    {
        rdtest::TestDatabase db("moneyback_reversals");
        rd::WebhookIngestor ingestor(db.conninfo());
        renewed(db, ingestor);
        QCOMPARE(
            outcomeName(
                ingestor.ingest("stripe-main", fixtureFile("stripe/refund_failed.json")).outcome),
            outcomeName(rd::IngestOutcome::Recorded));
        QCOMPARE(
            outcomeName(
                ingestor.ingest("stripe-main", fixtureFile("stripe/dispute_funds_withdrawn.json"))
                    .outcome),
            outcomeName(rd::IngestOutcome::Recorded));
        QCOMPARE(
            outcomeName(
                ingestor.ingest("stripe-main", fixtureFile("stripe/dispute_funds_reinstated.json"))
                    .outcome),
            outcomeName(rd::IngestOutcome::Recorded));
        QCOMPARE(text(db,
                     "SELECT string_agg(kind || ' ' || amount_minor || ' ' || to_char(occurred_at "
                     "AT TIME ZONE 'UTC', 'YYYY-MM-DD'), '; ' ORDER BY occurred_at, kind) FROM "
                     "money_movements"),
            std::string("refund 300 2026-01-09; refund_reversal 300 2026-01-10; chargeback 2000 "
                        "2026-01-11; chargeback_reversal 2000 2026-02-01"));
        const Ledger l = ledgerOf(db);
        QCOMPARE(l.movements, 4LL);
        QCOMPARE(l.audits, 4LL);
        QCOMPARE(l.intents, 4LL);
        // Nothing of it can be changed or removed afterwards, even by its owner.
        auto conn = db.connect();
        QVERIFY_THROWS_EXCEPTION(pqxx::sql_error,
            pqxx::nontransaction(*conn).exec("UPDATE money_movements SET amount_minor = 1"));
        QVERIFY_THROWS_EXCEPTION(
            pqxx::sql_error, pqxx::nontransaction(*conn).exec("DELETE FROM money_movements"));
    }

    // Two partial refunds of one renewal are two movements, each with its audit row and its
    // intent (the renewal's one-intent-per-period rule is the renewals' only); a third past
    // what is left of the payment is a case.
    void partialRefundsOfOneRenewalAddUp()
    {
        rdtest::TestDatabase db("moneyback_partial");
        rd::WebhookIngestor ingestor(db.conninfo());
        renewed(db, ingestor);
        for (const auto &body : {fixtureFile("stripe/refund_created.json"),
                 refundOf("stripe/refund_created.json", "3QxSecond001", 700)})
            QCOMPARE(outcomeName(ingestor.ingest("stripe-main", body).outcome),
                outcomeName(rd::IngestOutcome::Recorded));
        const Ledger l = ledgerOf(db);
        QCOMPARE(l.movements, 2LL);
        QCOMPARE(l.audits, 2LL);
        QCOMPARE(l.intents, 2LL);
        QCOMPARE(text(db,
                     "SELECT string_agg(event_type || ' ' || (payload->>'amountMinor'), ', ' "
                     "ORDER BY (payload->>'amountMinor')::int) FROM subscription_outbox "
                     "WHERE payload ? 'movementId'"),
            std::string("refund.recorded 500, refund.recorded 700"));
        // 20.00 paid, 12.00 refunded: 9.00 more is past it.
        const auto third = ingestor.ingest(
            "stripe-main", refundOf("stripe/refund_created.json", "3QxThird0001", 900));
        QCOMPARE(outcomeName(third.outcome), outcomeName(rd::IngestOutcome::Rejected));
        QCOMPARE(QString::fromStdString(third.error), u"refund_exceeds_payment"_qs);
        QCOMPARE(ledgerOf(db).movements, 2LL);
        QCOMPARE(runProgram(ctl(), withDb(db, {"audit", "verify"})).exitCode, 0);
    }

    // Never forced: past what was paid, another amount for a recorded refund, a currency other
    // than the renewal's: each a case, and nothing recorded.
    void refusedMovementsAreCases_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("reason");
        QTest::newRow("more than was paid")
            << QString::fromStdString(refundOf("stripe/refund_created.json", "3QxTooMuch01", 2500))
            << "refund_exceeds_payment";
        QTest::newRow("the recorded refund, another amount") << QString::fromStdString(
            replaceAll(refundOf("stripe/refund_created.json", "3QxAgain0001", 600),
                "re_3QxAgain0001", "re_3QxRefund0001")) << "money_movement_conflict";
        QTest::newRow("another currency") << QString::fromStdString(replaceAll(
            refundOf("stripe/refund_created.json", "3QxEuro00001", 100), "\"usd\"", "\"eur\""))
                                          << "money_movement_conflict";
    }
    void refusedMovementsAreCases()
    {
        QFETCH(QString, body);
        QFETCH(QString, reason);
        rdtest::TestDatabase db("moneyback_refused");
        rd::WebhookIngestor ingestor(db.conninfo());
        renewed(db, ingestor);
        QCOMPARE(
            outcomeName(
                ingestor.ingest("stripe-main", fixtureFile("stripe/refund_created.json")).outcome),
            outcomeName(rd::IngestOutcome::Recorded));
        const auto r = ingestor.ingest("stripe-main", body.toStdString());
        QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::Rejected));
        QCOMPARE(QString::fromStdString(r.error), reason);
        QVERIFY(r.caseId > 0);
        QCOMPARE(ledgerOf(db).movements, 1LL);
        QCOMPARE(text(db,
                     "SELECT error_code || ' ' || provider_subscription_id || ' ' || status FROM "
                     "reconciliation_cases"),
            reason.toStdString() + " sub_1QxSub0001 open");
        // Delivered again: the same case, seen twice.
        QCOMPARE(outcomeName(ingestor.ingest("stripe-main", body.toStdString()).outcome),
            outcomeName(rd::IngestOutcome::DuplicateDelivery));
        QCOMPARE(scalar(db, "SELECT occurrences FROM reconciliation_cases"), 1LL);
    }

    // A refund before its renewal: a case, whose subscription is not known yet; the renewal's
    // arrival records it and resolves the case.
    void aRefundBeforeItsRenewalHealsWhenItArrives()
    {
        rdtest::TestDatabase db("moneyback_early");
        rd::WebhookIngestor ingestor(db.conninfo());
        registered(db, "stripe-main", "stripe", "sub_1QxSub0001");
        const auto early
            = ingestor.ingest("stripe-main", fixtureFile("stripe/refund_created.json"));
        QCOMPARE(outcomeName(early.outcome), outcomeName(rd::IngestOutcome::Rejected));
        QCOMPARE(early.error, std::string("refund_without_renewal"));
        QCOMPARE(text(db, "SELECT provider_subscription_id FROM reconciliation_cases"),
            std::string("unknown"));
        QCOMPARE(ledgerOf(db).movements, 0LL);

        const auto renewal
            = ingestor.ingest("stripe-main", fixtureFile("stripe/renewal_pre_basil.json"));
        QCOMPARE(outcomeName(renewal.outcome), outcomeName(rd::IngestOutcome::Applied));
        const Ledger l = ledgerOf(db);
        QCOMPARE(l.movements, 1LL);
        QCOMPARE(l.audits, 1LL);
        QCOMPARE(l.intents, 1LL);
        QCOMPARE(text(db,
                     "SELECT status || ' ' || resolution || ' ' || resolved_by || ' ' || "
                     "(billing_period_id = '"
                         + renewal.billingPeriodId + "')::text FROM reconciliation_cases"),
            std::string("resolved reapplied system true"));
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM reconciliation_case_history WHERE action = 'reapply' "
                     "AND outcome = 'applied'"),
            1LL);
        // The payment refs the renewal carried are kept for the refunds to come.
        QCOMPARE(text(db,
                     "SELECT string_agg(payment_ref, ' ' ORDER BY payment_ref) FROM "
                     "billing_period_payment_refs"),
            std::string("ch_3QxCharge0001 pi_3QxPay0001"));
    }

    // A refund that waited for its renewal and, once the renewal is there, is more than it paid:
    // its one case now says so, under the renewal's subscription; no second case, nothing
    // recorded.
    void aWaitingRefundRefusedForANewReasonStaysOneCase()
    {
        rdtest::TestDatabase db("moneyback_early_too_much");
        rd::WebhookIngestor ingestor(db.conninfo());
        registered(db, "stripe-main", "stripe", "sub_1QxSub0001");
        const auto early = ingestor.ingest(
            "stripe-main", refundOf("stripe/refund_created.json", "3QxTooMuch", 2500));
        QCOMPARE(early.error, std::string("refund_without_renewal"));
        const auto renewal
            = ingestor.ingest("stripe-main", fixtureFile("stripe/renewal_pre_basil.json"));
        QCOMPARE(outcomeName(renewal.outcome), outcomeName(rd::IngestOutcome::Applied));
        QCOMPARE(ledgerOf(db).movements, 0LL);
        QCOMPARE(text(db,
                     "SELECT string_agg(status || ' ' || error_code || ' ' || "
                     "provider_subscription_id, '; ') FROM reconciliation_cases"),
            std::string("open refund_exceeds_payment sub_1QxSub0001"));
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM reconciliation_case_history WHERE action = 'reapply' "
                     "AND outcome = 'rejected' AND error_code = 'refund_exceeds_payment'"),
            1LL);
    }

    // The same refund from two OS processes at once, as refund.created and as charge.refunded:
    // both held behind the subscription's row lock until both are seen waiting, then let go.
    // One movement, one audit row, one outbox intent.
    void twoProcessesRecordOneRefundOnce()
    {
        rdtest::TestDatabase db("moneyback_race");
        {
            rd::WebhookIngestor ingestor(db.conninfo());
            renewed(db, ingestor);
        }
        auto observer = db.connect();
        const std::string bodies[] = {fixtureFile("stripe/refund_created.json"),
            fixtureFile("stripe/refund_charge_refunded_listed.json")};
        std::vector<std::unique_ptr<QProcess>> processes;
        rdtest::RowLockHolder lock(db, "sub_1QxSub0001");
        for (const auto &body : bodies) {
            auto p = std::make_unique<QProcess>();
            p->start(ctl(), withDb(db, {"ingest", "--provider-key", "stripe-main"}));
            QVERIFY(p->waitForStarted());
            // Written before the wait: a QProcess writes its stdin only from the event loop,
            // which the wait below does not run.
            p->write(QByteArray::fromStdString(body));
            QVERIFY(p->waitForBytesWritten(10000));
            p->closeWriteChannel();
            processes.push_back(std::move(p));
        }
        const auto waiters = rdtest::waitForLockWaiters(*observer, lock.pid, 2);
        lock.release();
        QStringList outcomes;
        for (auto &p : processes) {
            QVERIFY(p->waitForFinished(60000));
            QCOMPARE(p->exitCode(), 0);
            outcomes << QString::fromUtf8(
                nlohmann::json::parse(p->readAllStandardOutput().toStdString())["outcome"]
                    .get<std::string>());
        }
        QVERIFY2(waiters.reached, waiters.seen.c_str());
        outcomes.sort();
        QCOMPARE(outcomes.join(u' '), u"duplicate recorded"_qs);
        const Ledger l = ledgerOf(db);
        QCOMPARE(l.movements, 1LL);
        QCOMPARE(l.audits, 1LL);
        QCOMPARE(l.intents, 1LL);
    }

    // A refund and the renewal it pays back, delivered at once by two OS processes: the refund
    // cannot see the uncommitted renewal, nor the renewal's look for waiting refunds the
    // uncommitted case. Both are held behind the locks on what names the renewal
    // (rd_lock_payment_refs) until both are seen waiting; whichever goes first, the refund is
    // recorded once and no case stays open.
    void aRefundAndItsRenewalAtOnceEndRecorded()
    {
        rdtest::TestDatabase db("moneyback_refund_renewal_race");
        registered(db, "stripe-main", "stripe", "sub_1QxSub0001");
        auto observer = db.connect();
        const std::string bodies[] = {fixtureFile("stripe/refund_created.json"),
            fixtureFile("stripe/renewal_pre_basil.json")};
        std::vector<std::unique_ptr<QProcess>> processes;
        auto holder = db.connect();
        const int holderPid = rdtest::backendPid(*holder);
        pqxx::work hold(*holder);
        hold.exec("INSERT INTO rd_work_locks (name) SELECT 'money-back/stripe-main/' || "
                  "(hashtextextended(r, 0) & 1023) FROM unnest(ARRAY['ch_3QxCharge0001', "
                  "'pi_3QxPay0001', 'in_1QxRenew0001']) r ON CONFLICT DO NOTHING");
        hold.exec("SELECT 1 FROM rd_work_locks WHERE name LIKE 'money-back/%' FOR UPDATE");
        for (const auto &body : bodies) {
            auto p = std::make_unique<QProcess>();
            p->start(ctl(), withDb(db, {"ingest", "--provider-key", "stripe-main"}));
            QVERIFY(p->waitForStarted());
            p->write(QByteArray::fromStdString(body));
            QVERIFY(p->waitForBytesWritten(10000));
            p->closeWriteChannel();
            processes.push_back(std::move(p));
        }
        const auto waiters = rdtest::waitForLockWaiters(*observer, holderPid, 2);
        hold.commit();
        for (auto &p : processes) {
            QVERIFY(p->waitForFinished(60000));
            QVERIFY2(
                p->exitCode() == 0 || p->exitCode() == 3, p->readAllStandardError().constData());
        }
        QVERIFY2(waiters.reached, waiters.seen.c_str());
        const Ledger l = ledgerOf(db);
        QCOMPARE(l.movements, 1LL);
        QCOMPARE(l.audits, 1LL);
        QCOMPARE(l.intents, 1LL);
        QCOMPARE(
            scalar(db, "SELECT count(*) FROM reconciliation_cases WHERE status = 'open'"), 0LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 1LL);
    }

    // renewalctl ledger totals: gross by the day paid, money back by its own day, net of
    // reversals; a month with money back and no renewal is listed; equal to a hand-written
    // sum to the cent, folded or not.
    void ledgerTotalsSayGrossRefundedDisputedNet()
    {
        rdtest::TestDatabase db("moneyback_totals");
        rd::WebhookIngestor ingestor(db.conninfo());
        renewed(db, ingestor); // 20.00 USD paid 2026-01-01
        // The dispute is for what the refunds left of the 20.00 (a failed refund gives its
        // room back): 15.00, withdrawn in January, reinstated in February.
        const auto disputed = [](const char *f) {
            return replaceAll(replaceAll(fixtureFile("stripe/" + std::string(f)),
                                  "\"amount\": 2000,", "\"amount\": 1500,"),
                "\"amount\": -2000,", "\"amount\": -1500,");
        };
        for (const auto &body : {fixtureFile("stripe/refund_created.json"),
                 fixtureFile("stripe/refund_failed.json"), disputed("dispute_funds_withdrawn.json"),
                 disputed("dispute_funds_reinstated.json")}) {
            const auto r = ingestor.ingest("stripe-main", body);
            QVERIFY2(r.outcome == rd::IngestOutcome::Recorded, r.error.c_str());
        }
        const auto totals = [&](const std::string &conninfo) {
            const auto r = runProgram(ctl(),
                withDb(conninfo,
                    {"ledger", "totals", "--from", "2026-01-01", "--to", "2026-02-28", "--json"}));
            if (r.exitCode != 0)
                qWarning("%s", r.err.constData());
            return nlohmann::json::parse(r.out.toStdString());
        };
        const auto before = totals(db.conninfo());
        const nlohmann::json byMonth = nlohmann::json::parse(R"([
            {"month": "2026-01", "currency": "USD", "renewals": 1, "gross": "20.00",
             "refunded": "5.00", "disputed": "15.00", "net": "0.00"},
            {"month": "2026-02", "currency": "USD", "renewals": 0, "gross": "0.00",
             "refunded": "0.00", "disputed": "-15.00", "net": "15.00"}])");
        QCOMPARE(QString::fromStdString(before["byMonth"].dump()),
            QString::fromStdString(byMonth.dump()));
        QCOMPARE(QString::fromStdString(before["byProvider"].dump()),
            QString::fromStdString(nlohmann::json::parse(R"([{"providerKey": "stripe-main",
                "currency": "USD", "renewals": 1, "gross": "20.00", "refunded": "5.00",
                "disputed": "0.00", "net": "15.00"}])")
                                       .dump()));
        // ledger export --totals: the same figures in its appended columns.
        const auto csv = runProgram(ctl(),
            withDb(db,
                {"ledger", "export", "--totals", "--from", "2026-01-01", "--to", "2026-02-28"}));
        QCOMPARE(csv.exitCode, 0);
        const QStringList csvLines = QString::fromUtf8(csv.out).split(u'\n', Qt::SkipEmptyParts);
        const QString scope = u",paid_at,2026-01-01,2026-02-28,all,all,all,"_qs;
        QCOMPARE(csvLines.mid(1),
            (QStringList {
                u"month,2026-01,,USD,1,20.00,2000"_qs + scope + u"5.00,500,15.00,1500,0.00,0"_qs,
                u"month,2026-02,,USD,0,0.00,0"_qs + scope + u"0.00,0,-15.00,-1500,15.00,1500"_qs,
                u"provider,,stripe-main,USD,1,20.00,2000"_qs + scope
                    + u"5.00,500,0.00,0,15.00,1500"_qs,
                u"currency,,,USD,1,20.00,2000"_qs + scope + u"5.00,500,0.00,0,15.00,1500"_qs}));
        // By hand, from the rows themselves: January's net in minor units.
        QCOMPARE(scalar(db,
                     "SELECT (SELECT sum(paid_amount_minor) FROM subscription_billing_periods "
                     "WHERE paid_at >= '2026-01-01' AND paid_at < '2026-02-01') - (SELECT "
                     "sum(CASE WHEN kind IN ('refund', 'chargeback') THEN amount_minor ELSE "
                     "-amount_minor END) FROM money_movements WHERE occurred_at >= '2026-01-01' "
                     "AND occurred_at < '2026-02-01')"),
            0LL);
        // A viewer folds; the figures stay.
        const auto fold = runProgram(
            ctl(), withDb(rdtest::loginAs(db, "mb_folder", "viewer"), {"fold", "--json"}));
        QCOMPARE(fold.exitCode, 0);
        QCOMPARE(nlohmann::json::parse(fold.out.toStdString())["moneyBackDeltas"].get<long long>(),
            5LL); // one a movement: the reinstatement's chargeback was recorded before
        QCOMPARE(scalar(db, "SELECT count(*) FROM money_back_deltas"), 0LL);
        QCOMPARE(QString::fromStdString(totals(db.conninfo()).dump()),
            QString::fromStdString(before.dump()));
    }

    // Every fold's work lock has its row: a name without one is an error, not "held" (the
    // money back fold once returned 0 for ever, its row not made).
    void aWorkLockWithoutItsRowIsAnError()
    {
        rdtest::TestDatabase db("moneyback_work_lock");
        auto conn = db.connect();
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM rd_work_locks WHERE name IN ('fold renewal totals', "
                     "'fold inbox days', 'fold money back totals')"),
            3LL);
        pqxx::work tx(*conn);
        QVERIFY(tx.exec1("SELECT public.rd_try_work_lock('fold money back totals')")[0].as<bool>());
        QVERIFY_THROWS_EXCEPTION(
            pqxx::sql_error, tx.exec1("SELECT public.rd_try_work_lock('no such work')"));
    }

    // Whatever records the renewal, the movement that waited for it is recorded with it and
    // its case resolves: `renewalctl apply`, a statement's backfill, a re-apply of the
    // renewal's own case (and through it a snapshot's judgment and a healed gap), not only a
    // delivery (aRefundBeforeItsRenewalHealsWhenItArrives).
    void aWaitingMovementHealsWhateverRecordsItsRenewal_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("renewalctl apply") << "cli";
        QTest::newRow("a statement's backfill") << "statement";
        QTest::newRow("a re-apply of the renewal's case") << "reapply";
    }
    void aWaitingMovementHealsWhateverRecordsItsRenewal()
    {
        QFETCH(QString, how);
        rdtest::TestDatabase db("moneyback_heal_" + how.toStdString());
        auto conn = db.connect();
        const nlohmann::json renewal = rdtest::statementEvent(
            "in_heal", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", 2000, "sub_1QxSub0001");
        std::string caseId;
        if (how == "reapply") {
            // The renewal's own case first: its subscription was not imported yet.
            rdtest::registerStripe(*conn);
            pqxx::nontransaction tx(*conn);
            caseId = tx.exec_params1("SELECT record_reconciliation_case($1::jsonb, "
                                     "'subscription_not_found', '{}'::jsonb)",
                           renewal.dump())[0]
                         .as<std::string>();
            rdtest::importSubscriptions(db.conninfo(),
                rdtest::subscriptionLine("stripe-main", "sub_1QxSub0001", "active",
                    "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z"));
        } else {
            registered(db, "stripe-main", "stripe", "sub_1QxSub0001");
        }
        const nlohmann::json refund {{"providerKey", "stripe-main"},
            {"providerEventId", "evt_re_heal"}, {"providerSubscriptionId", nullptr},
            {"movements",
                {{{"movementKey", "re_heal"}, {"kind", "refund"}, {"amountMinor", 700},
                    {"currency", "USD"}, {"occurredAt", "2026-01-10T00:00:00Z"},
                    {"renewalRefs", {"in_heal"}}}}}};
        {
            pqxx::nontransaction tx(*conn);
            QCOMPARE(tx.exec_params1("SELECT error_code FROM record_money_movements($1::jsonb, "
                                     "'webhook', 'test')",
                           refund.dump())[0]
                         .as<std::string>(),
                std::string("refund_without_renewal"));
            if (how == "cli") {
                QCOMPARE(tx.exec1("SELECT result FROM apply_cli_renewal('stripe-main', "
                                  "'evt_cli', 'sub_1QxSub0001', 'in_heal', NULL, "
                                  "'2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', 2000, 'USD', "
                                  "'2026-01-01T00:00:00Z')")[0]
                             .as<std::string>(),
                    std::string("applied"));
            } else if (how == "reapply") {
                const auto answer = nlohmann::json::parse(
                    tx.exec_params1("SELECT reapply_case($1::bigint, 'other', 'found')", caseId)[0]
                        .as<std::string>());
                QCOMPARE(answer["result"].get<std::string>(), std::string("applied"));
            }
        }
        if (how == "statement") {
            const auto run = rdtest::importStatement(*conn, "2026-01-01", "2026-01-31", {renewal});
            QCOMPARE(run["backfilled"].get<int>(), 1);
        }
        const Ledger l = ledgerOf(db);
        QCOMPARE(l.movements, 1LL);
        QCOMPARE(l.audits, 1LL);
        QCOMPARE(l.intents, 1LL);
        QCOMPARE(text(db,
                     "SELECT status || ' ' || resolution || ' ' || resolved_by FROM "
                     "reconciliation_cases WHERE error_code = 'refund_without_renewal'"),
            std::string("resolved reapplied system"));
        QCOMPARE(text(db,
                     "SELECT (m.billing_period_id = b.id)::text FROM money_movements m, "
                     "subscription_billing_periods b WHERE b.provider_renewal_key = 'in_heal'"),
            std::string("true"));
    }

    // A movement waiting for a renewal that was recorded without healing it (the core called
    // directly): re-apply records it through the same function and
    // resolves the case; one still refused for the same reason stays open, one occurrence more,
    // no second case. A provider snapshot is refused for a money back case: it would find the
    // renewal and close the case with nothing recorded.
    void aWaitingMovementIsReappliedOnceItsRenewalIsRecorded()
    {
        rdtest::TestDatabase db("moneyback_reapply");
        registered(db, "stripe-main", "stripe", "sub_1QxSub0001");
        auto conn = db.connect();
        const auto record = [&](const std::string &key, long long amount) {
            const nlohmann::json event {{"providerKey", "stripe-main"},
                {"providerEventId", "evt_" + key}, {"providerSubscriptionId", "sub_1QxSub0001"},
                {"movements",
                    {{{"movementKey", key}, {"kind", "refund"}, {"amountMinor", amount},
                        {"currency", "USD"}, {"occurredAt", "2026-01-10T00:00:00Z"},
                        {"renewalRefs", {"in_manual"}}}}}};
            pqxx::nontransaction tx(*conn);
            const auto r = tx.exec_params1(
                "SELECT result, error_code, case_id FROM record_money_movements($1::jsonb, "
                "'webhook', 'test')",
                event.dump());
            return r[0].as<std::string>() + " " + r[1].as<std::string>("") + " "
                + r[2].as<std::string>("");
        };
        const auto reapply = [&](const std::string &caseId) {
            pqxx::nontransaction tx(*conn);
            return nlohmann::json::parse(
                tx.exec_params1(
                      "SELECT reapply_case($1::bigint, 'other', 'renewal recorded')", caseId)[0]
                    .as<std::string>());
        };
        const std::string fits = record("re_fits", 500);
        QVERIFY2(fits.starts_with("rejected refund_without_renewal "), fits.c_str());
        const std::string fitsCase = fits.substr(fits.rfind(' ') + 1);

        {
            pqxx::nontransaction tx(*conn);
            tx.exec("SELECT * FROM apply_successful_renewal('stripe-main', 'evt_manual', "
                    "'sub_1QxSub0001', 'in_manual', NULL, '2026-01-01T00:00:00Z', "
                    "'2026-02-01T00:00:00Z', 2000, 'USD', '2026-01-01T00:00:00Z', 'cli', 'test')");
            QVERIFY_THROWS_EXCEPTION(pqxx::sql_error,
                tx.exec_params("SELECT attach_provider_snapshot('{}'::jsonb, $1::bigint, "
                               "'other', 'a snapshot')",
                    fitsCase));
        }
        QCOMPARE(text(db, "SELECT status FROM reconciliation_cases WHERE id = " + fitsCase),
            std::string("open")); // the renewal's arrival by itself healed nothing
        QCOMPARE(ledgerOf(db).movements, 0LL);

        const auto done = reapply(fitsCase);
        QCOMPARE(done["result"].get<std::string>(), std::string("applied"));
        QCOMPARE(done["resolution"].get<std::string>(), std::string("reapplied"));
        const Ledger l = ledgerOf(db);
        QCOMPARE(l.movements, 1LL);
        QCOMPARE(l.audits, 1LL);
        QCOMPARE(l.intents, 1LL);
        QCOMPARE(text(db,
                     "SELECT status || ' ' || resolution || ' ' || (billing_period_id = (SELECT "
                     "id FROM subscription_billing_periods))::text FROM reconciliation_cases "
                     "WHERE id = "
                         + fitsCase),
            std::string("resolved reapplied true"));
        QCOMPARE(text(db, "SELECT recorded_by FROM money_movements"), std::string("operator"));

        // 16.00 more of a 20.00 renewal of which 5.00 went back: refused, and again on re-apply.
        const std::string over = record("re_over", 1600);
        QVERIFY2(over.starts_with("rejected refund_exceeds_payment "), over.c_str());
        const std::string overCase = over.substr(over.rfind(' ') + 1);
        const auto still = reapply(overCase);
        QCOMPARE(still["result"].get<std::string>(), std::string("rejected"));
        QCOMPARE(still["error"].get<std::string>(), std::string("refund_exceeds_payment"));
        QCOMPARE(text(db,
                     "SELECT status || ' ' || occurrences FROM reconciliation_cases WHERE id = "
                         + overCase),
            std::string("open 2"));
        QCOMPARE(
            scalar(db, "SELECT count(*) FROM reconciliation_cases WHERE status = 'open'"), 1LL);
        QCOMPARE(ledgerOf(db).movements, 1LL);
    }

    // The demo tells money back through ingest (#40, item 5), with Stripe's own events: a full
    // refund, a partial one, two partial ones of one renewal, a dispute lost, a dispute won,
    // and a refund that arrives before its renewal and is recorded when the renewal arrives.
    void theDemoTellsMoneyBack()
    {
        rdtest::TestDatabase db("moneyback_demo");
        const auto r = runProgram(
            ctl(), withDb(db, {"demo", "--seed", "7", "--now", "2026-11-30T12:00:00Z", "--json"}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(text(db,
                     "SELECT string_agg(kind || ' ' || n, ', ' ORDER BY kind) FROM (SELECT kind, "
                     "count(*) AS n FROM money_movements GROUP BY kind) k"),
            std::string("chargeback 2, chargeback_reversal 1, refund 5"));
        // Refunds of four renewals: one refunded whole, one twice in part.
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM (SELECT m.billing_period_id FROM money_movements m "
                     "JOIN subscription_billing_periods b ON b.id = m.billing_period_id WHERE "
                     "m.kind = 'refund' GROUP BY 1 HAVING sum(m.amount_minor) = "
                     "max(b.paid_amount_minor)) x"),
            1LL);
        QCOMPARE(scalar(db,
                     "SELECT max(n) FROM (SELECT count(*) AS n FROM money_movements WHERE kind = "
                     "'refund' GROUP BY billing_period_id) x"),
            2LL);
        QCOMPARE(text(db,
                     "SELECT status || ' ' || resolved_by FROM reconciliation_cases WHERE "
                     "error_code = 'refund_without_renewal'"),
            std::string("resolved system"));
        const Ledger l = ledgerOf(db);
        QCOMPARE(l.audits, 8LL);
        QCOMPARE(l.intents, 8LL);
        // Each dated after its renewal was paid, none in the future.
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM money_movements m JOIN subscription_billing_periods b "
                     "ON b.id = m.billing_period_id WHERE m.occurred_at < b.paid_at OR "
                     "m.occurred_at > '2026-11-30T12:00:00Z'"),
            0LL);
    }

    // A refund dated in a month already closed is recorded, marked after close; the closed
    // month's row keeps what it had.
    void aRefundInAClosedMonthIsAfterClose()
    {
        rdtest::TestDatabase db("moneyback_after_close");
        rd::WebhookIngestor ingestor(db.conninfo());
        renewed(db, ingestor);
        // Closing January needs statements; the fact itself is what is tested here: a month
        // close row for January, written as close_month writes it.
        auto conn = db.connect();
        pqxx::nontransaction(*conn).exec(
            "INSERT INTO month_closes (provider_key, month, statement_run_ids, statement_sha256s, "
            "statement_totals, ledger_totals, matched, backfilled, unapplied, differing, "
            "not_in_statement, cases_resolved, cases_dismissed, audit_anchor_digest, "
            "audit_anchor_heads) VALUES ('stripe-main', '2026-01-01', '{1}', ARRAY[repeat('b', "
            "64)], "
            "'{}', '{}', 0, "
            "0, 0, 0, 0, 0, 0, repeat('a', 64), 0)");
        QCOMPARE(
            outcomeName(
                ingestor.ingest("stripe-main", fixtureFile("stripe/refund_created.json")).outcome),
            outcomeName(rd::IngestOutcome::Recorded));
        QCOMPARE(scalar(db, "SELECT count(*) FROM money_movements WHERE after_close"), 1LL);
    }
};

QTEST_MAIN(TestMoneyBack)
#include "tst_moneyback.moc"
