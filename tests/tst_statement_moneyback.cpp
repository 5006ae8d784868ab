// Statements read money back (#40, item 4): a Stripe statement's /v1/refunds and /v1/disputes
// pages beside its /v1/invoices, imported against a real server. A movement the desk lacks is
// backfilled through record_money_movements (one movement, one audit row, one outbox intent);
// one it has is matched, one that differs is a case; a recorded movement the lists lack is
// not_in_statement only when every page of every money back list is known to be there.

#include "tests/support/fixture_files.h"
#include "tests/support/ingest_outcomes.h"
#include "tests/support/money_back_ledger.h"
#include "tests/support/process_runner.h"
#include "tests/support/statement_runs.h"
#include "tests/support/test_database.h"

#include "domain/core/errors.h"
#include "domain/core/statement.h"
#include "domain/core/statement_pages.h"
#include "domain/store/statement_import.h"
#include "domain/store/webhook_ingestor.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QtTest>

using nlohmann::json;
using rdtest::ctl;
using rdtest::fixtureFile;
using rdtest::outcomeName;
using rdtest::runProgram;
using rdtest::scalar;
using rdtest::withDb;

namespace {

constexpr const char *kInvoices = "/v1/invoices";
constexpr const char *kRefunds = "/v1/refunds";
constexpr const char *kDisputes = "/v1/disputes";

json objectOf(const std::string &fixture)
{
    return json::parse(fixtureFile(fixture))["data"]["object"];
}

// A Stripe list page of `objects`; `more` says a next page follows (its cursor: the last id).
std::string page(const json &objects, const char *url, bool more = false)
{
    return json {{"object", "list"}, {"data", objects}, {"has_more", more}, {"url", url}}.dump();
}

// The refund of the fixtures (re_3QxRefund0001, 5.00 of in_1QxRenew0001), as `id` for `amount`,
// created `created` (Unix seconds).
json refund(const std::string &id, long long amount, long long created)
{
    json r = objectOf("stripe/refund_created.json");
    r["id"] = id;
    r["amount"] = amount;
    r["created"] = created;
    return r;
}

// The fixtures' dispute of ch_3QxCharge0001 for 10.00: withdrawn 2026-01-11, won and reinstated
// 2026-02-01.
json wonDispute()
{
    json d = objectOf("stripe/dispute_funds_reinstated.json");
    d["amount"] = 1000;
    d["balance_transactions"][0]["amount"] = -1000;
    d["balance_transactions"][1]["amount"] = 1000;
    return d;
}

// `key` of `kind` registered, with `subscription` active until 1 January 2026 (the renewals
// the fixtures pay start there). By default the Stripe fixtures': in_1QxRenew0001 (20.00,
// paid 2026-01-01) of sub_1QxSub0001.
void registered(const rdtest::TestDatabase &db, const QString &key = u"stripe-main"_qs,
    const QString &kind = u"stripe"_qs, const std::string &subscription = "sub_1QxSub0001")
{
    QCOMPARE(runProgram(ctl(), withDb(db, {"providers", "add", key, "--kind", kind})).exitCode, 0);
    rdtest::importSubscriptions(db.conninfo(),
        rdtest::subscriptionLine(key.toStdString(), subscription, "active", "2025-12-01T00:00:00Z",
            "2026-01-01T00:00:00Z"));
}

void delivered(rd::WebhookIngestor &ingestor, const std::string &fixture, rd::IngestOutcome want)
{
    QCOMPARE(outcomeName(ingestor.ingest("stripe-main", fixtureFile(fixture)).outcome),
        outcomeName(want));
}

using Ledger = rdtest::MoneyBackLedger;

Ledger ledgerOf(const rdtest::TestDatabase &db)
{
    return rdtest::moneyBackLedgerOf(db);
}

// The three lists of a January statement as a fetch names them.
std::vector<rd::StatementFile> fetched(
    const json &invoices, const json &refunds, const json &disputes)
{
    return {{"stripe-0001.json", page(invoices, kInvoices), kInvoices},
        {"stripe-0002.json", page(refunds, kRefunds), kRefunds},
        {"stripe-0003.json", page(disputes, kDisputes), kDisputes}};
}

rd::StatementImportResult imported(const rdtest::TestDatabase &db,
    const std::vector<rd::StatementFile> &files, rd::PagesProof claimed,
    const std::string &from = "2026-01-01", const std::string &to = "2026-01-31")
{
    auto conn = db.connect();
    return rd::importStatementFiles(*conn, "stripe-main", files, from, to, false, claimed);
}

QString movementsText(const rd::NormalizeResult &n)
{
    QStringList got;
    for (const auto &m : n.movements)
        got << QString::fromStdString(m.movementKey + " " + std::string(rd::toString(m.kind)) + " "
            + std::to_string(m.amountMinor) + " " + rd::formatRfc3339(m.occurredAt));
    return got.join(u"; "_qs);
}

} // namespace

class TestStatementMoneyBack : public QObject
{
    Q_OBJECT

private slots:
    // Listed objects have no event: what each moves, and when, from the object alone.
    void listedStripeObjectsAreRead_data()
    {
        QTest::addColumn<QString>("object");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("movements");
        json failed = refund("re_failed", 700, 1767830390);
        failed["status"] = "failed";
        json lost = wonDispute();
        lost["status"] = "lost";
        lost["balance_transactions"].erase(1);
        json inquiry = objectOf("stripe/dispute_created.json");
        inquiry["status"] = "warning_needs_response";
        inquiry["balance_transactions"] = json::array();
        QTest::newRow("refund succeeded")
            << QString::fromStdString(refund("re_ok", 500, 1767830390).dump())
            << u"money_movement"_qs << u"re_ok refund 500 2026-01-07T23:59:50Z"_qs;
        // No failure time in a list: the reversal is dated by the refund's creation.
        QTest::newRow("refund failed")
            << QString::fromStdString(failed.dump()) << u"money_movement"_qs
            << u"re_failed refund 700 2026-01-07T23:59:50Z; "
               "re_failed refund_reversal 700 2026-01-07T23:59:50Z"_qs;
        QTest::newRow("dispute won")
            << QString::fromStdString(wonDispute().dump()) << u"money_movement"_qs
            << u"dp_1QxDispute0001 chargeback 1000 2026-01-11T00:00:00Z; "
               "dp_1QxDispute0001 chargeback_reversal 1000 2026-02-01T00:00:00Z"_qs;
        QTest::newRow("dispute lost")
            << QString::fromStdString(lost.dump()) << u"money_movement"_qs
            << u"dp_1QxDispute0001 chargeback 1000 2026-01-11T00:00:00Z"_qs;
        QTest::newRow("inquiry") << QString::fromStdString(inquiry.dump()) << u"not_a_renewal"_qs
                                 << QString();
    }

    void listedStripeObjectsAreRead()
    {
        QFETCH(QString, object);
        QFETCH(QString, outcome);
        QFETCH(QString, movements);
        const std::vector<rd::StatementFile> files {
            {"p.json", page(json::array({json::parse(object.toStdString())}), kRefunds)}};
        const auto statement = rd::readStatement(rd::ProviderKind::Stripe, "stripe-main", files);
        QCOMPARE(statement.entries.size(), std::size_t {1});
        const auto &n = statement.entries[0].normalization;
        QCOMPARE(QString::fromStdString(rd::toJson(n)["outcome"].get<std::string>()), outcome);
        QCOMPARE(movementsText(n), movements);
    }

    // A listed Lemon Squeezy invoice refunded since is its renewal and its money back at once:
    // the normalization's JSON shows both.
    void aListedRenewalCarriesItsMoneyBackInItsJson()
    {
        const json invoice = json::parse(fixtureFile("lemonsqueezy/refund.json"))["data"];
        const std::vector<rd::StatementFile> files {{"lines.jsonl", invoice.dump() + "\n"}};
        const auto statement
            = rd::readStatement(rd::ProviderKind::LemonSqueezy, "lemon-shop", files);
        QCOMPARE(statement.entries.size(), std::size_t {1});
        const json j = rd::toJson(statement.entries[0].normalization);
        QCOMPARE(j["outcome"].get<std::string>(), std::string("needs_snapshot"));
        QVERIFY(j["event"].is_object());
        QCOMPARE(j["movements"].size(), std::size_t {1});
        QCOMPARE(
            j["movements"][0]["movementKey"].get<std::string>(), std::string("3051/refunded/999"));
    }

    // A fetch reads the invoices, then the refunds, then the disputes; its manifest names each
    // page's list, and each next list starts with no request after the last page of the one
    // before.
    void aManifestChainsEachList()
    {
        const json first = json::array({refund("re_a", 100, 1767830390)});
        const json second = json::array({refund("re_b", 100, 1767830391)});
        std::vector<rd::StatementFile> pages {
            {"stripe-0001.json", page(json::array(), kInvoices), kInvoices},
            {"stripe-0002.json", page(first, kRefunds, true), kRefunds},
            {"stripe-0003.json", page(second, kRefunds), kRefunds},
            {"stripe-0004.json", page(json::array(), kDisputes), kDisputes}};
        const rd::StatementFile manifestFile {"manifest.json",
            rd::pagesManifestJson(
                rd::ProviderKind::Stripe, "stripe-main", "2026-01-01", "2026-01-31", pages)};
        const auto manifest = rd::readPagesManifest(manifestFile);
        QVERIFY(manifest);
        QCOMPARE(manifest->pages[2].request.value_or("none"), std::string("starting_after=re_a"));
        QVERIFY(!manifest->pages[3].request);
        QCOMPARE(manifest->pages[3].list, std::string(kDisputes));
        QVERIFY(rd::listsEveryMoneyBackList(rd::ProviderKind::Stripe, manifest->lists()));
        QVERIFY(!rd::listsEveryMoneyBackList(rd::ProviderKind::Stripe, {kInvoices, kRefunds}));
        const auto read = rd::readStatement(rd::ProviderKind::Stripe, "stripe-main", pages);
        rd::checkPagesAgainstManifest(*manifest, read, "stripe-main");

        // The refunds' second page lost, manifest and all: the first page links to it.
        auto shorter = *manifest;
        shorter.pages.erase(shorter.pages.begin() + 2);
        auto fewer = pages;
        fewer.erase(fewer.begin() + 2);
        const auto readFewer = rd::readStatement(rd::ProviderKind::Stripe, "stripe-main",
            std::vector<rd::StatementFile> {fewer[0], fewer[1], fewer[2]});
        QVERIFY_THROWS_EXCEPTION(
            rd::InputError, rd::checkPagesAgainstManifest(shorter, readFewer, "stripe-main"));
        // A list's page asked with a cursor right after another list: its first page is missing.
        auto noFirst = *manifest;
        noFirst.pages.erase(noFirst.pages.begin() + 1);
        const auto readNoFirst = rd::readStatement(rd::ProviderKind::Stripe, "stripe-main",
            std::vector<rd::StatementFile> {pages[0], pages[2], pages[3]});
        try {
            rd::checkPagesAgainstManifest(noFirst, readNoFirst, "stripe-main");
            QFAIL("accepted a list without its first page");
        } catch (const rd::InputError &e) {
            QVERIFY2(std::string(e.what()).find("first page of that list is missing")
                    != std::string::npos,
                e.what());
        }
    }

    // Matched, backfilled, and exactly once on a second import.
    void aStatementBackfillsAndMatchesMoneyBack()
    {
        rdtest::TestDatabase db("stmt_mb_backfill");
        registered(db);
        rd::WebhookIngestor ingestor(db.conninfo());
        delivered(ingestor, "stripe/renewal_pre_basil.json", rd::IngestOutcome::Applied);
        delivered(ingestor, "stripe/refund_created.json", rd::IngestOutcome::Recorded);
        QCOMPARE(ledgerOf(db), (Ledger {1, 1, 1}));

        const auto files = fetched(json::array({objectOf("stripe/renewal_pre_basil.json")}),
            json::array({refund("re_3QxRefund0001", 500, 1767830390),
                refund("re_3QxRefund0002", 300, 1767916800)}),
            json::array({wonDispute()}));
        const auto run = imported(db, files, rd::PagesProof::Fetched);
        const json &mb = run.summary["moneyBack"];
        QCOMPARE(run.summary["listsMoneyBack"].get<bool>(), true);
        QCOMPARE(mb["matched"].get<int>(), 1);
        QCOMPARE(mb["backfilled"].get<int>(), 2);
        QCOMPARE(mb["notInStatement"].get<int>(), 0);
        QCOMPARE(run.summary["renewals"].get<int>(), 1);
        QCOMPARE(run.summary["matched"].get<int>(), 1);
        // The refund, the dispute's chargeback and its reinstatement: each once, with its audit
        // row and outbox intent, recorded by the statement.
        QCOMPARE(ledgerOf(db), (Ledger {4, 4, 4}));
        QCOMPARE(scalar(db, "SELECT count(*) FROM money_movements WHERE recorded_by = 'statement'"),
            3LL);
        // Dated by the movement (the refund's 2026-01-09), the line too; January's sums agree
        // on both sides: 8.00 refunded, 10.00 disputed (won on 1 February, outside it).
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM statement_lines WHERE money_back AND finding = "
                     "'backfilled' AND provider_renewal_key = 're_3QxRefund0002' AND occurred_at "
                     "= '2026-01-09T00:00:00Z' AND money_movement_id IS NOT NULL"),
            1LL);
        QCOMPARE(mb["statementTotals"]["USD"]["refundedMinor"].get<long long>(), 800);
        QCOMPARE(mb["statementTotals"]["USD"]["disputedMinor"].get<long long>(), 1000);
        QCOMPARE(mb["ledgerTotals"], mb["statementTotals"]);

        const auto again = imported(db, files, rd::PagesProof::Fetched);
        QCOMPARE(again.summary["moneyBack"]["matched"].get<int>(), 3);
        QCOMPARE(again.summary["moneyBack"]["backfilled"].get<int>(), 0);
        QCOMPARE(ledgerOf(db), (Ledger {4, 4, 4}));
    }

    // The renewal the statement backfills is there for its refund, listed after it.
    void aRefundOfARenewalTheStatementBackfillsIsRecorded()
    {
        rdtest::TestDatabase db("stmt_mb_both");
        registered(db);
        const auto run = imported(db,
            fetched(json::array({objectOf("stripe/renewal_pre_basil.json")}),
                json::array({refund("re_3QxRefund0001", 500, 1767830390)}), json::array()),
            rd::PagesProof::Fetched);
        QCOMPARE(run.summary["backfilled"].get<int>(), 1);
        QCOMPARE(run.summary["moneyBack"]["backfilled"].get<int>(), 1);
        QCOMPARE(ledgerOf(db), (Ledger {1, 1, 1}));
        QCOMPARE(scalar(db, "SELECT count(*) FROM reconciliation_cases"), 0LL);
    }

    // A listed refund whose amount is not the one recorded: a case, nothing changed.
    void aListedRefundThatDiffersIsACase()
    {
        rdtest::TestDatabase db("stmt_mb_differs");
        registered(db);
        rd::WebhookIngestor ingestor(db.conninfo());
        delivered(ingestor, "stripe/renewal_pre_basil.json", rd::IngestOutcome::Applied);
        delivered(ingestor, "stripe/refund_created.json", rd::IngestOutcome::Recorded);
        const auto run = imported(db,
            fetched(json::array({objectOf("stripe/renewal_pre_basil.json")}),
                json::array({refund("re_3QxRefund0001", 600, 1767830390)}), json::array()),
            rd::PagesProof::Fetched);
        QCOMPARE(run.summary["moneyBack"]["differing"].get<int>(), 1);
        QCOMPARE(ledgerOf(db), (Ledger {1, 1, 1}));
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM reconciliation_cases c JOIN statement_lines l ON "
                     "l.case_id = c.id WHERE l.money_back AND c.status = 'open' AND "
                     "c.error_code = 'money_movement_conflict' AND c.statement_run_id = l.run_id"),
            1LL);
        QCOMPARE(scalar(db, "SELECT amount_minor FROM money_movements"), 500LL);
    }

    // A refund recorded from its webhook that the refunds list lacks: not_in_statement when
    // every money back list is known whole (fetched in this run, or a manifest naming each),
    // never from pages given by hand or a fetch that lacks a list.
    void aRecordedRefundTheListsLackIsNotInStatement_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<int>("notInStatement");
        QTest::newRow("fetched, every list") << u"fetched"_qs << 1;
        QTest::newRow("manifest naming every list") << u"manifest"_qs << 1;
        QTest::newRow("fetched without the disputes") << u"fetched-no-disputes"_qs << 0;
        QTest::newRow("a manifest written before #40") << u"old-manifest"_qs << 0;
        QTest::newRow("pages given by hand, stated complete") << u"stated"_qs << 0;
        QTest::newRow("pages given by hand") << u"unproven"_qs << 0;
    }

    void aRecordedRefundTheListsLackIsNotInStatement()
    {
        QFETCH(QString, how);
        QFETCH(int, notInStatement);
        rdtest::TestDatabase db("stmt_mb_missing");
        registered(db);
        rd::WebhookIngestor ingestor(db.conninfo());
        delivered(ingestor, "stripe/renewal_pre_basil.json", rd::IngestOutcome::Applied);
        delivered(ingestor, "stripe/refund_created.json", rd::IngestOutcome::Recorded);

        auto files = fetched(
            json::array({objectOf("stripe/renewal_pre_basil.json")}), json::array(), json::array());
        rd::PagesProof claimed = rd::PagesProof::Fetched;
        if (how == u"fetched-no-disputes"_qs) {
            files.pop_back();
        } else if (how == u"manifest"_qs || how == u"old-manifest"_qs) {
            std::string manifest = rd::pagesManifestJson(
                rd::ProviderKind::Stripe, "stripe-main", "2026-01-01", "2026-01-31", files);
            if (how == u"old-manifest"_qs) {
                // The one list a fetch read before #40: the invoices, no "list" named.
                files.resize(1);
                files[0].list.clear();
                manifest = rd::pagesManifestJson(
                    rd::ProviderKind::Stripe, "stripe-main", "2026-01-01", "2026-01-31", files);
                QVERIFY(manifest.find("\"list\"") == std::string::npos);
            }
            for (auto &f : files)
                f.list.clear(); // as given on a command line
            files.push_back({"manifest.json", manifest});
            claimed = rd::PagesProof::Unproven;
        } else if (how != u"fetched"_qs) {
            for (auto &f : files)
                f.list.clear();
            claimed = how == u"stated"_qs ? rd::PagesProof::Stated : rd::PagesProof::Unproven;
        }
        const auto run = imported(db, files, claimed);
        QCOMPARE(run.summary["moneyBack"]["notInStatement"].get<int>(), notInStatement);
        QCOMPARE(run.summary["notInStatement"].get<int>(), 0); // the renewal is listed
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM reconciliation_cases c JOIN statement_lines l ON "
                     "l.case_id = c.id WHERE l.money_back AND l.finding = 'not_in_statement' "
                     "AND c.error_code = 'not_in_statement' AND c.status = 'open' AND "
                     "c.provider_renewal_key = 're_3QxRefund0001' AND l.money_movement_id = "
                     "(SELECT id FROM money_movements)"),
            static_cast<long long>(notInStatement));
        QCOMPARE(ledgerOf(db), (Ledger {1, 1, 1}));
    }

    // Recurly's refund listed on its own names the payment it refunds, never the renewal's
    // invoice: the renewal keeps its invoice's payments as refs, so the refund finds it
    // whether the renewal came from the same statement or, recorded earlier without them, is
    // matched by it.
    void aListedRecurlyRefundFindsItsRenewalByItsPayment_data()
    {
        QTest::addColumn<bool>("recordedBefore");
        QTest::newRow("renewal backfilled by the statement") << false;
        QTest::newRow("renewal recorded before, without its payments") << true;
    }

    void aListedRecurlyRefundFindsItsRenewalByItsPayment()
    {
        QFETCH(bool, recordedBefore);
        rdtest::TestDatabase db("stmt_mb_recurly");
        registered(db, u"recurly-main"_qs, u"recurly"_qs, "qx6pb4ypdhwl");
        json invoice = json::parse(fixtureFile("recurly/renewal.json"));
        if (recordedBefore) {
            // As a delivery before 0049 recorded it: no payment kept.
            rd::WebhookIngestor ingestor(db.conninfo());
            QCOMPARE(outcomeName(ingestor.ingest("recurly-main", invoice.dump()).outcome),
                outcomeName(rd::IngestOutcome::Applied));
            QCOMPARE(scalar(db, "SELECT count(*) FROM billing_period_payment_refs"), 0LL);
        }
        invoice["transactions"] = json::array({{{"id", "qx6ptxnpay01"}, {"object", "transaction"},
            {"type", "purchase"}, {"status", "success"}}});
        const json refundTxn = json::parse(
            fixtureFile("recurly/refund_credit_invoice_refunded.json"))["transactions"][0];
        const auto list = [](const json &objects) {
            return json {{"object", "list"}, {"has_more", false}, {"data", objects}}.dump();
        };
        auto conn = db.connect();
        const auto run = rd::importStatementFiles(*conn, "recurly-main",
            {{"recurly-0001.json", list(json::array({invoice})), "/invoices"},
                {"recurly-0002.json", list(json::array({refundTxn})), "/transactions"}},
            "2026-01-01", "2026-01-31", false, rd::PagesProof::Fetched);
        QCOMPARE(run.summary["listsMoneyBack"].get<bool>(), true);
        QCOMPARE(run.summary[recordedBefore ? "matched" : "backfilled"].get<int>(), 1);
        QCOMPARE(run.summary["moneyBack"]["backfilled"].get<int>(), 1);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM money_movements m JOIN subscription_billing_periods b "
                     "ON b.id = m.billing_period_id WHERE b.provider_renewal_key = 'qx6pel8cxbcm' "
                     "AND m.movement_key = 'qx6ptxnref01' AND m.amount_minor = 500"),
            1LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM reconciliation_cases"), 0LL);
    }

    // The month a money back line belongs to is its movement's, never its renewal's: the
    // refund of January's renewal made on 2 February, and one past what was paid (a case), are
    // February's findings, and the open case holds February's close.
    void aMoneyBackFindingBelongsToItsOwnMonth()
    {
        rdtest::TestDatabase db("stmt_mb_month");
        registered(db);
        rd::WebhookIngestor ingestor(db.conninfo());
        delivered(ingestor, "stripe/renewal_pre_basil.json", rd::IngestOutcome::Applied);
        const auto run = imported(db,
            fetched(json::array(),
                json::array(
                    {refund("re_feb", 500, 1770000000), refund("re_big", 2500, 1770000001)}),
                json::array()),
            rd::PagesProof::Fetched, "2026-02-01", "2026-02-28");
        QCOMPARE(run.summary["moneyBack"]["backfilled"].get<int>(), 1);
        QCOMPARE(run.summary["moneyBack"]["unapplied"].get<int>(), 1);
        const auto linesOf = [&](const char *month) {
            return scalar(db,
                "SELECT count(*) FROM rd_month_close_lines('stripe-main', '" + std::string(month)
                    + "') l WHERE l.finding IN ('backfilled', 'unapplied')");
        };
        QCOMPARE(linesOf("2026-02-01"), 2LL);
        QCOMPARE(linesOf("2026-01-01"), 0LL);
        auto conn = db.connect();
        const auto refusal = pqxx::nontransaction(*conn).exec1(
            "SELECT month_close_refusal_reason('stripe-main', '2026-02-01')::text");
        QVERIFY2(std::string(refusal[0].c_str()).find("open_cases") != std::string::npos,
            refusal[0].c_str());
    }
};

QTEST_MAIN(TestStatementMoneyBack)
#include "tst_statement_moneyback.moc"
