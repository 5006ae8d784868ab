// Closing a month (migration 0031, `renewalctl close`): the refusals, what a close stores, that
// it is written once, who may close, and the CLI's exit codes, JSON and CSV report.
#include "domain/core/sha256.h"
#include "domain/store/action_refused.h"
#include "domain/store/audit_chains.h"
#include "domain/store/month_close.h"
#include "domain/store/roles.h"
#include "tests/support/lock_waiters.h"
#include "tests/support/process_runner.h"
#include "tests/support/statement_runs.h"
#include "tests/support/test_database.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <fstream>
#include <future>
#include <regex>
#include <sstream>

using namespace rdtest;

namespace {

const nlohmann::json kFeb
    = statementEvent("in_feb", "2026-02-01T00:00:05Z", "2026-03-01T00:00:05Z", 1999);
const nlohmann::json kMar
    = statementEvent("in_mar", "2026-03-01T00:00:05Z", "2026-04-01T00:00:05Z", 1999);

/// The refusal close_month raised, as the programs see it.
std::optional<rd::ActionRefused> refusalOf(pqxx::connection &conn, const std::string &month)
{
    try {
        rd::closeMonth(conn, "stripe-main", month);
    } catch (const rd::ActionRefused &e) {
        return e;
    }
    return std::nullopt;
}

/// CSV lines split into cells (the report's cells hold no commas or quotes in these tests
/// except where a test says so).
std::vector<std::vector<std::string>> csvRows(const std::string &text)
{
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::string cell;
        bool quoted = false;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char c = line[i];
            if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                cells.push_back(cell);
                cell.clear();
            } else {
                cell += c;
            }
        }
        cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

/// Records one movement of stripe-main's renewal `renewalKey` as a delivery would
/// (record_money_movements, actor webhook); returns its result.
std::string recordMovement(pqxx::connection &conn, const std::string &key, const std::string &kind,
    long long amount, const std::string &occurredAt, const std::string &renewalKey = "in_feb")
{
    const nlohmann::json event = {{"providerKey", "stripe-main"},
        {"providerEventId", "evt_" + key + "_" + kind}, {"providerSubscriptionId", "sub_1"},
        {"movements",
            {{{"movementKey", key}, {"kind", kind}, {"amountMinor", amount}, {"currency", "USD"},
                {"occurredAt", occurredAt}, {"renewalRefs", {renewalKey}}}}}};
    pqxx::nontransaction tx(conn);
    return tx
        .exec_params1("SELECT result FROM record_money_movements($1::jsonb, 'webhook', 'test')",
            event.dump())[0]
        .as<std::string>();
}

/// A close's money back of one currency as the report says it, "movements/refunded/disputed"
/// ("" when the report has none for it).
std::string moneyBackOf(const nlohmann::json &report, const char *key, const char *currency = "USD")
{
    const auto &totals = report.at(key);
    if (!totals.contains(currency))
        return {};
    const auto &t = totals.at(currency);
    return std::to_string(t.at("movements").get<long long>()) + "/"
        + std::to_string(t.at("refundedMinor").get<long long>()) + "/"
        + std::to_string(t.at("disputedMinor").get<long long>());
}

} // namespace

class TestMonthClose : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestDatabase> m_db;

    std::unique_ptr<pqxx::connection> admin() { return m_db->connect(); }

    /// `renewalctl close --csv` of stripe-main's `month` (YYYY-MM): its exit code, what it
    /// printed, and the report's CSV rows.
    struct CliClose
    {
        int exitCode = -1;
        QByteArray out;
        std::vector<std::vector<std::string>> rows;
    };
    CliClose closeByCli(const QString &month)
    {
        QTemporaryDir dir;
        const QString csvPath = dir.filePath("close.csv");
        const auto r = runProgram(ctl(),
            withDb(*m_db,
                {"close", "--provider-key", "stripe-main", "--month", month, "--csv", csvPath}));
        std::ifstream file(csvPath.toStdString());
        std::stringstream content;
        content << file.rdbuf();
        return {r.exitCode, r.out, csvRows(content.str())};
    }

private slots:
    void init()
    {
        m_db = std::make_unique<TestDatabase>(QTest::currentTestFunction());
        importSubscriptions(m_db->conninfo(),
            subscriptionLine(
                "stripe-main", "sub_1", "active", "2026-01-01T00:00:05Z", "2026-02-01T00:00:05Z"));
        registerStripe(*admin());
    }
    void cleanup() { m_db.reset(); }

    void refusedWithoutAStatementRun()
    {
        auto conn = admin();
        const auto refused = refusalOf(*conn, "2026-02-01");
        QVERIFY(refused);
        QVERIFY(refused->refusal() == rd::Refusal::MonthCloseRefused);
        QCOMPARE(refused->code(), std::string("month_close_refused"));
        QVERIFY2(std::string(refused->what())
                     .find("no statement run of stripe-main covers all "
                           "of 2026-02")
                != std::string::npos,
            refused->what());
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM month_closes"), 0LL);
    }

    // A run of the first half of February does not cover February; the sentence names it.
    void refusedWhenTheRunDoesNotCoverTheMonth()
    {
        auto conn = admin();
        const auto run = importStatement(*conn, "2026-02-01", "2026-02-14", {kFeb});
        const auto refused = refusalOf(*conn, "2026-02-01");
        QVERIFY(refused);
        const std::string why = refused->what();
        QVERIFY2(why.find("run " + std::to_string(run["runId"].get<long long>())
                     + " covers only 2026-02-01 to 2026-02-14")
                != std::string::npos,
            why.c_str());
        // #42, 4: and what the close needs instead, not "import a statement of the whole
        // month first" to someone who just imported one.
        QVERIFY2(why.find("closing 2026-02 needs one covering 2026-02-01 to 2026-02-28")
                    != std::string::npos
                && why.find("whole month first") == std::string::npos,
            why.c_str());
        // A run of another month does not count either.
        importStatement(*conn, "2026-03-01", "2026-03-31", {kMar});
        QVERIFY(refusalOf(*conn, "2026-02-01"));
    }

    // A statement that disagrees with the recorded renewal opens a case; the month stays open
    // until a person dismisses (or resolves) it, and the close then counts it.
    void refusedWhileAStatementCaseIsOpen()
    {
        auto conn = admin();
        recordRenewal(*conn, kFeb);
        auto differing = kFeb;
        differing["paidAmountMinor"] = 2500;
        const auto run = importStatement(*conn, "2026-02-01", "2026-02-28", {differing});
        QCOMPARE(run["differing"].get<int>(), 1);
        const auto caseId
            = scalar(*conn, "SELECT case_id FROM statement_lines WHERE finding = 'differing'");
        const auto refused = refusalOf(*conn, "2026-02-01");
        QVERIFY(refused);
        const std::string why = refused->what();
        QVERIFY2(why.find("has 1 open statement case (case " + std::to_string(caseId) + ")")
                != std::string::npos,
            why.c_str());
        {
            pqxx::nontransaction tx(*conn);
            tx.exec_params("SELECT dismiss_case($1, 'other', 'refunded at the provider')", caseId);
        }
        const auto closed = rd::closeMonth(*conn, "stripe-main", "2026-02-01");
        QCOMPARE(closed["differing"].get<int>(), 1);
        QCOMPARE(closed["casesDismissed"].get<int>(), 1);
        QCOMPARE(closed["casesResolved"].get<int>(), 0);
        // Both sides as they are: the ledger's 19.99 beside the statement's 25.00.
        QCOMPARE(closed["ledgerTotals"]["USD"]["amountMinor"].get<long long>(), 1999LL);
        QCOMPARE(closed["statementTotals"]["USD"]["amountMinor"].get<long long>(), 2500LL);
    }

    void refusedWhenClosedAlready()
    {
        auto conn = admin();
        importStatement(*conn, "2026-02-01", "2026-02-28", {kFeb});
        rd::closeMonth(*conn, "stripe-main", "2026-02-01");
        const auto refused = refusalOf(*conn, "2026-02-01");
        QVERIFY(refused);
        const std::string who = text(*m_db, "SELECT current_user");
        QVERIFY2(std::string(refused->what()).find("2026-02 was closed already, by " + who + " at ")
                != std::string::npos,
            refused->what());
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM month_closes"), 1LL);
    }

    void refusedBeforeTheMonthEnds()
    {
        auto conn = admin();
        const std::string month = text(*m_db,
            "SELECT date_trunc('month', now() AT TIME ZONE "
            "'UTC')::date::text");
        const std::string last = text(*m_db,
            "SELECT ((date_trunc('month', now() AT TIME ZONE "
            "'UTC') + interval '1 month')::date - 1)::text");
        importStatement(*conn, month, last, {});
        const auto refused = refusalOf(*conn, month);
        QVERIFY(refused);
        QVERIFY2(std::string(refused->what()).find("has not ended yet") != std::string::npos,
            refused->what());
    }

    void refusedForAnotherDayThanTheFirstOrAnUnknownProvider()
    {
        auto conn = admin();
        const auto refused = refusalOf(*conn, "2026-02-03");
        QVERIFY(refused);
        QVERIFY2(std::string(refused->what()).find("2026-02-03 is not the first day of a month")
                != std::string::npos,
            refused->what());
        try {
            rd::closeMonth(*conn, "nobody", "2026-02-01");
            QFAIL("closed the month of an unregistered provider");
        } catch (const rd::ActionRefused &e) {
            QVERIFY(e.refusal() == rd::Refusal::ProviderNotRegistered);
        }
    }

    // The close stores both sides' totals for the month only (a March renewal of the same run
    // is not February's), the counts, the runs and their digests, and the audit anchor digest
    // that `renewalctl audit anchor` computes at the same moment.
    void closeStoresTotalsCountsAndTheAnchorDigest()
    {
        auto conn = admin();
        recordRenewal(*conn, kFeb);
        const auto run = importStatement(*conn, "2026-02-01", "2026-03-31", {kFeb, kMar});
        QCOMPARE(run["matched"].get<int>(), 1);
        QCOMPARE(run["backfilled"].get<int>(), 1);
        std::ostringstream anchor;
        std::string digest;
        const long long heads
            = rd::exportAuditAnchor(*conn, anchor, rd::AnchorLayout::Indented, &digest);
        const auto closed = rd::closeMonth(*conn, "stripe-main", "2026-02-01");
        QCOMPARE(closed["result"].get<std::string>(), std::string("closed"));
        QCOMPARE(closed["month"].get<std::string>(), std::string("2026-02"));
        QCOMPARE(closed["auditAnchorDigest"].get<std::string>(), digest);
        QCOMPARE(closed["auditAnchorHeads"].get<long long>(), heads);
        QCOMPARE(closed["matched"].get<int>(), 1);
        QCOMPARE(closed["backfilled"].get<int>(), 0); // March's backfill is March's
        QCOMPARE(closed["statementRunIds"].dump(), nlohmann::json::array({run["runId"]}).dump());
        QCOMPARE(closed["statementSha256s"].dump(),
            nlohmann::json::array({run["statementSha256"]}).dump());
        const nlohmann::json usd = {{"USD", {{"renewals", 1}, {"amountMinor", 1999}}}};
        QCOMPARE(closed["ledgerTotals"].dump(), usd.dump());
        QCOMPARE(closed["statementTotals"].dump(), usd.dump());
        QCOMPARE(closed["closedBy"].get<std::string>(), text(*m_db, "SELECT current_user"));
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM month_closes WHERE month = '2026-02-01' "
                     "AND audit_anchor_digest = '"
                         + digest + "' AND ledger_totals = statement_totals"),
            1LL);
    }

    // Money back counts in the month of its own date, never its renewal's: February's close
    // holds February's refund and chargeback, not March's refund of the same renewal; net is
    // gross less both. The CLI says it, and the CSV appends refunded, disputed and net.
    void closeCountsMoneyBackByItsOwnMonth()
    {
        auto conn = admin();
        recordRenewal(*conn, kFeb);
        QCOMPARE(recordMovement(*conn, "re_feb", "refund", 500, "2026-02-10T12:00:00Z"),
            std::string("recorded"));
        QCOMPARE(recordMovement(*conn, "dp_feb", "chargeback", 200, "2026-02-28T23:59:59Z"),
            std::string("recorded"));
        QCOMPARE(recordMovement(*conn, "re_mar", "refund", 300, "2026-03-01T00:00:00Z"),
            std::string("recorded"));
        importStatement(*conn, "2026-02-01", "2026-02-28", {kFeb});
        const auto ok = closeByCli("2026-02");
        QCOMPARE(ok.exitCode, 0);
        QVERIFY2(ok.out.contains("USD: ledger 1 renewal(s) 19.99, statement 1 renewal(s) 19.99; "
                                 "refunded 5.00, disputed 2.00, net 12.99\n"),
            ok.out.constData());
        const auto report = rd::monthCloseReport(*conn, "stripe-main", "2026-02-01");
        QCOMPARE(moneyBackOf(report, "moneyBackTotals"), std::string("2/500/200"));
        QCOMPARE(report["afterCloseTotals"].dump(), std::string("{}"));
        QCOMPARE(report["afterClose"].dump(), std::string("[]"));

        std::vector<std::string> usd;
        for (const auto &r : ok.rows)
            if (!r.empty() && r[0] == "USD")
                usd = r;
        QCOMPARE(usd,
            (std::vector<std::string> {"USD", "1", "19.99", "1", "19.99", "0.00", "5.00", "2.00",
                "12.99", "0.00", "0.00"}));
    }

    // A movement recorded after its month was closed leaves that close as it was, and the
    // provider's next close counts it and lists it; the one after does not count it again.
    void moneyBackAfterTheCloseIsInTheNextReport()
    {
        auto conn = admin();
        recordRenewal(*conn, kFeb);
        importStatement(*conn, "2026-02-01", "2026-02-28", {kFeb});
        rd::closeMonth(*conn, "stripe-main", "2026-02-01");
        const auto februaryBefore = rd::monthCloseReport(*conn, "stripe-main", "2026-02-01");
        QCOMPARE(februaryBefore["moneyBackTotals"].dump(), std::string("{}"));

        QCOMPARE(recordMovement(*conn, "re_late", "refund", 700, "2026-02-20T08:00:00Z"),
            std::string("recorded"));
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM money_movements WHERE after_close AND "
                     "movement_key = 're_late'"),
            1LL);
        QCOMPARE(
            rd::monthCloseReport(*conn, "stripe-main", "2026-02-01").dump(), februaryBefore.dump());

        recordRenewal(*conn, kMar);
        importStatement(*conn, "2026-03-01", "2026-03-31", {kMar});
        const auto ok = closeByCli("2026-03");
        QCOMPARE(ok.exitCode, 0);
        QVERIFY2(ok.out.contains("refunded 0.00, disputed 0.00, net 19.99; after close of earlier "
                                 "months: refunded 7.00, disputed 0.00\n"),
            ok.out.constData());
        const auto march = rd::monthCloseReport(*conn, "stripe-main", "2026-03-01");
        QCOMPARE(march["moneyBackTotals"].dump(), std::string("{}"));
        QCOMPARE(moneyBackOf(march, "afterCloseTotals"), std::string("1/700/0"));
        QCOMPARE(march["afterClose"].size(), std::size_t(1));
        QCOMPARE(march["afterClose"][0]["movementKey"].get<std::string>(), std::string("re_late"));
        QCOMPARE(march["afterClose"][0]["renewalKey"].get<std::string>(), std::string("in_feb"));
        QCOMPARE(march["afterClose"][0]["occurredAt"].get<std::string>(),
            std::string("2026-02-20T08:00:00.000000Z"));
        std::vector<std::string> listed;
        for (const auto &r : ok.rows)
            if (!r.empty() && r[0] == "re_late")
                listed = r;
        QCOMPARE(listed.size(), std::size_t(8));
        QCOMPARE(listed[1], std::string("refund"));
        QCOMPARE(listed[2], std::string("7.00"));
        QCOMPARE(listed[6], std::string("in_feb"));

        importStatement(*conn, "2026-04-01", "2026-04-30", {});
        const auto april = rd::closeMonth(*conn, "stripe-main", "2026-04-01");
        QCOMPARE(april["afterCloseTotals"].dump(), std::string("{}"));
        QCOMPARE(april["afterClose"].dump(), std::string("[]"));
    }

    // A close and a movement of its month at the same moment, in both orders, each proven to
    // wait for the other: the movement is counted by the close, or it sees the close and is
    // after close; never neither (the close's figure missing it and the movement not marked).
    void aCloseAndAMovementAtOnceNeverMissEachOther()
    {
        auto conn = admin();
        recordRenewal(*conn, kFeb);
        recordRenewal(*conn, kMar);
        importStatement(*conn, "2026-02-01", "2026-03-31", {kFeb, kMar});
        auto observer = admin();

        // 1. A movement being recorded holds the close back; the close counts it.
        {
            auto holder = admin();
            const int holderPid = backendPid(*holder);
            pqxx::work hold(*holder);
            hold.exec_params("SELECT record_money_movements($1::jsonb, 'webhook', 'test')",
                nlohmann::json(
                    {{"providerKey", "stripe-main"}, {"providerEventId", "evt_a"},
                        {"providerSubscriptionId", "sub_1"},
                        {"movements",
                            {{{"movementKey", "re_a"}, {"kind", "refund"}, {"amountMinor", 100},
                                {"currency", "USD"}, {"occurredAt", "2026-02-15T00:00:00Z"},
                                {"renewalRefs", {"in_feb"}}}}}})
                    .dump());
            auto close = std::async(std::launch::async, [&] {
                auto c = admin();
                return rd::closeMonth(*c, "stripe-main", "2026-02-01");
            });
            const auto waiters = waitForLockWaiters(*observer, holderPid, 1);
            hold.commit();
            const auto closed = close.get();
            QVERIFY2(waiters.reached, waiters.seen.c_str());
            QCOMPARE(moneyBackOf(closed, "moneyBackTotals"), std::string("1/100/0"));
            QCOMPARE(scalar(*conn, "SELECT count(*) FROM money_movements WHERE after_close"), 0LL);
        }
        // 2. A close being made holds the movement back; the movement sees it.
        {
            auto holder = admin();
            const int holderPid = backendPid(*holder);
            pqxx::work hold(*holder);
            hold.exec("SELECT close_month('stripe-main', '2026-03-01')");
            auto record = std::async(std::launch::async, [&] {
                auto c = admin();
                return recordMovement(*c, "re_b", "refund", 200, "2026-03-15T00:00:00Z", "in_mar");
            });
            const auto waiters = waitForLockWaiters(*observer, holderPid, 1);
            hold.commit();
            QCOMPARE(record.get(), std::string("recorded"));
            QVERIFY2(waiters.reached, waiters.seen.c_str());
            QCOMPARE(moneyBackOf(rd::monthCloseReport(*conn, "stripe-main", "2026-03-01"),
                         "moneyBackTotals"),
                std::string());
            QCOMPARE(scalar(*conn,
                         "SELECT count(*) FROM money_movements WHERE after_close AND "
                         "movement_key = 're_b'"),
                1LL);
        }
    }

    void closeIsWrittenOnce()
    {
        auto conn = admin();
        importStatement(*conn, "2026-02-01", "2026-02-28", {kFeb});
        rd::closeMonth(*conn, "stripe-main", "2026-02-01");
        for (const std::string sql : {"UPDATE month_closes SET closed_by = 'mallory'",
                 "DELETE FROM month_closes", "TRUNCATE month_closes CASCADE"}) {
            pqxx::work tx(*conn);
            QVERIFY_THROWS_EXCEPTION(pqxx::sql_error, tx.exec0(sql));
        }
        QCOMPARE(
            scalar(*conn, "SELECT count(*) FROM month_closes WHERE closed_by <> 'mallory'"), 1LL);
    }

    // An operator may close; a viewer may ask whether the month can be closed and read the
    // closes, but not close.
    void onlyAnOperatorCloses()
    {
        {
            auto conn = admin();
            importStatement(*conn, "2026-02-01", "2026-02-28", {kFeb});
        }
        pqxx::connection viewer(loginAs(*m_db, "vera", "viewer"));
        {
            pqxx::nontransaction tx(viewer);
            QVERIFY(
                tx.exec1("SELECT month_close_refusal('stripe-main', '2026-02-01')")[0].is_null());
            QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege,
                tx.exec("SELECT close_month('stripe-main', '2026-02-01')"));
        }
        pqxx::connection op(loginAs(*m_db, "olga", "operator"));
        const auto closed = rd::closeMonth(op, "stripe-main", "2026-02-01");
        const std::string closer = closed["closedBy"].get<std::string>();
        QVERIFY2(closer.find("olga") != std::string::npos, closer.c_str());
        pqxx::nontransaction tx(viewer);
        QCOMPARE(tx.exec1("SELECT count(*) FROM month_closes")[0].as<int>(), 1);
        QCOMPARE(tx.exec1("SELECT month_close_report('stripe-main', '2026-02-01')->>'closedBy'")[0]
                     .as<std::string>(),
            closer);
    }

    // The CLI: exit 4 with the database's sentence (and one JSON object with --json), exit 0
    // with the close, the CSV report with both sides' totals and each finding.
    void cliClosesOrSaysWhyNot()
    {
        const auto refused = runProgram(ctl(),
            withDb(
                *m_db, {"close", "--provider-key", "stripe-main", "--month", "2026-02", "--json"}));
        QCOMPARE(refused.exitCode, 4);
        const auto answer = nlohmann::json::parse(refused.out.toStdString());
        QCOMPARE(answer["error"].get<std::string>(), std::string("month_close_refused"));
        QVERIFY2(refused.err.contains("no statement run of stripe-main covers all of 2026-02"),
            refused.err.constData());

        const auto bad = runProgram(
            ctl(), withDb(*m_db, {"close", "--provider-key", "stripe-main", "--month", "2026-13"}));
        QCOMPARE(bad.exitCode, 64);
        QVERIFY2(bad.err.contains("--month"), bad.err.constData());

        {
            auto conn = admin();
            recordRenewal(*conn, kFeb);
            auto eur = statementEvent(
                "in_feb_eur", "2026-02-10T00:00:00Z", "2026-03-10T00:00:00Z", 1050, "sub_2", "JPY");
            importStatement(*conn, "2026-02-01", "2026-02-28", {kFeb, eur});
            // sub_2 is not known here: an unapplied case, dismissed with a note that is a formula.
            const auto caseId
                = scalar(*conn, "SELECT case_id FROM statement_lines WHERE finding = 'unapplied'");
            pqxx::nontransaction tx(*conn);
            tx.exec_params("SELECT dismiss_case($1, 'other', '=not ours, test mode')", caseId);
        }
        const auto ok = closeByCli("2026-02");
        QCOMPARE(ok.exitCode, 0);
        QVERIFY2(ok.out.contains("USD: ledger 1 renewal(s) 19.99, statement 1 renewal(s) 19.99"),
            ok.out.constData());
        QVERIFY2(ok.out.contains("JPY: ledger 0 renewal(s) 0, statement 1 renewal(s) 1050"),
            ok.out.constData());

        const auto &rows = ok.rows;
        const auto find = [&](const std::string &first) {
            for (const auto &r : rows)
                if (!r.empty() && r[0] == first)
                    return r;
            return std::vector<std::string> {};
        };
        QCOMPARE(find("Provider").at(1), std::string("stripe-main"));
        QCOMPARE(find("Month").at(1), std::string("2026-02"));
        QCOMPARE(find("Cases dismissed").at(1), std::string("1"));
        QCOMPARE(find("Audit anchor digest").at(1),
            text(*m_db, "SELECT audit_anchor_digest FROM month_closes"));
        QCOMPARE(find("USD"),
            (std::vector<std::string> {"USD", "1", "19.99", "1", "19.99", "0.00", "0.00", "0.00",
                "19.99", "0.00", "0.00"}));
        QCOMPARE(find("JPY"),
            (std::vector<std::string> {
                "JPY", "0", "0", "1", "1050", "-1050", "0", "0", "0", "0", "0"}));
        std::vector<std::string> unapplied;
        for (const auto &r : rows)
            if (r.size() > 4 && r[4] == "unapplied")
                unapplied = r;
        QCOMPARE(unapplied.size(), std::size_t(16));
        QCOMPARE(unapplied[15], std::string()); // a renewal's finding: no money back kind
        QCOMPARE(unapplied[2], std::string("in_feb_eur"));
        QCOMPARE(unapplied[9], std::string("dismissed"));
        QCOMPARE(unapplied[11], std::string("dismissed"));
        // The CSV rule: an operator's note that starts like a formula is text.
        QCOMPARE(unapplied[14], std::string("'=not ours, test mode"));
    }

    // #42, items 10 and 11: the report an auditor is handed names the person who closed (their
    // own login, an owning operator, not the database's superuser, although close_month runs
    // as its definer), cites the run as "run #N" (a bare "2" read as a count), writes every
    // instant alike (the close's own time came with microseconds, ".123456Z", where the
    // statement's said "05Z"), and ends with the SHA-256 of every byte above its last line,
    // which an auditor recomputes.
    void closeReportNamesThePersonAndProvesItself()
    {
        {
            auto conn = admin();
            recordRenewal(*conn, kFeb);
            importStatement(*conn, "2026-02-01", "2026-02-28", {kFeb});
        }
        const std::string dana = m_db->name() + "_dana";
        rd::grantOwner(*admin(), dana, /*ownerMayBeSuperuser=*/true);
        QTemporaryDir dir;
        const QString csvPath = dir.filePath("close.csv");
        const auto r = runProgram(ctl(),
            withDb(m_db->conninfo() + " user=" + dana,
                {"close", "--provider-key", "stripe-main", "--month", "2026-02", "--csv",
                    csvPath}));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(("closed by " + dana + " at ").c_str()), r.out.constData());
        const std::string run = "run #"
            + std::to_string(scalar(*m_db,
                "SELECT max(id) FROM "
                "statement_runs"));
        QVERIFY2(r.out.contains(("  statement: " + run + "\n").c_str()), r.out.constData());
        QCOMPARE(text(*m_db, "SELECT closed_by FROM month_closes"), dana);

        std::ifstream file(csvPath.toStdString(), std::ios::binary);
        std::stringstream content;
        content << file.rdbuf();
        const std::string csv = content.str();
        const auto rows = csvRows(csv);
        const auto find = [&](const std::string &first) {
            for (const auto &row : rows)
                if (!row.empty() && row[0] == first)
                    return row;
            return std::vector<std::string> {};
        };
        QCOMPARE(find("Closed by").at(1), dana);
        QCOMPARE(find("Statement").at(1), run);
        const std::regex instant(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)");
        const std::regex uniform(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)");
        int instants = 0;
        for (const auto &row : rows)
            for (const auto &cell : row)
                if (std::regex_search(cell, instant)) {
                    ++instants;
                    QVERIFY2(std::regex_match(cell, uniform), cell.c_str());
                }
        QVERIFY(instants >= 2); // closed at, the finding's paid at

        // The last line: what it covers, and the digest of exactly that.
        QVERIFY(csv.size() > 2 && csv.back() == '\n');
        const std::size_t lastLine = csv.rfind('\n', csv.size() - 2) + 1;
        const std::string above = csv.substr(0, lastLine);
        QCOMPARE(rows.back().at(0), std::string("SHA-256 of every byte above this line"));
        QCOMPARE(rows.back().at(1), rd::sha256Hex(above));
        QVERIFY(above.size() > 2 && above.substr(above.size() - 2) == "\n\n"); // a block of its own
        std::string changed = above;
        changed.replace(changed.find(dana), dana.size(), "postgres");
        QVERIFY(rd::sha256Hex(changed) != rows.back().at(1));
    }
};

QTEST_GUILESS_MAIN(TestMonthClose)
#include "tst_monthclose.moc"
