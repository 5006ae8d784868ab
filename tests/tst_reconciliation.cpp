#include "domain/core/case_next_step.h"
#include "domain/store/audit_chains.h"
#include "domain/store/case_actions.h"
#include "domain/store/renewal_applier.h"
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
using rdtest::observe;
using rdtest::outcomeName;
using rdtest::scalar;

namespace {

const rd::OperatorNote kNote {"provider_confirmed", "checked in the provider dashboard"};

rd::Timestamp ts(const std::string &text)
{
    return *rd::parseRfc3339(text);
}

rd::SuccessfulRenewalEvent marchRenewal()
{
    auto e = februaryRenewal("sub_1", "evt_march", "in_march");
    e.period = {ts("2026-03-01T00:00:00Z"), ts("2026-04-01T00:00:00Z")};
    return e;
}

rd::ProviderSnapshot snapshotOfFebruary(const std::string &capturedAt)
{
    rd::ProviderSnapshot s;
    s.providerKey = "stripe-main";
    s.providerSubscriptionId = "sub_1";
    s.status = "active";
    s.currentPeriod = rd::Period {ts("2026-02-01T00:00:00Z"), ts("2026-03-01T00:00:00Z")};
    s.cancelAtPeriodEnd = false;
    s.capturedAt = ts(capturedAt);
    s.latestRenewal = februaryRenewal("sub_1", "evt_feb", "in_feb");
    return s;
}

/// The provider's state before the February renewal: January current, no renewal to record.
rd::ProviderSnapshot snapshotOfJanuary(const std::string &capturedAt)
{
    auto s = snapshotOfFebruary(capturedAt);
    s.currentPeriod = rd::Period {ts("2026-01-01T00:00:00Z"), ts("2026-02-01T00:00:00Z")};
    s.latestRenewal.reset();
    return s;
}

} // namespace

/// The ways out of a case, who may take them, and the tamper-evident trail they leave.
class TestReconciliation : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

    /// A login role of this test's own (roles are cluster-wide) with a group role.
    std::string loginAs(const std::string &who, const std::string &kind)
    {
        return rdtest::loginAs(*m_db, who, kind);
    }

    std::int64_t openGapCase()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        const auto out = applier.apply(marchRenewal());
        if (out.outcome != ApplyOutcome::Rejected || !out.caseId)
            throw std::runtime_error("expected a rejection");
        return *out.caseId;
    }

private slots:
    void init()
    {
        m_db = std::make_unique<rdtest::TestDatabase>(QTest::currentTestFunction());
        rdtest::importSubscriptions(
            m_db->conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
    }

    void cleanup() { m_db.reset(); }

    // The operator's way: once the case is applicable (here the projection was corrected by
    // hand, which heals nothing by itself), re-apply records the renewal as the operator's.
    void reapplyOnceTheCaseIsApplicable()
    {
        const auto caseId = openGapCase();
        {
            auto admin = m_db->connect();
            pqxx::work tx(*admin);
            tx.exec0("UPDATE subscriptions SET current_period_start = '2026-02-01T00:00:00Z', "
                     "current_period_end = '2026-03-01T00:00:00Z'");
            tx.commit();
        }

        auto conn = m_db->connect();
        QVERIFY(rd::showCase(*conn, caseId)["applicableNow"].get<bool>());
        const auto result = rd::reapplyCase(*conn, caseId, kNote);
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
        const auto caseId = openGapCase();
        auto conn = m_db->connect();
        const auto result = rd::reapplyCase(*conn, caseId, kNote);
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
        QCOMPARE(history[1]["reason"].get<std::string>(), kNote.reason);
        QCOMPARE(history[1]["comment"].get<std::string>(), kNote.comment);
        QCOMPARE(observe(*conn).billingPeriods, 0LL);
    }

    // A snapshot that re-anchors the subscription heals the case waiting on its new period.
    void snapshotThatReanchorsHealsTheWaitingCase()
    {
        const auto caseId = openGapCase();
        auto conn = m_db->connect();
        const auto attached = rd::attachSnapshot(
            *conn, snapshotOfFebruary(rdtest::capturedNow()), std::nullopt, kNote);
        QCOMPARE(attached.json["result"].get<std::string>(), std::string("attached"));
        QCOMPARE(attached.json["changes"]["currentPeriod"]["after"]["end"].get<std::string>(),
            std::string("2026-03-01T00:00:00.000000Z"));
        QVERIFY(!attached.json["billingPeriodId"].is_null()); // February recorded from the snapshot
        QCOMPARE(attached.json["applicableCases"], nlohmann::json::array());

        const auto seen = observe(*conn);
        QCOMPARE(seen.billingPeriods, 2LL); // February (snapshot) and March (healed)
        QCOMPARE(seen.periodEnd, std::string("2026-04-01T00:00:00.000000Z"));
        // The answer's period is the one after the healing, not the snapshot's own.
        QVERIFY(attached.periodAfter);
        QCOMPARE(attached.periodAfter->start, std::string("2026-03-01T00:00:00.000000Z"));
        QCOMPARE(attached.periodAfter->end, std::string("2026-04-01T00:00:00.000000Z"));
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM subscription_transition_audits WHERE "
                     "transition = 'subscription_reconciled'"),
            1LL);
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM subscription_outbox WHERE event_type = "
                     "'subscription_reconciled'"),
            1LL);
        const auto c = rd::showCase(*conn, caseId);
        QCOMPARE(c["status"].get<std::string>(), std::string("resolved"));
        QCOMPARE(c["resolvedBy"].get<std::string>(), std::string("system"));
        QVERIFY2(c["resolutionComment"].get<std::string>().find("re-applied automatically after "
                                                                "snapshot")
                == 0,
            c.dump().c_str());
    }

    void snapshotResolvesItsCase()
    {
        const auto caseId = openGapCase();
        auto conn = m_db->connect();
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        const auto attached = rd::attachSnapshot(*conn, snapshot, caseId, kNote);
        QCOMPARE(attached.json["caseId"].get<std::int64_t>(), caseId);
        const auto c = rd::showCase(*conn, caseId);
        QCOMPARE(c["resolution"].get<std::string>(), std::string("snapshot_attached"));
        QVERIFY(c["snapshotId"].is_number_integer());
    }

    void staleSnapshotIsRefused()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        QCOMPARE(outcomeName(applier.apply(februaryRenewal()).outcome),
            outcomeName(ApplyOutcome::Applied));
        auto conn = m_db->connect();
        const auto before = observe(*conn);
        // Captured before the February renewal was recorded (now): it would roll it back.
        const auto snapshot = snapshotOfJanuary("2026-01-15T00:00:00Z");
        try {
            rd::attachSnapshot(*conn, snapshot, std::nullopt, kNote);
            QFAIL("expected a refusal");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(e.code(), std::string("stale_snapshot"));
            QVERIFY2(std::string(e.what()).find("2026-01-15") != std::string::npos, e.what());
        }
        QCOMPARE(observe(*conn), before);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM provider_snapshots"), 0LL);
    }

    void identicalSnapshotTwiceChangesNothing()
    {
        auto conn = m_db->connect();
        const auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        QCOMPARE(rd::attachSnapshot(*conn, snapshot, std::nullopt, kNote)
                     .json["result"]
                     .get<std::string>(),
            std::string("attached"));
        const auto after = observe(*conn);
        const auto audits = scalar(*conn, "SELECT count(*) FROM subscription_transition_audits");
        QCOMPARE(rd::attachSnapshot(*conn, snapshot, std::nullopt, kNote)
                     .json["result"]
                     .get<std::string>(),
            std::string("unchanged"));
        QCOMPARE(observe(*conn), after);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM subscription_transition_audits"), audits);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM provider_snapshots"), 1LL);
    }

    void snapshotConflictingWithRecordedRenewalIsRefused()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        QCOMPARE(outcomeName(applier.apply(februaryRenewal("sub_1", "evt_feb", "in_feb")).outcome),
            outcomeName(ApplyOutcome::Applied));
        auto conn = m_db->connect();
        const auto before = observe(*conn);
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        snapshot.latestRenewal->paidAmountMinor = 5;
        try {
            rd::attachSnapshot(*conn, snapshot, std::nullopt, kNote);
            QFAIL("a snapshot whose latest renewal disagrees with the recorded one was attached");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(QString::fromStdString(e.code()),
                QStringLiteral("provider_renewal_key_payload_conflict"));
            QVERIFY2(std::string(e.what()).find("in_feb") != std::string::npos, e.what());
        }
        QCOMPARE(observe(*conn), before);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM provider_snapshots"), 0LL);
    }

    void snapshotOfAnUnknownSubscriptionCreatesIt()
    {
        auto conn = m_db->connect();
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        snapshot.providerSubscriptionId = "sub_new";
        snapshot.latestRenewal->providerSubscriptionId = "sub_new";
        const auto result = rd::attachSnapshot(*conn, snapshot, std::nullopt, kNote);
        QCOMPARE(result.json["result"].get<std::string>(), std::string("created"));
        QCOMPARE(observe(*conn, "sub_new").billingPeriods, 1LL);
    }

    void dismissNeedsANote()
    {
        const auto caseId = openGapCase();
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
            rd::reapplyCase(*conn, caseId, kNote);
            QFAIL("expected a refusal");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(e.code(), std::string("case_already_closed"));
        }
    }

    void twoOperatorsOneCase()
    {
        const auto caseId = openGapCase();
        const auto alice = loginAs("alice", "operator");
        const auto bob = loginAs("bob", "operator");
        // A controller holds the case until both operators are seen waiting on it: their
        // actions certainly overlapped, and only the case's lock decides between them.
        auto observer = m_db->connect();
        auto controller = m_db->connect();
        const int controllerPid = rdtest::backendPid(*controller);
        auto act = [caseId](std::string conninfo) -> std::string {
            pqxx::connection conn(conninfo);
            try {
                rd::dismissCase(conn, caseId, {"duplicate_charge", "seen twice"});
                return "won";
            } catch (const rd::ActionRefused &e) {
                return e.code() + ": " + e.what();
            }
        };
        std::future<std::string> a, b;
        pqxx::work hold(*controller); // after the futures: rolled back before they are joined
        hold.exec_params1("SELECT 1 FROM reconciliation_cases WHERE id = $1 FOR UPDATE", caseId);
        a = std::async(std::launch::async, act, alice);
        b = std::async(std::launch::async, act, bob);
        const auto waiting = rdtest::waitForLockWaiters(*observer, controllerPid, 2);
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        hold.commit();
        const auto ra = a.get(), rb = b.get();
        QVERIFY2((ra == "won") != (rb == "won"), (ra + " | " + rb).c_str());
        const auto &loser = ra == "won" ? rb : ra;
        const auto winner = m_db->name() + (ra == "won" ? "_alice" : "_bob");
        QVERIFY2(loser.rfind("case_already_closed", 0) == 0, loser.c_str());
        QVERIFY2(loser.find("by " + winner + " at ") != std::string::npos, loser.c_str());
    }

    // Working the queue as a team: alice claims, bob may take over only with a note saying
    // why, notes go on open and closed cases alike, and every step is in the case's chained
    // history under the login role that took it.
    void claimsAndNotesAreInTheHistory()
    {
        const auto caseId = openGapCase();
        pqxx::connection alice(loginAs("alice", "operator"));
        pqxx::connection bob(loginAs("bob", "operator"));
        const auto aliceRole = m_db->name() + "_alice", bobRole = m_db->name() + "_bob";

        QVERIFY(rd::claimCase(alice, caseId, "").outcome == rd::ClaimOutcome::Claimed);
        QVERIFY(rd::claimCase(alice, caseId, "").outcome == rd::ClaimOutcome::AlreadyYours);
        try {
            rd::claimCase(bob, caseId, "  ");
            QFAIL("bob took alice's case without a note");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(e.code(), std::string("note_required"));
            QVERIFY2(std::string(e.what()).find(aliceRole) != std::string::npos, e.what());
        }
        const auto takeover = rd::claimCase(bob, caseId, "alice is out this week");
        QCOMPARE(takeover.takenFrom, aliceRole);
        QCOMPARE(rd::showCase(alice, caseId)["assignedTo"], bobRole);
        QVERIFY_THROWS_EXCEPTION(rd::ActionRefused, rd::noteCase(alice, caseId, ""));
        QCOMPARE(rd::noteCase(alice, caseId, "customer says the card was charged twice")
                     .toJson()["result"],
            "noted");
        QVERIFY_THROWS_EXCEPTION(rd::ActionRefused, rd::releaseCase(alice, caseId, ""));
        QVERIFY(rd::releaseCase(bob, caseId, "").outcome == rd::ReleaseOutcome::Released);
        QVERIFY(rd::releaseCase(bob, caseId, "").outcome == rd::ReleaseOutcome::NotClaimed);
        rd::dismissCase(bob, caseId, {"duplicate_charge", "refunded by hand"});
        QCOMPARE(rd::noteCase(alice, caseId, "refund confirmed by the bank").caseId, caseId);
        QVERIFY_THROWS_EXCEPTION(rd::ActionRefused, rd::claimCase(alice, caseId, ""));
        try {
            rd::noteCase(alice, 999999, "x");
            QFAIL("a note on a case that does not exist");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(e.code(), std::string("case_not_found"));
        }

        const auto history = rd::showCase(bob, caseId)["history"];
        std::vector<std::string> steps;
        const std::string ours = m_db->name() + "_";
        for (const auto &h : history) {
            auto actor = h["actor"].get<std::string>();
            if (actor.rfind(ours, 0) == 0)
                actor.erase(0, ours.size());
            steps.push_back(h["action"].get<std::string>() + " by " + actor);
        }
        QCOMPARE(steps.size(), std::size_t(7));
        QVERIFY2(steps[0].rfind("opened by ", 0) == 0, steps[0].c_str());
        const std::vector<std::string> expected {"claimed by alice", "claimed by bob",
            "noted by alice", "released by bob", "dismissed by bob", "noted by alice"};
        for (std::size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(steps[i + 1], expected[i]);
        QCOMPARE(history[2]["details"]["takenFrom"], aliceRole);
        QCOMPARE(history[2]["comment"], "alice is out this week");
        auto admin = m_db->connect();
        QCOMPARE(rdtest::scalar(*admin, "SELECT count(*) FROM audit_chain_breaks()"), 0LL);
    }

    void viewerCannotWriteAnything()
    {
        const auto caseId = openGapCase();
        pqxx::connection viewer(loginAs("viewer", "viewer"));
        std::vector<std::pair<std::string, std::string>> tables; // table, an updatable column
        {
            pqxx::read_transaction tx(viewer);
            for (const auto &r :
                tx.exec("SELECT t.tablename, (SELECT attname FROM pg_attribute WHERE attrelid = "
                        "('public.' || t.tablename)::regclass AND attnum > 0 AND NOT attisdropped "
                        "AND attidentity = '' AND attgenerated = '' ORDER BY attnum LIMIT 1) "
                        "FROM pg_tables t WHERE t.schemaname = 'public' ORDER BY 1"))
                tables.emplace_back(r[0].as<std::string>(), r[1].as<std::string>());
            // It sees everything the desk shows.
            QCOMPARE(tx.exec1("SELECT count(*) FROM reconciliation_cases")[0].as<int>(), 1);
        }
        QVERIFY(tables.size() >= 8);
        for (const auto &[t, column] : tables) {
            for (const std::string &sql : {"INSERT INTO " + t + " DEFAULT VALUES",
                     "UPDATE " + t + " SET " + column + " = " + column, "DELETE FROM " + t,
                     "TRUNCATE " + t}) {
                pqxx::work tx(viewer);
                try {
                    tx.exec0(sql);
                    QFAIL(("viewer could run: " + sql).c_str());
                } catch (const pqxx::insufficient_privilege &) {
                } catch (const pqxx::sql_error &e) {
                    // Anything but 42501 means the privilege check did not stop it first.
                    QFAIL((sql + ": " + e.what()).c_str());
                }
            }
        }
        const std::vector<std::string> actions {
            "SELECT reapply_case(" + std::to_string(caseId) + ", 'other', 'x')",
            "SELECT dismiss_case(" + std::to_string(caseId) + ", 'other', 'x')",
            "SELECT attach_provider_snapshot('{}', NULL, 'other', 'x')",
            "SELECT apply_successful_renewal('p','e','s','k',NULL,now(),now(),1,'USD',now(),"
            "'webhook','x')",
            "SELECT record_reconciliation_case('{}', 'x', '{}')",
            "SELECT claim_case(" + std::to_string(caseId) + ", NULL)",
            "SELECT release_case(" + std::to_string(caseId) + ", 'x')",
            "SELECT note_case(" + std::to_string(caseId) + ", 'x')",
            "SELECT reopen_case(" + std::to_string(caseId) + ", 'x')"};
        for (const auto &sql : actions) {
            pqxx::work tx(viewer);
            QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege, tx.exec(sql));
        }
    }

    void operatorActsOnlyThroughActions()
    {
        const auto caseId = openGapCase();
        pqxx::connection op(loginAs("operator", "operator"));
        {
            pqxx::work tx(op);
            QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege,
                tx.exec0(
                    "UPDATE subscriptions SET current_period_end = now() + interval '1 year'"));
        }
        {
            pqxx::work tx(op);
            QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege,
                tx.exec0("UPDATE reconciliation_cases SET status = 'dismissed', "
                         "resolution = 'dismissed'"));
        }
        const auto result = rd::reapplyCase(op, caseId, kNote);
        QCOMPARE(result.json["result"].get<std::string>(), std::string("rejected"));
        auto admin = m_db->connect();
        const auto history = rd::showCase(*admin, caseId)["history"];
        QCOMPARE(history.back()["actor"].get<std::string>(), m_db->name() + "_operator");
    }

    void auditRowsAreAppendOnlyForTheOwner_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::newRow("update audit") << "UPDATE subscription_transition_audits SET comment = 'x'";
        QTest::newRow("delete audit") << "DELETE FROM subscription_transition_audits";
        QTest::newRow("truncate audit") << "TRUNCATE subscription_transition_audits CASCADE";
        QTest::newRow("update history") << "UPDATE reconciliation_case_history SET comment = 'x'";
        QTest::newRow("delete history") << "DELETE FROM reconciliation_case_history";
        QTest::newRow("truncate history") << "TRUNCATE reconciliation_case_history";
    }

    void auditRowsAreAppendOnlyForTheOwner()
    {
        QFETCH(QString, sql);
        openGapCase();
        auto owner = m_db->connect(); // the superuser that owns every table
        pqxx::work tx(*owner);
        QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege, tx.exec0(sql.toStdString()));
    }

    // The audit log's provider filter reads a copy of the provider on each audit row and case
    // history entry (0022). The chain triggers take it from the subscription or the case,
    // whatever the writer names, and like the rest of the row it cannot be changed afterwards.
    void theProviderCopyIsTheOwnersOwn()
    {
        const auto caseId = openGapCase();
        auto owner = m_db->connect();
        {
            pqxx::work tx(*owner);
            tx.exec0("INSERT INTO subscription_transition_audits (subscription_id, transition, "
                     "actor_type, actor_id, provider_key) SELECT id, 'subscription_reconciled', "
                     "'operator', 'mallory', 'paddle-eu' FROM subscriptions");
            tx.exec_params0("INSERT INTO reconciliation_case_history (case_id, action, outcome, "
                            "provider_key) VALUES ($1, 'noted', 'open', 'paddle-eu')",
                caseId);
            tx.commit();
        }
        QCOMPARE(rdtest::scalar(*owner,
                     "SELECT count(*) FROM subscription_transition_audits a "
                     "JOIN subscriptions s ON s.id = a.subscription_id "
                     "WHERE a.provider_key IS DISTINCT FROM s.provider_key"),
            0LL);
        QCOMPARE(rdtest::scalar(*owner,
                     "SELECT count(*) FROM reconciliation_case_history h "
                     "JOIN reconciliation_cases c ON c.id = h.case_id "
                     "WHERE h.provider_key IS DISTINCT FROM c.provider_key"),
            0LL);
        QCOMPARE(rdtest::scalar(*owner,
                     "SELECT count(*) FROM subscription_transition_audits "
                     "WHERE provider_key = 'stripe-main' AND actor_id = 'mallory'"),
            1LL);
        QCOMPARE(rdtest::scalar(*owner,
                     "SELECT count(*) FROM reconciliation_case_history "
                     "WHERE provider_key = 'stripe-main' AND action = 'noted'"),
            1LL);
        for (const char *sql : {"UPDATE subscription_transition_audits SET provider_key = 'x'",
                 "UPDATE reconciliation_case_history SET provider_key = 'x'"}) {
            pqxx::work tx(*owner);
            QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege, tx.exec0(sql));
        }
        QCOMPARE(rdtest::scalar(*owner, "SELECT count(*) FROM audit_chain_breaks()"), 0LL);
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

    void cliActionsAndExitCodes()
    {
        const auto caseId = openGapCase();
        const QString ctl = rdtest::ctl();
        const QString db = QString::fromStdString(m_db->conninfo());
        const QString id = QString::number(caseId);

        const auto list
            = rdtest::runProgram(ctl, {"cases", "list", "--status", "open", "--json", "--db", db});
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(
            nlohmann::json::parse(list.out.toStdString())[0]["id"].get<std::int64_t>(), caseId);

        // Still not contiguous: the attempt is recorded, the case stays open.
        const auto reapply = rdtest::runProgram(
            ctl, {"cases", "reapply", id, "--reason", "provider_confirmed", "--db", db});
        QCOMPARE(reapply.exitCode, 3);
        QVERIFY2(reapply.out.contains(
                     ("case " + id + ": rejected, still open: renewal_period_is_not_contiguous")
                         .toUtf8()),
            reapply.out.constData());

        const auto noReason = rdtest::runProgram(ctl, {"cases", "reapply", id, "--db", db});
        QCOMPARE(noReason.exitCode, 64);
        const auto noNote = rdtest::runProgram(
            ctl, {"cases", "dismiss", id, "--reason", "customer_request", "--db", db});
        QCOMPARE(noNote.exitCode, 64);
        const auto dismissed = rdtest::runProgram(ctl,
            {"cases", "dismiss", id, "--reason", "customer_request", "--comment",
                "refunded by support", "--db", db});
        QCOMPARE(dismissed.exitCode, 0);
        const auto again = rdtest::runProgram(ctl,
            {"cases", "dismiss", id, "--reason", "customer_request", "--comment", "again", "--db",
                db});
        QCOMPARE(again.exitCode, 4);
        // Said once (#28, 27a: "already dismissed (dismissed)"), with the way back.
        QVERIFY2(again.err.contains("was already dismissed by postgres at"), again.err.constData());
        QVERIFY2(!again.err.contains("(dismissed)"), again.err.constData());
        QVERIFY2(again.err.contains("reopen it"), again.err.constData());

        // A Stripe subscription object, turned into a snapshot by the Stripe adapter.
        const auto attach = rdtest::runProgram(ctl,
            {"snapshot", "attach",
                QStringLiteral(RD_FIXTURES_DIR) + "/snapshots/stripe_subscription_basil.json",
                "--kind", "stripe", "--provider-key", "stripe-main", "--reason",
                "provider_confirmed", "--json", "--db", db});
        QCOMPARE(attach.exitCode, 0);
        QCOMPARE(nlohmann::json::parse(attach.out.toStdString())["result"].get<std::string>(),
            std::string("created")); // sub_1QxSub0001 was not imported
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
        QCOMPARE(breaks.size(), std::size_t(1));
        QCOMPARE(breaks[0].seq, 3LL);
        QVERIFY(breaks[0].problem.find("missing") != std::string::npos);
    }

    // --- A case closes only when its renewal is recorded, or an operator dismisses it. ---

    // Found by the outside audit: a snapshot that fills the missing month must not make the paid
    // March renewal disappear; attaching it re-judges the case's renewal, which now applies.
    void snapshotOnAGapCaseRecordsTheCasesRenewal()
    {
        const auto caseId = openGapCase();
        auto conn = m_db->connect();
        const auto attached
            = rd::attachSnapshot(*conn, snapshotOfFebruary(rdtest::capturedNow()), caseId, kNote);
        QCOMPARE(attached.json["case"]["status"].get<std::string>(), std::string("resolved"));
        QCOMPARE(attached.json["case"]["renewal"].get<std::string>(), std::string("applied"));

        const auto seen = observe(*conn);
        QCOMPARE(seen.periodEnd, std::string("2026-04-01T00:00:00.000000Z")); // March applied
        QCOMPARE(seen.billingPeriods, 2LL); // February (snapshot) and March (the case)
        QCOMPARE(seen.renewalAudits, 1LL);
        QCOMPARE(seen.openCases, 0LL);
        const auto c = rd::showCase(*conn, caseId);
        QCOMPARE(c["resolution"].get<std::string>(), std::string("snapshot_attached"));
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM reconciliation_cases c JOIN "
                     "subscription_billing_periods b ON b.id = c.billing_period_id "
                     "WHERE b.provider_renewal_key = 'in_march'"),
            1LL);
        std::vector<std::string> steps;
        for (const auto &h : c["history"])
            steps.push_back(h["action"].get<std::string>() + ":" + h["outcome"].get<std::string>());
        QCOMPARE(steps,
            (std::vector<std::string> {
                "opened:open", "snapshot_attached:attached", "reapply:applied"}));
        QVERIFY(rd::verifyAuditChains(*conn).empty());
    }

    // A snapshot after which the case's renewal still fails leaves the case open, with the
    // reason it fails now and the state it was judged against.
    void snapshotThatDoesNotHealLeavesTheCaseOpen()
    {
        const auto caseId = openGapCase();
        auto conn = m_db->connect();
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        snapshot.cancelAtPeriodEnd = true;
        const auto attached = rd::attachSnapshot(*conn, snapshot, caseId, kNote);
        QCOMPARE(attached.json["case"]["status"].get<std::string>(), std::string("open"));
        const auto c = rd::showCase(*conn, caseId);
        QCOMPARE(c["status"].get<std::string>(), std::string("open"));
        QCOMPARE(c["errorCode"].get<std::string>(),
            std::string("renewal_conflicts_with_scheduled_cancellation"));
        QCOMPARE(c["localState"]["cancelAtPeriodEnd"].get<bool>(), true);
        QCOMPARE(observe(*conn).periodEnd, std::string("2026-03-01T00:00:00.000000Z"));
        // Re-apply stays possible, and so does the way out for a person.
        QCOMPARE(rd::reapplyCase(*conn, caseId, kNote).json["result"].get<std::string>(),
            std::string("rejected"));
    }

    // The database refuses to close a case as resolved without the billing period of its renewal.
    void aResolvedCaseWithoutItsRenewalIsRefusedByTheDatabase()
    {
        const auto caseId = openGapCase();
        auto conn = m_db->connect();
        pqxx::work tx(*conn);
        QVERIFY_THROWS_EXCEPTION(pqxx::check_violation,
            tx.exec0("UPDATE reconciliation_cases SET status = 'resolved', resolution = "
                     "'snapshot_attached' WHERE id = "
                + std::to_string(caseId)));
    }

    // A renewal whose payload lacked its period (needs_snapshot) closes only when the
    // snapshot's latest renewal is that very renewal.
    void needsSnapshotCaseClosesOnlyWithItsRenewal()
    {
        auto conn = m_db->connect();
        const auto openCase = [&](const std::string &key) {
            pqxx::nontransaction tx(*conn);
            return tx
                .exec_params1("SELECT record_reconciliation_case(jsonb_build_object("
                              "'providerKey', 'stripe-main', 'providerSubscriptionId', 'sub_1', "
                              "'providerRenewalKey', $1::text, 'providerEventId', 'evt_' || $1), "
                              "'needs_snapshot', '{}')",
                    key)[0]
                .as<std::int64_t>();
        };
        const auto other = openCase("in_other");
        auto withoutIt
            = rd::attachSnapshot(*conn, snapshotOfFebruary(rdtest::capturedNow()), other, kNote);
        QCOMPARE(withoutIt.json["case"]["status"].get<std::string>(), std::string("open"));
        QCOMPARE(rd::showCase(*conn, other)["status"].get<std::string>(), std::string("open"));

        const auto march = openCase("in_march");
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow(120));
        snapshot.currentPeriod = marchRenewal().period;
        snapshot.latestRenewal = marchRenewal();
        const auto withIt = rd::attachSnapshot(*conn, snapshot, march, kNote);
        QCOMPARE(withIt.json["case"]["status"].get<std::string>(), std::string("resolved"));
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
        QCOMPARE(rd::reapplyCase(*conn, *out.caseId, kNote).json["result"].get<std::string>(),
            std::string("rejected"));
    }

    // Re-apply records the reason the renewal fails now, not the reason it failed first.
    void reapplyRecordsTheReasonItFailsNow()
    {
        const auto caseId = openGapCase();
        auto conn = m_db->connect();
        {
            pqxx::work tx(*conn);
            tx.exec0("UPDATE subscriptions SET status = 'past_due', current_period_start = "
                     "'2026-02-01T00:00:00Z', current_period_end = '2026-03-01T00:00:00Z'");
            tx.commit();
        }
        const auto result = rd::reapplyCase(*conn, caseId, kNote);
        QCOMPARE(result.json["error"].get<std::string>(),
            std::string("renewal_not_allowed_for_subscription_status"));
        const auto c = rd::showCase(*conn, caseId);
        QCOMPARE(c["errorCode"].get<std::string>(),
            std::string("renewal_not_allowed_for_subscription_status"));
        QCOMPARE(c["localState"]["status"].get<std::string>(), std::string("past_due"));
    }

    // --- Snapshots that would contradict recorded history are refused. ---

    // Found by the outside audit: a provider object fetched before the February renewal, attached
    // later with a fresh capturedAt, would move the subscription back behind a paid period.
    void snapshotBehindARecordedPeriodIsRefused()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        QCOMPARE(outcomeName(applier.apply(februaryRenewal()).outcome),
            outcomeName(ApplyOutcome::Applied));
        auto conn = m_db->connect();
        const auto before = observe(*conn);
        const auto snapshot = snapshotOfJanuary(rdtest::capturedNow());
        try {
            rd::attachSnapshot(*conn, snapshot, std::nullopt, kNote);
            QFAIL("expected a refusal");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(e.code(), std::string("snapshot_rewinds_period"));
            QVERIFY2(std::string(e.what()).find("2026-02-01T00:00:00.000000Z - "
                                                "2026-03-01T00:00:00.000000Z")
                    != std::string::npos,
                e.what());
        }
        QCOMPARE(observe(*conn), before);

        // The same through the CLI with a Stripe object (capturedAt = now): exit 4.
        const auto stripe = QByteArray(R"({"id":"sub_1","object":"subscription","status":"active",)"
                                       R"("cancel_at_period_end":false,)"
                                       R"("current_period_start":1767225600,)"
                                       R"("current_period_end":1769904000})");
        const auto run = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db,
                {"snapshot", "attach", "-", "--kind", "stripe", "--provider-key", "stripe-main",
                    "--reason", "provider_confirmed"}),
            stripe);
        QCOMPARE(run.exitCode, 4);
        QVERIFY2(run.err.contains("snapshot_rewinds_period"), run.err.constData());
        QCOMPARE(observe(*conn), before);
    }

    // Staleness counts the import: a snapshot captured before the subscription was imported
    // describes a state older than ours.
    void snapshotCapturedBeforeTheImportIsStale()
    {
        auto conn = m_db->connect();
        auto snapshot = snapshotOfFebruary("2020-01-01T00:00:00Z");
        try {
            rd::attachSnapshot(*conn, snapshot, std::nullopt, kNote);
            QFAIL("expected a refusal");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(e.code(), std::string("stale_snapshot"));
        }
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM provider_snapshots"), 0LL);
    }

    // Found by the outside audit: latestRenewal must be the snapshot's own subscription's renewal,
    // of its current period; refused by the parser (exit 65, the field named) and, for a
    // caller that bypasses it, by the database.
    void snapshotRenewalOfAnotherSubscriptionIsRefused_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::newRow("provider") << "providerKey"
                                  << R"("paddle-eu")";
        QTest::newRow("subscription") << "providerSubscriptionId"
                                      << R"("sub_other")";
        QTest::newRow("period")
            << "period"
            << R"({"start":"2026-03-01T00:00:00Z","end":"2026-04-01T00:00:00Z"})";
    }

    void snapshotRenewalOfAnotherSubscriptionIsRefused()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        auto json = rd::toJson(snapshotOfFebruary(rdtest::capturedNow()));
        json["latestRenewal"][field.toStdString()] = nlohmann::json::parse(value.toStdString());

        const auto run = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db, {"snapshot", "attach", "-", "--reason", "provider_confirmed"}),
            QByteArray::fromStdString(json.dump()));
        QCOMPARE(run.exitCode, 65);
        QVERIFY2(run.err.contains(("latestRenewal." + field).toUtf8()), run.err.constData());

        auto conn = m_db->connect();
        try {
            pqxx::nontransaction tx(*conn);
            tx.exec_params(
                "SELECT attach_provider_snapshot($1::jsonb, NULL, 'other', NULL)", json.dump());
            QFAIL("the database accepted it");
        } catch (const pqxx::sql_error &e) {
            QCOMPARE(e.sqlstate(), std::string("RD010")); // snapshot_renewal_mismatch
        }
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM subscription_billing_periods"), 0LL);
    }

    // A case is about one subscription; a snapshot of another is not its way out.
    void snapshotOfAnotherSubscriptionCannotCloseACase()
    {
        rdtest::importSubscriptions(
            m_db->conninfo(), rdtest::subscriptionLine("stripe-main", "sub_2"));
        const auto caseId = openGapCase();
        auto conn = m_db->connect();
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        snapshot.providerSubscriptionId = "sub_2";
        snapshot.latestRenewal->providerSubscriptionId = "sub_2";
        try {
            rd::attachSnapshot(*conn, snapshot, caseId, kNote);
            QFAIL("expected a refusal");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(e.code(), std::string("snapshot_case_mismatch"));
        }
        QCOMPARE(rd::showCase(*conn, caseId)["status"].get<std::string>(), std::string("open"));
    }

    // The preview is the attach's own judgment, and writes nothing.
    void previewSaysWhatAttachingWouldDo()
    {
        const auto caseId = openGapCase();
        auto conn = m_db->connect();
        const auto audits = scalar(*conn, "SELECT count(*) FROM subscription_transition_audits");
        const auto preview
            = rd::previewSnapshot(*conn, snapshotOfFebruary(rdtest::capturedNow()), caseId);
        QVERIFY(preview.wouldBe && !preview.refused);
        QVERIFY(preview.wouldBe->caseAfter);
        QVERIFY(preview.wouldBe->caseAfter->resolved);
        QVERIFY(preview.wouldBe->caseAfter->renewalOutcome == rd::ApplyOutcome::Applied);
        QCOMPARE(observe(*conn).billingPeriods, 0LL);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM subscription_transition_audits"), audits);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM provider_snapshots"), 0LL);
        QCOMPARE(rd::showCase(*conn, caseId)["status"].get<std::string>(), std::string("open"));

        auto stale = snapshotOfFebruary("2020-01-01T00:00:00Z");
        const auto refused = rd::previewSnapshot(*conn, stale, caseId);
        QVERIFY(refused.refused && !refused.wouldBe);
        QVERIFY(refused.refused->refusal() == rd::Refusal::StaleSnapshot);
        QVERIFY2(std::string(refused.refused->what()).find("captured at") != std::string::npos,
            refused.refused->what());
    }

    // #28, 20: a case dismissed by mistake is open again, in the queue and counted, by an
    // operator with a note; the history chain keeps the dismissal and the reopen.
    void reopenPutsADismissedCaseBackInTheQueue()
    {
        const auto caseId = openGapCase();
        pqxx::connection alice(loginAs("alice", "operator"));
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
        rd::attachSnapshot(*conn, snapshotOfFebruary(rdtest::capturedNow()), caseId, kNote);
        QCOMPARE(rd::showCase(*conn, caseId)["status"], "resolved");
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
        auto caseId = openGapCase();
        auto conn = m_db->connect();
        if (situation == "resolved")
            rd::attachSnapshot(*conn, snapshotOfFebruary(rdtest::capturedNow()), caseId, kNote);
        else if (situation != "open")
            rd::dismissCase(*conn, caseId, {"test_data", "x"});
        auto again = marchRenewal();
        again.providerEventId = "evt_march_again";
        if (situation == "recorded") {
            // The provider's state with February, then March delivered again: recorded.
            rd::attachSnapshot(
                *conn, snapshotOfFebruary(rdtest::capturedNow()), std::nullopt, kNote);
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
        pqxx::connection alice(loginAs("alice", "operator"));
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
        const auto first = openGapCase();
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
        hold.exec1("SELECT pg_advisory_xact_lock(hashtextextended("
                   "'reopen:stripe-main:in_march', 0))");
        a = std::async(std::launch::async, reopen, loginAs("alice", "operator"), first);
        b = std::async(std::launch::async, reopen, loginAs("bob", "operator"), second);
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

    // #28, 21: every reason the database's functions can open a case with has a next step.
    // The codes are read from the functions themselves: the core's verdicts, the errors it
    // assigns, and the codes ingest and statement runs open cases with.
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
        // RD020-RD021 (0037: removing delivery bodies).
        QCOMPARE(mapped, 21);
    }

    // The same through the CLI: --preview says it, then the attach does it.
    void cliPreviewThenAttachOnAGapCase()
    {
        const auto caseId = openGapCase();
        const QString id = QString::number(caseId);
        const auto json = QByteArray::fromStdString(
            rd::toJson(snapshotOfFebruary(rdtest::capturedNow())).dump());
        const auto preview = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db, {"snapshot", "attach", "-", "--case", id, "--preview"}), json);
        QCOMPARE(preview.exitCode, 0);
        QVERIFY2(preview.out.contains(
                     ("case " + id + " would be resolved: its renewal would be applied").toUtf8()),
            preview.out.constData());
        auto conn = m_db->connect();
        QCOMPARE(observe(*conn).billingPeriods, 0LL);

        const auto attach = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(
                *m_db, {"snapshot", "attach", "-", "--case", id, "--reason", "provider_confirmed"}),
            json);
        QCOMPARE(attach.exitCode, 0);
        QVERIFY2(
            attach.out.contains(("case " + id + " is resolved: its renewal was applied").toUtf8()),
            attach.out.constData());
        QCOMPARE(observe(*conn).periodEnd, std::string("2026-04-01T00:00:00.000000Z"));
    }

    // --- #28: following the operator's guide must not skip a paid renewal. ---

    // The issue's scenario: a subscription set to cancel, its $29 February renewal applied with
    // `renewalctl apply` and rejected (a case), then the provider's own Stripe subscription
    // object, whose latest_invoice is an id as Stripe returns it unless expanded, attached to
    // the case. The object moves the period to February; the case's renewal is February's
    // unless the object names another invoice.
    void stripeObjectOnASetToCancelCase_data()
    {
        QTest::addColumn<QString>("latestInvoice"); // JSON: "in_feb", absent (empty), another
        QTest::addColumn<bool>("recorded");
        QTest::newRow("latest_invoice is the case's renewal") << R"("in_feb")" << true;
        QTest::newRow("no latest_invoice") << QString() << true;
        QTest::newRow("latest_invoice is another invoice") << R"("in_other")" << false;
    }

    void stripeObjectOnASetToCancelCase()
    {
        QFETCH(QString, latestInvoice);
        QFETCH(bool, recorded);
        rdtest::importSubscriptions(m_db->conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_c", "active", "2026-01-01T00:00:00Z",
                "2026-02-01T00:00:00Z", true));
        auto renewal = februaryRenewal("sub_c", "evt_feb", "in_feb");
        renewal.paidAmountMinor = 2900;
        const auto line = QByteArray::fromStdString(rd::toJson(renewal).dump() + "\n");
        const auto applied
            = rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"apply", "-"}), line);
        QCOMPARE(applied.exitCode, 3); // rejected: a case
        auto conn = m_db->connect();
        const auto caseId = scalar(*conn,
            "SELECT id FROM reconciliation_cases WHERE provider_subscription_id = 'sub_c' "
            "AND error_code = 'renewal_conflicts_with_scheduled_cancellation'");
        const QString id = QString::number(caseId);

        // Stripe's object after the renewal: February current, no cancellation any more.
        QByteArray stripe = R"({"id":"sub_c","object":"subscription","status":"active",)"
                            R"("cancel_at_period_end":false,"current_period_start":1769904000,)"
                            R"("current_period_end":1772323200)";
        if (!latestInvoice.isEmpty())
            stripe += R"(,"latest_invoice":)" + latestInvoice.toUtf8();
        stripe += "}";
        const QStringList object {"snapshot", "attach", "-", "--kind", "stripe", "--provider-key",
            "stripe-main", "--case", id};

        // The preview says, in words and before anything is written, what becomes of it.
        const auto preview = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(*m_db, QStringList(object) << "--preview"), stripe);
        QCOMPARE(preview.exitCode, 0);
        QVERIFY2(preview.out.contains("attaching would bring subscription sub_c to the snapshot"),
            preview.out.constData());
        QVERIFY2(!preview.out.contains("would be attached"), preview.out.constData());
        const QByteArray renewalWords = "renewal in_feb of case " + id.toUtf8()
            + " (2026-02-01T00:00:00Z - 2026-03-01T00:00:00Z, 29.00 USD)";
        if (recorded) {
            QVERIFY2(preview.out.contains(renewalWords
                         + " would be recorded: it is the renewal "
                           "of the period the snapshot makes current"),
                preview.out.constData());
        } else {
            QVERIFY2(preview.out.contains("the subscription would move past " + renewalWords
                         + " without recording it"),
                preview.out.constData());
            QVERIFY2(preview.out.contains("case " + id.toUtf8()
                         + " would stay open: the snapshot names renewal in_other"),
                preview.out.constData());
        }
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM provider_snapshots"), 0LL);

        const auto attach = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db,
                QStringList(object) << "--reason"
                                    << "provider_confirmed"),
            stripe);
        QCOMPARE(attach.exitCode, 0);
        const auto seen = observe(*conn, "sub_c");
        QCOMPARE(seen.periodEnd, std::string("2026-03-01T00:00:00.000000Z"));
        const auto c = rd::showCase(*conn, caseId);
        // Exactly once: one billing period, one audit row and one outbox intent that carry it.
        const auto periodsOf = [&](const std::string &table) {
            return scalar(*conn,
                "SELECT count(*) FROM " + table
                    + " t JOIN subscription_billing_periods b ON b.id = t.billing_period_id "
                      "WHERE b.provider_renewal_key = 'in_feb'");
        };
        if (recorded) {
            QCOMPARE(c["status"].get<std::string>(), std::string("resolved"));
            QCOMPARE(c["resolution"].get<std::string>(), std::string("snapshot_attached"));
            QCOMPARE(seen.billingPeriods, 1LL);
            QCOMPARE(scalar(*conn,
                         "SELECT paid_amount_minor FROM subscription_billing_periods "
                         "WHERE provider_renewal_key = 'in_feb'"),
                2900LL);
            QCOMPARE(periodsOf("subscription_transition_audits"), 1LL);
            QCOMPARE(periodsOf("subscription_outbox"), 1LL);
            QCOMPARE(periodsOf("reconciliation_cases"), 1LL);
            QVERIFY2(attach.out.contains(renewalWords + " is recorded"), attach.out.constData());
            // A later delivery of the same renewal is a duplicate, not a second record.
            rd::RenewalApplier applier(m_db->conninfo());
            QCOMPARE(
                outcomeName(applier.apply(renewal).outcome), outcomeName(ApplyOutcome::Duplicate));
            QCOMPARE(observe(*conn, "sub_c").billingPeriods, 1LL);
            QCOMPARE(scalar(*conn,
                         "SELECT sum(renewals) FROM renewal_total_deltas "
                         "WHERE provider_key = 'stripe-main' AND amount_minor = 2900"),
                1LL);
        } else {
            QCOMPARE(c["status"].get<std::string>(), std::string("open"));
            QCOMPARE(seen.billingPeriods, 0LL);
            QCOMPARE(periodsOf("subscription_transition_audits"), 0LL);
            QCOMPARE(periodsOf("subscription_outbox"), 0LL);
            // The case says why, in its history.
            const auto &last = c["history"].back();
            QCOMPARE(last["action"].get<std::string>(), std::string("reapply"));
            QVERIFY2(last["details"]["why"].get<std::string>().find("names renewal in_other")
                    != std::string::npos,
                last.dump().c_str());
            QVERIFY2(attach.out.contains("the subscription moved past " + renewalWords),
                attach.out.constData());
            const auto shown
                = rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"cases", "show", id}));
            QVERIFY2(shown.out.contains("the snapshot names renewal in_other as the one that "
                                        "began its current period"),
                shown.out.constData());
        }
        QVERIFY(rd::verifyAuditChains(*conn).empty());
    }

    // Attached once without the case, the same snapshot again with it is no longer "unchanged":
    // it records the case's renewal it passed by.
    void sameSnapshotAgainWithItsCaseRecordsTheRenewal()
    {
        const auto caseId = openGapCase(); // March, while January is current
        auto conn = m_db->connect();
        auto march = snapshotOfFebruary(rdtest::capturedNow());
        march.currentPeriod = rd::Period {ts("2026-03-01T00:00:00Z"), ts("2026-04-01T00:00:00Z")};
        march.latestRenewal.reset();
        const auto preview = rd::previewSnapshot(*conn, march, std::nullopt);
        QVERIFY(preview.wouldBe);
        QCOMPARE(preview.wouldBe->leftBehind.size(), std::size_t(1));
        QCOMPARE(preview.wouldBe->leftBehind[0].caseId, caseId);
        QCOMPARE(preview.wouldBe->leftBehind[0].renewalKey, std::string("in_march"));
        QCOMPARE(rd::attachSnapshot(*conn, march, std::nullopt, kNote).leftBehind.size(),
            std::size_t(1));
        QCOMPARE(observe(*conn).billingPeriods, 0LL);

        const auto again = rd::attachSnapshot(*conn, march, caseId, kNote);
        QCOMPARE(again.json["result"].get<std::string>(), std::string("attached"));
        QVERIFY(again.renewalFromCase);
        QVERIFY(again.leftBehind.empty());
        QCOMPARE(rd::showCase(*conn, caseId)["status"].get<std::string>(), std::string("resolved"));
        QCOMPARE(observe(*conn).billingPeriods, 1LL);
    }

    // #28 item 2: the case of a subscription we never imported is linked to the subscription its
    // snapshot creates (and its renewal, that of the period the snapshot makes current, recorded).
    void snapshotThatCreatesItsSubscriptionLinksItsCase()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        const auto out = applier.apply(februaryRenewal("sub_new", "evt_new", "in_new"));
        QCOMPARE(rdtest::rejectionOf(out), std::string("subscription_not_found"));
        auto conn = m_db->connect();
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        snapshot.providerSubscriptionId = "sub_new";
        snapshot.latestRenewal.reset();
        const auto attached = rd::attachSnapshot(*conn, snapshot, *out.caseId, kNote);
        QCOMPARE(attached.json["result"].get<std::string>(), std::string("created"));
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM reconciliation_cases c JOIN subscriptions s "
                     "ON s.id = c.subscription_id WHERE s.provider_subscription_id = 'sub_new'"),
            1LL);
        QCOMPARE(
            rd::showCase(*conn, *out.caseId)["status"].get<std::string>(), std::string("resolved"));
        QCOMPARE(observe(*conn, "sub_new").billingPeriods, 1LL);
    }

    // #28 item 3: `renewalctl apply` says what recorded the renewal: 'cli' and the login role,
    // in the billing period, its audit row, and the history of a case it opens.
    void renewalctlApplyRecordsAsCli()
    {
        const auto lines = QByteArray::fromStdString(
            rd::toJson(februaryRenewal("sub_1", "evt_feb", "in_feb")).dump() + "\n"
            + rd::toJson(marchRenewal()).dump() + "\n");
        rdtest::importSubscriptions(m_db->conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_2", "active", "2026-01-01T00:00:00Z",
                "2026-02-01T00:00:00Z", true));
        const auto rejected = QByteArray::fromStdString(
            rd::toJson(februaryRenewal("sub_2", "evt_2", "in_2")).dump() + "\n");
        QCOMPARE(rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"apply", "-"}), lines)
                     .exitCode,
            0);
        QCOMPARE(rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"apply", "-"}), rejected)
                     .exitCode,
            3);
        auto conn = m_db->connect();
        {
            pqxx::read_transaction tx(*conn);
            const auto recorded
                = tx.exec("SELECT b.recorded_by, a.actor_type, a.actor_id FROM "
                          "subscription_billing_periods "
                          "b JOIN subscription_transition_audits a ON a.billing_period_id = b.id");
            QCOMPARE(recorded.size(), 2); // the two renewals apply recorded, each audited
            for (const auto &row : recorded) {
                QCOMPARE(row[0].as<std::string>(), std::string("cli"));
                QCOMPARE(row[1].as<std::string>(), std::string("cli"));
                QCOMPARE(row[2].as<std::string>(), std::string("postgres"));
            }
            QCOMPARE(tx.exec1("SELECT count(*) FROM subscription_billing_periods "
                              "WHERE recorded_by = 'cli'")[0]
                         .as<long long>(),
                2LL);
            QCOMPARE(
                tx.exec1("SELECT h.details->>'recordedBy' FROM reconciliation_case_history h "
                         "JOIN reconciliation_cases c ON c.id = h.case_id "
                         "WHERE c.provider_subscription_id = 'sub_2' AND h.action = 'opened'")[0]
                    .as<std::string>(std::string()),
                std::string("cli"));
        }
        const auto caseOfSub2 = scalar(
            *conn, "SELECT id FROM reconciliation_cases WHERE provider_subscription_id = 'sub_2'");
        const auto shown = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(*m_db, {"cases", "show", QString::number(caseOfSub2)}));
        QVERIFY2(shown.out.contains("by postgres (renewalctl apply)"), shown.out.constData());
        // A delivery stays a webhook delivery.
        rd::RenewalApplier webhook(m_db->conninfo());
        auto april = marchRenewal();
        april.providerRenewalKey = "in_april";
        april.period = {ts("2026-04-01T00:00:00Z"), ts("2026-05-01T00:00:00Z")};
        QCOMPARE(outcomeName(webhook.apply(april).outcome), outcomeName(ApplyOutcome::Applied));
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM subscription_billing_periods "
                     "WHERE recorded_by = 'webhook' AND provider_renewal_key = 'in_april'"),
            1LL);
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
