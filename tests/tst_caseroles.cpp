#include "domain/core/errors.h"
#include "domain/store/case_actions.h"
#include "domain/store/roles.h"
#include "tests/support/gap_case.h"
#include "tests/support/lock_waiters.h"
#include "tests/support/test_database.h"

#include <pqxx/pqxx>

#include <QtTest>

#include <future>
#include <string>
#include <vector>

using rdtest::kCaseNote;

/// Who may act on a case: a viewer writes nothing, an operator only through the actions, two
/// operators on one case (one wins, the other told by whom), claims and notes in the chained
/// history, and audit rows the owner cannot change.
class TestCaseRoles : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

private slots:
    void init() { m_db = rdtest::databaseWithSub1(); }

    void cleanup() { m_db.reset(); }

    void twoOperatorsOneCase()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        const auto alice = rdtest::loginAs(*m_db, "alice", "operator");
        const auto bob = rdtest::loginAs(*m_db, "bob", "operator");
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
        const auto caseId = rdtest::openGapCase(*m_db);
        pqxx::connection alice(rdtest::loginAs(*m_db, "alice", "operator"));
        pqxx::connection bob(rdtest::loginAs(*m_db, "bob", "operator"));
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

    // #42, item 11: the one person of an embedded desk gets a login of their own, an operator
    // who owns the desk's tables (grantOwner): their claims, notes, dismissals and backups are
    // recorded under their name, never as the owner that the SECURITY DEFINER functions run as;
    // and nobody weaker can make themselves that person, or take a reserved name.
    void aPersonWhoOwnsTheDeskIsRecordedAsThemselves()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        const std::string dana = m_db->name() + "_dana";
        auto admin = m_db->connect();
        const std::string owner = rdtest::text(*m_db, "SELECT current_user");
        rd::grantOwner(*admin, dana, /*ownerMayBeSuperuser=*/true);
        rd::grantOwner(*admin, dana, true); // again: nothing changes
        pqxx::connection person(m_db->conninfo() + " user=" + dana);
        QVERIFY(rd::claimCase(person, caseId, "").outcome == rd::ClaimOutcome::Claimed);
        rd::noteCase(person, caseId, "called the customer");
        rd::dismissCase(person, caseId, {"duplicate_charge", "refunded by hand"});
        for (const auto &h : rd::showCase(person, caseId)["history"]) {
            if (h["action"] != "opened")
                QCOMPARE(h["actor"].get<std::string>(), dana);
        }
        QCOMPARE(rdtest::text(*m_db,
                     "SELECT resolved_by FROM reconciliation_cases WHERE id = "
                         + std::to_string(caseId)),
            dana);
        {
            // A backup's row, as database_backup.cpp writes it: the person, by default.
            pqxx::work tx(person);
            tx.exec0("INSERT INTO database_backups (taken_at, file_name, file_bytes, "
                     "schema_version, anchor_digest, manifest) VALUES (now(), 'x.backup', 1, "
                     "'1', repeat('a', 64), '{}')");
            QCOMPARE(tx.exec1("SELECT taken_by FROM database_backups")[0].as<std::string>(), dana);
        }

        // The weakest role: a viewer cannot make itself (or anyone) that person, nor write a
        // backup's row, nor name another actor in one.
        const std::string veraRole = m_db->name() + "_vera";
        pqxx::connection vera(rdtest::loginAs(*m_db, "vera", "viewer"));
        QVERIFY_THROWS_EXCEPTION(std::exception, rd::grantOwner(vera, veraRole, true));
        {
            pqxx::nontransaction tx(vera);
            QVERIFY_THROWS_EXCEPTION(pqxx::sql_error,
                tx.exec0("INSERT INTO database_backups (taken_at, taken_by, file_name, "
                         "file_bytes, schema_version, anchor_digest, manifest) VALUES (now(), '"
                    + dana + "', 'x', 1, '1', repeat('a', 64), '{}')"));
        }
        {
            pqxx::nontransaction tx(vera);
            QVERIFY_THROWS_EXCEPTION(pqxx::sql_error,
                tx.exec0("GRANT " + tx.quote_name(owner) + " TO " + tx.quote_name(veraRole)));
            QVERIFY(
                !tx.exec1("SELECT pg_has_role(session_user, " + tx.quote(owner) + ", 'MEMBER')")[0]
                     .as<bool>());
        }
        // An operator who is not the owner's member writes no backup row either.
        pqxx::connection olga(rdtest::loginAs(*m_db, "olga", "operator"));
        {
            pqxx::nontransaction tx(olga);
            QVERIFY_THROWS_EXCEPTION(pqxx::sql_error,
                tx.exec0("INSERT INTO database_backups (taken_at, file_name, file_bytes, "
                         "schema_version, anchor_digest, manifest) VALUES (now(), 'x', 1, '1', "
                         "repeat('a', 64), '{}')"));
        }

        // Names that record no person are refused, whoever asks.
        for (const std::string name : {"postgres", "Postgres", "public", "session_user", "pg_dana",
                 "renewal_operator", "renewal_owner", ""}) {
            QVERIFY2(!rd::personLoginProblem(name).empty(), name.c_str());
            QVERIFY_THROWS_EXCEPTION(rd::InputError, rd::grantOwner(*admin, name, true));
            QVERIFY_THROWS_EXCEPTION(rd::InputError, rd::grantRole(*admin, name, "viewer"));
        }
        QVERIFY(rd::personLoginProblem("dana.miller").empty());
        // A group role is not a person; and on a server whose owner is a superuser, "owner"
        // would make a superuser: refused unless the caller says it is the embedded cluster.
        QVERIFY_THROWS_EXCEPTION(rd::InputError, rd::grantOwner(*admin, "renewal_viewer", true));
        {
            pqxx::nontransaction tx(*admin);
            tx.exec0("CREATE ROLE " + tx.quote_name(m_db->name() + "_team") + " NOLOGIN");
        }
        QVERIFY_THROWS_EXCEPTION(
            rd::InputError, rd::grantOwner(*admin, m_db->name() + "_team", true));
        if (rdtest::scalar(
                *admin, "SELECT rolsuper::int FROM pg_roles WHERE rolname = current_user")
            == 1)
            QVERIFY_THROWS_EXCEPTION(
                rd::InputError, rd::grantRole(*admin, m_db->name() + "_erin", "owner"));
    }

    void viewerCannotWriteAnything()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        pqxx::connection viewer(rdtest::loginAs(*m_db, "viewer", "viewer"));
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
        const auto caseId = rdtest::openGapCase(*m_db);
        pqxx::connection op(rdtest::loginAs(*m_db, "operator", "operator"));
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
        const auto result = rd::reapplyCase(op, caseId, kCaseNote);
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
        rdtest::openGapCase(*m_db);
        auto owner = m_db->connect(); // the superuser that owns every table
        pqxx::work tx(*owner);
        QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege, tx.exec0(sql.toStdString()));
    }

    // The audit log's provider filter reads a copy of the provider on each audit row and case
    // history entry (0022). The chain triggers take it from the subscription or the case,
    // whatever the writer names, and like the rest of the row it cannot be changed afterwards.
    void theProviderCopyIsTheOwnersOwn()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
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
};

QTEST_GUILESS_MAIN(TestCaseRoles)
#include "tst_caseroles.moc"
