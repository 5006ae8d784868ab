#include "domain/store/case_actions.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QtTest>

using rdtest::scalar;

namespace {

// A gap case: the March renewal of sub_1 (current period January) is not contiguous.
constexpr const char *kMarchEvent
    = R"({"providerKey":"stripe-main","providerEventId":"evt_march","providerSubscriptionId":"sub_1",)"
      R"("providerRenewalKey":"in_march","providerVersion":null,)"
      R"("period":{"start":"2026-03-01T00:00:00Z","end":"2026-04-01T00:00:00Z"},)"
      R"("paidAmountMinor":1999,"currency":"USD","paidAt":"2026-03-01T00:00:05Z"})";

constexpr const char *kFebruaryCall
    = "SELECT result FROM apply_successful_renewal('stripe-main', 'evt_feb', 'sub_1', 'in_feb', "
      "NULL, '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z', 1999, 'USD', "
      "'2026-02-01T00:00:05Z', 'webhook', 'stripe-main')";

// The February renewal of sub_1 delivered through ingest_delivery: one transaction that keeps
// the delivery, applies the renewal (which heals the March gap case) and records the outcome.
constexpr const char *kFebruaryDelivery
    = "SELECT outcome FROM ingest_delivery('stripe-main', 'evt_feb', 'body', 4, "
      "encode(sha256('body'), 'hex'), NULL, 'renewal', NULL, NULL, "
      R"('{"providerKey":"stripe-main","providerEventId":"evt_feb","providerSubscriptionId":"sub_1",)"
      R"("providerRenewalKey":"in_feb","providerVersion":null,)"
      R"("period":{"start":"2026-02-01T00:00:00Z","end":"2026-03-01T00:00:00Z"},)"
      R"("paidAmountMinor":1999,"currency":"USD","paidAt":"2026-02-01T00:00:05Z"}'::jsonb, )"
      "'8d3f2a6e-0c59-4f0e-9a57-3b1f6f0d2c11')";

/// A temporary table shaped like public.`table`, under the same name.
void shadow(pqxx::transaction_base &tx, const std::string &table)
{
    tx.exec0("CREATE TEMP TABLE " + table + " (LIKE public." + table + " INCLUDING ALL)");
}

} // namespace

/// The database enforces who may do what, and no role can point a SECURITY DEFINER or trigger
/// function at objects of its own: each attack runs as the weakest role that may call the
/// function, the way the outside audit ran it.
class TestSecurity : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

    std::string loginAs(const std::string &who, const std::string &kind)
    {
        return rdtest::loginAs(*m_db, who, kind);
    }

    /// A login of group role `kind` that may create temporary tables after all (as a DBA
    /// might grant, or another database might leave to PUBLIC): the functions must ignore them.
    std::string attackerWithTemp(const std::string &kind)
    {
        const std::string conninfo = loginAs(kind, kind);
        auto admin = m_db->connect();
        pqxx::nontransaction tx(*admin);
        tx.exec0("GRANT TEMPORARY ON DATABASE " + tx.quote_name(m_db->name()) + " TO "
            + tx.quote_name(m_db->name() + "_" + kind));
        return conninfo;
    }

    std::int64_t openGapCase()
    {
        auto admin = m_db->connect();
        pqxx::nontransaction tx(*admin);
        return tx
            .exec_params1("SELECT record_reconciliation_case($1::jsonb, "
                          "'renewal_period_is_not_contiguous', '{}'::jsonb)",
                std::string(kMarchEvent))[0]
            .as<std::int64_t>();
    }

private slots:
    void init()
    {
        m_db = std::make_unique<rdtest::TestDatabase>(QTest::currentTestFunction());
        rdtest::importSubscriptions(
            m_db->conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
    }

    void cleanup() { m_db.reset(); }

    // The rule, checked against the catalog so that a function added later without it fails
    // here: every SECURITY DEFINER and every trigger function names pg_temp last.
    void everyDefinerAndTriggerFunctionPutsPgTempLast()
    {
        auto conn = m_db->connect();
        pqxx::read_transaction tx(*conn);
        const auto functions
            = tx.exec("SELECT p.oid::regprocedure::text, p.prosecdef, "
                      "       coalesce(array_to_string(p.proconfig, ';'), '') "
                      "  FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace "
                      "   AND (p.prosecdef OR p.prorettype = 'trigger'::regtype) ORDER BY 1");
        QVERIFY(functions.size() >= 20); // the definer functions and the triggers exist
        for (const auto &f : functions) {
            const auto config = f[2].as<std::string>();
            // Functions that name every object by schema need no public at all (0016, 0018).
            QVERIFY2(config.find("search_path=pg_catalog, public, pg_temp") != std::string::npos
                    || config.find("search_path=pg_catalog, pg_temp") != std::string::npos,
                (f[0].as<std::string>() + " has " + config).c_str());
        }
    }

    // The ledger's totals (0023): the periods' trigger stands aside while the renewal core
    // counts its own renewal, as renewal_desk.core_counts says, and any session may set that
    // variable. So every function that writes billing periods says it itself, for its own
    // duration: 'on' in the core, 'off' in every other (a snapshot's renewal is the trigger's
    // to count, whatever the operator's session set). Checked against the catalog, so that a
    // function added later without it fails here.
    void everyWriterOfBillingPeriodsSaysWhoCounts()
    {
        auto conn = m_db->connect();
        pqxx::read_transaction tx(*conn);
        const auto functions = tx.exec(
            "SELECT p.proname, coalesce(array_to_string(p.proconfig, ';'), '') "
            "  FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace "
            "   AND p.prosrc ~* 'insert\\s+into\\s+(public\\.)?subscription_billing_periods' "
            " ORDER BY 1");
        QCOMPARE(functions.size(), 2); // apply_successful_renewal, attach_provider_snapshot
        for (const auto &f : functions) {
            const auto name = f[0].as<std::string>();
            const auto config = f[1].as<std::string>();
            const std::string want = name == "apply_successful_renewal"
                ? "renewal_desk.core_counts=on"
                : "renewal_desk.core_counts=off";
            QVERIFY2(config.find(want) != std::string::npos, (name + " has " + config).c_str());
        }
    }

    void temporaryTablesAndPublicObjectsAreRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("viewer") << "viewer";
        QTest::newRow("operator") << "operator";
        QTest::newRow("ingest") << "ingest";
    }

    void temporaryTablesAndPublicObjectsAreRefused()
    {
        QFETCH(QString, kind);
        pqxx::connection c(loginAs(kind.toStdString(), kind.toStdString()));
        for (const std::string sql : {"CREATE TEMP TABLE reconciliation_case_history (LIKE "
                                      "public.reconciliation_case_history)",
                 "CREATE TABLE public.subscription_billing_periods_x (id int)",
                 "CREATE FUNCTION public.rd_rfc3339(t text) RETURNS text LANGUAGE sql RETURN t"}) {
            pqxx::work tx(c);
            QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege, tx.exec0(sql));
        }
    }

    // Even where a DBA grants TEMP (or another database kept PUBLIC's TEMP), a temporary table
    // of the same name never takes the real one's place inside a function.
    void temporaryShadowTablesAreIgnored_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QStringList>("shadowed");
        QTest::addColumn<QString>("call"); // %1: the gap case's id
        QTest::addColumn<QString>("check"); // as the owner: 1 when the real tables changed

        const QStringList caseTables {"reconciliation_cases", "reconciliation_case_history"};
        const QStringList renewalTables {"subscriptions", "subscription_billing_periods",
            "subscription_transition_audits", "subscription_outbox"};
        QTest::newRow("operator: dismiss_case")
            << "operator" << caseTables << "SELECT dismiss_case(%1, 'other', 'hidden dismissal')"
            << "SELECT count(*) FROM reconciliation_case_history h JOIN reconciliation_cases c "
               "ON c.id = h.case_id WHERE h.action = 'dismissed' AND c.status = 'dismissed'";
        QTest::newRow("operator: reapply_case")
            << "operator" << (caseTables + renewalTables) << "SELECT reapply_case(%1, 'other', 'x')"
            << "SELECT count(*) FROM reconciliation_case_history WHERE action = 'reapply'";
        QTest::newRow("operator: attach_provider_snapshot")
            << "operator" << (renewalTables + QStringList {"provider_snapshots"} + caseTables)
            << "SELECT attach_provider_snapshot('{\"providerKey\":\"stripe-main\","
               "\"providerSubscriptionId\":\"sub_1\",\"status\":\"active\",\"currentPeriod\":"
               "{\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2026-02-01T00:00:00Z\"},"
               "\"cancelAtPeriodEnd\":true,\"providerVersion\":null,\"capturedAt\":"
               "\"2099-01-01T00:00:00Z\",\"latestRenewal\":null}', NULL, 'other', 'x')"
            << "SELECT count(*) FROM provider_snapshots p JOIN subscriptions s "
               "ON s.id = p.subscription_id WHERE s.cancel_at_period_end";
        // 0023: a snapshot's renewal is counted by the periods' trigger, not by the core, even
        // when the operator's session claims the core counts.
        QTest::newRow("operator: a snapshot's renewal counted by the periods' trigger")
            << "operator"
            << (renewalTables
                   + QStringList {"provider_snapshots", "renewal_total_deltas",
                       "renewal_daily_totals"}
                   + caseTables)
            << QString::fromStdString(
                   rdtest::februarySnapshotClaimingCoreCounts("2026-02-01T00:00:05Z"))
            << "SELECT count(*) FROM renewal_total_deltas d JOIN subscription_billing_periods b "
               "ON b.provider_renewal_key = 'in_feb' AND b.recorded_by = 'snapshot' "
               "WHERE d.recorded_by = 'snapshot' AND d.renewals = 1 AND d.amount_minor = 1999";
        QTest::newRow("operator: claim_case, note_case, release_case")
            << "operator" << caseTables
            << "SELECT claim_case(%1, NULL); SELECT note_case(%1, 'hidden note'); "
               "SELECT release_case(%1, NULL)"
            << "SELECT (count(*) = 3)::int FROM reconciliation_case_history "
               "WHERE action IN ('claimed', 'noted', 'released') "
               "AND provider_key = 'stripe-main'";
        QTest::newRow("operator: register_billing_provider")
            << "operator" << QStringList {"billing_providers"}
            << "SELECT register_billing_provider('paddle-x', 'paddle', 'Paddle X')"
            << "SELECT count(*) FROM billing_providers WHERE provider_key = 'paddle-x'";
        QTest::newRow("ingest: apply_successful_renewal")
            << "ingest" << renewalTables << kFebruaryCall
            << "SELECT count(*) FROM subscription_billing_periods b "
               "JOIN subscription_transition_audits a ON a.billing_period_id = b.id "
               "JOIN subscription_outbox o ON o.billing_period_id = b.id "
               "JOIN subscriptions s ON s.id = b.subscription_id "
               "WHERE b.provider_renewal_key = 'in_feb' AND a.provider_key = 'stripe-main'";
        QTest::newRow("ingest: record_reconciliation_case")
            << "ingest" << caseTables
            << QString("SELECT record_reconciliation_case('%1'::jsonb, "
                       "'renewal_period_is_not_contiguous', '{}')")
                   .arg(kMarchEvent)
            << "SELECT count(*) FROM reconciliation_cases WHERE occurrences = 2";
        QTest::newRow("ingest: ingest_record")
            << "ingest" << QStringList {"webhook_inbox"}
            << "SELECT inbox_id FROM ingest_record('stripe-main', 'evt_x', 'body', 4, "
               "encode(sha256('body'), 'hex'), "
               "'invalid', NULL, 'x', NULL)"
            << "SELECT count(*) FROM webhook_inbox WHERE provider_event_id = 'evt_x'";
        QTest::newRow("ingest: ingest_delivery")
            << "ingest"
            << (QStringList {"webhook_inbox", "billing_providers"} + renewalTables + caseTables)
            << kFebruaryDelivery
            << "SELECT count(*) FROM webhook_inbox w "
               "JOIN subscription_billing_periods b ON b.id = w.billing_period_id "
               "JOIN subscription_transition_audits a ON a.billing_period_id = b.id "
               "JOIN subscription_outbox o ON o.billing_period_id = b.id "
               "JOIN reconciliation_cases c ON c.provider_renewal_key = 'in_march' "
               "AND c.status = 'resolved' "
               "WHERE w.provider_event_id = 'evt_feb' AND w.outcome = 'applied' "
               "AND b.id = '8d3f2a6e-0c59-4f0e-9a57-3b1f6f0d2c11'";
        // The ledger's totals (0016, 0023): the renewal core appends its delta to the real
        // deltas table, and a fold (any viewer may fold) moves it into the real totals.
        QTest::newRow("ingest: the renewal's delta and fold_renewal_totals")
            << "ingest"
            << (renewalTables + QStringList {"renewal_total_deltas", "renewal_daily_totals"})
            << QString(kFebruaryCall) + "; SELECT fold_renewal_totals()"
            << "SELECT count(*) FROM renewal_daily_totals t WHERE t.day = '2026-02-01' "
               "AND t.renewals = 1 AND t.amount_minor = 1999 "
               "AND NOT EXISTS (SELECT 1 FROM renewal_total_deltas)";
        // 0020: the same delta also carries the period's start day, and the fold adds it to
        // the real period-start totals as well.
        QTest::newRow("ingest: the renewal's delta and fold_renewal_totals, by period start")
            << "ingest"
            << (renewalTables
                   + QStringList {"renewal_total_deltas", "renewal_daily_totals",
                       "renewal_period_start_totals"})
            << QString(kFebruaryCall) + "; SELECT fold_renewal_totals()"
            << "SELECT count(*) FROM renewal_period_start_totals t WHERE t.day = '2026-02-01' "
               "AND t.renewals = 1 AND t.amount_minor = 1999 "
               "AND EXISTS (SELECT 1 FROM renewal_daily_totals d WHERE d.day = '2026-02-01' "
               "AND d.renewals = 1) AND NOT EXISTS (SELECT 1 FROM renewal_total_deltas)";
        QTest::newRow("ingest: outbox_claim and outbox_mark_published")
            << "ingest" << (renewalTables + QStringList {"subscription_outbox"})
            << QString(kFebruaryCall)
                + "; SELECT outbox_mark_published(array_agg(id)) FROM outbox_claim(10, NULL)"
            << "SELECT count(*) FROM subscription_outbox WHERE published_at IS NOT NULL";
    }

    // The Overview's inbox summary (0018): a viewer may fold, and folds only the real inbox
    // into the real summary, whatever temporary tables of those names it seeded with poison.
    void foldInboxDaysIgnoresShadowTables()
    {
        {
            auto admin = m_db->connect();
            pqxx::nontransaction tx(*admin);
            tx.exec0("INSERT INTO billing_providers (provider_key, kind, display_name) "
                     "VALUES ('stripe-main', 'stripe', 'Stripe') ON CONFLICT DO NOTHING");
            tx.exec0("INSERT INTO webhook_inbox (provider_key, provider_event_id, raw_body, "
                     "body_size, body_sha256, received_at, last_delivery_at) "
                     "VALUES ('stripe-main', 'evt_old', 'x', 1, encode(sha256('x'), 'hex'), "
                     "now() - interval '2 days', now() - interval '2 days')");
            tx.exec0("UPDATE webhook_inbox_daily_state "
                     "SET folded_before = ((now() - interval '3 days') AT TIME ZONE 'UTC')::date");
        }
        pqxx::connection attacker(attackerWithTemp("viewer"));
        {
            pqxx::nontransaction tx(attacker);
            for (const char *t :
                {"webhook_inbox", "webhook_inbox_daily", "webhook_inbox_daily_state"})
                shadow(tx, t);
            // A state that says everything is folded, and deliveries that never came.
            tx.exec0("INSERT INTO pg_temp.webhook_inbox_daily_state (folded_before) "
                     "VALUES ((now() AT TIME ZONE 'UTC')::date)");
            tx.exec0("INSERT INTO pg_temp.webhook_inbox (provider_key, provider_event_id, "
                     "raw_body, body_size, body_sha256, received_at, last_delivery_at) "
                     "SELECT 'stripe-main', 'evt_poison_' || i, 'x', 1, "
                     "encode(sha256('x'), 'hex'), now() - interval '2 days', "
                     "now() - interval '2 days' FROM generate_series(1, 5) i");
            tx.exec0("SET search_path = pg_temp, public");
            QCOMPARE(tx.exec1("SELECT fold_inbox_days()")[0].as<long long>(), 1LL);
            QCOMPARE(tx.exec1("SELECT count(*) FROM pg_temp.webhook_inbox_daily")[0].as<int>(), 0);
        }
        auto admin = m_db->connect();
        QCOMPARE(scalar(*admin,
                     "SELECT count(*) FROM webhook_inbox_daily WHERE outcome = '' "
                     "AND deliveries = 1 AND day = ((now() - interval '2 days') AT TIME ZONE "
                     "'UTC')::date"),
            1LL);
        QCOMPARE(scalar(*admin, "SELECT count(*) FROM webhook_inbox_daily"), 1LL);
    }

    // The ledger's fold (0016, 0020): a viewer may fold, and folds only the real deltas into
    // the real totals of both bases, whatever temporary tables of those names it seeded; its
    // reads of either basis see the real totals too.
    void foldRenewalTotalsIgnoresShadowTables()
    {
        {
            auto admin = m_db->connect();
            pqxx::nontransaction tx(*admin);
            // Paid a second before the day its period starts: one delta, two different days.
            tx.exec0("INSERT INTO subscription_billing_periods (subscription_id, provider_key, "
                     "provider_renewal_key, provider_event_id, period_start, period_end, "
                     "paid_amount_minor, currency, paid_at, recorded_by) "
                     "SELECT id, provider_key, 'in_mar', 'evt_mar', '2026-03-01T00:00:00Z', "
                     "'2026-04-01T00:00:00Z', 1999, 'USD', '2026-02-28T23:59:59Z', 'webhook' "
                     "FROM subscriptions WHERE provider_subscription_id = 'sub_1'");
        }
        pqxx::connection attacker(attackerWithTemp("viewer"));
        {
            pqxx::nontransaction tx(attacker);
            for (const char *t :
                {"renewal_total_deltas", "renewal_daily_totals", "renewal_period_start_totals"})
                shadow(tx, t);
            // Renewals that never happened, waiting to be folded, and totals that were never
            // counted, waiting to be read.
            tx.exec0("INSERT INTO pg_temp.renewal_total_deltas (day, period_start_day, "
                     "provider_key, currency, recorded_by, renewals, amount_minor) "
                     "SELECT '2026-03-01', '2026-03-01', 'stripe-main', 'USD', 'webhook', "
                     "1000, 1000000 FROM generate_series(1, 5)");
            tx.exec0("INSERT INTO pg_temp.renewal_period_start_totals VALUES ('2026-03-01', "
                     "'stripe-main', 'USD', 'webhook', 7, 7)");
            tx.exec0("SET search_path = pg_temp, public");
            QCOMPARE(tx.exec1("SELECT fold_renewal_totals()")[0].as<long long>(), 1LL);
            QCOMPARE(tx.exec1("SELECT count(*) FROM pg_temp.renewal_total_deltas")[0].as<int>(), 5);
            QCOMPARE(tx.exec1("SELECT count(*) FROM pg_temp.renewal_daily_totals")[0].as<int>(), 0);
            QCOMPARE(tx.exec1("SELECT sum(renewals) FROM pg_temp.renewal_period_start_totals")[0]
                         .as<int>(),
                7);
            QCOMPARE(tx.exec1("SELECT sum(renewals) FROM renewal_period_start_totals("
                              "'2026-03-01', '2026-04-01')")[0]
                         .as<int>(),
                1);
            QCOMPARE(tx.exec1("SELECT sum(renewals) FROM renewal_totals('2026-02-28', "
                              "'2026-03-01')")[0]
                         .as<int>(),
                1);
        }
        auto admin = m_db->connect();
        QCOMPARE(scalar(*admin,
                     "SELECT count(*) FROM renewal_period_start_totals WHERE day = '2026-03-01' "
                     "AND renewals = 1 AND amount_minor = 1999"),
            1LL);
        QCOMPARE(scalar(*admin, "SELECT sum(renewals) FROM renewal_period_start_totals"), 1LL);
        QCOMPARE(scalar(*admin,
                     "SELECT count(*) FROM renewal_daily_totals WHERE day = '2026-02-28' "
                     "AND renewals = 1 AND amount_minor = 1999"),
            1LL);
        QCOMPARE(scalar(*admin, "SELECT count(*) FROM renewal_total_deltas"), 0LL);
    }

    void temporaryShadowTablesAreIgnored()
    {
        QFETCH(QString, kind);
        QFETCH(QStringList, shadowed);
        QFETCH(QString, call);
        QFETCH(QString, check);

        const auto caseId = openGapCase();
        {
            auto admin = m_db->connect();
            pqxx::nontransaction tx(*admin);
            tx.exec0("INSERT INTO billing_providers (provider_key, kind, display_name) "
                     "VALUES ('stripe-main', 'stripe', 'Stripe') ON CONFLICT DO NOTHING");
        }
        const std::string conninfo = attackerWithTemp(kind.toStdString());
        pqxx::connection attacker(conninfo);
        {
            pqxx::nontransaction tx(attacker);
            shadowed.removeDuplicates();
            for (const auto &t : shadowed)
                shadow(tx, t.toStdString());

            // A search_path that names pg_temp first, for good measure.
            tx.exec0("SET search_path = pg_temp, public");
            if (call.contains("%1"))
                call = call.arg(caseId);
            for (const auto &statement : call.split("; "))
                tx.exec(statement.toStdString());
            for (const auto &t : shadowed)
                QVERIFY2(
                    tx.exec1("SELECT count(*) FROM pg_temp." + t.toStdString())[0].as<int>() == 0,
                    qPrintable("the function wrote into the temporary " + t));
        }
        auto admin = m_db->connect();
        QVERIFY2(scalar(*admin, check.toStdString()) >= 1, qPrintable(check));
        QCOMPARE(scalar(*admin, "SELECT count(*) FROM audit_chain_breaks()"), 0LL);
    }

    // Only the ingest role may deliver: a viewer or an operator cannot call ingest_delivery,
    // and neither can a role that is only PUBLIC.
    void ingestDeliveryNeedsTheIngestGrant_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("viewer") << "viewer";
        QTest::newRow("operator") << "operator";
    }

    void ingestDeliveryNeedsTheIngestGrant()
    {
        QFETCH(QString, kind);
        {
            auto admin = m_db->connect();
            pqxx::nontransaction tx(*admin);
            tx.exec0("INSERT INTO billing_providers (provider_key, kind, display_name) "
                     "VALUES ('stripe-main', 'stripe', 'Stripe') ON CONFLICT DO NOTHING");
        }
        pqxx::connection c(loginAs(kind.toStdString(), kind.toStdString()));
        {
            pqxx::nontransaction tx(c);
            QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege, tx.exec(kFebruaryDelivery));
        }
        auto admin = m_db->connect();
        QCOMPARE(scalar(*admin,
                     "SELECT count(*) FROM pg_proc p, aclexplode(p.proacl) a "
                     "WHERE p.oid = 'public.ingest_delivery'::regproc AND a.grantee = 0"),
            0LL); // nothing granted to PUBLIC
        QCOMPARE(scalar(*admin,
                     "SELECT count(*) FROM pg_proc p, aclexplode(p.proacl) a "
                     "WHERE p.oid = 'public.ingest_delivery'::regproc "
                     "AND a.privilege_type = 'EXECUTE' AND a.grantee <> p.proowner "
                     "AND a.grantee <> 'renewal_ingest'::regrole"),
            0LL); // and to nobody but the ingest role
        QCOMPARE(scalar(*admin, "SELECT count(*) FROM webhook_inbox"), 0LL);
        QCOMPARE(scalar(*admin, "SELECT count(*) FROM subscription_billing_periods"), 0LL);
    }

    // The list of reason codes the database accepts is its own: a temporary table of the same
    // name, first on the search_path, cannot make an unknown reason acceptable.
    void reasonCheckReadsTheRealList()
    {
        const auto caseId = openGapCase();
        pqxx::connection attacker(attackerWithTemp("operator"));
        pqxx::nontransaction tx(attacker);
        tx.exec0("CREATE TEMP TABLE operator_reason_codes (code text PRIMARY KEY)");
        tx.exec0("INSERT INTO pg_temp.operator_reason_codes VALUES ('bogus_reason')");
        tx.exec0("SET search_path = pg_temp, public");
        try {
            tx.exec_params("SELECT dismiss_case($1, 'bogus_reason', 'hidden')", caseId);
            QFAIL("an unknown reason was accepted");
        } catch (const pqxx::sql_error &e) {
            QCOMPARE(e.sqlstate(), std::string("RD005")); // invalid_reason
        }
        auto admin = m_db->connect();
        QCOMPARE(scalar(*admin,
                     "SELECT count(*) FROM reconciliation_case_history "
                     "WHERE reason = 'bogus_reason'"),
            0LL);
    }

    // The preview judges the real case: a shadow table of cases would make it answer for a
    // case that does not exist (or hide the one that does).
    void previewReadsTheRealCase()
    {
        const auto caseId = openGapCase();
        const std::string conninfo = attackerWithTemp("operator");
        pqxx::connection op(conninfo);
        pqxx::nontransaction tx(op);
        for (const char *t : {"reconciliation_cases", "subscriptions", "provider_snapshots"})
            shadow(tx, t);
        tx.exec0("SET search_path = pg_temp, public");
        const auto answer = nlohmann::json::parse(
            tx.exec_params1("SELECT preview_provider_snapshot($1::jsonb, $2)::text",
                  std::string(R"({"providerKey":"stripe-main","providerSubscriptionId":"sub_1",)"
                              R"("status":"active","currentPeriod":{"start":)"
                              R"("2026-02-01T00:00:00Z","end":"2026-03-01T00:00:00Z"},)"
                              R"("cancelAtPeriodEnd":false,"providerVersion":null,)"
                              R"("capturedAt":"2099-01-01T00:00:00Z","latestRenewal":null})"),
                  caseId)[0]
                .as<std::string>());
        QVERIFY2(answer.contains("wouldBe"), answer.dump().c_str());
        QCOMPARE(answer["wouldBe"]["case"]["status"].get<std::string>(), std::string("resolved"));
        QCOMPARE(scalar(*m_db->connect(), "SELECT count(*) FROM provider_snapshots"), 0LL);
    }

    // A viewer's temporary audit table does not change what verification reports.
    void verificationReadsTheRealChains()
    {
        const std::string conninfo = attackerWithTemp("viewer");
        pqxx::connection viewer(conninfo);
        pqxx::nontransaction tx(viewer);
        shadow(tx, "subscription_transition_audits");
        tx.exec0("INSERT INTO pg_temp.subscription_transition_audits (subscription_id, "
                 "transition, actor_type, actor_id, chain_seq, prev_hash, row_hash, "
                 "provider_key) SELECT id, 'subscription_imported', 'import', 'x', 7, 'forged', "
                 "'forged', 'forged' "
                 "FROM public.subscriptions");
        QCOMPARE(tx.exec1("SELECT count(*) FROM audit_chain_breaks()")[0].as<int>(), 0);
        QCOMPARE(tx.exec1("SELECT count(*) FROM audit_chain_heads()")[0].as<int>(), 1);
    }
};

QTEST_GUILESS_MAIN(TestSecurity)
#include "tst_security.moc"
