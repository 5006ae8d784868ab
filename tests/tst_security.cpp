#include "domain/core/operator_note.h"
#include "domain/store/case_actions.h"
#include "tests/support/gap_case.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QtTest>

#include <fstream>
#include <map>
#include <regex>
#include <set>

using rdtest::scalar;

namespace {

// A gap case: the March renewal of sub_1 (current period January) is not contiguous.
constexpr const char *kMarchEvent
    = R"({"providerKey":"stripe-main","providerEventId":"evt_march","providerSubscriptionId":"sub_1",)"
      R"("providerRenewalKey":"in_march","providerVersion":null,)"
      R"("period":{"start":"2026-03-01T00:00:00Z","end":"2026-04-01T00:00:00Z"},)"
      R"("paidAmountMinor":1999,"currency":"USD","paidAt":"2026-03-01T00:00:05Z"})";

constexpr const char *kFebruaryCall
    = "SELECT result FROM apply_webhook_renewal('stripe-main', 'evt_feb', 'sub_1', 'in_feb', "
      "NULL, '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z', 1999, 'USD', "
      "'2026-02-01T00:00:05Z')";

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

// Money back (0049): a refund of in_feb, delivered after kFebruaryDelivery recorded it.
constexpr const char *kFebruaryRefund
    = "SELECT outcome FROM ingest_delivery('stripe-main', 'evt_refund', 'refund', 6, "
      "encode(sha256('refund'), 'hex'), 'money_movement', 'refund', NULL, NULL, "
      R"('{"providerKey":"stripe-main","providerEventId":"evt_refund","providerSubscriptionId":null,)"
      R"("movements":[{"movementKey":"re_feb","kind":"refund","amountMinor":500,"currency":"USD",)"
      R"("occurredAt":"2026-02-10T00:00:00Z","renewalRefs":["ch_feb","in_feb"]}]}'::jsonb, )"
      "'0b6f7a55-4e0d-4c3b-9a1e-2f5b8c7d6e01')";

// An invalid delivery, id 7001, for review_invalid_delivery.
constexpr const char *kInvalidDelivery
    = "INSERT INTO webhook_inbox (id, provider_key, provider_event_id, raw_body, body_size, "
      "body_sha256, outcome, reason, error, processed_at) OVERRIDING SYSTEM VALUE VALUES (7001, "
      "'stripe-main', 'sha256:review', 'x', 1, encode(sha256('x'), 'hex'), 'invalid', "
      "'invalid_payload', 'cut short', now())";

/// What a shadow-table attack (TestSecurity::temporaryShadowTablesAreIgnored) needs besides
/// the attacker's kind, its temporary tables, its call and the owner's check. In every SQL text
/// "; " separates statements and %1 is the gap case's id.
struct AttackGround
{
    bool gapCase = true; ///< sub_1's March gap case opened first
    QString setup; ///< run as the owner before the attack
    QString poison; ///< run by the attacker into its temporary tables, before pg_temp is first
    QString answer; ///< the call's statements' values, "; "-joined (null: not compared); with
                    ///< a refusal, what its message says
    QString refusal; ///< the SQLSTATE the call's last statement must raise

    AttackGround withoutCase() const { return with(&AttackGround::gapCase, false); }
    AttackGround setUp(const QString &sql) const { return with(&AttackGround::setup, sql); }
    AttackGround poisoned(const QString &sql) const { return with(&AttackGround::poison, sql); }
    AttackGround answering(const QString &a) const { return with(&AttackGround::answer, a); }
    AttackGround refusedWith(const QString &sqlstate) const
    {
        return with(&AttackGround::refusal, sqlstate);
    }

private:
    template<typename T>
    AttackGround with(T AttackGround::*member, T value) const
    {
        AttackGround changed = *this;
        changed.*member = std::move(value);
        return changed;
    }
};

/// A temporary table shaped like public.`table`, under the same name.
void shadow(pqxx::nontransaction &tx, const std::string &table)
{
    try {
        tx.exec0("CREATE TEMP TABLE " + table + " (LIKE public." + table + " INCLUDING ALL)");
    } catch (const pqxx::insufficient_privilege &) {
        // LIKE needs SELECT on the whole table, and a viewer may not read webhook_inbox's
        // bodies (0027): the attacker names the columns from the catalog instead.
        const auto columns = tx.exec_params1(
            "SELECT string_agg(quote_ident(attname) || ' ' || format_type(atttypid, atttypmod), "
            "', ' ORDER BY attnum) FROM pg_attribute WHERE attrelid = $1::regclass "
            "AND attnum > 0 AND NOT attisdropped",
            "public." + table)[0];
        tx.exec0("CREATE TEMP TABLE " + table + " (" + columns.as<std::string>() + ")");
    }
}

} // namespace

Q_DECLARE_METATYPE(AttackGround)

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

    void registerStripeMain()
    {
        auto admin = m_db->connect();
        pqxx::nontransaction(*admin).exec0(
            "INSERT INTO billing_providers (provider_key, kind, display_name) "
            "VALUES ('stripe-main', 'stripe', 'Stripe') ON CONFLICT DO NOTHING");
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
    void init() { m_db = rdtest::databaseWithSub1(); }

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
        QTest::addColumn<AttackGround>("ground");

        const QStringList caseTables {"reconciliation_cases", "reconciliation_case_history"};
        const QStringList renewalTables {"subscriptions", "subscription_billing_periods",
            "subscription_transition_audits", "subscription_outbox"};
        QTest::newRow("operator: dismiss_case")
            << "operator" << caseTables << "SELECT dismiss_case(%1, 'other', 'hidden dismissal')"
            << "SELECT count(*) FROM reconciliation_case_history h JOIN reconciliation_cases c "
               "ON c.id = h.case_id WHERE h.action = 'dismissed' AND c.status = 'dismissed'"
            << AttackGround {};
        QTest::newRow("operator: reapply_case")
            << "operator" << (caseTables + renewalTables) << "SELECT reapply_case(%1, 'other', 'x')"
            << "SELECT count(*) FROM reconciliation_case_history WHERE action = 'reapply'"
            << AttackGround {};
        QTest::newRow("operator: attach_provider_snapshot")
            << "operator" << (renewalTables + QStringList {"provider_snapshots"} + caseTables)
            << "SELECT attach_provider_snapshot('{\"providerKey\":\"stripe-main\","
               "\"providerSubscriptionId\":\"sub_1\",\"status\":\"active\",\"currentPeriod\":"
               "{\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2026-02-01T00:00:00Z\"},"
               "\"cancelAtPeriodEnd\":true,\"providerVersion\":null,\"capturedAt\":"
               "\""
                + QString::fromStdString(rdtest::capturedNow())
                + "\",\"latestRenewal\":null}', NULL, 'other', 'x')"
            << "SELECT count(*) FROM provider_snapshots p JOIN subscriptions s "
               "ON s.id = p.subscription_id WHERE s.cancel_at_period_end"
            << AttackGround {};
        // 0032: a snapshot that makes the case's renewal period current records the case's
        // renewal, into the real periods, audits and outbox, and resolves the real case.
        QTest::newRow("operator: attach_provider_snapshot records its case's renewal")
            << "operator" << (renewalTables + QStringList {"provider_snapshots"} + caseTables)
            << "SELECT attach_provider_snapshot('{\"providerKey\":\"stripe-main\","
               "\"providerSubscriptionId\":\"sub_1\",\"status\":\"active\",\"currentPeriod\":"
               "{\"start\":\"2026-03-01T00:00:00Z\",\"end\":\"2026-04-01T00:00:00Z\"},"
               "\"cancelAtPeriodEnd\":false,\"providerVersion\":null,\"capturedAt\":"
               "\""
                + QString::fromStdString(rdtest::capturedNow())
                + "\",\"latestRenewal\":null}', %1, 'other', 'x')"
            << "SELECT count(*) FROM subscription_billing_periods b JOIN reconciliation_cases c "
               "ON c.provider_renewal_key = b.provider_renewal_key AND c.status = 'resolved' "
               "JOIN subscription_transition_audits a ON a.billing_period_id = b.id "
               "JOIN subscription_outbox o ON o.billing_period_id = b.id "
               "WHERE b.provider_renewal_key = 'in_march' AND b.recorded_by = 'snapshot'"
            << AttackGround {};
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
               "WHERE d.recorded_by = 'snapshot' AND d.renewals = 1 AND d.amount_minor = 1999"
            << AttackGround {};
        QTest::newRow("operator: claim_case, note_case, release_case")
            << "operator" << caseTables
            << "SELECT claim_case(%1, NULL); SELECT note_case(%1, 'hidden note'); "
               "SELECT release_case(%1, NULL)"
            << "SELECT (count(*) = 3)::int FROM reconciliation_case_history "
               "WHERE action IN ('claimed', 'noted', 'released') "
               "AND provider_key = 'stripe-main'"
            << AttackGround {};
        // 0033: the dismissal, then the reopen, both into the real case and its history.
        QTest::newRow("operator: reopen_case")
            << "operator" << caseTables
            << "SELECT dismiss_case(%1, 'test_data', 'hidden dismissal'); "
               "SELECT reopen_case(%1, 'hidden reopen')"
            << "SELECT count(*) FROM reconciliation_case_history h JOIN reconciliation_cases c "
               "ON c.id = h.case_id WHERE h.action = 'reopened' AND h.comment = 'hidden reopen' "
               "AND c.status = 'open'"
            << AttackGround {};
        QTest::newRow("operator: register_billing_provider")
            << "operator" << QStringList {"billing_providers"}
            << "SELECT register_billing_provider('paddle-x', 'paddle', 'Paddle X')"
            << "SELECT count(*) FROM billing_providers WHERE provider_key = 'paddle-x'"
            << AttackGround {};
        // 0029: a statement run, begun, judged and finished in one statement (one
        // transaction): the February renewal is missing here, so the core backfills it (and
        // heals the March gap case) into the real tables, and the run is the real one.
        QTest::newRow("operator: statement_begin, statement_add_lines, statement_finish")
            << "operator"
            << (renewalTables
                   + QStringList {"statement_runs", "statement_lines", "billing_providers",
                       "renewal_total_deltas"}
                   + caseTables)
            << "SELECT statement_finish(r.run_id) FROM statement_begin('stripe-main', "
               "'2026-02-01', '2026-02-28', repeat('a', 64), '[]', 1) r CROSS JOIN LATERAL "
               "statement_add_lines(r.run_id, jsonb_build_array(jsonb_build_object('line', 1, "
               "'objectId', 'in_feb', 'objectSha256', repeat('b', 64), 'outcome', 'renewal', "
               "'event', '{\"providerKey\":\"stripe-main\",\"providerEventId\":\"statement:b\","
               "\"providerSubscriptionId\":\"sub_1\",\"providerRenewalKey\":\"in_feb\","
               "\"providerVersion\":null,\"period\":{\"start\":\"2026-02-01T00:00:00Z\","
               "\"end\":\"2026-03-01T00:00:00Z\"},\"paidAmountMinor\":1999,\"currency\":"
               "\"USD\",\"paidAt\":\"2026-02-01T00:00:05Z\"}'::jsonb))) a"
            << "SELECT count(*) FROM statement_runs r JOIN statement_lines l ON l.run_id = r.id "
               "JOIN subscription_billing_periods b ON b.id = l.billing_period_id "
               "AND b.recorded_by = 'statement' "
               "JOIN subscription_transition_audits a ON a.billing_period_id = b.id "
               "AND a.actor_type = 'statement' "
               "JOIN reconciliation_cases c ON c.provider_renewal_key = 'in_march' "
               "AND c.status = 'resolved' "
               "WHERE r.finished_at IS NOT NULL AND r.backfilled = 1 AND l.finding = 'backfilled'"
            << AttackGround {};
        // 0031: the same run, then February closed over it: the close reads the real run,
        // lines, cases and periods, writes the real month_closes, and its audit anchor digest
        // is of the real chains (the shadow chains are empty, whose digest would differ).
        QTest::newRow("operator: close_month")
            << "operator"
            << (renewalTables
                   + QStringList {"statement_runs", "statement_lines", "billing_providers",
                       "renewal_total_deltas", "month_closes"}
                   + caseTables)
            << "SELECT statement_finish(r.run_id) FROM statement_begin('stripe-main', "
               "'2026-02-01', '2026-02-28', repeat('a', 64), '[]', 1) r CROSS JOIN LATERAL "
               "statement_add_lines(r.run_id, jsonb_build_array(jsonb_build_object('line', 1, "
               "'objectId', 'in_feb', 'objectSha256', repeat('b', 64), 'outcome', 'renewal', "
               "'event', '{\"providerKey\":\"stripe-main\",\"providerEventId\":\"statement:b\","
               "\"providerSubscriptionId\":\"sub_1\",\"providerRenewalKey\":\"in_feb\","
               "\"providerVersion\":null,\"period\":{\"start\":\"2026-02-01T00:00:00Z\","
               "\"end\":\"2026-03-01T00:00:00Z\"},\"paidAmountMinor\":1999,\"currency\":"
               "\"USD\",\"paidAt\":\"2026-02-01T00:00:05Z\"}'::jsonb))) a; "
               "SELECT close_month('stripe-main', '2026-02-01')"
            << "SELECT count(*) FROM month_closes m JOIN statement_runs r "
               "ON r.id = m.statement_run_ids[1] AND r.backfilled = 1 "
               "WHERE m.month = '2026-02-01' AND m.backfilled = 1 "
               "AND m.ledger_totals = '{\"USD\": {\"renewals\": 1, \"amountMinor\": 1999}}' "
               "AND m.statement_totals = m.ledger_totals "
               "AND m.audit_anchor_heads = (SELECT count(*) FROM audit_chain_heads()) "
               "+ (SELECT count(*) FROM audit_case_history_heads()) "
               "AND m.audit_anchor_digest = (SELECT digest FROM rd_audit_anchor_digest())"
            << AttackGround {};
        QTest::newRow("ingest: apply_webhook_renewal")
            << "ingest" << renewalTables << kFebruaryCall
            << "SELECT count(*) FROM subscription_billing_periods b "
               "JOIN subscription_transition_audits a ON a.billing_period_id = b.id "
               "JOIN subscription_outbox o ON o.billing_period_id = b.id "
               "JOIN subscriptions s ON s.id = b.subscription_id "
               "WHERE b.provider_renewal_key = 'in_feb' AND a.provider_key = 'stripe-main'"
            << AttackGround {};
        QTest::newRow("ingest: apply_cli_renewal")
            << "ingest" << renewalTables
            << QString(kFebruaryCall).replace("apply_webhook_renewal", "apply_cli_renewal")
            << "SELECT count(*) FROM subscription_billing_periods b "
               "JOIN subscription_transition_audits a ON a.billing_period_id = b.id "
               "JOIN subscription_outbox o ON o.billing_period_id = b.id "
               "WHERE b.provider_renewal_key = 'in_feb' AND b.recorded_by = 'cli' "
               "AND a.actor_type = 'cli' AND a.actor_id = a.db_role"
            << AttackGround {};
        QTest::newRow("ingest: record_reconciliation_case as cli")
            << "ingest" << caseTables
            << QString("SELECT record_reconciliation_case('%1'::jsonb, "
                       "'renewal_period_is_not_contiguous', '{}', 'cli')")
                   .arg(kMarchEvent)
            << "SELECT count(*) FROM reconciliation_cases c JOIN reconciliation_case_history h "
               "ON h.case_id = c.id AND h.action = 'occurrence' "
               "AND h.details->>'recordedBy' = 'cli' WHERE c.occurrences = 2"
            << AttackGround {};
        QTest::newRow("ingest: record_reconciliation_case")
            << "ingest" << caseTables
            << QString("SELECT record_reconciliation_case('%1'::jsonb, "
                       "'renewal_period_is_not_contiguous', '{}')")
                   .arg(kMarchEvent)
            << "SELECT count(*) FROM reconciliation_cases WHERE occurrences = 2" << AttackGround {};
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
               "AND b.id = '8d3f2a6e-0c59-4f0e-9a57-3b1f6f0d2c11'"
            << AttackGround {};
        // 0049: a refund, recorded into the real movements, audits and outbox, found through
        // the real billing periods, under the real work locks.
        QTest::newRow("ingest: ingest_delivery of money back")
            << "ingest"
            << (QStringList {"webhook_inbox", "billing_providers", "money_movements",
                    "billing_period_payment_refs", "rd_work_locks", "month_closes"}
                   + renewalTables + caseTables)
            << QString(kFebruaryDelivery) + "; " + kFebruaryRefund
            << "SELECT count(*) FROM money_movements m "
               "JOIN subscription_transition_audits a ON a.details->>'movementId' = m.id::text "
               "JOIN subscription_outbox o ON o.payload->>'movementId' = m.id::text "
               "JOIN webhook_inbox w ON w.provider_event_id = 'evt_refund' "
               "AND w.outcome = 'recorded' "
               "WHERE m.movement_key = 're_feb' AND m.amount_minor = 500"
            << AttackGround {};
        // 0050: the refund appends its delta to the real deltas, a fold moves it into the real
        // daily totals, and money_back_totals reads the real totals.
        QTest::newRow("ingest: money back's delta, fold_money_back_totals and its read")
            << "ingest"
            << (QStringList {"webhook_inbox", "billing_providers", "money_movements",
                    "billing_period_payment_refs", "rd_work_locks", "month_closes",
                    "money_back_deltas", "money_back_daily_totals"}
                   + renewalTables + caseTables)
            << QString(kFebruaryDelivery) + "; " + kFebruaryRefund
                + "; SELECT fold_money_back_totals(); "
                  "SELECT sum(refunded_minor) FROM money_back_totals('2026-02-01', '2026-03-01')"
            << "SELECT count(*) FROM money_back_daily_totals t WHERE t.day = '2026-02-10' "
               "AND t.kind = 'refund' AND t.movements = 1 AND t.amount_minor = 500 "
               "AND NOT EXISTS (SELECT 1 FROM money_back_deltas) "
               "AND (SELECT refunded_minor FROM money_back_totals('2026-02-01', '2026-03-01')) "
               "= 500"
            << AttackGround {};
        // The ledger's totals (0016, 0023): the renewal core appends its delta to the real
        // deltas table, and a fold (any viewer may fold) moves it into the real totals.
        QTest::newRow("ingest: the renewal's delta and fold_renewal_totals")
            << "ingest"
            << (renewalTables + QStringList {"renewal_total_deltas", "renewal_daily_totals"})
            << QString(kFebruaryCall) + "; SELECT fold_renewal_totals()"
            << "SELECT count(*) FROM renewal_daily_totals t WHERE t.day = '2026-02-01' "
               "AND t.renewals = 1 AND t.amount_minor = 1999 "
               "AND NOT EXISTS (SELECT 1 FROM renewal_total_deltas)"
            << AttackGround {};
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
               "AND d.renewals = 1) AND NOT EXISTS (SELECT 1 FROM renewal_total_deltas)"
            << AttackGround {};
        QTest::newRow("ingest: outbox_claim and outbox_mark_published")
            << "ingest" << (renewalTables + QStringList {"subscription_outbox"})
            << QString(kFebruaryCall)
                + "; SELECT outbox_mark_published(array_agg(id)) FROM outbox_claim(10, NULL)"
            << "SELECT count(*) FROM subscription_outbox WHERE published_at IS NOT NULL"
            << AttackGround {};
        // The Overview's inbox summary (0018): a viewer may fold, and folds only the real
        // inbox into the real summary: a state saying all is folded and deliveries that never
        // came change nothing.
        QTest::newRow("viewer: fold_inbox_days")
            << "viewer"
            << QStringList {"webhook_inbox", "webhook_inbox_daily", "webhook_inbox_daily_state"}
            << "SELECT fold_inbox_days()"
            << "SELECT (count(*) = 1 AND bool_and(outcome = '' AND deliveries = 1 AND day = "
               "((now() - interval '2 days') AT TIME ZONE 'UTC')::date))::int "
               "FROM webhook_inbox_daily"
            << AttackGround()
                   .withoutCase()
                   .setUp("INSERT INTO webhook_inbox (provider_key, provider_event_id, "
                          "raw_body, body_size, body_sha256, received_at, last_delivery_at) "
                          "VALUES ('stripe-main', 'evt_old', 'x', 1, encode(sha256('x'), "
                          "'hex'), now() - interval '2 days', now() - interval '2 days'); "
                          "UPDATE webhook_inbox_daily_state SET folded_before = "
                          "((now() - interval '3 days') AT TIME ZONE 'UTC')::date")
                   .poisoned("INSERT INTO pg_temp.webhook_inbox_daily_state (folded_before) "
                             "VALUES ((now() AT TIME ZONE 'UTC')::date); "
                             "INSERT INTO pg_temp.webhook_inbox (provider_key, "
                             "provider_event_id, raw_body, body_size, body_sha256, received_at, "
                             "last_delivery_at) SELECT 'stripe-main', 'evt_poison_' || i, 'x', "
                             "1, encode(sha256('x'), 'hex'), now() - interval '2 days', "
                             "now() - interval '2 days' FROM generate_series(1, 5) i")
                   .answering("1");
        // 0033: reopen_case reads the closed months and the billing periods to refuse a
        // reopen; shadows saying the case's month is closed and its renewal recorded must not
        // refuse it.
        QTest::newRow("operator: reopen_case against closed-month and period shadows")
            << "operator" << QStringList {"month_closes", "subscription_billing_periods"}
            << "SELECT reopen_case(%1, 'dismissed by mistake: reopened')"
            << "SELECT count(*) FROM reconciliation_cases c JOIN reconciliation_case_history h "
               "ON h.case_id = c.id AND h.action = 'reopened' WHERE c.status = 'open' "
               "AND c.id = %1"
            << AttackGround()
                   .setUp("SELECT dismiss_case(%1, 'test_data', 'dismissed by mistake')")
                   .poisoned("INSERT INTO pg_temp.month_closes (provider_key, month, "
                             "statement_run_ids, statement_sha256s, statement_totals, "
                             "ledger_totals, matched, backfilled, unapplied, differing, "
                             "not_in_statement, cases_resolved, cases_dismissed, "
                             "audit_anchor_digest, audit_anchor_heads) SELECT c.provider_key, "
                             "date_trunc('month', (c.event->>'paidAt')::timestamptz AT TIME "
                             "ZONE 'UTC')::date, '{1}', '{x}', '{}', '{}', 0, 0, 0, 0, 0, 0, 1, "
                             "repeat('a', 64), 1 FROM public.reconciliation_cases c WHERE c.id "
                             "= %1; "
                             "INSERT INTO pg_temp.subscription_billing_periods (id, "
                             "subscription_id, provider_key, provider_renewal_key, "
                             "provider_event_id, period_start, period_end, paid_amount_minor, "
                             "currency, paid_at) SELECT gen_random_uuid(), s.id, "
                             "c.provider_key, c.provider_renewal_key, 'evt_shadow', now(), "
                             "now() + interval '1 month', 1, 'USD', now() FROM "
                             "public.reconciliation_cases c, public.subscriptions s "
                             "WHERE c.id = %1");
        // Reviewing an invalid delivery (0034): a temporary inbox that says the delivery is no
        // invalid one, and a temporary review that says it was reviewed already, change
        // nothing; the real review is written, as the operator's login role.
        QTest::newRow("operator: review_invalid_delivery")
            << "operator" << QStringList {"webhook_inbox", "webhook_inbox_reviews"}
            << "SELECT review_invalid_delivery(7001, 'a test payload')"
            << "SELECT count(*) FROM webhook_inbox_reviews WHERE inbox_id = 7001 "
               "AND note = 'a test payload' AND reviewed_by = current_database() || '_operator'"
            << AttackGround()
                   .withoutCase()
                   .setUp(kInvalidDelivery)
                   .poisoned("INSERT INTO pg_temp.webhook_inbox (id, provider_key, "
                             "provider_event_id, raw_body, body_size, body_sha256, outcome, "
                             "processed_at) OVERRIDING SYSTEM VALUE VALUES (7001, "
                             "'stripe-main', 'evt_x', 'x', 1, repeat('a', 64), 'applied', "
                             "now()); "
                             "INSERT INTO pg_temp.webhook_inbox_reviews (inbox_id, "
                             "reviewed_by, note) VALUES (7001, 'mallory', 'hidden')");
        // The overdue watch (0030): temporary subscriptions and providers seeded to hide the
        // real overdue subscription (sub_1, its period ended ten days ago) and to invent
        // others. The counts, the list and the cutoff read the real tables.
        QTest::newRow("viewer: the overdue watch")
            << "viewer" << QStringList {"subscriptions", "billing_providers"}
            << "SELECT string_agg(provider_key || ' ' || overdue || ' ' || "
               "extract(epoch FROM grace)::bigint, ', ') FROM overdue_subscription_counts(); "
               "SELECT string_agg(provider_subscription_id, ', ') FROM overdue_subscriptions(); "
               "SELECT rd_overdue_cutoff('stripe-main', NULL) = now() - interval '24 hours'"
            << QString()
            << AttackGround()
                   .withoutCase()
                   .setUp("UPDATE subscriptions SET current_period_start = now() - interval "
                          "'40 days', current_period_end = now() - interval '10 days'")
                   .poisoned("INSERT INTO pg_temp.billing_providers (provider_key, kind, "
                             "display_name, overdue_grace) VALUES ('stripe-main', 'stripe', "
                             "'S', interval '90 days'), ('poison', 'stripe', 'P', "
                             "interval '0'); "
                             "INSERT INTO pg_temp.subscriptions (provider_key, "
                             "provider_subscription_id, status, current_period_start, "
                             "current_period_end) SELECT 'poison', 'sub_poison_' || i, "
                             "'active', now() - interval '60 days', now() - interval '30 days' "
                             "FROM generate_series(1, 5) i")
                   .answering("stripe-main 1 86400; sub_1; t");
        // The ledger's fold (0016, 0020): a viewer may fold, and folds only the real deltas
        // into the real totals of both bases (paid a second before the day its period starts:
        // one delta, two different days); its reads of either basis see the real totals too.
        QTest::newRow("viewer: fold_renewal_totals and its reads")
            << "viewer"
            << QStringList {"renewal_total_deltas", "renewal_daily_totals",
                   "renewal_period_start_totals"}
            << "SELECT fold_renewal_totals(); "
               "SELECT sum(renewals) FROM renewal_period_start_totals('2026-03-01', "
               "'2026-04-01'); "
               "SELECT sum(renewals) FROM renewal_totals('2026-02-28', '2026-03-01')"
            << "SELECT ((SELECT count(*) FROM renewal_period_start_totals WHERE day = "
               "'2026-03-01' AND renewals = 1 AND amount_minor = 1999) = 1 "
               "AND (SELECT sum(renewals) FROM renewal_period_start_totals) = 1 "
               "AND (SELECT count(*) FROM renewal_daily_totals WHERE day = '2026-02-28' "
               "AND renewals = 1 AND amount_minor = 1999) = 1 "
               "AND NOT EXISTS (SELECT 1 FROM renewal_total_deltas))::int"
            << AttackGround()
                   .withoutCase()
                   .setUp("INSERT INTO subscription_billing_periods (subscription_id, "
                          "provider_key, provider_renewal_key, provider_event_id, "
                          "period_start, period_end, paid_amount_minor, currency, paid_at, "
                          "recorded_by) SELECT id, provider_key, 'in_mar', 'evt_mar', "
                          "'2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z', 1999, 'USD', "
                          "'2026-02-28T23:59:59Z', 'webhook' FROM subscriptions "
                          "WHERE provider_subscription_id = 'sub_1'; "
                          // Its audit row, as the renewal core writes one: a billing period
                          // no audit row recorded is itself a break (#39, item 3).
                          "INSERT INTO subscription_transition_audits (subscription_id, "
                          "transition, billing_period_id, actor_type, actor_id, "
                          "provider_event_id, provider_renewal_key, period_start, period_end, "
                          "details) SELECT b.subscription_id, 'subscription_renewed', b.id, "
                          "'webhook', 'stripe-main', b.provider_event_id, "
                          "b.provider_renewal_key, b.period_start, b.period_end, "
                          "jsonb_build_object('paidAmountMinor', 1999, 'currency', 'USD') FROM "
                          "subscription_billing_periods b WHERE b.provider_renewal_key = "
                          "'in_mar'")
                   .poisoned("INSERT INTO pg_temp.renewal_total_deltas (day, "
                             "period_start_day, provider_key, currency, recorded_by, renewals, "
                             "amount_minor) SELECT '2026-03-01', '2026-03-01', 'stripe-main', "
                             "'USD', 'webhook', 1000, 1000000 FROM generate_series(1, 5); "
                             "INSERT INTO pg_temp.renewal_period_start_totals VALUES "
                             "('2026-03-01', 'stripe-main', 'USD', 'webhook', 7, 7)")
                   .answering("1; 1; 1");
        // 0037: the retention sweep (any viewer, the configured retention) and the erasure (an
        // operator) remove the real bodies and write the real record; a retention of the
        // attacker's own that would keep nothing is not read.
        const QStringList bodyTables {"webhook_inbox", "webhook_inbox_removals", "inbox_retention",
            "reconciliation_cases", "billing_providers", "subscriptions",
            "subscription_billing_periods"};
        const QString bodyRemoved
            = "SELECT count(*) FROM webhook_inbox w JOIN webhook_inbox_removals r "
              "ON r.id = w.body_removal_id WHERE w.raw_body IS NULL AND r.bodies = 1 "
              "AND w.provider_event_id = 'evt_old'";
        const AttackGround oldBody
            = AttackGround()
                  .withoutCase()
                  .setUp("INSERT INTO webhook_inbox (provider_key, provider_event_id, raw_body, "
                         "body_size, body_sha256, outcome, processed_at, normalized, received_at) "
                         "VALUES ('stripe-main', 'evt_old', 'body', 4, encode(sha256('body'), "
                         "'hex'), 'not_a_renewal', now(), '{\"providerSubscriptionId\": "
                         "\"sub_1\"}', now() - interval '40 days'); SELECT set_inbox_retention(30)")
                  .poisoned("INSERT INTO pg_temp.inbox_retention (only_row, days, set_by, set_at) "
                            "VALUES (true, NULL, 'x', now())");
        QTest::newRow("viewer: purge_inbox_bodies")
            << "viewer" << bodyTables << "SELECT purge_inbox_bodies()" << bodyRemoved << oldBody;
        QTest::newRow("operator: erase_inbox_bodies")
            << "operator" << bodyTables
            << "SELECT erase_inbox_bodies('stripe-main', 'sub_1', 'ticket 1')" << bodyRemoved
            << oldBody;
        // #42: an erasure by e-mail hashes with the real key (not a shadow key of the
        // attacker's) and removes the real body and hash.
        QTest::newRow("operator: erase_customer_email")
            << "operator" << (bodyTables + QStringList {"customer_email_key"})
            << "SELECT erase_customer_email('Ann@Example.com', 'ticket 2')"
            << "SELECT count(*) FROM webhook_inbox w JOIN webhook_inbox_removals r "
               "ON r.id = w.body_removal_id WHERE w.raw_body IS NULL AND r.bodies = 1 "
               "AND r.customer_email_hashes = 1 AND w.provider_event_id = 'evt_old' "
               "AND NOT w.normalized ? 'customerEmailHmac'"
            << AttackGround()
                   .withoutCase()
                   .setUp("INSERT INTO webhook_inbox (provider_key, provider_event_id, raw_body, "
                          "body_size, body_sha256, outcome, processed_at, normalized) VALUES "
                          "('stripe-main', 'evt_old', 'body', 4, encode(sha256('body'), 'hex'), "
                          "'not_a_renewal', now(), jsonb_build_object('customerEmailHmac', "
                          "rd_customer_email_hmac('ann@example.com')))")
                   .poisoned("INSERT INTO pg_temp.customer_email_key (only_row, inner_pad, "
                             "outer_pad, created_at) VALUES (true, decode(repeat('36', 64), "
                             "'hex'), decode(repeat('5c', 64), 'hex'), now())");
        // The preview judges the real case: a shadow table of cases would make it answer for a
        // case that does not exist (or hide the one that does). It writes nothing.
        QTest::newRow("operator: preview_provider_snapshot")
            << "operator"
            << QStringList {"reconciliation_cases", "subscriptions", "provider_snapshots"}
            // Captured a minute from when the call runs (a capturedAt written here, before
            // the rows above ran, would be older than the case's import: stale).
            << "SELECT preview_provider_snapshot(jsonb_set('{\"providerKey\":\"stripe-main\","
               "\"providerSubscriptionId\":\"sub_1\",\"status\":\"active\",\"currentPeriod\":"
               "{\"start\":\"2026-02-01T00:00:00Z\",\"end\":\"2026-03-01T00:00:00Z\"},"
               "\"cancelAtPeriodEnd\":false,\"providerVersion\":null,\"capturedAt\":null,"
               "\"latestRenewal\":null}', '{capturedAt}', to_jsonb(to_char(now() AT TIME ZONE "
               "'UTC' + interval '1 minute', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))), "
               "%1)->'wouldBe'->'case'->>'status'"
            << "SELECT (count(*) = 0)::int FROM provider_snapshots"
            << AttackGround().answering("resolved");
        // A viewer's temporary audit table does not change what verification reports
        // (audit_chain_breaks() is the owner's, 0027; the anchor's functions are a viewer's).
        QTest::newRow("viewer: the audit anchor's chain heads")
            << "viewer" << QStringList {"subscription_transition_audits"}
            << "SELECT count(*) FROM audit_chain_heads(); "
               "SELECT bool_and(h.row_hash = audit_chain_hash_at(h.chain, h.chain_id, "
               "h.chain_seq)) FROM audit_chain_heads() h"
            << QString()
            << AttackGround()
                   .withoutCase()
                   .poisoned("INSERT INTO pg_temp.subscription_transition_audits "
                             "(subscription_id, transition, actor_type, actor_id, chain_seq, "
                             "prev_hash, row_hash, provider_key) SELECT id, "
                             "'subscription_imported', 'import', 'x', 7, 'forged', 'forged', "
                             "'forged' FROM public.subscriptions")
                   .answering("1; t");
        // The list of reason codes the database accepts is its own: a temporary table of the
        // same name cannot make an unknown reason acceptable.
        QTest::newRow("operator: the reason check")
            << "operator" << QStringList {"operator_reason_codes"}
            << "SELECT dismiss_case(%1, 'bogus_reason', 'hidden')"
            << "SELECT (count(*) = 0)::int FROM reconciliation_case_history "
               "WHERE reason = 'bogus_reason'"
            << AttackGround()
                   .poisoned("INSERT INTO pg_temp.operator_reason_codes (code) "
                             "VALUES ('bogus_reason')")
                   .refusedWith("RD005"); // invalid_reason
        // The future-snapshot trigger (0027): a temporary provider_snapshots and a function
        // named like the one it formats with. The real table is checked, against the real
        // clock, and the real rd_rfc3339 writes the refusal (the temporary one says "shadow").
        QTest::newRow("operator: the future-snapshot trigger")
            << "operator" << QStringList {"provider_snapshots"}
            << "SELECT attach_provider_snapshot('{\"providerKey\":\"stripe-main\","
               "\"providerSubscriptionId\":\"sub_1\",\"status\":\"active\","
               "\"currentPeriod\":{\"start\":\"2026-01-01T00:00:00Z\",\"end\":"
               "\"2026-02-01T00:00:00Z\"},\"cancelAtPeriodEnd\":true,"
               "\"providerVersion\":null,\"capturedAt\":\"2099-01-01T00:00:00Z\","
               "\"latestRenewal\":null}', NULL, 'other', 'x')"
            << "SELECT (count(*) = 0)::int FROM provider_snapshots"
            << AttackGround()
                   .withoutCase()
                   .poisoned("CREATE FUNCTION pg_temp.rd_rfc3339(timestamptz) RETURNS text "
                             "LANGUAGE sql AS 'SELECT ''shadow''::text'")
                   .answering("capturedAt 2099-01-01T00:00:00")
                   .refusedWith("RD012");
    }

    // Reviewing an invalid delivery (0034) is an operator's, once: a viewer may not, and a
    // second review is refused, typed. (What shadow tables cannot do to it is a row of
    // temporaryShadowTablesAreIgnored.)
    void anInvalidDeliveryIsReviewedOnceByAnOperator()
    {
        registerStripeMain();
        scalar(*m_db->connect(), std::string(kInvalidDelivery) + " RETURNING id");
        pqxx::connection op(loginAs("operator", "operator"));
        pqxx::nontransaction(op).exec1("SELECT review_invalid_delivery(7001, 'a test payload')");
        pqxx::connection viewer(loginAs("viewer", "viewer"));
        {
            pqxx::nontransaction tx(viewer);
            QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege,
                tx.exec1("SELECT review_invalid_delivery(7001, 'x')"));
        }
        pqxx::nontransaction tx(op);
        try {
            tx.exec1("SELECT review_invalid_delivery(7001, 'again')");
            QFAIL("a second review was accepted");
        } catch (const pqxx::sql_error &e) {
            QCOMPARE(std::string(e.sqlstate()), std::string("RD019"));
        }
    }

    void temporaryShadowTablesAreIgnored()
    {
        QFETCH(QString, kind);
        QFETCH(QStringList, shadowed);
        QFETCH(QString, call);
        QFETCH(QString, check);
        QFETCH(AttackGround, ground);

        registerStripeMain();
        const QString caseId = ground.gapCase ? QString::number(openGapCase()) : QString();
        const auto withCase = [&caseId](const QString &sql) {
            return sql.contains(u"%1"_qs) ? QString(sql).arg(caseId) : sql;
        };
        const auto statements = [&withCase](const QString &sql) {
            QStringList out;
            if (!sql.isEmpty())
                for (const auto &statement : sql.split(u"; "_qs))
                    out << withCase(statement);
            return out;
        };
        {
            auto admin = m_db->connect();
            pqxx::nontransaction tx(*admin);
            for (const auto &statement : statements(ground.setup))
                tx.exec(statement.toStdString());
        }
        pqxx::connection attacker(attackerWithTemp(kind.toStdString()));
        {
            pqxx::nontransaction tx(attacker);
            shadowed.removeDuplicates();
            for (const auto &t : shadowed)
                shadow(tx, t.toStdString());
            for (const auto &statement : statements(ground.poison))
                tx.exec(statement.toStdString());
            const auto rowsOf = [&tx](const QString &t) {
                return tx.exec1("SELECT count(*) FROM pg_temp." + t.toStdString())[0].as<int>();
            };
            QMap<QString, int> seeded;
            for (const auto &t : shadowed)
                seeded[t] = rowsOf(t);

            // A search_path that names pg_temp first: the names the function uses are the
            // temporary tables' in the caller's session.
            tx.exec0("SET search_path = pg_temp, public");
            for (const auto &t : shadowed)
                QVERIFY(tx.exec1("SELECT '" + t.toStdString() + "'::regclass = 'pg_temp."
                              + t.toStdString() + "'::regclass")[0]
                            .as<bool>());
            QStringList answers;
            const QStringList calls = statements(call);
            for (qsizetype i = 0; i < calls.size(); ++i) {
                if (i + 1 == calls.size() && !ground.refusal.isEmpty()) {
                    try {
                        tx.exec(calls[i].toStdString());
                        QFAIL(qPrintable("not refused: " + calls[i]));
                    } catch (const pqxx::sql_error &e) {
                        QCOMPARE(QString::fromStdString(e.sqlstate()), ground.refusal);
                        answers << QString::fromUtf8(e.what());
                    }
                    break;
                }
                const auto result = tx.exec(calls[i].toStdString());
                answers << (result.empty() || result[0][0].is_null()
                        ? QString()
                        : QString::fromStdString(result[0][0].as<std::string>()));
            }
            if (!ground.refusal.isEmpty())
                QVERIFY2(answers.last().contains(ground.answer), qPrintable(answers.last()));
            else if (!ground.answer.isNull())
                QCOMPARE(answers.join(u"; "_qs), ground.answer);
            for (const auto &t : shadowed)
                QVERIFY2(rowsOf(t) == seeded[t],
                    qPrintable("the function wrote into the temporary " + t));
        }
        auto admin = m_db->connect();
        if (!check.isEmpty()) {
            QVERIFY2(scalar(*admin, withCase(check).toStdString()) >= 1, qPrintable(check));
        }
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

    // Every function's EXECUTE grants are the ones docs/roles.md lists, no more and no fewer:
    // a function added without a decision, a stale grant (0004's ingest_record was still
    // granted), or one left to PUBLIC fails here.
    void everyExecuteGrantIsTheDocumentedOne()
    {
        std::map<std::string, std::string> documented;
        {
            std::ifstream doc(RD_ROLES_DOC);
            QVERIFY2(doc, RD_ROLES_DOC);
            const std::regex row(R"(^\| `([a-z_0-9]+)` \| ([a-z, ]+) \|$)");
            bool inside = false;
            for (std::string line; std::getline(doc, line);) {
                if (line == "<!-- grants:begin -->")
                    inside = true;
                else if (line == "<!-- grants:end -->")
                    inside = false;
                else if (std::smatch m; inside && std::regex_match(line, m, row))
                    documented[m[1]] = m[2];
            }
        }
        QVERIFY(documented.size() >= 40);

        auto conn = m_db->connect();
        pqxx::read_transaction tx(*conn);
        std::map<std::string, std::string> actual;
        // Grantees other than the owner, in one word each; "owner" when there are none and
        // "trigger" for a trigger function without any (the extension's functions aside).
        for (const auto &r :
            tx.exec("SELECT p.proname, p.prorettype = 'trigger'::regtype, "
                    "       coalesce((SELECT string_agg(CASE WHEN a.grantee = 0 THEN 'PUBLIC' "
                    "                     ELSE replace(a.grantee::regrole::text, 'renewal_', '') "
                    "                     END, ', ' ORDER BY 1) "
                    "                   FROM aclexplode(coalesce(p.proacl, "
                    "                        acldefault('f', p.proowner))) a "
                    "                  WHERE a.grantee <> p.proowner "
                    "                    AND a.privilege_type = 'EXECUTE'), '') "
                    "  FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace "
                    "   AND NOT EXISTS (SELECT 1 FROM pg_depend d "
                    "                    WHERE d.classid = 'pg_proc'::regclass "
                    "                      AND d.objid = p.oid AND d.deptype = 'e')")) {
            const auto grantees = r[2].as<std::string>();
            actual[r[0].as<std::string>()]
                = !grantees.empty() ? grantees : (r[1].as<bool>() ? "trigger" : "owner");
        }
        for (const auto &[name, grantees] : actual) {
            const auto doc = documented.find(name);
            QVERIFY2(doc != documented.end(),
                (name + " (granted to " + grantees + ") is not in docs/roles.md").c_str());
            QVERIFY2(doc->second == grantees,
                (name + " is granted to " + grantees + ", docs/roles.md says " + doc->second)
                    .c_str());
        }
        for (const auto &[name, grantees] : documented)
            QVERIFY2(
                actual.count(name), (name + " is in docs/roles.md but not in the schema").c_str());
    }

    // The ingest role cannot say who acted: it has no function that takes an actor, and what
    // it applies is a webhook delivery of its provider key (the audit found "by operator
    // alice" and recorded_by = operator written by the ingest login).
    void ingestCannotNameTheActor()
    {
        pqxx::connection ingest(loginAs("ingest", "ingest"));
        {
            pqxx::nontransaction tx(ingest);
            QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege,
                tx.exec("SELECT result FROM apply_successful_renewal('stripe-main', 'evt_feb', "
                        "'sub_1', 'in_feb', NULL, '2026-02-01T00:00:00Z', "
                        "'2026-03-01T00:00:00Z', 1999, 'USD', '2026-02-01T00:00:05Z', "
                        "'operator', 'alice')"));
        }
        {
            pqxx::nontransaction tx(ingest);
            QCOMPARE(tx.exec1(kFebruaryCall)[0].as<std::string>(), std::string("applied"));
        }
        auto admin = m_db->connect();
        QCOMPARE(rdtest::text(*m_db,
                     "SELECT a.actor_type || '/' || a.actor_id || '/' || b.recorded_by "
                     "FROM subscription_transition_audits a JOIN subscription_billing_periods b "
                     "ON b.id = a.billing_period_id WHERE b.provider_renewal_key = 'in_feb'"),
            std::string("webhook/stripe-main/webhook"));
        // The superseded ingest functions of 0004 are gone, not merely revoked.
        for (const char *f : {"ingest_record", "ingest_set_outcome", "ingest_open_snapshot_case"})
            QCOMPARE(scalar(*admin,
                         std::string("SELECT count(*) FROM pg_proc WHERE proname = '") + f + "'"),
                0LL);
    }

    // A body the inbox keeps whole is the body its hash names, whoever writes it: the owner,
    // or the ingest role through ingest_delivery with a hash of something else.
    void aPlantedBodyIsRefused()
    {
        {
            auto admin = m_db->connect();
            pqxx::nontransaction tx(*admin);
            tx.exec0("INSERT INTO billing_providers (provider_key, kind, display_name) "
                     "VALUES ('stripe-main', 'stripe', 'Stripe') ON CONFLICT DO NOTHING");
            QVERIFY_THROWS_EXCEPTION(pqxx::check_violation,
                tx.exec0("INSERT INTO webhook_inbox (provider_key, provider_event_id, raw_body, "
                         "body_size, body_sha256) VALUES ('stripe-main', 'evt_p', 'planted', 7, "
                         "encode(sha256('the real one'), 'hex'))"));
        }
        pqxx::connection ingest(loginAs("ingest", "ingest"));
        {
            pqxx::nontransaction tx(ingest);
            std::string planted = kFebruaryDelivery;
            const std::string realHash = "encode(sha256('body'), 'hex')";
            planted.replace(
                planted.find(realHash), realHash.size(), "encode(sha256('another body'), 'hex')");
            QVERIFY_THROWS_EXCEPTION(pqxx::check_violation, tx.exec(planted));
            // The same delivery with its own hash is kept.
            QCOMPARE(tx.exec1(kFebruaryDelivery)[0].as<std::string>(), std::string("applied"));
        }
        QCOMPARE(scalar(*m_db, "SELECT count(*) FROM webhook_inbox"), 1LL);
    }

    // Any login could rehash every chain at will and fill the disk with large objects.
    void weakRolesCannotRehashOrFillTheDisk_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("statement");
        for (const char *kind : {"viewer", "ingest"}) {
            QTest::addRow("%s: audit_chain_breaks", kind)
                << kind << "SELECT * FROM audit_chain_breaks()";
            QTest::addRow("%s: lo_from_bytea", kind) << kind << "SELECT lo_from_bytea(0, 'x')";
            QTest::addRow("%s: lo_create", kind) << kind << "SELECT lo_create(0)";
            QTest::addRow("%s: lo_creat", kind) << kind << "SELECT lo_creat(-1)";
        }
        QTest::newRow("operator: lo_from_bytea") << "operator"
                                                 << "SELECT lo_from_bytea(0, 'x')";
        QTest::newRow("a login in no group: rd_rfc3339") << ""
                                                         << "SELECT rd_rfc3339(now())";
    }

    void weakRolesCannotRehashOrFillTheDisk()
    {
        QFETCH(QString, kind);
        QFETCH(QString, statement);
        std::string conninfo;
        if (kind.isEmpty()) {
            // Only PUBLIC's rights: a login made by hand, in none of the group roles.
            const std::string login = m_db->name() + "_nobody";
            auto admin = m_db->connect();
            pqxx::nontransaction tx(*admin);
            if (tx.exec_params("SELECT 1 FROM pg_roles WHERE rolname = $1", login).empty())
                tx.exec0("CREATE ROLE " + tx.quote_name(login) + " LOGIN");
            conninfo = rdtest::loginAs(*m_db, "viewer", "viewer");
            conninfo.replace(
                conninfo.find(m_db->name() + "_viewer"), (m_db->name() + "_viewer").size(), login);
        } else {
            conninfo = loginAs(kind.toStdString(), kind.toStdString());
        }
        pqxx::connection c(conninfo);
        pqxx::nontransaction tx(c);
        QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege, tx.exec(statement.toStdString()));
        QCOMPARE(scalar(*m_db, "SELECT count(*) FROM pg_largeobject_metadata"), 0LL);
    }

    // The anchor's functions stay the viewer's: the desk's "Verify against anchor" runs as one.
    void aViewerStillAnchors()
    {
        pqxx::connection viewer(loginAs("viewer", "viewer"));
        pqxx::nontransaction tx(viewer);
        QCOMPARE(tx.exec1("SELECT count(*) FROM audit_chain_heads()")[0].as<int>(), 1);
        tx.exec("SELECT * FROM audit_case_history_heads()");
        QVERIFY(!tx.exec1("SELECT audit_chain_hash_at(chain, chain_id, chain_seq) "
                          "FROM audit_chain_heads() LIMIT 1")[0]
                     .is_null());
    }

    // Raw bodies hold customers' names and addresses: a viewer reads everything about a
    // delivery but its body; an operator (renewal_payload_reader) reads the body too.
    void onlyPayloadReadersReadBodies()
    {
        {
            auto admin = m_db->connect();
            pqxx::nontransaction tx(*admin);
            tx.exec0("INSERT INTO billing_providers (provider_key, kind, display_name) "
                     "VALUES ('stripe-main', 'stripe', 'Stripe') ON CONFLICT DO NOTHING");
            tx.exec0("INSERT INTO webhook_inbox (provider_key, provider_event_id, raw_body, "
                     "body_size, body_sha256) VALUES ('stripe-main', 'evt_b', "
                     "'{\"customer_email\":\"jane@example.com\"}', 38, encode(sha256("
                     "'{\"customer_email\":\"jane@example.com\"}'), 'hex'))");
        }
        pqxx::connection viewer(loginAs("viewer", "viewer"));
        {
            pqxx::nontransaction tx(viewer);
            QVERIFY_THROWS_EXCEPTION(
                pqxx::insufficient_privilege, tx.exec("SELECT raw_body FROM webhook_inbox"));
        }
        {
            pqxx::nontransaction tx(viewer);
            QVERIFY_THROWS_EXCEPTION(
                pqxx::insufficient_privilege, tx.exec("SELECT * FROM webhook_inbox"));
        }
        {
            pqxx::nontransaction tx(viewer);
            QCOMPARE(tx.exec1("SELECT body_size FROM webhook_inbox")[0].as<int>(), 38);
            QVERIFY(!tx.exec1("SELECT has_column_privilege('public.webhook_inbox', 'raw_body', "
                              "'SELECT')")[0]
                         .as<bool>());
        }
        pqxx::connection op(loginAs("operator", "operator"));
        pqxx::nontransaction tx(op);
        QVERIFY(tx.exec1("SELECT convert_from(raw_body, 'UTF8') FROM webhook_inbox")[0]
                    .as<std::string>()
                    .find("jane@example.com")
            != std::string::npos);
    }

    // A note must have something to read, in every function that needs one; the same test as
    // the programs' (rd::hasVisibleText).
    void notesNeedAVisibleCharacter_data()
    {
        QTest::addColumn<QString>("note");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("tab") << "\t" << false;
        QTest::newRow("newlines") << "\n\r\n" << false;
        QTest::newRow("no-break space") << QString::fromUtf8("\u00a0\u00a0") << false;
        QTest::newRow("zero-width space") << QString::fromUtf8("\u200b") << false;
        QTest::newRow("ideographic space and BOM") << QString::fromUtf8("\u3000\ufeff") << false;
        QTest::newRow("Hangul filler") << QString::fromUtf8("\u3164") << false;
        QTest::newRow("a word among them") << QString::fromUtf8("\u00a0ok\u200b") << true;
        QTest::newRow("one emoji") << QString::fromUtf8("\U0001F44D") << true;
    }

    void notesNeedAVisibleCharacter()
    {
        QFETCH(QString, note);
        QFETCH(bool, accepted);
        const std::string text = note.toStdString();
        QCOMPARE(rd::hasVisibleText(text), accepted);

        const auto caseId = openGapCase();
        pqxx::connection op(loginAs("operator", "operator"));
        const auto refusal = [&](const std::string &sql) -> std::string {
            try {
                pqxx::nontransaction tx(op);
                tx.exec_params(sql, caseId, text);
                return "";
            } catch (const pqxx::sql_error &e) {
                return e.sqlstate();
            }
        };
        const std::string expected = accepted ? "" : "RD004"; // note_required
        QCOMPARE(refusal("SELECT note_case($1, $2)"), expected);
        {
            // Taking over someone else's claim needs a note too.
            auto admin = m_db->connect();
            pqxx::nontransaction tx(*admin);
            tx.exec_params0("UPDATE reconciliation_cases SET assigned_to = 'someone_else', "
                            "assigned_at = now() WHERE id = $1",
                caseId);
        }
        QCOMPARE(refusal("SELECT claim_case($1, $2)"), expected);
        if (!accepted) {
            QCOMPARE(refusal("SELECT release_case($1, $2)"), expected);
            QCOMPARE(refusal("SELECT dismiss_case($1, 'other', $2)"), expected);
            QCOMPARE(scalar(*m_db,
                         "SELECT count(*) FROM reconciliation_cases WHERE status = 'dismissed'"),
                0LL);
            // The table refuses it too, whoever writes.
            auto admin = m_db->connect();
            pqxx::nontransaction tx(*admin);
            QVERIFY_THROWS_EXCEPTION(pqxx::check_violation,
                tx.exec_params0("UPDATE reconciliation_cases SET status = 'dismissed', "
                                "resolution = 'dismissed', resolved_at = now(), "
                                "resolved_by = 'x', resolution_comment = $2 WHERE id = $1",
                    caseId, text));
        } else {
            QCOMPARE(refusal("SELECT dismiss_case($1, 'other', $2)"), expected);
        }
    }

    // rd_note_text and rd::isInvisibleCodePoint agree on every code point PostgreSQL can hold.
    void noteTestIsTheSameInSqlAndCpp()
    {
        auto conn = m_db->connect();
        pqxx::read_transaction tx(*conn);
        // One row per run of code points the database judges alike: (first, visible).
        const auto runs = tx.exec(
            "SELECT c, v FROM (SELECT c, v, lag(v) OVER (ORDER BY c) AS before FROM ("
            "  SELECT c, public.rd_note_text(chr(c)) IS NOT NULL AS v "
            "    FROM generate_series(1, 1114111) c WHERE c NOT BETWEEN 55296 AND 57343) x) y "
            " WHERE before IS DISTINCT FROM v ORDER BY c");
        QVERIFY(runs.size() > 10);
        std::size_t next = 0;
        for (char32_t c = 1; c <= 0x10FFFF; ++c) {
            if (c >= 0xD800 && c <= 0xDFFF)
                continue;
            if (next < runs.size() && runs[next][0].as<std::uint32_t>() == c)
                ++next;
            const bool sqlVisible = runs[next - 1][1].as<bool>();
            if (sqlVisible == rd::isInvisibleCodePoint(c))
                QFAIL(qPrintable(
                    QStringLiteral("U+%1: the database says %2, rd::isInvisibleCodePoint %3")
                        .arg(static_cast<uint>(c), 4, 16, QLatin1Char('0'))
                        .arg(sqlVisible ? "visible" : "invisible")
                        .arg(rd::isInvisibleCodePoint(c) ? "invisible" : "visible")));
        }
    }

    // A snapshot from the future is refused by the database, whoever attaches or previews it:
    // one captured in 2099 made every later snapshot of its subscription stale until 2099.
    void aSnapshotFromTheFutureIsRefused_data()
    {
        QTest::addColumn<QString>("capturedAt");
        QTest::addColumn<QString>("sqlstate");
        QTest::newRow("2099") << "2099-01-01T00:00:00Z"
                              << "RD012";
        QTest::newRow("ten minutes ahead")
            << QString::fromStdString(rdtest::capturedNow(600)) << "RD012";
        QTest::newRow("one minute ahead (clock skew)")
            << QString::fromStdString(rdtest::capturedNow(60)) << "";
    }

    void aSnapshotFromTheFutureIsRefused()
    {
        QFETCH(QString, capturedAt);
        QFETCH(QString, sqlstate);
        // (Plain literals: moc mistakes a raw string that ends in a quote for an open one.)
        const std::string snapshot
            = "{\"providerKey\":\"stripe-main\",\"providerSubscriptionId\":\"sub_1\","
              "\"status\":\"active\",\"currentPeriod\":{\"start\":\"2026-01-01T00:00:00Z\","
              "\"end\":\"2026-02-01T00:00:00Z\"},\"cancelAtPeriodEnd\":true,"
              "\"providerVersion\":null,\"capturedAt\":\""
            + capturedAt.toStdString() + "\",\"latestRenewal\":null}";
        pqxx::connection op(loginAs("operator", "operator"));
        const auto attempt = [&](const std::string &sql) -> std::string {
            try {
                pqxx::nontransaction tx(op);
                tx.exec_params(sql, snapshot);
                return "";
            } catch (const pqxx::sql_error &e) {
                return e.sqlstate();
            }
        };
        {
            // The preview says what attaching would say.
            pqxx::nontransaction tx(op);
            const auto preview = nlohmann::json::parse(
                tx.exec_params1(
                      "SELECT preview_provider_snapshot($1::jsonb, NULL)::text", snapshot)[0]
                    .as<std::string>());
            QCOMPARE(QString::fromStdString(preview.contains("refused")
                             ? preview["refused"]["sqlstate"].get<std::string>()
                             : std::string()),
                sqlstate);
        }
        QCOMPARE(attempt("SELECT attach_provider_snapshot($1::jsonb, NULL, 'other', 'x')"),
            sqlstate.toStdString());
        QCOMPARE(scalar(*m_db, "SELECT count(*) FROM provider_snapshots"),
            sqlstate.isEmpty() ? 1LL : 0LL);
        QCOMPARE(scalar(*m_db, "SELECT count(*) FROM subscriptions WHERE cancel_at_period_end"),
            sqlstate.isEmpty() ? 1LL : 0LL);
    }
};

QTEST_GUILESS_MAIN(TestSecurity)
#include "tst_security.moc"
