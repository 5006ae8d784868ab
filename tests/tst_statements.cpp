#include "tests/support/lock_waiters.h"
#include "tests/support/process_runner.h"
#include "tests/support/statement_api_server.h"
#include "tests/support/test_database.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using rdtest::ctl;
using rdtest::runProgram;
using rdtest::scalar;
using rdtest::withDb;

namespace {

constexpr long long kFeb1 = 1769904000; // 2026-02-01T00:00:00Z
constexpr long long kMar1 = 1772323200; // 2026-03-01T00:00:00Z

/// A paid Stripe renewal invoice (API before basil), as GET /v1/invoices lists it.
nlohmann::json invoice(const std::string &id, const std::string &subscription, long long amount,
    long long paidAt = kFeb1 + 5, const std::string &reason = "subscription_cycle")
{
    return {{"id", id}, {"object", "invoice"}, {"subscription", subscription},
        {"billing_reason", reason}, {"status", "paid"}, {"amount_paid", amount},
        {"currency", "usd"}, {"created", kFeb1}, {"status_transitions", {{"paid_at", paidAt}}},
        {"customer_email", "someone@example.com"},
        {"lines",
            {{"object", "list"}, {"has_more", false},
                {"data",
                    nlohmann::json::array({{{"type", "subscription"}, {"proration", false},
                        {"period", {{"start", kFeb1}, {"end", kMar1}}}}})}}}};
}

QByteArray page(const std::vector<nlohmann::json> &invoices, bool hasMore)
{
    return QByteArray::fromStdString(nlohmann::json {{"object", "list"}, {"url", "/v1/invoices"},
        {"has_more", hasMore},
        {"data", invoices}}.dump());
}

/// The February renewal of `subscription` as `renewalctl apply` takes it.
QByteArray februaryEvent(const std::string &key, const std::string &subscription, long long amount)
{
    return QByteArray::fromStdString(
        nlohmann::json {{"providerKey", "stripe-main"}, {"providerEventId", "evt_" + key},
            {"providerSubscriptionId", subscription}, {"providerRenewalKey", key},
            {"providerVersion", nullptr},
            {"period", {{"start", "2026-02-01T00:00:00Z"}, {"end", "2026-03-01T00:00:00Z"}}},
            {"paidAmountMinor", amount}, {"currency", "USD"},
            {"paidAt", key == "in_5" ? "2026-02-10T00:00:00Z" : "2026-02-01T00:00:05Z"}}
            .dump()
        + "\n");
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return {};
    return path;
}

/// Everything a run may write, as one comparable line.
std::string footprint(const rdtest::TestDatabase &db)
{
    return rdtest::text(db,
        "SELECT concat_ws(' ', (SELECT count(*) FROM subscription_billing_periods), "
        "(SELECT count(*) FROM subscription_transition_audits), "
        "(SELECT count(*) FROM subscription_outbox), (SELECT count(*) FROM reconciliation_cases), "
        "(SELECT count(*) FROM reconciliation_case_history), "
        "(SELECT count(*) FROM statement_runs), (SELECT count(*) FROM statement_lines), "
        "(SELECT string_agg(provider_subscription_id || '@' || rd_rfc3339(current_period_end), "
        "',' ORDER BY provider_subscription_id) FROM subscriptions))");
}

} // namespace

/// `renewalctl statement import` against a real server: each finding, the backfill through
/// the core, re-import, the dry run, partial statements, roles and the race with a delivery.
class TestStatements : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::unique_ptr<QTemporaryDir> m_dir;

    /// Six subscriptions of stripe-main, current period January:
    /// sub_1 renewed in February (in_1) as the statement says; sub_2 not renewed here (the
    /// statement has in_2: missing); sub_3 renewed for 1999 where the statement says 2999;
    /// sub_4 set to cancel (the statement's in_4 cannot be applied); sub_5 renewed here
    /// (in_5, paid 2026-02-10) but absent from the statement; sub_6 only a first invoice.
    void seed()
    {
        std::string lines;
        for (int i = 1; i <= 6; ++i)
            lines += rdtest::subscriptionLine("stripe-main", "sub_" + std::to_string(i), "active",
                         "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", i == 4)
                + "\n";
        rdtest::importSubscriptions(m_db->conninfo(), lines);
        const auto added = runProgram(ctl(),
            withDb(*m_db, {"providers", "add", "stripe-main", "--kind", "stripe", "--name", "S"}));
        QCOMPARE(added.exitCode, 0);
        for (const auto &[key, sub, amount] : {std::tuple {"in_1", "sub_1", 1999},
                 std::tuple {"in_3", "sub_3", 1999}, std::tuple {"in_5", "sub_5", 1999}}) {
            const auto r
                = runProgram(ctl(), withDb(*m_db, {"apply"}), februaryEvent(key, sub, amount));
            QCOMPARE(r.exitCode, 0);
        }
    }

    /// The February statement in two pages.
    QStringList februaryStatement(const QString &prefix = "feb")
    {
        const QString p1 = writeFile(*m_dir, prefix + "-1.json",
            page({invoice("in_1", "sub_1", 1999), invoice("in_2", "sub_2", 1999)}, true));
        const QString p2 = writeFile(*m_dir, prefix + "-2.json",
            page({invoice("in_3", "sub_3", 2999), invoice("in_4", "sub_4", 1999),
                     invoice("in_6", "sub_6", 1999, kFeb1 + 5, "subscription_create")},
                false));
        return {p1, p2};
    }

    /// An import of hand-given pages the operator states complete (--pages-complete), as the
    /// findings' tests need: importUnproven leaves it out.
    rdtest::RunResult import(
        const QStringList &files, const QStringList &extra = {}, const std::string &conninfo = {})
    {
        return importUnproven(files, QStringList {"--pages-complete"} + extra, conninfo);
    }

    rdtest::RunResult importUnproven(
        const QStringList &files, const QStringList &extra = {}, const std::string &conninfo = {})
    {
        QStringList args {"statement", "import", "--provider-key", "stripe-main", "--from",
            "2026-02-01", "--to", "2026-02-28", "--json"};
        args << extra << files;
        return runProgram(ctl(), withDb(conninfo.empty() ? m_db->conninfo() : conninfo, args));
    }

    /// The February statement that agrees with the ledger as seeded (in_1, in_3, in_5).
    QString agreeingStatement()
    {
        return writeFile(*m_dir, "agree.json",
            page({invoice("in_1", "sub_1", 1999), invoice("in_3", "sub_3", 1999),
                     invoice("in_5", "sub_5", 1999, kFeb1 + 9 * 86400)},
                false));
    }

    rdtest::RunResult closeFebruary(const QStringList &extra = {})
    {
        return runProgram(ctl(),
            withDb(*m_db,
                QStringList {"close", "--provider-key", "stripe-main", "--month", "2026-02"}
                    + extra));
    }

private slots:
    void init()
    {
        m_db = std::make_unique<rdtest::TestDatabase>(QTest::currentTestFunction());
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        seed();
    }

    void cleanup()
    {
        m_db.reset();
        m_dir.reset();
    }

    // Every finding at once, and the backfill is one renewal: one billing period, one audit,
    // one outbox intent, the subscription advanced once.
    void eachFinding()
    {
        const auto r = import(februaryStatement());
        QVERIFY2(r.exitCode == 3, r.err.constData()); // cases remain
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(j["runId"].get<long long>() > 0);
        QCOMPARE(j["objects"].get<int>(), 5);
        QCOMPARE(j["renewals"].get<int>(), 4);
        QCOMPARE(j["matched"].get<int>(), 1);
        QCOMPARE(j["backfilled"].get<int>(), 1);
        QCOMPARE(j["unapplied"].get<int>(), 1);
        QCOMPARE(j["differing"].get<int>(), 1);
        QCOMPARE(j["notInStatement"].get<int>(), 1);
        QCOMPARE(j["cases"].get<int>(), 3);
        QCOMPARE(j["dryRun"].get<bool>(), false);
        QCOMPARE(j["alreadyImported"].get<bool>(), false);

        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM subscription_billing_periods b "
                     "JOIN subscription_transition_audits a ON a.billing_period_id = b.id "
                     "AND a.actor_type = 'statement' "
                     "JOIN subscription_outbox o ON o.billing_period_id = b.id "
                     "JOIN subscriptions s ON s.id = b.subscription_id "
                     "AND s.current_period_end = '2026-03-01T00:00:00Z' "
                     "WHERE b.provider_renewal_key = 'in_2' AND b.recorded_by = 'statement'"),
            1LL);
        QCOMPARE(scalar(*m_db, "SELECT count(*) FROM subscription_billing_periods"), 4LL);
        // The differing one keeps its recorded amount; the case holds both sides.
        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM reconciliation_cases c "
                     "JOIN statement_runs r ON r.id = c.statement_run_id "
                     "WHERE c.error_code = 'statement_disagrees' AND c.provider_renewal_key = "
                     "'in_3' AND (c.event->>'paidAmountMinor')::int = 2999 AND "
                     "(c.local_state->'conflictingBillingPeriod'->>'paidAmountMinor')::int = 1999"),
            1LL);
        QCOMPARE(
            scalar(*m_db,
                "SELECT count(*) FROM reconciliation_cases WHERE provider_renewal_key = 'in_4' "
                "AND error_code = 'renewal_conflicts_with_scheduled_cancellation'"),
            1LL);
        QCOMPARE(
            scalar(*m_db,
                "SELECT count(*) FROM reconciliation_cases WHERE provider_renewal_key = 'in_5' "
                "AND error_code = 'not_in_statement' AND status = 'open'"),
            1LL);
        // Both sides' totals over the covered days: the statement's four renewals, and the
        // ledger's four billing periods (in_1, in_2 backfilled, in_3 at 1999, in_5).
        QCOMPARE(j["statementTotals"]["USD"]["renewals"].get<int>(), 4);
        QCOMPARE(j["statementTotals"]["USD"]["amountMinor"].get<long long>(), 1999 * 3 + 2999);
        QCOMPARE(j["ledgerTotals"]["USD"]["amountMinor"].get<long long>(), 1999 * 4);
        QCOMPARE(j["openFindings"].size(), std::size_t(3));
        QCOMPARE(scalar(*m_db, "SELECT count(*) FROM audit_chain_breaks()"), 0LL);
        // Each case the run opened says so in its history, those of its own findings and the
        // one the core refused alike (0035), in the desk's words and the CLI's.
        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM reconciliation_cases c "
                     "JOIN reconciliation_case_history h ON h.case_id = c.id "
                     "AND h.action = 'opened' "
                     "WHERE rd_case_step_recorded_by(c, h) = 'statement'"),
            3LL);
        // Cases opened otherwise say who opened them: a delivery of the same kind of
        // refusal (record_reconciliation_case's default), and `renewalctl apply` (0032).
        scalar(*m_db,
            "SELECT public.record_reconciliation_case(jsonb_set(c.event, "
            "'{providerRenewalKey}', '\"in_4w\"'), c.error_code, c.local_state) "
            "FROM reconciliation_cases c WHERE c.provider_renewal_key = 'in_4'");
        const auto applied
            = runProgram(ctl(), withDb(*m_db, {"apply"}), februaryEvent("in_4c", "sub_4", 1999));
        QCOMPARE(applied.exitCode, 3);
        QCOMPARE(QString::fromStdString(rdtest::text(*m_db,
                     "SELECT string_agg(c.provider_renewal_key || ':' || "
                     "rd_case_step_recorded_by(c, h), ',' ORDER BY c.provider_renewal_key) "
                     "FROM reconciliation_cases c JOIN reconciliation_case_history h "
                     "ON h.case_id = c.id AND h.action = 'opened'")),
            u"in_3:statement,in_4:statement,in_4c:cli,in_4w:webhook,in_5:statement"_qs);
        for (const char *key : {"in_3", "in_4", "in_5"}) {
            const QString id = QString::fromStdString(rdtest::text(*m_db,
                std::string("SELECT id::text FROM reconciliation_cases WHERE "
                            "provider_renewal_key = '")
                    + key + "'"));
            const auto shown = runProgram(ctl(), withDb(*m_db, {"cases", "show", id}));
            QVERIFY2(shown.out.contains("open") && shown.out.contains("(statement import)"),
                shown.out.constData());
        }
    }

    // The same statement again (files in another order) records no renewal and opens no case
    // a second time; it is a run of its own that names the earlier one (#39, item 7).
    void importingAgainChangesNothing()
    {
        const auto files = februaryStatement();
        const auto first = import(files);
        QCOMPARE(first.exitCode, 3);
        const auto firstRun = nlohmann::json::parse(first.out.toStdString())["runId"];
        const auto records = [this] {
            return rdtest::text(*m_db,
                "SELECT concat_ws(' ', (SELECT count(*) FROM subscription_billing_periods), "
                "(SELECT count(*) FROM subscription_transition_audits), "
                "(SELECT count(*) FROM subscription_outbox), "
                "(SELECT count(*) FROM reconciliation_cases))");
        };
        const auto before = records();
        const auto again = import({files[1], files[0]});
        QCOMPARE(again.exitCode, 3); // its cases are still open
        const auto j = nlohmann::json::parse(again.out.toStdString());
        QCOMPARE(j["alreadyImported"].get<bool>(), true);
        QCOMPARE(j["repeats"]["runId"], firstRun);
        QVERIFY(j["runId"] != firstRun);
        QCOMPARE(records(), before);
        const auto human = runProgram(ctl(),
            withDb(*m_db,
                {"statement", "import", "--provider-key", "stripe-main", "--from", "2026-02-01",
                    "--to", "2026-02-28", "--pages-complete", files[0], files[1]}));
        QVERIFY2(human.out.contains("imported already"), human.out.constData());
        QVERIFY2(human.out.contains("compared again with today's ledger"), human.out.constData());
    }

    // Page 2 of 2 given alone says no page follows: without the manifest nothing proves page 1
    // was not left out, so no renewal is called missing from it, and it closes no month
    // (#39, item 2). What it lists is still judged.
    void anUnprovenStatementOpensNoNotInStatementCase()
    {
        const auto files = februaryStatement();
        const auto r = importUnproven({files[1]});
        QVERIFY2(r.exitCode == 3, r.err.constData()); // in_3 differs, in_4 cannot be applied
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["completeness"].get<std::string>(), std::string("unproven"));
        QCOMPARE(j["notInStatement"].get<int>(), 0);
        QCOMPARE(j["differing"].get<int>(), 1);
        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM reconciliation_cases WHERE error_code = "
                     "'not_in_statement'"),
            0LL);
        QCOMPARE(rdtest::text(*m_db, "SELECT completeness FROM statement_runs"),
            std::string("unproven"));
        // Its open cases dismissed, the month still cannot be closed with it.
        for (const auto id : {scalar(*m_db,
                                  "SELECT id FROM reconciliation_cases WHERE "
                                  "provider_renewal_key = 'in_3'"),
                 scalar(*m_db,
                     "SELECT id FROM reconciliation_cases WHERE provider_renewal_key = 'in_4'")}) {
            const auto dismissed = runProgram(ctl(),
                withDb(*m_db,
                    {"cases", "dismiss", QString::number(id), "--reason", "other", "--comment",
                        "checked by hand"}));
            QCOMPARE(dismissed.exitCode, 0);
        }
        const auto closed = closeFebruary();
        QCOMPARE(closed.exitCode, 4);
        QVERIFY2(closed.err.contains("is proven complete"), closed.err.constData());
        QCOMPARE(scalar(*m_db, "SELECT count(*) FROM month_closes"), 0LL);
        const auto text = runProgram(ctl(),
            withDb(*m_db,
                {"statement", "import", "--provider-key", "stripe-main", "--from", "2026-02-01",
                    "--to", "2026-02-28", "--dry-run", files[1]}));
        QVERIFY2(text.out.contains("NOT PROVEN"), text.out.constData());
        QVERIFY2(text.out.contains("not looked for"), text.out.constData());
    }

    // --pages-complete: the operator's word, recorded in the run and printed on the close
    // report (the CLI's text and the CSV).
    void pagesCompleteIsRecordedAndOnTheCloseReport()
    {
        const auto r = import({agreeingStatement()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(
            rdtest::text(*m_db, "SELECT completeness FROM statement_runs"), std::string("stated"));
        const QString csv = m_dir->filePath("close.csv");
        const auto closed = closeFebruary({"--csv", csv});
        QVERIFY2(closed.exitCode == 0, closed.err.constData());
        QVERIFY2(closed.out.contains("stated complete by the operator (--pages-complete)"),
            closed.out.constData());
        QFile report(csv);
        QVERIFY(report.open(QIODevice::ReadOnly));
        const auto runId = nlohmann::json::parse(r.out.toStdString())["runId"].get<long long>();
        const QByteArray content = report.readAll();
        QVERIFY2(content.contains("Statement completeness,run #" + QByteArray::number(runId)
                     + ": stated complete by the operator (--pages-complete)"),
            content.constData());
    }

    // A repeat import after the ledger changed compares against today's ledger: the renewal
    // recorded since is not in the statement, and the totals are today's (#39, item 7).
    void aRepeatImportComparesWithTodaysLedger()
    {
        const QString agree = agreeingStatement();
        const auto first = import({agree});
        QVERIFY2(first.exitCode == 0, first.err.constData());
        const auto firstRun = nlohmann::json::parse(first.out.toStdString())["runId"];
        QCOMPARE(runProgram(ctl(), withDb(*m_db, {"apply"}), februaryEvent("in_2", "sub_2", 1999))
                     .exitCode,
            0);
        const auto again = import({agree});
        QVERIFY2(again.exitCode == 3, again.out.constData());
        const auto j = nlohmann::json::parse(again.out.toStdString());
        QCOMPARE(j["alreadyImported"].get<bool>(), true);
        QCOMPARE(j["repeats"]["runId"], firstRun);
        QCOMPARE(j["notInStatement"].get<int>(), 1);
        QCOMPARE(j["ledgerTotals"]["USD"]["renewals"].get<int>(), 4);
        QCOMPARE(j["ledgerTotals"]["USD"]["amountMinor"].get<long long>(), 1999LL * 4);
        QCOMPARE(j["openFindings"].size(), std::size_t(1));
        QCOMPARE(
            j["openFindings"][0]["providerRenewalKey"].get<std::string>(), std::string("in_2"));
        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM reconciliation_cases WHERE provider_renewal_key = "
                     "'in_2' AND error_code = 'not_in_statement' AND status = 'open'"),
            1LL);
    }

    // An import into a closed month says so, and its backfill there is "after close" by the
    // Ledger's own rule (the close older than the billing period); the close stays as it was.
    void anImportIntoAClosedMonthSaysSo()
    {
        QCOMPARE(import({agreeingStatement()}).exitCode, 0);
        const auto closed = closeFebruary();
        QVERIFY2(closed.exitCode == 0, closed.err.constData());
        const QString more = writeFile(*m_dir, "more.json",
            page({invoice("in_1", "sub_1", 1999), invoice("in_2", "sub_2", 1999),
                     invoice("in_3", "sub_3", 1999),
                     invoice("in_5", "sub_5", 1999, kFeb1 + 9 * 86400)},
                false));
        const auto human = runProgram(ctl(),
            withDb(*m_db,
                {"statement", "import", "--provider-key", "stripe-main", "--from", "2026-02-01",
                    "--to", "2026-02-28", "--pages-complete", more}));
        QVERIFY2(human.exitCode == 0, human.out.constData());
        QVERIFY2(human.out.contains("2026-02 is closed for this provider"), human.out.constData());
        QVERIFY2(human.out.contains("backfilled after close: 1"), human.out.constData());
        const auto j = nlohmann::json::parse(rdtest::text(
            *m_db, "SELECT statement_run_json((SELECT max(id) FROM statement_runs))::text"));
        QCOMPARE(j["backfilled"].get<int>(), 1);
        QCOMPARE(j["closedMonths"].size(), std::size_t(1));
        QCOMPARE(j["closedMonths"][0]["month"].get<std::string>(), std::string("2026-02"));
        QCOMPARE(j["backfilledAfterClose"].get<int>(), 1);
        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM subscription_billing_periods b WHERE "
                     "b.provider_renewal_key = 'in_2' AND EXISTS (SELECT 1 FROM month_closes mc "
                     "WHERE mc.provider_key = b.provider_key AND mc.month = "
                     "date_trunc('month', b.paid_at AT TIME ZONE 'UTC')::date "
                     "AND mc.closed_at < b.created_at)"),
            1LL);
        QCOMPARE(scalar(*m_db, "SELECT backfilled FROM month_closes"), 0LL);
    }

    // --dry-run reports the database's own run and keeps nothing.
    void dryRunKeepsNothing()
    {
        const auto before = footprint(*m_db);
        const auto r = import(februaryStatement(), {"--dry-run"});
        QCOMPARE(r.exitCode, 3);
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["dryRun"].get<bool>(), true);
        QCOMPARE(j["backfilled"].get<int>(), 1);
        QCOMPARE(j["cases"].get<int>(), 3);
        QCOMPARE(footprint(*m_db), before);
    }

    // #42, 12: a dry run takes no run or case number: the import after it is run 1, and its
    // cases are numbered on from the last case opened before.
    void aDryRunTakesNoNumber()
    {
        const auto casesBefore
            = scalar(*m_db, "SELECT coalesce(max(id), 0) FROM reconciliation_cases");
        QCOMPARE(import(februaryStatement(), {"--dry-run"}).exitCode, 3);
        QCOMPARE(import(februaryStatement(), {"--dry-run"}).exitCode, 3);
        const auto r = import(februaryStatement());
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(nlohmann::json::parse(r.out.toStdString())["runId"].get<long long>(), 1LL);
        QCOMPARE(scalar(*m_db, "SELECT min(id) FROM reconciliation_cases"), casesBefore + 1);
        QCOMPARE(scalar(*m_db, "SELECT max(id) - min(id) + 1 - count(*) FROM reconciliation_cases"),
            0LL);
        const auto text = runProgram(ctl(),
            withDb(*m_db,
                {"statement", "import", "--provider-key", "stripe-main", "--from", "2026-02-01",
                    "--to", "2026-02-28", "--dry-run", februaryStatement("text")[0],
                    februaryStatement("text")[1]}));
        QVERIFY2(text.out.contains("Preview, rolled back (a dry run): nothing is kept"),
            text.out.constData());
    }

    // A statement whose last page is missing would call every renewal of the missing pages
    // "not in the statement": refused, nothing written.
    void aPartialStatementIsRefused()
    {
        const auto files = februaryStatement();
        const auto before = footprint(*m_db);
        const auto r = import({files[0]});
        QVERIFY2(r.exitCode == 65, r.err.constData());
        QVERIFY2(r.err.contains("statement"), r.err.constData());
        QCOMPARE(footprint(*m_db), before);
    }

    // #42, 4: without --from/--to a month's file covers the whole month its paid days fall in
    // (here 1 and 10 February: all of February), so that it can close the month; one whose
    // paid days span two months covers its first to last paid day, and claims neither month.
    void theDaysDefaultToTheMonthOfThePaidDays()
    {
        const QString february = writeFile(*m_dir, "february.json",
            page(
                {invoice("in_1", "sub_1", 1999), invoice("in_5", "sub_5", 1999, kFeb1 + 9 * 86400)},
                false));
        auto r = runProgram(ctl(),
            withDb(*m_db,
                {"statement", "import", "--provider-key", "stripe-main", "--json", february}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(rdtest::text(*m_db,
                     "SELECT covers_from || ' ' || covers_to FROM statement_runs "
                     "ORDER BY id DESC LIMIT 1"),
            std::string("2026-02-01 2026-02-28"));
        const QString spanning = writeFile(*m_dir, "spanning.json",
            page({invoice("in_1", "sub_1", 1999), invoice("in_0", "sub_6", 1999, kFeb1 - 86400)},
                false));
        r = runProgram(ctl(),
            withDb(*m_db,
                {"statement", "import", "--provider-key", "stripe-main", "--json", spanning}));
        QVERIFY2(r.exitCode == 0 || r.exitCode == 3, r.err.constData());
        QCOMPARE(rdtest::text(*m_db,
                     "SELECT covers_from || ' ' || covers_to FROM statement_runs "
                     "ORDER BY id DESC LIMIT 1"),
            std::string("2026-01-31 2026-02-01"));
    }

    // A statement that agrees with the ledger leaves nothing open: exit 0.
    void anAgreeingStatementExitsZero()
    {
        const QString only = writeFile(*m_dir, "agree.json",
            page({invoice("in_1", "sub_1", 1999), invoice("in_3", "sub_3", 1999),
                     invoice("in_5", "sub_5", 1999, kFeb1 + 9 * 86400)},
                false));
        const auto r = import({only});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["matched"].get<int>(), 3);
        QCOMPARE(j["cases"].get<int>(), 0);
    }

    // #39, item 15: an object the reader cannot read (here an invoice naming one subscription in
    // `subscription` and another in `parent`) no longer refuses the whole import (it exited 65,
    // and the month's other renewals stayed unrecorded). It is a finding with a case, filed
    // under the invoice's id; the others are matched and backfilled; the case holds the month
    // open until someone resolves or dismisses it, and the close report lists it.
    void anUnreadableObjectIsACaseNotARefusal()
    {
        auto odd = invoice("in_odd", "sub_2", 1999);
        odd["parent"] = {{"type", "subscription_details"},
            {"subscription_details", {{"subscription", "sub_9"}}}};
        const QString file = writeFile(*m_dir, "odd.json",
            page({invoice("in_1", "sub_1", 1999), invoice("in_2", "sub_2", 1999), odd,
                     invoice("in_3", "sub_3", 1999),
                     invoice("in_5", "sub_5", 1999, kFeb1 + 9 * 86400)},
                false));
        const auto r = import({file});
        QVERIFY2(r.exitCode == 3, r.err.constData()); // its case is open
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["objects"].get<int>(), 5);
        QCOMPARE(j["renewals"].get<int>(), 4);
        QCOMPARE(j["matched"].get<int>(), 3);
        QCOMPARE(j["backfilled"].get<int>(), 1);
        QCOMPARE(j["unreadable"].get<int>(), 1);
        QCOMPARE(j["notInStatement"].get<int>(), 0);
        QCOMPARE(j["cases"].get<int>(), 1);
        QCOMPARE(j["openFindings"].size(), std::size_t {1});
        QCOMPARE(j["openFindings"][0]["finding"].get<std::string>(), std::string("unreadable"));
        // The statement's totals are its readable renewals'.
        QCOMPARE(j["statementTotals"]["USD"]["renewals"].get<int>(), 4);
        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM subscription_billing_periods "
                     "WHERE provider_renewal_key = 'in_2' AND recorded_by = 'statement'"),
            1LL);
        const auto caseId = scalar(*m_db,
            "SELECT c.id FROM reconciliation_cases c "
            "JOIN statement_lines l ON l.case_id = c.id AND l.finding = 'unreadable' "
            "AND l.run_id = c.statement_run_id "
            "WHERE c.error_code = 'statement_object_unreadable' AND c.status = 'open' "
            "AND c.provider_renewal_key = 'in_odd' AND c.provider_subscription_id = 'unknown' "
            "AND c.event->'unreadable'->>'where' LIKE '%/odd.json object 2: data[2]' "
            "AND c.event->'unreadable'->>'problem' LIKE '%the invoice contradicts itself%'");
        QVERIFY(caseId > 0);
        QCOMPARE(scalar(*m_db, "SELECT count(*) FROM reconciliation_cases"), 1LL);
        QCOMPARE(scalar(*m_db, "SELECT count(*) FROM audit_chain_breaks()"), 0LL);

        // Imported again: the same case is linked, not a second one; the report says so.
        const auto again = runProgram(ctl(),
            withDb(*m_db,
                {"statement", "import", "--provider-key", "stripe-main", "--from", "2026-02-01",
                    "--to", "2026-02-28", "--pages-complete", file}));
        QVERIFY2(again.exitCode == 3, again.err.constData());
        QVERIFY2(again.out.contains("objects that could not be read (a case each): 1"),
            again.out.constData());
        QVERIFY2(again.out.contains("unreadable  in_odd  (subscription unknown): "
                                    "statement_object_unreadable"),
            again.out.constData());
        QCOMPARE(scalar(*m_db, "SELECT count(*) FROM reconciliation_cases"), 1LL);
        const auto shown
            = runProgram(ctl(), withDb(*m_db, {"cases", "show", QString::number(caseId)}));
        QVERIFY2(shown.exitCode == 0, shown.err.constData());
        QVERIFY2(shown.out.contains("Open the object in the provider's dashboard"),
            shown.out.constData());

        // The object says no paid day: its case holds the month its run covers open.
        const auto refused = closeFebruary();
        QCOMPARE(refused.exitCode, 4);
        QVERIFY2(refused.err.contains("1 open statement case (case " + QByteArray::number(caseId)),
            refused.err.constData());
        const auto dismissed = runProgram(ctl(),
            withDb(*m_db,
                {"cases", "dismiss", QString::number(caseId), "--reason", "other", "--comment",
                    "a test invoice, voided at Stripe"}));
        QCOMPARE(dismissed.exitCode, 0);
        const QString csv = m_dir->filePath("close.csv");
        const auto closed = closeFebruary({"--csv", csv});
        QVERIFY2(closed.exitCode == 0, closed.err.constData());
        QFile report(csv);
        QVERIFY(report.open(QIODevice::ReadOnly));
        const QByteArray content = report.readAll();
        QVERIFY2(content.contains(",in_odd,unknown,unreadable,,,," + QByteArray::number(caseId)
                     + ",dismissed,statement_object_unreadable,dismissed,"),
            content.constData());
        QVERIFY2(content.contains("a test invoice, voided at Stripe"), content.constData());
    }

    // An operator looked at a disagreement and dismissed it: another statement that says the
    // same links that case and does not open it again.
    void aDismissedFindingIsNotReopened()
    {
        QCOMPARE(import(februaryStatement()).exitCode, 3);
        const auto caseId = scalar(
            *m_db, "SELECT id FROM reconciliation_cases WHERE error_code = 'statement_disagrees'");
        const auto dismissed = runProgram(ctl(),
            withDb(*m_db,
                {"cases", "dismiss", QString::number(caseId), "--reason", "other", "--comment",
                    "the provider refunded 10.00 by hand; our amount stands"}));
        QCOMPARE(dismissed.exitCode, 0);
        // The same renewals plus one more file: another statement.
        auto files = februaryStatement("again");
        files << writeFile(*m_dir, "extra.json",
            page({invoice("in_7", "sub_6", 1999, kFeb1 + 5, "manual")}, false));
        const auto r = import(files);
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["alreadyImported"].get<bool>(), false);
        QCOMPARE(j["differing"].get<int>(), 1);
        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM reconciliation_cases WHERE error_code = "
                     "'statement_disagrees'"),
            1LL);
        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM statement_lines l JOIN statement_runs r ON "
                     "r.id = l.run_id WHERE l.case_id = "
                         + std::to_string(caseId)),
            2LL);
        for (const auto &f : j["openFindings"])
            QVERIFY(f["caseId"].get<long long>() != caseId);
    }

    // Who may import: an operator; a viewer is refused by the database, and nothing is kept.
    void onlyAnOperatorImports()
    {
        const auto files = februaryStatement();
        const auto before = footprint(*m_db);
        const auto viewer = import(files, {}, rdtest::loginAs(*m_db, "v", "viewer"));
        QVERIFY2(viewer.exitCode != 0 && viewer.exitCode != 3, viewer.err.constData());
        QVERIFY2(viewer.err.contains("permission denied"), viewer.err.constData());
        QCOMPARE(footprint(*m_db), before);
        const auto op = import(files, {}, rdtest::loginAs(*m_db, "o", "operator"));
        QVERIFY2(op.exitCode == 3, op.err.constData());
        QCOMPARE(
            rdtest::text(*m_db, "SELECT imported_by FROM statement_runs"), m_db->name() + "_o");
        // Runs and lines are written once, by the import's functions alone.
        auto conn = m_db->connect();
        pqxx::nontransaction tx(*conn);
        QVERIFY_EXCEPTION_THROWN(
            tx.exec0("UPDATE statement_runs SET matched = 0"), pqxx::sql_error);
        QVERIFY_EXCEPTION_THROWN(tx.exec0("DELETE FROM statement_lines"), pqxx::sql_error);
    }

    // #39, 1: a provider's imports and closes queue on a row only the definer functions may
    // lock. A viewer holding the advisory keys they (and the fold) used to take holds nothing
    // back, and can neither lock the row nor call the functions that do; nor can it take the
    // table lock a close and a money movement queue on (#40).
    void aViewerCannotHoldImportsOrClosesBack()
    {
        pqxx::connection viewer(rdtest::loginAs(*m_db, "v", "viewer"));
        {
            pqxx::nontransaction tx(viewer);
            tx.exec("SELECT pg_advisory_lock(hashtextextended("
                    "'renewal-desk statement stripe-main', 0))");
            tx.exec("SELECT pg_advisory_lock(hashtext('rd_fold_renewal_totals'))");
        }
        for (const char *attack :
            {"SELECT 1 FROM rd_work_locks FOR UPDATE", "SELECT 1 FROM rd_work_locks FOR KEY SHARE",
                "LOCK TABLE rd_work_locks IN ROW SHARE MODE", "DELETE FROM rd_work_locks",
                "INSERT INTO rd_work_locks VALUES ('statements stripe-main')",
                "SELECT rd_take_work_lock('statements stripe-main', 'x')",
                "SELECT rd_try_work_lock('fold renewal totals')",
                // #40: the lock a month close and a movement queue on (0051); a viewer's SELECT
                // lets it take only ACCESS SHARE, which holds neither back.
                "LOCK TABLE money_movements IN SHARE MODE",
                "LOCK TABLE money_movements IN ROW EXCLUSIVE MODE"}) {
            pqxx::work tx(viewer);
            try {
                tx.exec(attack);
                QFAIL(attack);
            } catch (const pqxx::sql_error &e) {
                QVERIFY2(
                    std::string(e.what()).find("permission denied") != std::string::npos, e.what());
            }
        }
        // Bounded waits: today's advisory lock would make these time out, not hang the test.
        const std::string bounded = m_db->conninfo() + " options='-c lock_timeout=5s'";
        const auto imported = import(februaryStatement(), {}, bounded);
        QVERIFY2(imported.exitCode == 3, imported.err.constData());
        const auto closed = runProgram(ctl(),
            withDb(bounded, {"close", "--provider-key", "stripe-main", "--month", "2026-02"}));
        // Refused for the open findings, not for a lock.
        QVERIFY2(closed.exitCode == 4 && closed.err.contains("(month_close_refused)"),
            closed.err.constData());
        QVERIFY(scalar(*m_db, "SELECT count(*) FROM renewal_total_deltas") > 0);
        const auto folded = runProgram(ctl(), withDb(bounded, {"fold"}));
        QVERIFY2(folded.exitCode == 0, folded.err.constData());
        QCOMPARE(scalar(*m_db, "SELECT count(*) FROM renewal_total_deltas"), 0LL);
    }

    // #39, 1: an import or close behind one that holds the provider's statement work past the
    // lock timeout is refused as busy (exit 75, the work named), with nothing written; once the
    // other has finished the same import runs.
    void aBusyImportIsRefusedAfterTheLockTimeout()
    {
        const auto files = februaryStatement();
        const auto before = footprint(*m_db);
        auto holder = m_db->connect();
        auto observer = m_db->connect();
        const int holderPid = rdtest::backendPid(*holder);
        auto hold = std::make_unique<pqxx::work>(*holder); // stands in for a running import
        hold->exec("INSERT INTO rd_work_locks VALUES ('statements stripe-main') "
                   "ON CONFLICT DO NOTHING");
        hold->exec("SELECT 1 FROM rd_work_locks WHERE name = 'statements stripe-main' FOR UPDATE");

        QStringList args {"statement", "import", "--provider-key", "stripe-main", "--from",
            "2026-02-01", "--to", "2026-02-28", "--pages-complete"};
        QProcess importer;
        importer.start(
            ctl(), withDb(m_db->conninfo() + " options='-c lock_timeout=4s'", args + files));
        QVERIFY(importer.waitForStarted());
        importer.closeWriteChannel();
        // It queued behind the holder (seen waiting), then gave up on its own.
        const auto waiting = rdtest::waitForLockWaiters(*observer, holderPid, 1);
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        QVERIFY(importer.waitForFinished(60000));
        const QByteArray err = importer.readAllStandardError();
        QCOMPARE(importer.exitCode(), 75);
        QVERIFY2(err.startsWith("renewalctl: refused (work_busy): another statement import or "
                                "month close of stripe-main is running and has held its lock "
                                "for longer than 4s"),
            err.constData());

        const auto closed = runProgram(ctl(),
            withDb(m_db->conninfo() + " options='-c lock_timeout=1s'",
                {"close", "--provider-key", "stripe-main", "--month", "2026-02"}));
        QCOMPARE(closed.exitCode, 75);
        QVERIFY2(closed.err.contains("(work_busy)"), closed.err.constData());
        QCOMPARE(footprint(*m_db), before);

        hold->commit();
        hold.reset();
        const auto again = runProgram(ctl(), withDb(*m_db, args + files));
        QVERIFY2(again.exitCode == 3, again.err.constData());
    }

    // A paid renewal whose statement object does not say the period renewed into (Stripe
    // usage billed in arrears; every Lemon Squeezy invoice): missing here, it becomes the case
    // a delivery of it opens (needs_snapshot); recorded, it is matched without the period.
    void aRenewalWithoutItsPeriodWaitsForASnapshot()
    {
        auto inArrears = invoice("in_2", "sub_2", 1999);
        inArrears["created"] = kMar1 + 10; // its only line ended before: usage in arrears
        auto recorded = invoice("in_1", "sub_1", 1999);
        recorded["created"] = kMar1 + 10;
        const QString file = writeFile(*m_dir, "arrears.json", page({inArrears, recorded}, false));
        const auto r = import({file}, {"--from", "2026-02-01", "--to", "2026-02-01"});
        QVERIFY2(r.exitCode == 3, r.err.constData());
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["renewals"].get<int>(), 2);
        QCOMPARE(j["unapplied"].get<int>(), 1);
        QCOMPARE(j["matched"].get<int>(), 1);
        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM reconciliation_cases WHERE provider_renewal_key = "
                     "'in_2' AND error_code = 'needs_snapshot' AND status = 'open'"),
            1LL);
        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM subscription_billing_periods WHERE "
                     "provider_renewal_key = 'in_2'"),
            0LL);
    }

    // The demo's lost-delivery story: the renewals Stripe charged but never delivered are in
    // the demo's statement of the month, and importing it records them; the month before
    // agrees as it is.
    void theDemosLostDeliveriesAreBackfilled()
    {
        rdtest::TestDatabase demoDb("demo_story");
        const auto demo = runProgram(ctl(),
            withDb(demoDb,
                {"demo", "--now", "2026-12-02T08:00:00Z", "--statements", m_dir->filePath("st"),
                    "--json"}));
        QVERIFY2(demo.exitCode == 0, demo.err.constData());
        const auto built = nlohmann::json::parse(demo.out.toStdString());
        const auto lost = built["lostDeliveries"].get<long long>();
        QVERIFY(lost > 0);
        // Overdue with no word from Stripe (the demo's renewal whose payment failed, #41, is
        // overdue too, and in no statement: Stripe never collected it).
        const std::string overdue
            = "SELECT count(*) FROM subscriptions s WHERE provider_key = 'stripe-main' "
              "AND status = 'active' AND NOT cancel_at_period_end "
              "AND current_period_end < '2026-12-01T08:00:00Z' AND NOT EXISTS (SELECT 1 FROM "
              "payment_attempts a WHERE a.subscription_id = s.id)";
        const auto overdueBefore = scalar(demoDb, overdue);
        QCOMPARE(overdueBefore, lost);
        const auto november = runProgram(ctl(),
            withDb(demoDb,
                {"statement", "import", "--provider-key", "stripe-main", "--from", "2026-11-01",
                    "--to", "2026-11-30", "--json",
                    m_dir->filePath("st/stripe-main-2026-11.json")}));
        const auto j = nlohmann::json::parse(november.out.toStdString());
        QCOMPARE(j["backfilled"].get<long long>(), lost);
        QCOMPARE(j["differing"].get<int>(), 0);
        QCOMPARE(j["notInStatement"].get<int>(), 0);
        QCOMPARE(scalar(demoDb, overdue), 0LL);
        const auto october = runProgram(ctl(),
            withDb(demoDb,
                {"statement", "import", "--provider-key", "stripe-main", "--from", "2026-10-01",
                    "--to", "2026-10-31", m_dir->filePath("st/stripe-main-2026-10.json")}));
        QVERIFY2(october.exitCode == 0, october.out.constData());
        QVERIFY2(october.out.contains("nothing is left open"), october.out.constData());

        // The month's money back lists beside it (#40): each refund and dispute the demo told
        // is the one its webhooks recorded.
        QStringList withMoneyBack {"statement", "import", "--provider-key", "stripe-main", "--from",
            "2026-10-01", "--to", "2026-10-31", "--json"};
        const QStringList files
            = QDir(m_dir->filePath("st")).entryList({"stripe-main-2026-10*.json"}, QDir::Files);
        QCOMPARE(files,
            QStringList({"stripe-main-2026-10-disputes.json", "stripe-main-2026-10-refunds.json",
                "stripe-main-2026-10.json"}));
        for (const auto &f : files)
            withMoneyBack << m_dir->filePath("st/" + f);
        const auto again = runProgram(ctl(), withDb(demoDb, withMoneyBack));
        QVERIFY2(again.exitCode == 0, again.err.constData());
        const auto mb = nlohmann::json::parse(again.out.toStdString())["moneyBack"];
        QVERIFY2(mb["lines"].get<int>() > 0, again.out.constData());
        QCOMPARE(mb["matched"], mb["lines"]);
        QCOMPARE(mb["statementTotals"], mb["ledgerTotals"]);
    }

    // `statement fetch`: the same February statement read from Stripe's list API (a local
    // server paging as Stripe does, with starting_after), then imported as the files were.
    void fetchedFromTheApi()
    {
        const std::vector<nlohmann::json> first {
            invoice("in_1", "sub_1", 1999), invoice("in_2", "sub_2", 1999)};
        const std::vector<nlohmann::json> second {invoice("in_3", "sub_3", 2999),
            invoice("in_4", "sub_4", 1999),
            invoice("in_6", "sub_6", 1999, kFeb1 + 5, "subscription_create")};
        const auto answer = [](int status, std::string body) {
            rdtest::ApiResponse response;
            response.status = status;
            response.body = std::move(body);
            return response;
        };
        rdtest::ApiServer api([&](const rdtest::ApiRequest &r) {
            if (r.header("authorization") != "Bearer sk_test_statement")
                return answer(401, R"({"error":{"type":"invalid_request_error"}})");
            const std::string after = r.param("starting_after");
            if (r.path == "/v1/refunds" || r.path == "/v1/disputes") // none this February
                return answer(200, page({}, false).toStdString());
            if (r.path != "/v1/invoices" || (!after.empty() && after != "in_2"))
                return answer(400, R"({"error":{}})");
            return answer(200, page(after.empty() ? first : second, after.empty()).toStdString());
        });
        const QString secrets = writeFile(*m_dir, "secrets.json",
            R"({"stripe-main": {"secrets": ["whsec_x"], "apiKey": "sk_test_statement"}})");
        QVERIFY(QFile::setPermissions(secrets, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        const auto r = runProgram(ctl(),
            withDb(*m_db,
                {"statement", "fetch", "--provider-key", "stripe-main", "--from", "2026-02-01",
                    "--to", "2026-02-28", "--secrets", secrets, "--api-base",
                    QString::fromStdString(api.base()), "--json"}));
        QVERIFY2(r.exitCode == 3, r.err.constData());
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["objects"].get<int>(), 5);
        QCOMPARE(j["files"].size(), std::size_t(4)); // two of invoices, the refunds, the disputes
        QCOMPARE(j["matched"].get<int>(), 1);
        QCOMPARE(j["backfilled"].get<int>(), 1);
        QCOMPARE(j["differing"].get<int>(), 1);
        QCOMPARE(j["notInStatement"].get<int>(), 1);
        QVERIFY(!r.err.contains("sk_test_statement"));
        // The invoices' two pages, then the refunds' and the disputes' (#40).
        QCOMPARE(api.requests().size(), std::size_t(4));
        QCOMPARE(j["listsMoneyBack"].get<bool>(), true);

        // A key the provider refuses: a fixed sentence, exit 78, nothing imported.
        const QString wrong = writeFile(*m_dir, "wrong.json",
            R"({"stripe-main": {"secrets": ["whsec_x"], "apiKey": "sk_test_revoked"}})");
        QVERIFY(QFile::setPermissions(wrong, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        const auto before = footprint(*m_db);
        const auto refused = runProgram(ctl(),
            withDb(*m_db,
                {"statement", "fetch", "--provider-key", "stripe-main", "--from", "2026-02-01",
                    "--to", "2026-02-28", "--secrets", wrong, "--api-base",
                    QString::fromStdString(api.base())}));
        QCOMPARE(refused.exitCode, 78);
        QVERIFY2(refused.err.contains("the API key was refused"), refused.err.constData());
        QVERIFY(!refused.err.contains("sk_test_revoked"));
        QCOMPARE(footprint(*m_db), before);
    }

    // `statement fetch --save DIR` keeps DIR/manifest.json, and an import of DIR (or of the
    // manifest among the files) is proven complete by it; a page missing or altered since is
    // refused (#39, item 2).
    void aSavedFetchCarriesItsManifest()
    {
        rdtest::ApiServer api([&](const rdtest::ApiRequest &r) {
            rdtest::ApiResponse response;
            const bool first = r.param("starting_after").empty();
            if (r.path != "/v1/invoices") { // the refunds' and the disputes': none
                response.body = page({}, false).toStdString();
                return response;
            }
            response.body = first
                ? page({invoice("in_1", "sub_1", 1999), invoice("in_2", "sub_2", 1999)}, true)
                      .toStdString()
                : page({invoice("in_3", "sub_3", 1999),
                           invoice("in_5", "sub_5", 1999, kFeb1 + 9 * 86400)},
                    false)
                      .toStdString();
            return response;
        });
        const QString secrets = writeFile(*m_dir, "secrets.json",
            R"({"stripe-main": {"secrets": ["whsec_x"], "apiKey": "sk_test_statement"}})");
        QVERIFY(QFile::setPermissions(secrets, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        const QString saved = m_dir->filePath("saved");
        const auto fetched = runProgram(ctl(),
            withDb(*m_db,
                {"statement", "fetch", "--provider-key", "stripe-main", "--from", "2026-02-01",
                    "--to", "2026-02-28", "--secrets", secrets, "--api-base",
                    QString::fromStdString(api.base()), "--save", saved, "--dry-run", "--json"}));
        QVERIFY2(fetched.exitCode == 0, fetched.err.constData());
        QCOMPARE(
            nlohmann::json::parse(fetched.out.toStdString())["completeness"].get<std::string>(),
            std::string("fetched"));
        QFile file(saved + "/manifest.json");
        QVERIFY(file.open(QIODevice::ReadOnly));
        const auto manifest = nlohmann::json::parse(file.readAll().toStdString());
        QCOMPARE(
            manifest["format"].get<std::string>(), std::string("renewal-desk statement pages/1"));
        QCOMPARE(manifest["provider"].get<std::string>(), std::string("stripe-main"));
        QCOMPARE(manifest["kind"].get<std::string>(), std::string("stripe"));
        QCOMPARE(manifest["from"].get<std::string>(), std::string("2026-02-01"));
        QCOMPARE(manifest["to"].get<std::string>(), std::string("2026-02-28"));
        QCOMPARE(manifest["complete"].get<bool>(), true);
        // The invoices' two pages, then the refunds' and the disputes' lists, each begun anew.
        QCOMPARE(manifest["pages"].size(), std::size_t(4));
        QVERIFY(manifest["pages"][0]["request"].is_null());
        QCOMPARE(
            manifest["pages"][1]["request"].get<std::string>(), std::string("starting_after=in_2"));
        QCOMPARE(manifest["pages"][1]["list"].get<std::string>(), std::string("/v1/invoices"));
        QVERIFY(manifest["pages"][2]["request"].is_null());
        QCOMPARE(manifest["pages"][2]["list"].get<std::string>(), std::string("/v1/refunds"));
        QCOMPARE(manifest["pages"][3]["list"].get<std::string>(), std::string("/v1/disputes"));
        const QString page1 = saved + "/" + QString::fromStdString(manifest["pages"][0]["file"]);
        const QString page2 = saved + "/" + QString::fromStdString(manifest["pages"][1]["file"]);

        // The directory: proven by its manifest, so what is recorded and absent is a finding.
        const auto r = importUnproven({saved}, {"--dry-run"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(nlohmann::json::parse(r.out.toStdString())["completeness"].get<std::string>(),
            std::string("manifest"));
        // Page 2 alone with the manifest: page 1 is missing.
        const auto before = footprint(*m_db);
        auto refused = importUnproven({saved + "/manifest.json", page2});
        QCOMPARE(refused.exitCode, 65);
        QVERIFY2(refused.err.contains("is missing"), refused.err.constData());
        // Page 1 altered in the directory.
        {
            QFile p(page1);
            QVERIFY(p.open(QIODevice::Append));
            p.write(" ");
        }
        refused = importUnproven({saved});
        QCOMPARE(refused.exitCode, 65);
        QVERIFY2(refused.err.contains("was altered"), refused.err.constData());
        QCOMPARE(footprint(*m_db), before);
    }

    // The statement's import and a webhook delivery of the same renewal (in_2), as separate
    // processes, both held at sub_2's row lock until each is seen waiting: one billing period.
    void racingADeliveryRecordsOnce()
    {
        const QString file
            = writeFile(*m_dir, "race.json", page({invoice("in_2", "sub_2", 1999)}, false));
        const nlohmann::json delivery {{"id", "evt_race"}, {"object", "event"},
            {"type", "invoice.paid"}, {"api_version", "2024-06-20"}, {"created", kFeb1 + 6},
            {"data", {{"object", invoice("in_2", "sub_2", 1999)}}}};

        auto holder = m_db->connect();
        auto observer = m_db->connect();
        const int holderPid = rdtest::backendPid(*holder);
        pqxx::work hold(*holder);
        hold.exec("SELECT 1 FROM subscriptions WHERE provider_subscription_id = 'sub_2' "
                  "FOR UPDATE");

        QProcess importer;
        importer.start(ctl(),
            withDb(*m_db,
                {"statement", "import", "--provider-key", "stripe-main", "--from", "2026-02-01",
                    "--to", "2026-02-28", "--json", file}));
        QProcess ingest;
        ingest.start(ctl(), withDb(*m_db, {"ingest", "--provider-key", "stripe-main"}));
        QVERIFY(importer.waitForStarted() && ingest.waitForStarted());
        ingest.write(QByteArray::fromStdString(delivery.dump()));
        // Written out now: nothing runs QProcess's event loop while the lock is held.
        QVERIFY(ingest.waitForBytesWritten(10000));
        ingest.closeWriteChannel();
        importer.closeWriteChannel();

        const auto waiters = rdtest::waitForLockWaiters(*observer, holderPid, 2);
        if (!waiters.reached) {
            ingest.waitForFinished(1000);
            QFAIL(qPrintable(QString::fromStdString(waiters.seen) + "; the delivery said: "
                + ingest.readAllStandardOutput() + ingest.readAllStandardError()));
        }
        hold.commit();
        QVERIFY(importer.waitForFinished(60000) && ingest.waitForFinished(60000));
        const auto imported = nlohmann::json::parse(importer.readAllStandardOutput().toStdString());
        const auto delivered = nlohmann::json::parse(ingest.readAllStandardOutput().toStdString());
        // One of them recorded it; the other found it recorded.
        const bool importWon = imported["backfilled"].get<int>() == 1;
        QCOMPARE(imported["backfilled"].get<int>() + imported["matched"].get<int>(), 1);
        QCOMPARE(delivered["outcome"].get<std::string>(),
            std::string(importWon ? "duplicate" : "applied"));
        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM subscription_billing_periods WHERE "
                     "provider_renewal_key = 'in_2'"),
            1LL);
        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM subscription_transition_audits a JOIN "
                     "subscription_billing_periods b ON b.id = a.billing_period_id WHERE "
                     "b.provider_renewal_key = 'in_2'"),
            1LL);
        QCOMPARE(scalar(*m_db,
                     "SELECT count(*) FROM subscription_outbox o JOIN "
                     "subscription_billing_periods b ON b.id = o.billing_period_id WHERE "
                     "b.provider_renewal_key = 'in_2'"),
            1LL);
    }
};

QTEST_GUILESS_MAIN(TestStatements)
#include "tst_statements.moc"
