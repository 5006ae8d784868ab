#include "tests/support/fixture_files.h"
#include "tests/support/ingest_outcomes.h"
#include "tests/support/lock_waiters.h"
#include "tests/support/process_runner.h"
#include "tests/support/test_database.h"

#include "domain/core/adapters/provider_kinds.h"
#include "domain/store/webhook_ingestor.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <future>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

using rdtest::ctl;
using rdtest::fixtureFile;
using rdtest::outcomeName;
using rdtest::replaceAll;
using rdtest::runProgram;
using rdtest::scalar;
using rdtest::stripeRenewalOf;
using rdtest::text;
using rdtest::withDb;

namespace {

std::vector<nlohmann::json> jsonLines(const QByteArray &out)
{
    std::vector<nlohmann::json> lines;
    for (const auto &line : out.split('\n')) {
        if (!line.trimmed().isEmpty())
            lines.push_back(nlohmann::json::parse(line.toStdString()));
    }
    return lines;
}

// Registers the demo's five providers the way an operator would.
void registerProviders(const rdtest::TestDatabase &db)
{
    const std::pair<const char *, const char *> providers[]
        = {{"stripe-main", "stripe"}, {"paddle-eu", "paddle"}, {"lemon-shop", "lemonsqueezy"}};
    for (const auto &[key, kind] : providers) {
        const auto r
            = runProgram(ctl(), withDb(db.conninfo(), {"providers", "add", key, "--kind", kind}));
        QCOMPARE(r.exitCode, 0);
    }
}

// The Stripe fixtures renew sub_1QxSub0001 into January 2026: its current period is December.
void importStripeSubscription(const rdtest::TestDatabase &db)
{
    rdtest::importSubscriptions(db.conninfo(),
        rdtest::subscriptionLine("stripe-main", "sub_1QxSub0001", "active", "2025-12-01T00:00:00Z",
            "2026-01-01T00:00:00Z"));
}

struct Ingested
{
    int exitCode = -1;
    std::vector<nlohmann::json> results;
    QByteArray err;
};

Ingested ingest(const rdtest::TestDatabase &db, const std::string &providerKey,
    const QByteArray &input, bool lines = false)
{
    QStringList args {"ingest", "--provider-key", QString::fromStdString(providerKey)};
    if (lines)
        args << "--lines";
    const auto r = runProgram(ctl(), withDb(db.conninfo(), args), input);
    return {r.exitCode, jsonLines(r.out), r.err};
}

QByteArray bytes(const std::string &s)
{
    return QByteArray(s.data(), static_cast<qsizetype>(s.size()));
}

// Commits counted by the server for `database` (pg_stat_database), read from another
// database so that reading does not count. Backends flush their counts when they exit: wait
// until none is left in `database` first.
long long commitsOf(pqxx::connection &observer, const std::string &database)
{
    for (int i = 0; i < 1500; ++i) {
        {
            pqxx::nontransaction tx(observer);
            if (tx.exec_params1(
                      "SELECT count(*) FROM pg_stat_activity WHERE datname = $1", database)[0]
                    .as<long long>()
                == 0)
                break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    pqxx::nontransaction tx(observer);
    tx.exec("SELECT pg_stat_clear_snapshot()");
    return tx
        .exec_params1("SELECT xact_commit FROM pg_stat_database WHERE datname = $1", database)[0]
        .as<long long>();
}

// Autovacuum's workers commit in the databases they visit, and a visit to the measured
// database while a test counts its commits is not the code under test. Off for the whole
// (test) cluster while alive: a worker launched before stays visible in pg_stat_activity, and
// commitsOf() waits for it.
class AutovacuumPaused
{
public:
    AutovacuumPaused()
    {
        set("ALTER SYSTEM SET autovacuum = off");
        // The postmaster forks new backends with its own settings: once a new backend shows
        // 'off', the postmaster has read the change and signalled the launcher.
        for (int i = 0; i < 500; ++i) {
            pqxx::connection probe(rdtest::clusterConninfo());
            pqxx::nontransaction tx(probe);
            if (tx.exec1("SHOW autovacuum")[0].as<std::string>() == "off")
                return;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        throw std::runtime_error("autovacuum = off was not applied within 5 s");
    }
    ~AutovacuumPaused()
    {
        try {
            set("ALTER SYSTEM RESET autovacuum");
        } catch (const std::exception &e) {
            qWarning("could not turn autovacuum back on: %s", e.what());
        }
    }
    AutovacuumPaused(const AutovacuumPaused &) = delete;
    AutovacuumPaused &operator=(const AutovacuumPaused &) = delete;

private:
    static void set(const char *statement)
    {
        pqxx::connection admin(rdtest::clusterConninfo());
        pqxx::nontransaction tx(admin);
        tx.exec0(statement);
        tx.exec("SELECT pg_reload_conf()");
    }
};

} // namespace

/// `renewalctl ingest`, `providers` and `demo` against a real PostgreSQL: the inbox keeps
/// every payload, deduplicates deliveries and records what became of each.
class TestIngest : public QObject
{
    Q_OBJECT

private slots:
    void providersAddIsIdempotentAndRefusesChanges()
    {
        rdtest::TestDatabase db("ingest_providers");
        const auto add = [&](QStringList extra) {
            return runProgram(ctl(),
                withDb(db.conninfo(), QStringList {"providers", "add", "stripe-main"} << extra));
        };
        QCOMPARE(add({"--kind", "stripe", "--name", "Stripe"}).exitCode, 0);
        const auto again = add({"--kind", "stripe", "--name", "Stripe"});
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.out.contains("already registered"), again.out.constData());
        const auto other = add({"--kind", "paddle"});
        QCOMPARE(other.exitCode, 65);
        QVERIFY2(other.err.contains("already registered as stripe"), other.err.constData());
        QCOMPARE(add({"--kind", "braintree"}).exitCode, 64);
        QCOMPARE(runProgram(ctl(),
                     withDb(db.conninfo(), {"providers", "add", "Bad Key", "--kind", "stripe"}))
                     .exitCode,
            65);
        const auto list = runProgram(ctl(), withDb(db.conninfo(), {"providers", "list", "--json"}));
        QCOMPARE(list.exitCode, 0);
        const auto rows = jsonLines(list.out);
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(rows[0]["kind"].get<std::string>(), std::string("stripe"));
        QCOMPARE(rows[0]["displayName"].get<std::string>(), std::string("Stripe"));
    }

    // billing_providers.kind's CHECK (migrations/0004) and rd::providerKinds() name the same
    // kinds: each of the table's names can be registered, a name not in it cannot, and the
    // constraint lists no name beyond the table's.
    void providerKindsMatchTheCheckConstraint()
    {
        rdtest::TestDatabase db("ingest_provider_kinds");
        auto conn = db.connect();
        const auto registerKind = [&](const std::string &kind) {
            pqxx::work tx(*conn);
            tx.exec_params("SELECT register_billing_provider($1, $2, NULL)", "kinds-" + kind, kind);
            tx.commit();
        };
        const std::vector<std::string> names = rd::providerKindNames();
        QVERIFY(!names.empty());
        for (const auto &name : names)
            registerKind(name);
        QCOMPARE(scalar(db, "SELECT count(*) FROM billing_providers"),
            static_cast<long long>(names.size()));
        QVERIFY_THROWS_EXCEPTION(pqxx::check_violation, registerKind("braintree"));

        pqxx::nontransaction tx(*conn);
        const auto checks
            = tx.exec("SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                      "WHERE conrelid = 'billing_providers'::regclass "
                      "AND contype = 'c' AND pg_get_constraintdef(oid) ~ '\\mkind\\M'");
        QCOMPARE(checks.size(), pqxx::result::size_type(1));
        const std::string definition = checks[0][0].as<std::string>();
        std::set<std::string> listed;
        const std::regex literal("'([^']*)'::text");
        for (auto it = std::sregex_iterator(definition.begin(), definition.end(), literal);
             it != std::sregex_iterator(); ++it)
            listed.insert((*it)[1].str());
        QCOMPARE(listed, std::set<std::string>(names.begin(), names.end()));
    }

    void unknownProviderKeyIs65()
    {
        rdtest::TestDatabase db("ingest_unknown_provider");
        const auto r = ingest(db, "nobody", bytes(fixtureFile("stripe/renewal_pre_basil.json")));
        QCOMPARE(r.exitCode, 65);
        QVERIFY2(r.err.contains("not a registered provider"), r.err.constData());
        QCOMPARE(scalar(db, "SELECT count(*) FROM webhook_inbox"), 0LL);
    }

    void samePayloadTwiceIsDuplicateDelivery()
    {
        rdtest::TestDatabase db("ingest_dup_delivery");
        registerProviders(db);
        importStripeSubscription(db);
        const QByteArray body = bytes(fixtureFile("stripe/renewal_pre_basil.json"));
        const auto first = ingest(db, "stripe-main", body);
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(first.results.at(0)["outcome"].get<std::string>(), std::string("applied"));
        const auto second = ingest(db, "stripe-main", body);
        QCOMPARE(second.exitCode, 0);
        QCOMPARE(
            second.results.at(0)["outcome"].get<std::string>(), std::string("duplicate_delivery"));
        QCOMPARE(second.results[0]["inboxId"], first.results[0]["inboxId"]);
        QCOMPARE(second.results[0]["billingPeriodId"], first.results[0]["billingPeriodId"]);
        QCOMPARE(scalar(db, "SELECT count(*) FROM webhook_inbox"), 1LL);
        QCOMPARE(scalar(db, "SELECT deliveries FROM webhook_inbox"), 2LL);
        QCOMPARE(text(db, "SELECT outcome FROM webhook_inbox"), std::string("applied"));
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 1LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_outbox"), 1LL);
        // The audit names the webhook and its provider as the actor.
        QCOMPARE(text(db,
                     "SELECT actor_type || '/' || actor_id FROM subscription_transition_audits"
                     " WHERE transition = 'subscription_renewed'"),
            std::string("webhook/stripe-main"));
    }

    void invoicePaidThenPaymentSucceededIsDuplicate()
    {
        rdtest::TestDatabase db("ingest_paid_succeeded");
        registerProviders(db);
        importStripeSubscription(db);
        auto event = nlohmann::json::parse(fixtureFile("stripe/renewal_pre_basil.json"));
        const auto paid = ingest(db, "stripe-main", bytes(event.dump()));
        event["id"] = "evt_1QxRenew0001b";
        event["type"] = "invoice.payment_succeeded";
        const auto succeeded = ingest(db, "stripe-main", bytes(event.dump()));
        QCOMPARE(paid.results.at(0)["outcome"].get<std::string>(), std::string("applied"));
        QCOMPARE(succeeded.results.at(0)["outcome"].get<std::string>(), std::string("duplicate"));
        QCOMPARE(succeeded.exitCode, 0);
        QCOMPARE(succeeded.results[0]["billingPeriodId"], paid.results[0]["billingPeriodId"]);
        QVERIFY(succeeded.results[0]["inboxId"] != paid.results[0]["inboxId"]);
        QCOMPARE(scalar(db, "SELECT count(*) FROM webhook_inbox"), 2LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 1LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_outbox"), 1LL);
    }

    void firstInvoiceIsNotARenewal()
    {
        rdtest::TestDatabase db("ingest_first_invoice");
        registerProviders(db);
        importStripeSubscription(db);
        const auto r = ingest(db, "stripe-main", bytes(fixtureFile("stripe/first_invoice.json")));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.results.at(0)["outcome"].get<std::string>(), std::string("not_a_renewal"));
        QCOMPARE(r.results[0]["reason"].get<std::string>(), std::string("first_invoice"));
        QCOMPARE(text(db,
                     "SELECT outcome || ' ' || reason || ' ' || (normalized->>'outcome') "
                     "FROM webhook_inbox"),
            std::string("not_a_renewal first_invoice not_a_renewal"));
        QCOMPARE(scalar(db, "SELECT revision FROM subscriptions"), 1LL);
    }

    void needsSnapshotOpensACaseWithTheInboxRow()
    {
        rdtest::TestDatabase db("ingest_needs_snapshot");
        registerProviders(db);
        rdtest::importSubscriptions(
            db.conninfo(), rdtest::subscriptionLine("lemon-shop", "1042", "active"));
        const auto r = ingest(
            db, "lemon-shop", bytes(fixtureFile("lemonsqueezy/renewal_needs_snapshot.json")));
        QCOMPARE(r.exitCode, 0);
        const auto &res = r.results.at(0);
        QCOMPARE(res["outcome"].get<std::string>(), std::string("needs_snapshot"));
        QVERIFY(res["caseId"].is_number_integer());
        const std::string caseId = std::to_string(res["caseId"].get<long long>());
        QCOMPARE(text(db, "SELECT error_code FROM reconciliation_cases WHERE id = " + caseId),
            std::string("needs_snapshot"));
        QCOMPARE(scalar(db, "SELECT inbox_id FROM reconciliation_cases WHERE id = " + caseId),
            res["inboxId"].get<long long>());
        QCOMPARE(text(db,
                     "SELECT event->>'providerRenewalKey' || ' ' || "
                     "jsonb_typeof(event->'period') || ' ' || (subscription_id IS NOT NULL)"
                     " FROM reconciliation_cases"),
            std::string("3051 null true"));
        QCOMPARE(text(db, "SELECT outcome FROM webhook_inbox"), std::string("needs_snapshot"));
        // A case without a period cannot be re-applied; a snapshot is the way out.
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 0LL);
    }

    void rejectedCarriesItsCase()
    {
        rdtest::TestDatabase db("ingest_rejected");
        registerProviders(db);
        // No subscription imported: subscription_not_found.
        const auto r = ingest(db, "stripe-main", bytes(fixtureFile("stripe/renewal_basil.json")));
        QCOMPARE(r.exitCode, 3);
        const auto &res = r.results.at(0);
        QCOMPARE(res["outcome"].get<std::string>(), std::string("rejected"));
        QCOMPARE(res["error"].get<std::string>(), std::string("subscription_not_found"));
        QVERIFY(res["caseId"].is_number_integer());
        QCOMPARE(scalar(db, "SELECT case_id FROM webhook_inbox"), res["caseId"].get<long long>());
        QCOMPARE(scalar(db, "SELECT inbox_id FROM reconciliation_cases"),
            res["inboxId"].get<long long>());
        QCOMPARE(
            text(db, "SELECT error FROM webhook_inbox"), std::string("subscription_not_found"));
    }

    void rawBytesAreKeptByteForByte()
    {
        rdtest::TestDatabase db("ingest_raw_bytes");
        registerProviders(db);
        // Invalid UTF-8, a NUL byte, CR LF and no trailing newline: not JSON at all.
        static const char raw[] = "{\"id\": \"evt_\xff\xfe\", \0 broken\r\n\x80tail";
        const std::string body(raw, sizeof(raw) - 1);
        QCOMPARE(body.size(), std::size_t(32));
        const auto r = ingest(db, "paddle-eu", bytes(body));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.results.at(0)["outcome"].get<std::string>(), std::string("invalid"));
        const std::string derived = r.results[0]["providerEventId"].get<std::string>();
        QVERIFY2(derived.rfind("sha256:", 0) == 0, derived.c_str());
        auto conn = db.connect();
        pqxx::nontransaction tx(*conn);
        const auto row = tx.exec1("SELECT raw_body, body_size, body_truncated, error "
                                  "FROM webhook_inbox");
        const pqxx::binarystring stored(row[0]);
        QCOMPARE(stored.str(), body);
        QCOMPARE(row[1].as<long long>(), static_cast<long long>(body.size()));
        QCOMPARE(row[2].as<bool>(), false);
        QVERIFY(row[3].as<std::string>().find("body") != std::string::npos);
        // The same broken bytes again: the same derived id, one row.
        QCOMPARE(ingest(db, "paddle-eu", bytes(body)).results.at(0)["outcome"].get<std::string>(),
            std::string("duplicate_delivery"));
    }

    void thousandMalformedPayloadsAreKeptAndTheGoodOnesApplied()
    {
        rdtest::TestDatabase db("ingest_malformed");
        registerProviders(db);
        std::string subs;
        const auto good = nlohmann::json::parse(fixtureFile("paddle/renewal.json"));
        std::string input;
        int goodLines = 0;
        for (int i = 0; i < 1000; ++i) {
            const std::string n = std::to_string(i);
            switch (i % 5) {
            case 0: // not JSON
                input += "not json " + n;
                break;
            case 1: // invalid UTF-8 inside a string
                input += "{\"event_id\": \"evt_" + n + "\xc3\x28\", \"event_type\": \"x\"}";
                break;
            case 2: // absurdly deep
                input += std::string(200, '[') + n + std::string(200, ']');
                break;
            case 3: // JSON, but no Paddle event
                input += "{\"event_id\": \"evt_m" + n + "\", \"data\": 17}";
                break;
            case 4: // truncated
                input += good.dump().substr(0, 40 + static_cast<std::size_t>(i % 50)) + n;
                break;
            }
            input += "\n";
            if (i % 100 == 50) {
                // A good renewal between the bad ones, for a subscription of its own.
                auto e = good;
                const std::string sub = "sub_good_" + n;
                e["event_id"] = "evt_good_" + n;
                e["data"]["id"] = "txn_good_" + n;
                e["data"]["subscription_id"] = sub;
                input += e.dump() + "\n";
                subs += rdtest::subscriptionLine("paddle-eu", sub, "active", "2025-12-01T00:00:00Z",
                            "2026-01-01T00:00:00Z")
                    + "\n";
                ++goodLines;
            }
        }
        // And one line over the 1 MiB limit.
        input += "{\"pad\": \"" + std::string(1100 * 1024, 'x') + "\"}\n";
        rdtest::importSubscriptions(db.conninfo(), subs);

        QElapsedTimer timer;
        timer.start();
        const auto r = ingest(db, "paddle-eu", bytes(input), true);
        qInfo("1,011 payloads ingested in %lld ms", static_cast<long long>(timer.elapsed()));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.results.size(), std::size_t(1000 + goodLines + 1));
        std::map<std::string, int> counts;
        for (const auto &res : r.results)
            ++counts[res["outcome"].get<std::string>()];
        QCOMPARE(counts["invalid"], 1001);
        QCOMPARE(counts["applied"], goodLines);
        QCOMPARE(goodLines, 10);
        QCOMPARE(
            scalar(db, "SELECT count(*) FROM webhook_inbox WHERE outcome = 'invalid'"), 1001LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM webhook_inbox WHERE outcome = 'applied'"), 10LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 10LL);
        // The oversize body: its first MiB, its true size and the hash of all of it.
        QCOMPARE(text(db,
                     "SELECT octet_length(raw_body) || ' ' || body_size || ' ' || "
                     "body_truncated FROM webhook_inbox WHERE body_size > 1048576"),
            std::to_string(1048576) + " " + std::to_string(1100 * 1024 + 11) + " true");
        // Every invalid row says why.
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM webhook_inbox WHERE outcome = 'invalid' "
                     "AND (error IS NULL OR error = '')"),
            0LL);
    }

    void ingestRoleNeedsNoTableWrites()
    {
        rdtest::TestDatabase db("ingest_role");
        registerProviders(db);
        importStripeSubscription(db);
        {
            auto conn = db.connect();
            pqxx::nontransaction tx(*conn);
            tx.exec0("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = "
                     "'rd_test_ingester') THEN CREATE ROLE rd_test_ingester LOGIN; END IF; "
                     "END $$");
            tx.exec0("GRANT renewal_ingest TO rd_test_ingester");
        }
        const std::string asIngest = db.conninfo() + " user=rd_test_ingester";
        const auto r
            = runProgram(ctl(), withDb(asIngest, {"ingest", "--provider-key", "stripe-main"}),
                bytes(fixtureFile("stripe/renewal_pre_basil.json")));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonLines(r.out).at(0)["outcome"].get<std::string>(), std::string("applied"));
        const auto publish = runProgram(
            ctl(), withDb(asIngest, {"outbox", "publish", "--jsonl", "/dev/null", "--json"}));
        QVERIFY2(publish.exitCode == 0, publish.err.constData());
        QCOMPARE(jsonLines(publish.out).at(0)["delivered"].get<int>(), 1);
        // ... and cannot write the inbox directly.
        pqxx::connection conn(asIngest);
        pqxx::nontransaction tx(conn);
        QVERIFY_THROWS_EXCEPTION(
            pqxx::insufficient_privilege, tx.exec0("UPDATE webhook_inbox SET outcome = 'applied'"));
    }

    // A delivery is one transaction: the inbox row, the renewal, its audit and outbox intent and
    // the outcome commit together, once. Counted by the server: N renewals delivered through
    // one ingestor add N commits (and two of the ingestor's own), where the multi-commit
    // ingestion added three per renewal; and the rows each commit wrote share its transaction.
    void eachDeliveryIsOneCommit()
    {
        rdtest::TestDatabase db("ingest_one_commit");
        registerProviders(db);
        constexpr int kRenewals = 40;
        std::string subs;
        for (int i = 0; i < kRenewals; ++i)
            subs += rdtest::subscriptionLine("stripe-main", "sub_c" + std::to_string(i), "active",
                        "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z")
                + "\n";
        rdtest::importSubscriptions(db.conninfo(), subs);
        {
            // Autovacuum's own transactions count too: leave it nothing to do here (the
            // migrations changed the catalogs a lot; the deliveries stay below its thresholds).
            auto admin = db.connect();
            pqxx::nontransaction tx(*admin);
            tx.exec0("VACUUM ANALYZE");
        }
        const AutovacuumPaused quiet;
        pqxx::connection observer(rdtest::clusterConninfo());
        const long long before = commitsOf(observer, db.name());
        {
            rd::WebhookIngestor ingestor(db.conninfo());
            for (int i = 0; i < kRenewals; ++i) {
                const auto r
                    = ingestor.ingest("stripe-main", stripeRenewalOf("c" + std::to_string(i)));
                QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::Applied));
                QCOMPARE(r.attempts, 1);
            }
        }
        const long long commits = commitsOf(observer, db.name()) - before;
        qInfo("%d deliveries: %lld commits", kRenewals, commits);
        // Two more per ingestor, not per delivery: its look-up of the provider's kind (a
        // read-only transaction) and the preparation of its statement (the server runs a
        // protocol-level Parse in a transaction of its own).
        QVERIFY2(commits == kRenewals + 2,
            (std::to_string(commits) + " commits for " + std::to_string(kRenewals) + " deliveries")
                .c_str());
        QCOMPARE(scalar(db, "SELECT count(*) FROM webhook_inbox WHERE outcome = 'applied'"),
            static_cast<long long>(kRenewals));
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_outbox"),
            static_cast<long long>(kRenewals));
        // Which rows each of those commits wrote: every delivery's inbox row, billing period,
        // renewal audit, outbox intent and advanced subscription carry one transaction id.
        QCOMPARE(scalar(db, R"(
            WITH written AS (
                SELECT 'inbox' AS kind, xmin::text AS tx FROM webhook_inbox
                UNION ALL SELECT 'period', xmin::text FROM subscription_billing_periods
                UNION ALL SELECT 'audit', xmin::text FROM subscription_transition_audits
                UNION ALL SELECT 'outbox', xmin::text FROM subscription_outbox
                UNION ALL SELECT 'subscription', xmin::text FROM subscriptions)
            SELECT count(*) FROM (
                SELECT tx FROM written GROUP BY tx
                HAVING count(*) FILTER (WHERE kind = 'inbox') = 1
                   AND count(*) FILTER (WHERE kind = 'period') = 1
                   AND count(*) FILTER (WHERE kind = 'audit') = 1
                   AND count(*) FILTER (WHERE kind = 'outbox') = 1
                   AND count(*) FILTER (WHERE kind = 'subscription') = 1
                   AND count(*) = 5) AS one_commit_each)"),
            static_cast<long long>(kRenewals));
    }

    // ... and atomic: when the core fails half-way (here: the outbox refuses its intent),
    // nothing of the delivery is kept, not even the inbox row, and the provider's retry of the
    // same delivery is processed afresh.
    void aDeliveryThatFailsLeavesNothing()
    {
        rdtest::TestDatabase db("ingest_atomic");
        registerProviders(db);
        importStripeSubscription(db);
        const std::string body = fixtureFile("stripe/renewal_pre_basil.json");
        {
            auto admin = db.connect();
            pqxx::nontransaction tx(*admin);
            tx.exec0("CREATE FUNCTION public.rd_test_refuse_outbox() RETURNS trigger "
                     "LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp "
                     "AS $$ BEGIN RAISE EXCEPTION 'outbox refused by the test'; END $$");
            tx.exec0("CREATE TRIGGER rd_test_refuse_outbox BEFORE INSERT ON subscription_outbox "
                     "FOR EACH ROW EXECUTE FUNCTION public.rd_test_refuse_outbox()");
        }
        {
            rd::WebhookIngestor ingestor(db.conninfo());
            bool refused = false;
            try {
                ingestor.ingest("stripe-main", body);
            } catch (const std::exception &e) {
                refused
                    = std::string(e.what()).find("outbox refused by the test") != std::string::npos;
            }
            QVERIFY(refused);
        }
        for (const char *table : {"webhook_inbox", "subscription_billing_periods",
                 "subscription_outbox", "reconciliation_cases"})
            QVERIFY2(scalar(db, std::string("SELECT count(*) FROM ") + table) == 0, table);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_transition_audits "
                     "WHERE transition = 'subscription_renewed'"),
            0LL);
        QCOMPARE(scalar(db, "SELECT revision FROM subscriptions"), 1LL);
        {
            auto admin = db.connect();
            pqxx::nontransaction tx(*admin);
            tx.exec0("DROP TRIGGER rd_test_refuse_outbox ON subscription_outbox");
            tx.exec0("DROP FUNCTION public.rd_test_refuse_outbox()");
        }
        rd::WebhookIngestor ingestor(db.conninfo());
        const auto again = ingestor.ingest("stripe-main", body);
        QCOMPARE(outcomeName(again.outcome), outcomeName(rd::IngestOutcome::Applied));
        QCOMPARE(scalar(db, "SELECT deliveries FROM webhook_inbox"), 1LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_outbox"), 1LL);
    }

    // Eight deliveries of one event at the same time, each over its own connection: the first
    // records it; each other one finds the renewal recorded, then the first's committed inbox
    // row, rolls back (40001) and is a duplicate delivery on its retry. They are held
    // behind a lock on the subscription's row until all eight are seen waiting, so that they
    // really overlap.
    void concurrentDeliveriesOfOneEventApplyOnce()
    {
        rdtest::TestDatabase db("ingest_concurrent");
        registerProviders(db);
        importStripeSubscription(db);
        const std::string body = fixtureFile("stripe/renewal_pre_basil.json");
        constexpr int kDeliveries = 8;

        auto observer = db.connect();
        std::vector<std::unique_ptr<rd::WebhookIngestor>> ingestors;
        for (int i = 0; i < kDeliveries; ++i) {
            ingestors.push_back(std::make_unique<rd::WebhookIngestor>(db.conninfo()));
            ingestors.back()->kindOf("stripe-main"); // connected and looked up before the race
        }
        std::vector<std::future<rd::IngestResult>> pending;
        rdtest::RowLockHolder lock(db, "sub_1QxSub0001");
        for (int i = 0; i < kDeliveries; ++i)
            pending.push_back(std::async(std::launch::async, [&, i] {
                return ingestors[static_cast<std::size_t>(i)]->ingest("stripe-main", body);
            }));
        const auto waiters = rdtest::waitForLockWaiters(*observer, lock.pid, kDeliveries);
        lock.release();
        std::map<rd::IngestOutcome, int> outcomes;
        std::set<std::int64_t> inboxIds;
        std::string billingPeriodId;
        for (auto &p : pending) {
            const auto r = p.get();
            ++outcomes[r.outcome];
            inboxIds.insert(r.inboxId);
            if (r.outcome == rd::IngestOutcome::Applied)
                billingPeriodId = r.billingPeriodId;
        }
        QVERIFY2(waiters.reached, waiters.seen.c_str());
        QCOMPARE(outcomes[rd::IngestOutcome::Applied], 1);
        QCOMPARE(outcomes[rd::IngestOutcome::DuplicateDelivery], kDeliveries - 1);
        QCOMPARE(inboxIds.size(), std::size_t(1));
        QCOMPARE(scalar(db, "SELECT count(*) FROM webhook_inbox"), 1LL);
        QCOMPARE(scalar(db, "SELECT deliveries FROM webhook_inbox"),
            static_cast<long long>(kDeliveries));
        QCOMPARE(text(db, "SELECT billing_period_id FROM webhook_inbox"), billingPeriodId);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 1LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_transition_audits "
                     "WHERE transition = 'subscription_renewed'"),
            1LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_outbox"), 1LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM reconciliation_cases"), 0LL);
        QCOMPARE(scalar(db, "SELECT revision FROM subscriptions"), 2LL);
    }

    // Audit finding: a correctly signed invoice.paid whose invoice id is 4,000 characters long
    // failed in the renewal-key index, nothing reached the inbox, and the provider was told to
    // retry for ever. Now the adapter's bound classifies it invalid, naming the field; it is
    // kept (byte for byte) as evidence, nothing is applied, and a redelivery is a duplicate.
    void overLongInvoiceIdIsKeptAsInvalid()
    {
        rdtest::TestDatabase db("ingest_long_invoice_id");
        registerProviders(db);
        importStripeSubscription(db);
        const std::string invoiceId = rdtest::incompressibleId("in_", 4000);
        const QByteArray body = bytes(
            replaceAll(fixtureFile("stripe/renewal_pre_basil.json"), "in_1QxRenew0001", invoiceId));
        const auto r = ingest(db, "stripe-main", body);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto &res = r.results.at(0);
        QCOMPARE(res["outcome"].get<std::string>(), std::string("invalid"));
        const std::string why = "data.object.id: is 4000 bytes; at most 255";
        QCOMPARE(res["error"].get<std::string>(), why);
        QCOMPARE(res["providerEventId"].get<std::string>(), std::string("evt_1QxRenew0001"));
        QCOMPARE(text(db,
                     "SELECT provider_event_id || ' ' || outcome || ' ' || reason || ' ' || "
                     "error FROM webhook_inbox"),
            "evt_1QxRenew0001 invalid invalid_payload " + why);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM webhook_inbox WHERE raw_body = '\\x"
                         + QByteArray(body.toHex()).toStdString() + "'"),
            1LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 0LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM reconciliation_cases"), 0LL);
        QCOMPARE(scalar(db, "SELECT revision FROM subscriptions"), 1LL);
        const auto again = ingest(db, "stripe-main", body);
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(
            again.results.at(0)["outcome"].get<std::string>(), std::string("duplicate_delivery"));
        QCOMPARE(scalar(db, "SELECT deliveries FROM webhook_inbox"), 2LL);
    }

    // An over-long EVENT id cannot be the inbox's key: the delivery is filed under the body's
    // hash (as a body too broken to name its event is), invalid, its reason naming the field.
    void overLongEventIdIsFiledUnderTheBodyHash()
    {
        rdtest::TestDatabase db("ingest_long_event_id");
        registerProviders(db);
        importStripeSubscription(db);
        const QByteArray body = bytes(replaceAll(fixtureFile("stripe/renewal_pre_basil.json"),
            "evt_1QxRenew0001", rdtest::incompressibleId("evt_", 4004)));
        const auto r = ingest(db, "stripe-main", body);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.results.at(0)["outcome"].get<std::string>(), std::string("invalid"));
        QCOMPARE(text(db,
                     "SELECT (provider_event_id = 'sha256:' || body_sha256) || ' ' || error "
                     "FROM webhook_inbox"),
            std::string("true id: is 4004 bytes; at most 255"));
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 0LL);
        QCOMPARE(ingest(db, "stripe-main", body).results.at(0)["outcome"].get<std::string>(),
            std::string("duplicate_delivery"));
    }

    // Audit finding: a renewal in "xyz" was applied as XYZ. Now it is invalid, naming the field,
    // kept as evidence, and nothing is applied.
    void unknownCurrencyIsKeptAsInvalid()
    {
        rdtest::TestDatabase db("ingest_unknown_currency");
        registerProviders(db);
        importStripeSubscription(db);
        auto event = nlohmann::json::parse(fixtureFile("stripe/renewal_pre_basil.json"));
        event["data"]["object"]["currency"] = "xyz";
        const auto r = ingest(db, "stripe-main", bytes(event.dump()));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.results.at(0)["outcome"].get<std::string>(), std::string("invalid"));
        const std::string why
            = "data.object.currency: currency 'XYZ' is not an active ISO 4217 code";
        QCOMPARE(r.results[0]["error"].get<std::string>(), why);
        QCOMPARE(text(db, "SELECT outcome || ' ' || error FROM webhook_inbox"), "invalid " + why);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 0LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM reconciliation_cases"), 0LL);
    }

    // The commands that read identifiers and currencies from files apply the same bounds:
    // exit 65, naming the field, nothing written.
    void filesAreBoundedAsDeliveriesAre_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("message");
        const std::string s256(256, 's');
        const auto event = [](const std::string &renewalKey, const std::string &currency) {
            return QByteArray::fromStdString(
                nlohmann::json {{"providerKey", "stripe-main"}, {"providerEventId", "evt_f"},
                    {"providerSubscriptionId", "sub_1QxSub0001"},
                    {"providerRenewalKey", renewalKey}, {"providerVersion", nullptr},
                    {"period",
                        {{"start", "2026-01-01T00:00:00Z"}, {"end", "2026-02-01T00:00:00Z"}}},
                    {"paidAmountMinor", 100}, {"currency", currency},
                    {"paidAt", "2026-01-01T00:00:00Z"}}
                    .dump()
                + "\n");
        };
        QTest::newRow("apply: renewal key of 256 bytes")
            << QStringList {"apply"} << event(s256, "USD")
            << "line 1: providerRenewalKey: is 256 bytes; at most 255";
        QTest::newRow("apply: currency xyz")
            << QStringList {"apply"} << event("in_f", "xyz")
            << "line 1: currency: currency 'XYZ' is not an active ISO 4217 code";
        QTest::newRow("subscriptions import: subscription id of 256 bytes")
            << QStringList {"subscriptions", "import"}
            << QByteArray::fromStdString(rdtest::subscriptionLine("stripe-main", s256) + "\n")
            << "providerSubscriptionId: is 256 bytes; at most 255";
        auto snapshot
            = nlohmann::json::parse(fixtureFile("snapshots/stripe_subscription_basil.json"));
        snapshot["id"] = s256;
        QTest::newRow("snapshot attach: subscription id of 256 bytes")
            << QStringList {"snapshot", "attach", "--kind", "stripe", "--provider-key",
                   "stripe-main", "--reason", "provider_confirmed"}
            << QByteArray::fromStdString(snapshot.dump()) << "id: is 256 bytes; at most 255";
        QTest::newRow("normalize: invoice id of 256 bytes")
            << QStringList {"normalize", "--kind", "stripe"}
            << bytes(replaceAll(
                   fixtureFile("stripe/renewal_pre_basil.json"), "in_1QxRenew0001", s256))
            << "data.object.id: is 256 bytes; at most 255";
    }

    void filesAreBoundedAsDeliveriesAre()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, input);
        QFETCH(QString, message);
        rdtest::TestDatabase db("ingest_files_bounded");
        registerProviders(db);
        importStripeSubscription(db);
        // normalize takes no database.
        const auto r = args.first() == QLatin1String("normalize")
            ? runProgram(ctl(), args, input)
            : runProgram(ctl(), withDb(db.conninfo(), args), input);
        QCOMPARE(r.exitCode, 65);
        QVERIFY2(r.err.contains(message.toUtf8()) || r.out.contains(message.toUtf8()),
            (r.err + r.out).constData());
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 0LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscriptions"), 1LL);
        QCOMPARE(scalar(db, "SELECT revision FROM subscriptions"), 1LL);
    }

    void normalizeNeedsNoDatabase_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("outcome");
        QTest::newRow("renewal") << "stripe"
                                 << "stripe/renewal_basil.json" << 0 << "renewal";
        QTest::newRow("first") << "paddle"
                               << "paddle/first_invoice_web.json" << 0 << "not_a_renewal";
        QTest::newRow("snapshot") << "lemonsqueezy"
                                  << "lemonsqueezy/renewal_needs_snapshot.json" << 0
                                  << "needs_snapshot";
        QTest::newRow("invalid") << "recurly"
                                 << "recurly/malformed_not_json.json" << 65 << "invalid";
    }

    void normalizeNeedsNoDatabase()
    {
        QFETCH(QString, kind);
        QFETCH(QString, file);
        QFETCH(int, exitCode);
        QFETCH(QString, outcome);
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("PGHOST", "/nonexistent"); // a database would be unreachable
        const auto r = runProgram(
            ctl(), {"normalize", "--kind", kind, QString(RD_FIXTURES_DIR) + "/" + file}, {}, env);
        QCOMPARE(r.exitCode, exitCode);
        QCOMPARE(QString::fromStdString(
                     nlohmann::json::parse(r.out.toStdString())["outcome"].get<std::string>()),
            outcome);
    }

    void demoIsDeterministicAndShowsEveryOutcome()
    {
        const QStringList demo {"demo", "--seed", "1", "--now", "2026-11-30T12:00:00Z",
            "--subscriptions", "20", "--months", "3", "--json"};
        const auto fingerprint = [](const rdtest::TestDatabase &db) {
            return text(db,
                       "SELECT string_agg(provider_key || ' ' || provider_event_id || ' ' || "
                       "outcome || ' '"
                       " || body_sha256 || ' ' || deliveries, E'\\n' ORDER BY id) FROM "
                       "webhook_inbox")
                + text(db,
                    "SELECT string_agg(provider_subscription_id || ' ' || "
                    "rd_rfc3339(current_period_end), ',' ORDER BY provider_subscription_id) "
                    "FROM subscriptions");
        };
        rdtest::TestDatabase a("demo_a");
        rdtest::TestDatabase b("demo_b");
        const auto ra = runProgram(ctl(), withDb(a.conninfo(), demo));
        const auto rb = runProgram(ctl(), withDb(b.conninfo(), demo));
        QVERIFY2(ra.exitCode == 0, ra.err.constData());
        QVERIFY2(rb.exitCode == 0, rb.err.constData());
        QCOMPARE(ra.out, rb.out);
        QCOMPARE(fingerprint(a), fingerprint(b));

        const auto summary = nlohmann::json::parse(ra.out.toStdString());
        for (const char *outcome : {"applied", "duplicate", "duplicate_delivery", "not_a_renewal",
                 "needs_snapshot", "rejected", "invalid"})
            QVERIFY2(summary["outcomes"].value(outcome, 0) > 0, outcome);
        QCOMPARE(scalar(a, "SELECT count(DISTINCT error_code) FROM reconciliation_cases"), 5LL);
        QCOMPARE(
            scalar(a, "SELECT count(*) FROM reconciliation_cases WHERE inbox_id IS NULL"), 0LL);
        QCOMPARE(scalar(a,
                     "SELECT count(*) FROM subscription_billing_periods WHERE currency IN "
                     "('JPY', 'KWD')"),
            6LL);
        // The desk looks current: renewed periods contain "now".
        QCOMPARE(scalar(a,
                     "SELECT count(*) FROM subscriptions WHERE status = 'active' AND "
                     "current_period_start <= '2026-11-30T12:00:00Z' AND "
                     "current_period_end > '2026-11-30T12:00:00Z'"),
            // all but the three the demo leaves behind on purpose: the skipped month, the
            // renewal that needs a snapshot and the one set to cancel; the renewals its
            // provider charged but never delivered (the lost-delivery story, #27); and the two
            // renewals whose payment the provider never collected (payment trouble, #41)
            scalar(a, "SELECT count(*) FROM subscriptions WHERE status = 'active'") - 5
                - summary["lostDeliveries"].get<long long>());
        QCOMPARE(summary["lostDeliveries"].get<long long>(), 1LL);

        // run-desk.sh's spelling: a second run leaves a desk with data alone.
        const auto again = runProgram(ctl(), withDb(a.conninfo(), {"demo", "--if-empty"}));
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.out.contains("nothing done"), again.out.constData());
        // The 20 asked for, and one of its own for each payment trouble story (#41).
        QCOMPARE(scalar(a, "SELECT count(*) FROM subscriptions"), 23LL);
    }

    // The demo tells payment trouble through ingest (#41, item 4), with each provider's own
    // events: a Stripe renewal declined twice, then paid on Stripe's third attempt (good
    // standing, both attempts recovered); a Stripe renewal whose retries ran out three weeks
    // ago (blocked); a Lemon Squeezy renewal whose retries ran out two days ago (unpaid:
    // blocked). Nothing else is in trouble with its provider; loading it again changes nothing.
    void theDemoTellsPaymentTrouble()
    {
        rdtest::TestDatabase db("demo_trouble");
        const QString now = "2026-11-30T12:00:00Z";
        const QStringList demo {"demo", "--seed", "7", "--now", now, "--json"};
        const auto r = runProgram(ctl(), withDb(db.conninfo(), demo));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const std::string at = now.toStdString();
        // Each subscription that a failed attempt or a standing was told of, as the desk shows
        // it: provider, verdict (its source), attempts recovered of those shown, standing.
        const std::string stories
            = "SELECT string_agg(format('%s %s (%s) %s/%s %s', s.provider_key, j->>'verdict', "
              "j->>'source', (SELECT count(*) FROM jsonb_array_elements(j->'attempts') x WHERE "
              "(x->>'recovered')::boolean), jsonb_array_length(j->'attempts'), "
              "j->'standing'->>'standing'), ', ' ORDER BY s.provider_key, "
              "jsonb_array_length(j->'attempts')) FROM subscriptions s CROSS JOIN LATERAL "
              "access_verdict_json(s.provider_key, s.provider_subscription_id, '"
            + at
            + "') j WHERE s.id IN (SELECT subscription_id FROM payment_attempts UNION SELECT "
              "subscription_id FROM provider_standing_facts)";
        const std::string told = "lemon-shop blocked (provider) 0/1 unpaid, "
                                 "stripe-main good_standing (provider) 2/2 active, "
                                 "stripe-main blocked (provider) 0/4 unpaid";
        QCOMPARE(text(db, stories), told);
        // The attempts follow the end of the period their invoice renews (the failed invoice's
        // period is the one after the subscription's last paid period) and come before now; the
        // recovery is the same invoice paid after its second failure.
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM payment_attempts a JOIN subscriptions s ON s.id = "
                     "a.subscription_id WHERE a.failed_at > '"
                         + at + "' OR a.next_attempt_at > '" + at
                         + "' OR a.failed_at < coalesce((SELECT max(b.period_end) FROM "
                           "subscription_billing_periods b WHERE b.subscription_id = s.id AND "
                           "b.provider_renewal_key <> a.invoice_key), s.current_period_end)"),
            0LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_billing_periods b WHERE "
                     "b.provider_renewal_key IN (SELECT invoice_key FROM payment_attempts) AND "
                     "b.paid_at > (SELECT max(failed_at) FROM payment_attempts a WHERE "
                     "a.invoice_key = b.provider_renewal_key) AND b.paid_at <= '"
                         + at + "'"),
            1LL);
        // Retries exhausted at least two weeks ago; Lemon Squeezy's unpaid within the last days.
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscriptions s CROSS JOIN LATERAL "
                     "rd_access_verdict(s.id, '"
                         + at
                         + "') v WHERE s.provider_key = 'stripe-main' AND v.verdict = "
                           "'blocked' AND v.reason LIKE 'the provider gave up%' AND v.since "
                           "<= timestamptz '"
                         + at + "' - interval '14 days'"),
            1LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM provider_standing_facts WHERE provider_key = "
                     "'lemon-shop' AND standing = 'unpaid' AND observed_at BETWEEN timestamptz '"
                         + at + "' - interval '3 days' AND '" + at + "'"),
            1LL);
        // `access list` exits 3: someone has lost access.
        const auto list
            = runProgram(ctl(), withDb(db.conninfo(), {"access", "list", "--now", now, "--json"}));
        QCOMPARE(list.exitCode, 3);
        QVERIFY2(list.out.contains("retries_exhausted"), list.out.constData());

        // The same history again: every delivery known, nothing recorded twice.
        const std::string counts
            = "SELECT format('%s %s %s %s', (SELECT count(*) FROM payment_attempts), (SELECT "
              "count(*) FROM provider_standing_facts), (SELECT count(*) FROM "
              "access_transitions), (SELECT count(*) FROM subscription_outbox))";
        const std::string before = text(db, counts);
        const auto again = runProgram(ctl(), withDb(db.conninfo(), demo));
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(text(db, counts), before);
        QCOMPARE(text(db, stories), told);
        const auto verify = runProgram(ctl(), withDb(db.conninfo(), {"audit", "verify"}));
        QVERIFY2(verify.exitCode == 0, verify.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestIngest)
#include "tst_ingest.moc"
