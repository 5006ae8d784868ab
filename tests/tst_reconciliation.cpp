#include "domain/core/case_next_step.h"
#include "domain/store/audit_chains.h"
#include "domain/store/case_actions.h"
#include "domain/store/renewal_applier.h"
#include "tests/support/gap_case.h"
#include "tests/support/lock_waiters.h"
#include "tests/support/process_runner.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"

#include <pqxx/pqxx>

#include <QtTest>

#include <cstdio>
#include <future>
#include <set>
#include <sstream>
#include <thread>

using rd::ApplyOutcome;
using rdtest::februaryRenewal;
using rdtest::kCaseNote;
using rdtest::marchRenewal;
using rdtest::observe;
using rdtest::outcomeName;
using rdtest::scalar;
using rdtest::snapshotOfFebruary;
using rdtest::ts;

/// The ways out of a case other than a snapshot (tst_snapshot): re-apply, dismiss, reopen; the
/// reasons and refusals the programs map; and the tamper-evident trail they leave.
class TestReconciliation : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

private slots:
    void init() { m_db = rdtest::databaseWithSub1(); }

    void cleanup() { m_db.reset(); }

    // The operator's way: once the case is applicable (here the projection was corrected by
    // hand, which heals nothing by itself), re-apply records the renewal as the operator's.
    void reapplyOnceTheCaseIsApplicable()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        {
            auto admin = m_db->connect();
            pqxx::work tx(*admin);
            tx.exec0("UPDATE subscriptions SET current_period_start = '2026-02-01T00:00:00Z', "
                     "current_period_end = '2026-03-01T00:00:00Z'");
            tx.commit();
        }

        auto conn = m_db->connect();
        QVERIFY(rd::showCase(*conn, caseId)["applicableNow"].get<bool>());
        const auto result = rd::reapplyCase(*conn, caseId, kCaseNote);
        QCOMPARE(result.json["result"].get<std::string>(), std::string("applied"));
        QCOMPARE(result.json["resolution"].get<std::string>(), std::string("reapplied"));
        QVERIFY(result.resolved());
        QCOMPARE(result.resolution, std::string("reapplied"));
        const auto c = rd::showCase(*conn, caseId);
        QCOMPARE(c["status"].get<std::string>(), std::string("resolved"));
        QCOMPARE(c["resolvedBy"].get<std::string>(), std::string("postgres"));
        QCOMPARE(observe(*conn).periodEnd, std::string("2026-04-01T00:00:00.000000Z"));
        // The answer says where the apply left the subscription, read in its own transaction.
        QVERIFY(result.periodAfter);
        QCOMPARE(result.periodAfter->start, std::string("2026-03-01T00:00:00.000000Z"));
        QCOMPARE(result.periodAfter->end, std::string("2026-04-01T00:00:00.000000Z"));
        // The operator's renewal is audited as the operator's, by the database role.
        pqxx::read_transaction tx(*conn);
        const auto audit = tx.exec1("SELECT actor_type, actor_id, db_role FROM "
                                    "subscription_transition_audits WHERE provider_renewal_key = "
                                    "'in_march'");
        QCOMPARE(audit[0].as<std::string>(), std::string("operator"));
        QCOMPARE(audit[1].as<std::string>(), std::string("postgres"));
        QCOMPARE(audit[2].as<std::string>(), std::string("postgres"));
    }

    void reapplyStillNotContiguousStaysOpen()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        auto conn = m_db->connect();
        const auto result = rd::reapplyCase(*conn, caseId, kCaseNote);
        QCOMPARE(result.json["result"].get<std::string>(), std::string("rejected"));
        QCOMPARE(result.json["error"].get<std::string>(),
            std::string("renewal_period_is_not_contiguous"));
        const auto c = rd::showCase(*conn, caseId);
        QCOMPARE(c["status"].get<std::string>(), std::string("open"));
        const auto &history = c["history"];
        QCOMPARE(history.size(), std::size_t(2)); // the webhook's attempt and the operator's
        QCOMPARE(history[0]["action"].get<std::string>(), std::string("opened"));
        QCOMPARE(history[1]["action"].get<std::string>(), std::string("reapply"));
        QCOMPARE(history[1]["outcome"].get<std::string>(), std::string("rejected"));
        QCOMPARE(history[1]["reason"].get<std::string>(), kCaseNote.reason);
        QCOMPARE(history[1]["comment"].get<std::string>(), kCaseNote.comment);
        QCOMPARE(observe(*conn).billingPeriods, 0LL);
    }

    void dismissNeedsANote()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        auto conn = m_db->connect();
        try {
            rd::dismissCase(*conn, caseId, {"customer_request", ""});
            QFAIL("expected a refusal");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(e.code(), std::string("note_required"));
        }
        QCOMPARE(rd::dismissCase(*conn, caseId, {"customer_request", "refunded by support"})
                     .toJson()["result"]
                     .get<std::string>(),
            std::string("dismissed"));
        try {
            rd::reapplyCase(*conn, caseId, kCaseNote);
            QFAIL("expected a refusal");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(e.code(), std::string("case_already_closed"));
        }
    }

    void alteredAuditRowIsFound()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        QCOMPARE(outcomeName(applier.apply(februaryRenewal()).outcome),
            outcomeName(ApplyOutcome::Applied));
        auto conn = m_db->connect();
        QVERIFY(rd::verifyAuditChains(*conn).empty());
        std::stringstream anchor;
        QCOMPARE(rd::exportAuditAnchor(*conn, anchor), 1LL);

        long long tampered = 0;
        {
            // Only a superuser who disables the guard can do this: the chain still tells.
            pqxx::work tx(*conn);
            tx.exec0("ALTER TABLE subscription_transition_audits DISABLE TRIGGER "
                     "subscription_audits_append_only");
            tampered = tx.exec1("UPDATE subscription_transition_audits SET actor_id = 'mallory' "
                                "WHERE transition = 'subscription_renewed' RETURNING id")[0]
                           .as<long long>();
            tx.exec0("ALTER TABLE subscription_transition_audits ENABLE TRIGGER "
                     "subscription_audits_append_only");
            tx.commit();
        }
        const auto breaks = rd::verifyAuditChains(*conn);
        QCOMPARE(breaks.size(), std::size_t(1));
        QCOMPARE(breaks[0].rowId, tampered);
        QVERIFY(breaks[0].problem.find("altered") != std::string::npos);
        QCOMPARE(rd::checkAuditAnchor(*conn, anchor).mismatchCount, 0LL);

        // And the CLI says so, naming the row, with a non-zero exit.
        const auto r = rdtest::runProgram(
            rdtest::ctl(), {"audit", "verify", "--db", QString::fromStdString(m_db->conninfo())});
        QCOMPARE(r.exitCode, 65);
        QVERIFY2(r.err.contains(("row " + std::to_string(tampered)).c_str()), r.err.constData());
    }

    void removedAuditRowsAreFound()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        QCOMPARE(outcomeName(applier.apply(februaryRenewal()).outcome),
            outcomeName(ApplyOutcome::Applied));
        auto e = marchRenewal();
        QCOMPARE(outcomeName(applier.apply(e).outcome), outcomeName(ApplyOutcome::Applied));
        auto conn = m_db->connect();
        std::stringstream anchor;
        rd::exportAuditAnchor(*conn, anchor);
        {
            pqxx::work tx(*conn);
            tx.exec0("ALTER TABLE subscription_transition_audits DISABLE TRIGGER "
                     "subscription_audits_append_only");
            // The middle row (February's renewal) and the head (March's).
            tx.exec0("DELETE FROM subscription_transition_audits WHERE chain_seq IN (2, 3)");
            tx.exec0("ALTER TABLE subscription_transition_audits ENABLE TRIGGER "
                     "subscription_audits_append_only");
            tx.commit();
        }
        // Removing the tail leaves a consistent prefix: only the exported anchor shows it.
        const auto anchored = rd::checkAuditAnchor(*conn, anchor).mismatches;
        QCOMPARE(anchored.size(), std::size_t(1));
        QVERIFY(anchored[0].problem.find("removed") != std::string::npos);
    }

    void removedMiddleRowIsFound()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        QCOMPARE(outcomeName(applier.apply(februaryRenewal()).outcome),
            outcomeName(ApplyOutcome::Applied));
        QCOMPARE(
            outcomeName(applier.apply(marchRenewal()).outcome), outcomeName(ApplyOutcome::Applied));
        auto conn = m_db->connect();
        {
            pqxx::work tx(*conn);
            tx.exec0("SET session_replication_role = replica"); // triggers off for this session
            tx.exec0("DELETE FROM subscription_transition_audits WHERE chain_seq = 2");
            tx.commit();
        }
        const auto breaks = rd::verifyAuditChains(*conn);
        QCOMPARE(breaks.size(), std::size_t(2));
        QCOMPARE(breaks[0].seq, 3LL);
        QVERIFY(breaks[0].problem.find("missing") != std::string::npos);
        // The removed row recorded February's renewal: its billing period, which no audit row
        // records now, is a break of its own (#39, item 3).
        QVERIFY2(breaks[1].problem.find("has no audit row recording it") != std::string::npos,
            breaks[1].problem.c_str());
    }

    // The database refuses to close a case as resolved without the billing period of its renewal.
    void aResolvedCaseWithoutItsRenewalIsRefusedByTheDatabase()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        auto conn = m_db->connect();
        pqxx::work tx(*conn);
        QVERIFY_THROWS_EXCEPTION(pqxx::check_violation,
            tx.exec0("UPDATE reconciliation_cases SET status = 'resolved', resolution = "
                     "'snapshot_attached' WHERE id = "
                + std::to_string(caseId)));
    }

    // "Applicable now" is the core's verdict: a period that ends before it starts is not.
    void invalidPeriodIsNeverApplicable()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        auto e = februaryRenewal("sub_1", "evt_bad", "in_bad");
        e.period = {ts("2026-02-01T00:00:00Z"), ts("2026-01-20T00:00:00Z")};
        const auto out = applier.apply(e);
        QCOMPARE(rdtest::rejectionOf(out), std::string("invalid_provider_billing_period"));
        auto conn = m_db->connect();
        const auto cases = rd::listCases(*conn, std::string("open"));
        QCOMPARE(cases.size(), std::size_t(1));
        QCOMPARE(cases[0]["applicableNow"].get<bool>(), false);
        QCOMPARE(rd::showCase(*conn, *out.caseId)["applicableNow"].get<bool>(), false);
        QCOMPARE(rd::reapplyCase(*conn, *out.caseId, kCaseNote).json["result"].get<std::string>(),
            std::string("rejected"));
    }

    // Re-apply records the reason the renewal fails now, not the reason it failed first.
    void reapplyRecordsTheReasonItFailsNow()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        auto conn = m_db->connect();
        {
            pqxx::work tx(*conn);
            tx.exec0("UPDATE subscriptions SET status = 'past_due', current_period_start = "
                     "'2026-02-01T00:00:00Z', current_period_end = '2026-03-01T00:00:00Z'");
            tx.commit();
        }
        const auto result = rd::reapplyCase(*conn, caseId, kCaseNote);
        QCOMPARE(result.json["error"].get<std::string>(),
            std::string("renewal_not_allowed_for_subscription_status"));
        const auto c = rd::showCase(*conn, caseId);
        QCOMPARE(c["errorCode"].get<std::string>(),
            std::string("renewal_not_allowed_for_subscription_status"));
        QCOMPARE(c["localState"]["status"].get<std::string>(), std::string("past_due"));
    }

    // #28, 20: a case dismissed by mistake is open again, in the queue and counted, by an
    // operator with a note; the history chain keeps the dismissal and the reopen.
    void reopenPutsADismissedCaseBackInTheQueue()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        pqxx::connection alice(rdtest::loginAs(*m_db, "alice", "operator"));
        rd::dismissCase(alice, caseId, {"test_data", "looked like test data"});
        QCOMPARE(rd::listCases(alice, std::string("open")).size(), std::size_t(0));

        const auto answer = rd::reopenCase(alice, caseId, "sub_1 is a paying customer");
        QCOMPARE(answer.toJson()["result"], "reopened");
        QCOMPARE(answer.dismissedBy, m_db->name() + "_alice");
        const auto open = rd::listCases(alice, std::string("open"));
        QCOMPARE(open.size(), std::size_t(1));
        QCOMPARE(open[0]["id"].get<std::int64_t>(), caseId);
        const auto c = rd::showCase(alice, caseId);
        QCOMPARE(c["status"], "open");
        QVERIFY(c["resolution"].is_null() && c["resolvedBy"].is_null()
            && c["resolutionComment"].is_null());
        const auto &last = c["history"].back();
        QCOMPARE(last["action"], "reopened");
        QCOMPARE(last["actor"], m_db->name() + "_alice");
        QCOMPARE(last["comment"], "sub_1 is a paying customer");
        QCOMPARE(last["details"]["dismissalNote"], "looked like test data");
        QCOMPARE(c["history"][c["history"].size() - 2]["action"], "dismissed");
        auto conn = m_db->connect();
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM audit_chain_breaks()"), 0LL);
        QVERIFY(rd::verifyAuditChains(*conn).empty());
        // Open like any other: the core closes it when its renewal is recorded.
        rd::attachSnapshot(*conn, snapshotOfFebruary(rdtest::capturedNow()), caseId, kCaseNote);
        QCOMPARE(rd::showCase(*conn, caseId)["status"], "resolved");
    }

    // #42, 5: a payload conflict's renewal was recorded before its case opened, so it is no
    // reason to refuse the reopen of its dismissal; case_detail says so before the operator asks.
    void reopenAPayloadConflict()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        QVERIFY(applier.apply(februaryRenewal()).outcome == ApplyOutcome::Applied);
        auto corrected = februaryRenewal("sub_1", "evt_corrected");
        corrected.paidAmountMinor = 2499;
        const auto out = applier.apply(corrected);
        QCOMPARE(rdtest::rejectionOf(out), std::string("provider_renewal_key_payload_conflict"));
        const auto caseId = *out.caseId;
        pqxx::connection alice(rdtest::loginAs(*m_db, "alice", "operator"));
        QCOMPARE(rd::showCase(alice, caseId)["reopenable"], false); // open: nothing to reopen
        rd::dismissCase(alice, caseId, {"test_data", "looked like test data"});
        const auto dismissed = rd::showCase(alice, caseId);
        QCOMPARE(dismissed["reopenable"], true);
        QVERIFY(dismissed["reopenRefusal"].is_null());
        QCOMPARE(
            rd::reopenCase(alice, caseId, "the provider did change the amount").toJson()["result"],
            "reopened");
        QCOMPARE(rd::showCase(alice, caseId)["status"], "open");
    }

    // What may not be reopened, and why: each refusal typed, in one sentence, nothing written.
    void reopenIsRefused_data()
    {
        QTest::addColumn<QString>("situation");
        QTest::addColumn<QString>("note");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("says");
        QTest::newRow("an open case") << "open"
                                      << "why"
                                      << "case_not_reopenable"
                                      << "is open: there is nothing to reopen";
        QTest::newRow("a resolved case") << "resolved"
                                         << "why"
                                         << "case_not_reopenable"
                                         << "only a dismissed case can be reopened";
        QTest::newRow("renewal recorded since") << "recorded"
                                                << "why"
                                                << "case_not_reopenable"
                                                << "has been recorded since it was dismissed";
        QTest::newRow("another open case of the renewal")
            << "other"
            << "why"
            << "case_not_reopenable"
            << "is open for the same renewal (in_march)";
        QTest::newRow("a closed month") << "closed"
                                        << "why"
                                        << "case_not_reopenable"
                                        << "a month of stripe-main closed by";
        QTest::newRow("no note") << "dismissed" << QString::fromUtf8(" \u200b") << "note_required"
                                 << "needs a note";
        QTest::newRow("no such case") << "missing"
                                      << "why"
                                      << "case_not_found"
                                      << "no case";
    }

    void reopenIsRefused()
    {
        QFETCH(QString, situation);
        QFETCH(QString, note);
        QFETCH(QString, code);
        QFETCH(QString, says);
        auto caseId = rdtest::openGapCase(*m_db);
        auto conn = m_db->connect();
        if (situation == "resolved")
            rd::attachSnapshot(*conn, snapshotOfFebruary(rdtest::capturedNow()), caseId, kCaseNote);
        else if (situation != "open")
            rd::dismissCase(*conn, caseId, {"test_data", "x"});
        auto again = marchRenewal();
        again.providerEventId = "evt_march_again";
        if (situation == "recorded") {
            // The provider's state with February, then March delivered again: recorded.
            rd::attachSnapshot(
                *conn, snapshotOfFebruary(rdtest::capturedNow()), std::nullopt, kCaseNote);
            QVERIFY(
                rd::RenewalApplier(m_db->conninfo()).apply(again).outcome == ApplyOutcome::Applied);
        } else if (situation == "other") {
            // March delivered again while its case is dismissed: a new open case.
            const auto out = rd::RenewalApplier(m_db->conninfo()).apply(again);
            QVERIFY(out.caseId && *out.caseId != caseId);
        } else if (situation == "missing") {
            caseId = 987654;
        } else if (situation == "closed") {
            // The month the renewal was paid in, closed (the close's own checks are
            // tst_monthclose's; here only its row matters).
            pqxx::work tx(*conn);
            tx.exec("SELECT register_billing_provider('stripe-main', 'stripe', 'Stripe') "
                    "WHERE NOT EXISTS (SELECT 1 FROM billing_providers "
                    "WHERE provider_key = 'stripe-main')");
            tx.exec_params0(
                "INSERT INTO month_closes (provider_key, month, statement_run_ids, "
                "statement_sha256s, statement_totals, ledger_totals, matched, backfilled, "
                "unapplied, differing, not_in_statement, cases_resolved, cases_dismissed, "
                "audit_anchor_digest, audit_anchor_heads) SELECT 'stripe-main', "
                "date_trunc('month', (event->>'paidAt')::timestamptz AT TIME ZONE 'UTC')::date, "
                "'{1}', ARRAY[repeat('a', 64)], '{}', '{}', 0, 0, 0, 0, 0, 0, 1, "
                "repeat('b', 64), 1 FROM reconciliation_cases WHERE id = $1",
                caseId);
            tx.commit();
        }
        const std::string state
            = "SELECT string_agg(id || ':' || status, ',' ORDER BY id) FROM reconciliation_cases";
        const auto cases = rdtest::text(*m_db, state);
        const auto history = scalar(*conn, "SELECT count(*) FROM reconciliation_case_history");
        pqxx::connection alice(rdtest::loginAs(*m_db, "alice", "operator"));
        // The desk offers Reopen by case_detail's `reopenable`: the same rule, the same words.
        if (situation != "missing" && situation != "dismissed") {
            const auto shown = rd::showCase(alice, caseId);
            QCOMPARE(shown["reopenable"], false);
            QVERIFY2(
                QString::fromStdString(shown["reopenRefusal"].get<std::string>()).contains(says),
                shown.dump().c_str());
        }
        try {
            rd::reopenCase(alice, caseId, note.toStdString());
            QFAIL("reopened");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(QString::fromStdString(e.code()), code);
            QVERIFY2(QString::fromUtf8(e.what()).contains(says), e.what());
        }
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM reconciliation_case_history"), history);
        QCOMPARE(rdtest::text(*m_db, state), cases);
    }

    // Two dismissed cases of one renewal (another reason each, so the unique index of open
    // cases does not tell them apart), reopened at the same time by two operators: the
    // renewal's reopen lock makes the second see the first open, and refuses it. Without the
    // lock both would be open.
    void twoReopensOfOneRenewalOpenOneCase()
    {
        const auto first = rdtest::openGapCase(*m_db);
        auto conn = m_db->connect();
        rd::dismissCase(*conn, first, {"test_data", "x"});
        {
            pqxx::work tx(*conn);
            tx.exec0("UPDATE subscriptions SET status = 'past_due'");
            tx.commit();
        }
        auto again = marchRenewal();
        again.providerEventId = "evt_march_again";
        const auto out = rd::RenewalApplier(m_db->conninfo()).apply(again);
        QVERIFY(out.caseId && *out.caseId != first);
        const auto second = *out.caseId;
        QCOMPARE(
            rdtest::rejectionOf(out), std::string("renewal_not_allowed_for_subscription_status"));
        rd::dismissCase(*conn, second, {"test_data", "x"});

        auto observer = m_db->connect();
        auto controller = m_db->connect();
        const int controllerPid = rdtest::backendPid(*controller);
        auto reopen = [](std::string conninfo, std::int64_t caseId) -> std::string {
            pqxx::connection c(conninfo);
            try {
                rd::reopenCase(c, caseId, "dismissed by mistake");
                return "won";
            } catch (const rd::ActionRefused &e) {
                return e.code() + ": " + e.what();
            }
        };
        std::future<std::string> a, b;
        pqxx::work hold(*controller); // after the futures: rolled back before they are joined
        // The reopens' work lock (0045), held as a reopen of the same renewal would hold it.
        hold.exec0("INSERT INTO rd_work_locks VALUES ('reopen stripe-main in_march') "
                   "ON CONFLICT DO NOTHING");
        hold.exec1("SELECT 1 FROM rd_work_locks WHERE name = 'reopen stripe-main in_march' "
                   "FOR UPDATE");
        a = std::async(
            std::launch::async, reopen, rdtest::loginAs(*m_db, "alice", "operator"), first);
        b = std::async(
            std::launch::async, reopen, rdtest::loginAs(*m_db, "bob", "operator"), second);
        const auto waiting = rdtest::waitForLockWaiters(*observer, controllerPid, 2);
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        hold.commit();
        const auto ra = a.get(), rb = b.get();
        QVERIFY2((ra == "won") != (rb == "won"), (ra + " | " + rb).c_str());
        const auto &loser = ra == "won" ? rb : ra;
        QVERIFY2(loser.rfind("case_not_reopenable", 0) == 0
                && loser.find("is open for the same renewal") != std::string::npos,
            loser.c_str());
        QCOMPARE(
            scalar(*conn, "SELECT count(*) FROM reconciliation_cases WHERE status = 'open'"), 1LL);
    }

    // The reopens' work lock names the provider key and the renewal key, each up to 255
    // characters: the longest name is 518 characters, and the lock table takes it.
    void theLongestWorkLockNameIsTaken()
    {
        auto conn = m_db->connect();
        pqxx::work tx(*conn);
        tx.exec("SELECT rd_take_work_lock('reopen ' || repeat('p', 255) || ' ' || "
                "repeat('k', 255), 'another reopen')");
        QCOMPARE(tx.exec1("SELECT max(length(name)) FROM rd_work_locks")[0].as<int>(), 518);
    }

    // #28, 21: every reason the database's functions can open a case with has a next step.
    // The codes are read from the functions themselves: the core's verdicts, the errors it
    // assigns, and the codes ingest and statement runs open cases with. rd_access_verdict's
    // verdicts (#41: in_grace, blocked, ...) are a subscription's access, never a case's reason.
    void everyCaseReasonOfTheDatabaseHasANextStep()
    {
        auto conn = m_db->connect();
        pqxx::read_transaction tx(*conn);
        std::set<std::string> codes;
        for (const auto &row : tx.exec(R"(SELECT DISTINCT coalesce(m[1], m[2], m[3]) FROM pg_proc p
                 CROSS JOIN LATERAL regexp_matches(p.prosrc,
                     '(?:verdict|error_code|k_error|v_error)\s*:=\s*''([a-z_]+)''|'
                     'THEN\s+''([a-z_]+)''|'
                     '(?:rd_statement_case\(p_run, e|record_reconciliation_case\([a-z_]+)\s*,\s*''([a-z_]+)''',
                     'g') m
                 WHERE p.pronamespace = 'public'::regnamespace
                   AND p.proname <> 'rd_access_verdict'
                   AND (m[2] IS NULL OR p.proname = 'rd_renewal_verdict'))"))
            codes.insert(row[0].as<std::string>());
        codes.erase("duplicate"); // verdicts that open no case
        codes.erase("applicable");
        // The scan found the core's codes and the statements' (not an empty list that passes).
        for (const char *known :
            {"subscription_not_found", "needs_snapshot", "provider_renewal_key_payload_conflict",
                "renewal_period_is_not_contiguous", "statement_disagrees", "not_in_statement"})
            QVERIFY2(codes.count(known) == 1, known);
        for (const auto &code : codes)
            QVERIFY2(!rd::caseNextStep(code).empty(), ("no next step for " + code).c_str());
        // And the programs know no code the database never uses.
        for (const auto code : rd::caseReasonCodes())
            QVERIFY2(codes.count(std::string(code)) == 1, std::string(code).c_str());
    }

    // Every refusal the database can raise (an ERRCODE in the class RD in any function) is one
    // the programs map, and every code they map is raised somewhere: the two lists cannot drift.
    void everyRefusalSqlstateIsMapped()
    {
        auto conn = m_db->connect();
        pqxx::read_transaction tx(*conn);
        std::set<std::string> raised;
        for (const auto &row : tx.exec(R"(SELECT DISTINCT m[1] FROM pg_proc p
                 CROSS JOIN LATERAL regexp_matches(p.prosrc, 'ERRCODE = ''(RD[0-9]{3})''', 'g') m
                 WHERE p.pronamespace = 'public'::regnamespace)"))
            raised.insert(row[0].as<std::string>());
        for (const auto &state : raised)
            QVERIFY2(rd::refusalFromSqlstate(state), state.c_str());
        int mapped = 0;
        for (int i = 0; i < 100; ++i) {
            char state[6];
            std::snprintf(state, sizeof state, "RD%03d", i);
            if (rd::refusalFromSqlstate(state)) {
                ++mapped;
                QVERIFY2(raised.count(state) == 1, state);
            }
        }
        QCOMPARE(mapped, static_cast<int>(raised.size()));
        // RD013, RD014 (0029: statements), RD015 month_close_refused (0031), RD016
        // case_not_reopenable (0033), RD017-RD019 (0034: reviewing an invalid delivery),
        // RD020-RD021 (0037: removing delivery bodies), RD022 work_busy (0045), RD023-RD024
        // (0053: extending a subscription's grace).
        QCOMPARE(mapped, 24);
    }

    // --- One renewal, one case. ---

    // Found by the outside audit: invoice.paid and invoice.payment_succeeded of one invoice can
    // carry different paidAt; they are one renewal, so one case with two occurrences.
    void oneRenewalDeliveredTwiceWithDifferentPaidAtIsOneCase()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        auto paid = marchRenewal();
        paid.providerEventId = "evt_paid";
        auto succeeded = marchRenewal();
        succeeded.providerEventId = "evt_payment_succeeded";
        succeeded.paidAt = ts("2026-03-01T00:09:59Z");
        const auto first = applier.apply(paid);
        const auto second = applier.apply(succeeded);
        QVERIFY(first.caseId && second.caseId);
        QCOMPARE(*second.caseId, *first.caseId);
        auto conn = m_db->connect();
        QCOMPARE(scalar(*conn, "SELECT occurrences FROM reconciliation_cases"), 2LL);
    }
};

QTEST_GUILESS_MAIN(TestReconciliation)
#include "tst_reconciliation.moc"
