// Payloads that forget personal data (#29, migration 0037): retention purges and erasures of
// delivery bodies, against the real cluster. What goes, what stays, who may, what is recorded,
// and that the audit's chains and an anchor exported before still verify.
#include "domain/core/errors.h"
#include "domain/store/action_refused.h"
#include "domain/store/audit_chains.h"
#include "domain/store/audit_verification.h"
#include "domain/store/inbox_retention.h"
#include "tests/support/process_runner.h"
#include "tests/support/test_database.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QtTest>

#include <map>
#include <set>
#include <sstream>

namespace {

// A renewal body carries what the law protects: the customer's e-mail and address.
std::string body(const std::string &eventId, const std::string &subscription)
{
    return R"({"id":")" + eventId + R"(","customer_email":"ann@example.com",)"
        + R"("customer_address":"1 Main St","subscription":")" + subscription + R"("})";
}

std::string renewalEvent(const std::string &eventId, const std::string &subscription,
    const std::string &renewalKey, const std::string &start, const std::string &end)
{
    return R"({"providerKey":"stripe-main","providerEventId":")" + eventId
        + R"(","providerSubscriptionId":")" + subscription + R"(","providerRenewalKey":")"
        + renewalKey + R"(","providerVersion":null,"period":{"start":")" + start + R"(","end":")"
        + end + R"("},"paidAmountMinor":1999,"currency":"USD","paidAt":")" + start + R"("})";
}

std::string normalized(const std::string &outcome, const std::string &eventId,
    const std::string &subscription, const std::string &event = "null")
{
    return R"({"outcome":")" + outcome + R"(","providerEventId":")" + eventId
        + R"(","providerSubscriptionId":)"
        + (subscription.empty() ? std::string("null") : "\"" + subscription + "\"") + R"(,"event":)"
        + event + "}";
}

/// One delivery through ingest_delivery (as the owner): its outcome and inbox id.
std::pair<std::string, std::int64_t> deliver(pqxx::connection &conn, const std::string &eventId,
    const std::string &rawBody, const std::optional<std::string> &outcome,
    const std::string &normalizedJson, const std::optional<std::string> &event)
{
    pqxx::nontransaction tx(conn);
    const auto row = tx.exec_params1(
        "SELECT outcome, inbox_id FROM ingest_delivery('stripe-main', $1, convert_to($2, 'UTF8'), "
        "octet_length(convert_to($2, 'UTF8')), encode(sha256(convert_to($2, 'UTF8')), 'hex'), "
        "$3, 'test', NULL, $4::jsonb, $5::jsonb, gen_random_uuid())",
        eventId, rawBody, outcome, normalizedJson, event);
    return {row[0].as<std::string>(), row[1].is_null() ? 0 : row[1].as<std::int64_t>()};
}

} // namespace

class TestRetention : public QObject
{
    Q_OBJECT

    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::map<std::string, std::int64_t> m_ids; // event id -> inbox id
    std::int64_t m_openCase = 0;

    std::unique_ptr<pqxx::connection> as(const std::string &kind)
    {
        return std::make_unique<pqxx::connection>(rdtest::loginAs(*m_db, kind, kind));
    }

    long long scalar(const std::string &sql) { return rdtest::scalar(*m_db, sql); }

    /// The event ids whose body is gone, sorted.
    QStringList removed()
    {
        auto conn = m_db->connect();
        pqxx::read_transaction tx(*conn);
        QStringList ids;
        for (const auto &row : tx.exec("SELECT provider_event_id FROM webhook_inbox "
                                       "WHERE raw_body IS NULL ORDER BY provider_event_id"))
            ids << QString::fromStdString(row[0].as<std::string>());
        return ids;
    }

    void age(const std::string &eventId, int days)
    {
        auto conn = m_db->connect();
        pqxx::nontransaction(*conn).exec0(
            "UPDATE webhook_inbox SET received_at = now() - interval '" + std::to_string(days)
            + " days' WHERE provider_event_id = '" + eventId + "'");
    }

    rd::PurgeReport purge(pqxx::connection &conn, std::optional<int> days, int batch = 5000)
    {
        rd::PurgeOptions options;
        options.olderThanDays = days;
        options.batch = batch;
        return rd::purgeInboxBodies(conn, options);
    }

private slots:
    /// The inbox every test starts from, sub_1 and sub_2 current in January:
    ///   evt_a  100 days  applied (sub_1's February renewal, chained in its audit)
    ///   evt_b  100 days  rejected: sub_2's March renewal, a gap: its case is open
    ///   evt_c   10 days  not_a_renewal of sub_2
    ///   evt_d  100 days  invalid: no subscription read, but its body names "sub_1"; reviewed
    ///   evt_e  100 days  not processed (a delivery that died processing)
    void init()
    {
        m_db = std::make_unique<rdtest::TestDatabase>(QTest::currentTestFunction());
        rdtest::importSubscriptions(m_db->conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_1") + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_2"));
        auto conn = m_db->connect();
        pqxx::nontransaction(*conn).exec0(
            "INSERT INTO billing_providers (provider_key, kind, display_name) "
            "VALUES ('stripe-main', 'stripe', 'Stripe') ON CONFLICT DO NOTHING");
        const auto feb = renewalEvent(
            "evt_a", "sub_1", "in_feb", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z");
        const auto a = deliver(*conn, "evt_a", body("evt_a", "sub_1"), std::nullopt,
            normalized("renewal", "evt_a", "sub_1", feb), feb);
        QCOMPARE(a.first, std::string("applied"));
        const auto march = renewalEvent(
            "evt_b", "sub_2", "in_march", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z");
        const auto b = deliver(*conn, "evt_b", body("evt_b", "sub_2"), std::nullopt,
            normalized("renewal", "evt_b", "sub_2", march), march);
        QCOMPARE(b.first, std::string("rejected"));
        const auto c = deliver(*conn, "evt_c", body("evt_c", "sub_2"), std::string("not_a_renewal"),
            normalized("not_a_renewal", "evt_c", "sub_2"), std::nullopt);
        const auto d = deliver(*conn, "evt_d", "{\"broken\": \"sub_1\"", std::string("invalid"),
            normalized("invalid", "evt_d", ""), std::nullopt);
        m_ids
            = {{"evt_a", a.second}, {"evt_b", b.second}, {"evt_c", c.second}, {"evt_d", d.second}};
        pqxx::nontransaction tx(*conn);
        tx.exec0(
            "INSERT INTO webhook_inbox (provider_key, provider_event_id, raw_body, body_size, "
            "body_sha256) VALUES ('stripe-main', 'evt_e', 'e', 1, encode(sha256('e'), 'hex'))");
        m_openCase
            = tx.exec1("SELECT case_id FROM webhook_inbox WHERE provider_event_id = 'evt_b'")[0]
                  .as<std::int64_t>();
        // Reviewed, so that retention may take its body (invalidKeepsItsBodyUntilReviewed).
        tx.exec_params(
            "SELECT review_invalid_delivery($1, 'a test payload from the dashboard')", d.second);
        for (const auto *e : {"evt_a", "evt_b", "evt_d", "evt_e"})
            age(e, 100);
        age("evt_c", 10);
    }

    void cleanup() { m_db.reset(); }

    // What goes at each age: processed deliveries older than it, never one whose case is open
    // or one not processed yet. What the desk and the books need stays.
    void purgeByAge_data()
    {
        QTest::addColumn<int>("days");
        QTest::addColumn<int>("batch");
        QTest::addColumn<QStringList>("gone");
        QTest::newRow("30 days") << 30 << 5000 << QStringList {"evt_a", "evt_d"};
        QTest::newRow("30 days, batches of 1") << 30 << 1 << QStringList {"evt_a", "evt_d"};
        QTest::newRow("0: every processed delivery")
            << 0 << 5000 << QStringList {"evt_a", "evt_c", "evt_d"};
        QTest::newRow("365 days: none") << 365 << 5000 << QStringList {};
    }

    void purgeByAge()
    {
        QFETCH(int, days);
        QFETCH(int, batch);
        QFETCH(QStringList, gone);
        auto conn = m_db->connect();
        const std::string kept = rdtest::text(*m_db,
            "SELECT string_agg(concat_ws('|', provider_event_id, body_sha256, body_size, outcome, "
            "normalized::text, case_id, billing_period_id), ',' ORDER BY id) FROM webhook_inbox");

        const auto report = purge(*conn, days, batch);
        QCOMPARE(removed(), gone);
        QCOMPARE(report.removed, static_cast<long long>(gone.size()));
        QCOMPARE(report.kept, days <= 30 ? 1LL : 0LL); // evt_b: its case is open
        // The digest, size, outcome, normalized event and links are untouched.
        QCOMPARE(rdtest::text(*m_db,
                     "SELECT string_agg(concat_ws('|', provider_event_id, body_sha256, body_size, "
                     "outcome, normalized::text, case_id, billing_period_id), ',' ORDER BY id) "
                     "FROM webhook_inbox"),
            kept);
        // Recorded: one record a batch that removed something, counts and ranges, no data.
        const long long records = gone.isEmpty() ? 0 : (batch == 1 ? gone.size() : 1);
        QCOMPARE(scalar("SELECT count(*) FROM webhook_inbox_removals"), records);
        QCOMPARE(report.batches, records);
        if (!gone.isEmpty()) {
            QCOMPARE(
                scalar("SELECT sum(bodies) FROM webhook_inbox_removals WHERE kind = "
                       "'retention' AND retention_days = "
                    + std::to_string(days) + " AND NOT configured AND removed_by = current_user"),
                static_cast<long long>(gone.size()));
            QCOMPARE(scalar("SELECT count(DISTINCT run) FROM webhook_inbox_removals"), 1LL);
            QCOMPARE(scalar("SELECT min(first_inbox_id) FROM webhook_inbox_removals"),
                scalar("SELECT min(id) FROM webhook_inbox WHERE raw_body IS NULL"));
            QCOMPARE(scalar("SELECT max(last_inbox_id) FROM webhook_inbox_removals"),
                scalar("SELECT max(id) FROM webhook_inbox WHERE raw_body IS NULL"));
            QCOMPARE(scalar("SELECT count(*) FROM webhook_inbox_removals r WHERE "
                            "r.first_received_at <= r.last_received_at AND r.last_received_at < "
                            "r.received_before"),
                records);
            QCOMPARE(scalar("SELECT count(*) FROM webhook_inbox_removals r "
                            "WHERE row_to_json(r)::text LIKE '%example.com%'"),
                0LL);
            QCOMPARE(scalar("SELECT count(*) FROM webhook_inbox w JOIN webhook_inbox_removals r "
                            "ON r.id = w.body_removal_id WHERE w.id BETWEEN r.first_inbox_id "
                            "AND r.last_inbox_id"),
                static_cast<long long>(gone.size()));
        }
    }

    // A second purge removes nothing and records nothing; a dry run counts without removing.
    void purgeIsIdempotent()
    {
        auto conn = m_db->connect();
        rd::PurgeOptions dry;
        dry.olderThanDays = 30;
        dry.dryRun = true;
        const auto wouldBe = rd::purgeInboxBodies(*conn, dry);
        QCOMPARE(wouldBe.removed, 2LL);
        QCOMPARE(wouldBe.kept, 1LL); // the open case's; the unprocessed one is not a candidate
        QCOMPARE(removed(), QStringList {});
        QCOMPARE(purge(*conn, 30).removed, 2LL);
        QCOMPARE(purge(*conn, 30).removed, 0LL);
        QCOMPARE(purge(*conn, 30, 1).removed, 0LL);
        QCOMPARE(scalar("SELECT count(*) FROM webhook_inbox_removals"), 1LL);
        QCOMPARE(removed(), (QStringList {"evt_a", "evt_d"}));
    }

    // The open case keeps its delivery's body until the case is closed; the next sweep takes
    // it, the configured retention's too (it starts where the last sweep got to).
    void openCaseKeepsItsBodyUntilItCloses()
    {
        auto conn = m_db->connect();
        pqxx::nontransaction(*conn).exec("SELECT set_inbox_retention(30)");
        QCOMPARE(purge(*conn, std::nullopt).removed, 2LL);
        QVERIFY(!removed().contains("evt_b"));
        QCOMPARE(purge(*conn, std::nullopt).removed, 0LL);
        pqxx::nontransaction(*conn).exec_params(
            "SELECT dismiss_case($1, 'other', 'provider refunded it')", m_openCase);
        QCOMPARE(purge(*conn, std::nullopt).removed, 1LL);
        QCOMPARE(removed(), (QStringList {"evt_a", "evt_b", "evt_d"}));
        // The case still shows its evidence: the normalized event.
        QCOMPARE(scalar("SELECT count(*) FROM reconciliation_cases WHERE id = "
                     + std::to_string(m_openCase) + " AND event->>'providerEventId' = 'evt_b'"),
            1LL);
    }

    // #39, 5: an invalid delivery nobody has reviewed keeps its body, whoever sweeps and at
    // whatever age, as an open case's delivery does: the review and a re-run need it. Once it
    // is reviewed (or re-run) the next sweep takes it.
    void invalidKeepsItsBodyUntilReviewed()
    {
        auto conn = m_db->connect();
        const auto f = deliver(*conn, "evt_f", "{\"also broken\": ", std::string("invalid"),
            normalized("invalid", "evt_f", ""), std::nullopt);
        age("evt_f", 100);
        pqxx::nontransaction(*conn).exec("SELECT set_inbox_retention(30)");

        auto viewer = as("viewer");
        const auto swept = purge(*viewer, std::nullopt);
        QCOMPARE(removed(), (QStringList {"evt_a", "evt_d"}));
        QCOMPARE(swept.kept, 2LL); // evt_b's open case, evt_f unreviewed
        auto op = as("operator");
        const auto chosen = purge(*op, 0);
        QVERIFY(!removed().contains("evt_f"));
        QCOMPARE(chosen.kept, 2LL);
        rd::PurgeOptions dry;
        dry.olderThanDays = 0;
        dry.dryRun = true;
        QCOMPARE(rd::purgeInboxBodies(*op, dry).kept, 2LL);
        QVERIFY(
            rd::purgeInboxBodies(*op, dry).text().find("nobody has reviewed") != std::string::npos);
        QCOMPARE(scalar("SELECT count(*) FROM webhook_inbox WHERE provider_event_id = 'evt_f' "
                        "AND raw_body IS NOT NULL AND body_removal_id IS NULL"),
            1LL);

        pqxx::nontransaction(*op).exec_params(
            "SELECT review_invalid_delivery($1, 'a provider test event')", f.second);
        QCOMPARE(purge(*viewer, std::nullopt).removed, 1LL);
        QVERIFY(removed().contains("evt_f"));

        // A data-subject request still erases an unreviewed one; its re-run then says so.
        const auto g = deliver(*conn, "evt_g", "{\"broken\": \"sub_2\"", std::string("invalid"),
            normalized("invalid", "evt_g", ""), std::nullopt);
        age("evt_g", 100);
        QCOMPARE(purge(*viewer, std::nullopt).removed, 0LL);
        pqxx::nontransaction(*op).exec(
            "SELECT erase_inbox_bodies('stripe-main', 'sub_2', 'ticket 9')");
        QVERIFY(removed().contains("evt_g"));
        const auto rerun = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db, {"replay", "--delivery", QString::number(g.second)}));
        QCOMPARE(rerun.exitCode, 65);
        QVERIFY2(rerun.err.contains("its body was erased on "), rerun.err.constData());
    }

    // The configured retention is any viewer's to enforce (the fold timer's login); an age of
    // one's choosing is an operator's; the setting is the owner's. Refusals are typed.
    void whoMayPurge_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("configured");
        QTest::addColumn<int>("days"); // -1: none given
        QTest::addColumn<QString>("refusal"); // empty: allowed
        QTest::newRow("viewer, nothing configured")
            << "viewer" << false << -1 << "retention_not_configured";
        QTest::newRow("viewer, the configured retention") << "viewer" << true << -1 << "";
        QTest::newRow("ingest, the configured retention") << "ingest" << true << -1 << "";
        QTest::newRow("viewer, an age") << "viewer" << true << 30 << "purge_needs_operator";
        QTest::newRow("ingest, an age") << "ingest" << false << 0 << "purge_needs_operator";
        QTest::newRow("operator, an age") << "operator" << false << 30 << "";
    }

    void whoMayPurge()
    {
        QFETCH(QString, kind);
        QFETCH(bool, configured);
        QFETCH(int, days);
        QFETCH(QString, refusal);
        if (configured)
            pqxx::nontransaction(*m_db->connect()).exec("SELECT set_inbox_retention(30)");
        auto conn = as(kind.toStdString());
        try {
            const auto report = purge(*conn, days < 0 ? std::nullopt : std::optional<int>(days));
            QVERIFY2(refusal.isEmpty(), qPrintable("not refused: " + refusal));
            QCOMPARE(report.removed, 2LL);
            QCOMPARE(scalar("SELECT count(*) FROM webhook_inbox_removals WHERE removed_by = '"
                         + m_db->name() + "_" + kind.toStdString() + "'"),
                1LL);
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(QString::fromStdString(e.code()), refusal);
            QCOMPARE(removed(), QStringList {});
        }
        // Nobody but the owner sets the retention.
        QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege,
            pqxx::nontransaction(*conn).exec("SELECT set_inbox_retention(1)"));
    }

    // An erasure takes one subscription's bodies whatever their age, the invalid delivery
    // that names it in its body included; the others stay. Recorded with who and why.
    void eraseOneSubscription_data()
    {
        QTest::addColumn<QString>("subscription");
        QTest::addColumn<QStringList>("gone");
        QTest::addColumn<int>("openCases");
        // Erased again: what is found without its body (the invalid delivery was found by its
        // body's text alone, so once erased it is no longer the subscription's).
        QTest::addColumn<int>("foundAgain");
        QTest::newRow("sub_1: its renewal and the invalid body naming it")
            << "sub_1" << QStringList {"evt_a", "evt_d"} << 0 << 1;
        QTest::newRow("sub_2: the open case's too")
            << "sub_2" << QStringList {"evt_b", "evt_c"} << 1 << 2;
        QTest::newRow("sub_9: nobody's") << "sub_9" << QStringList {} << 0 << 0;
    }

    void eraseOneSubscription()
    {
        QFETCH(QString, subscription);
        QFETCH(QStringList, gone);
        QFETCH(int, openCases);
        QFETCH(int, foundAgain);
        auto op = as("operator");
        const auto report = rd::eraseInboxBodies(
            *op, std::string("stripe-main"), subscription.toStdString(), "ticket 4711");
        QCOMPARE(removed(), gone);
        QCOMPARE(report.removed, static_cast<long long>(gone.size()));
        QCOMPARE(report.openCases, static_cast<long long>(openCases));
        QCOMPARE(report.erasedBy, m_db->name() + "_operator");
        QCOMPARE(scalar("SELECT count(*) FROM webhook_inbox_removals WHERE kind = 'erasure' AND "
                        "request = 'ticket 4711' AND provider_subscription_id = '"
                     + subscription.toStdString() + "' AND bodies = " + std::to_string(gone.size())
                     + " AND removed_by = '" + m_db->name() + "_operator'"),
            1LL);
        // Again: nothing left, still recorded (the request was served), counted as removed before.
        const auto again
            = rd::eraseInboxBodies(*op, std::nullopt, subscription.toStdString(), "ticket 4711");
        QCOMPARE(again.removed, 0LL);
        QCOMPARE(again.alreadyRemoved, static_cast<long long>(foundAgain));
        QCOMPARE(removed(), gone);
    }

    // Only an operator erases, and only with the request it serves.
    void eraseIsTheOperators()
    {
        for (const char *kind : {"viewer", "ingest"}) {
            auto conn = as(kind);
            // The store's edge: the database's 42501 as an rd:: type, not libpqxx's.
            try {
                rd::eraseInboxBodies(*conn, std::nullopt, "sub_1", "ticket 1");
                QFAIL("a non-operator erased delivery bodies");
            } catch (const rd::DatabaseFailure &e) {
                QCOMPARE(e.sqlstate(), std::string("42501"));
            }
        }
        auto op = as("operator");
        try {
            rd::eraseInboxBodies(*op, std::nullopt, "sub_1", " \u200b ");
            QFAIL("an erasure without a request was not refused");
        } catch (const rd::ActionRefused &e) {
            QVERIFY(e.refusal() == rd::Refusal::NoteRequired);
        }
        QCOMPARE(removed(), QStringList {});
        QCOMPARE(scalar("SELECT count(*) FROM webhook_inbox_removals"), 0LL);
    }

    // A redelivery of a purged event is a duplicate by its event id, a body-derived id's too,
    // and its body is not stored again.
    void redeliveryAfterPurgeIsADuplicate()
    {
        auto conn = m_db->connect();
        const std::string derivedBody = "{\"lemon\": \"sub_3\"}";
        const std::string derivedId = rdtest::text(
            *m_db, "SELECT 'sha256:' || encode(sha256('" + derivedBody + "'), 'hex')");
        QCOMPARE(deliver(*conn, derivedId, derivedBody, std::string("not_a_renewal"),
                     normalized("not_a_renewal", derivedId, "sub_3"), std::nullopt)
                     .first,
            std::string("not_a_renewal"));
        QCOMPARE(purge(*conn, 0).removed, 4LL);
        auto ingest = as("ingest");
        const auto feb = renewalEvent(
            "evt_a", "sub_1", "in_feb", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z");
        QCOMPARE(deliver(*ingest, "evt_a", body("evt_a", "sub_1"), std::nullopt,
                     normalized("renewal", "evt_a", "sub_1", feb), feb)
                     .first,
            std::string("duplicate_delivery"));
        QCOMPARE(deliver(*ingest, derivedId, derivedBody, std::string("not_a_renewal"),
                     normalized("not_a_renewal", derivedId, "sub_3"), std::nullopt)
                     .first,
            std::string("duplicate_delivery"));
        QCOMPARE(scalar("SELECT count(*) FROM webhook_inbox WHERE raw_body IS NULL AND "
                        "deliveries = 2 AND provider_event_id IN ('evt_a', '"
                     + derivedId + "')"),
            2LL);
        QCOMPARE(scalar("SELECT count(*) FROM subscription_billing_periods"), 1LL);
    }

    // The chains and an anchor exported before purges and erasures still verify after them:
    // no chained row holds a body.
    void auditVerifiesAfterPurgeAndErase()
    {
        auto conn = m_db->connect();
        std::stringstream anchor;
        QVERIFY(rd::exportAuditAnchor(*conn, anchor) >= 3); // sub_1, sub_2 audits; the case
        QCOMPARE(purge(*conn, 0).removed, 3LL);
        auto op = as("operator");
        QCOMPARE(rd::eraseInboxBodies(*op, std::nullopt, "sub_2", "ticket 9").removed, 1LL);
        QVERIFY(rd::verifyAuditChains(*conn).empty());
        QCOMPARE(scalar("SELECT count(*) FROM audit_chain_breaks()"), 0LL);
        auto viewer = as("viewer");
        const auto check = rd::checkAuditAnchor(*viewer, anchor);
        QVERIFY(check.matches());
        QVERIFY(check.heads >= 3);
        // And the chained rows never held the body's personal data to begin with.
        QCOMPARE(scalar("SELECT count(*) FROM subscription_transition_audits "
                        "WHERE rd_audit_canonical(subscription_transition_audits) "
                        "LIKE '%example.com%'"),
            0LL);
        QCOMPARE(scalar("SELECT count(*) FROM reconciliation_case_history "
                        "WHERE rd_case_history_canonical(reconciliation_case_history) "
                        "LIKE '%example.com%'"),
            0LL);
    }

    // A viewer reads no body, kept or removed, and cannot tell them apart through raw_body;
    // the removal itself (when, why) is theirs to read.
    void viewerReadsNoBodies()
    {
        QCOMPARE(purge(*m_db->connect(), 30).removed, 2LL);
        auto viewer = as("viewer");
        for (const char *sql : {"SELECT raw_body FROM webhook_inbox",
                 "SELECT count(*) FROM webhook_inbox WHERE raw_body IS NULL",
                 "SELECT octet_length(raw_body) FROM webhook_inbox"}) {
            pqxx::nontransaction tx(*viewer);
            QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege, tx.exec(sql));
        }
        QCOMPARE(rdtest::scalar(*viewer,
                     "SELECT count(*) FROM webhook_inbox w JOIN webhook_inbox_removals r "
                     "ON r.id = w.body_removal_id"),
            2LL);
    }

    // The record is written once, whoever asks; a body is NULL only with its record.
    void removalsAreWrittenOnce()
    {
        auto conn = m_db->connect();
        QCOMPARE(purge(*conn, 30).removed, 2LL);
        for (const char *sql : {"UPDATE webhook_inbox_removals SET bodies = 0",
                 "DELETE FROM webhook_inbox_removals", "TRUNCATE webhook_inbox_removals CASCADE"}) {
            pqxx::nontransaction tx(*conn);
            QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege, tx.exec(sql));
        }
        pqxx::nontransaction tx(*conn);
        QVERIFY_THROWS_EXCEPTION(pqxx::check_violation,
            tx.exec("UPDATE webhook_inbox SET raw_body = NULL WHERE provider_event_id = 'evt_c'"));
        QVERIFY_THROWS_EXCEPTION(pqxx::check_violation,
            tx.exec("UPDATE webhook_inbox SET body_removal_id = NULL WHERE provider_event_id = "
                    "'evt_a'"));
    }

    // The CLI end to end: exit codes and fixed sentences.
    void cli()
    {
        using rdtest::ctl;
        using rdtest::runProgram;
        using rdtest::withDb;
        const auto none = runProgram(ctl(), withDb(*m_db, {"inbox", "purge"}));
        QCOMPARE(none.exitCode, 4);
        QVERIFY2(
            none.err.contains("refused (retention_not_configured): no retention is configured"),
            none.err.constData());

        const auto set = runProgram(ctl(), withDb(*m_db, {"inbox", "retention", "--days", "30"}));
        QCOMPARE(set.exitCode, 0);
        QVERIFY2(
            set.out.startsWith("delivery bodies are kept 30 days (set by "), set.out.constData());

        const auto dry = runProgram(ctl(), withDb(*m_db, {"inbox", "purge", "--dry-run"}));
        QCOMPARE(dry.exitCode, 0);
        QVERIFY2(dry.out.startsWith("would remove 2 bodies ("), dry.out.constData());
        QVERIFY(dry.out.contains("(the configured retention of 30 days): deliveries "));
        QCOMPARE(removed(), QStringList {});

        const std::string viewer = rdtest::loginAs(*m_db, "viewer", "viewer");
        const auto chosen
            = runProgram(ctl(), withDb(viewer, {"inbox", "purge", "--older-than", "0"}));
        QCOMPARE(chosen.exitCode, 4);
        QVERIFY2(chosen.err.contains("refused (purge_needs_operator)"), chosen.err.constData());

        const auto json = runProgram(ctl(), withDb(viewer, {"inbox", "purge", "--json"}));
        QCOMPARE(json.exitCode, 0);
        const auto report = nlohmann::json::parse(json.out.toStdString());
        QCOMPARE(report.at("removed").get<int>(), 2);
        QCOMPARE(report.at("firstInboxId").get<std::int64_t>(), m_ids["evt_a"]);
        QCOMPARE(report.at("lastInboxId").get<std::int64_t>(), m_ids["evt_d"]);
        QCOMPARE(removed(), (QStringList {"evt_a", "evt_d"}));

        const auto erase = runProgram(ctl(),
            withDb(viewer, {"inbox", "erase", "--subscription", "sub_2", "--request", "ticket 7"}));
        QCOMPARE(erase.exitCode, 4);
        QVERIFY2(erase.err.contains("refused (operator_only): erasing delivery bodies is an "
                                    "operator's act"),
            erase.err.constData());
        const auto noRequest
            = runProgram(ctl(), withDb(*m_db, {"inbox", "erase", "--subscription", "sub_2"}));
        QCOMPARE(noRequest.exitCode, 64);
        const std::string op = rdtest::loginAs(*m_db, "operator", "operator");
        const auto erased = runProgram(ctl(),
            withDb(op,
                {"inbox", "erase", "--subscription", "sub_2", "--provider-key", "stripe-main",
                    "--request", "ticket 7"}));
        QCOMPARE(erased.exitCode, 0);
        QVERIFY2(erased.out.startsWith("erased 2 bodies ("), erased.out.constData());
        QVERIFY(erased.out.contains("1 body erased although the case is open"));

        const auto removals = runProgram(ctl(), withDb(*m_db, {"inbox", "removals"}));
        QCOMPARE(removals.exitCode, 0);
        QVERIFY2(removals.out.contains("erasure by " + QByteArray::fromStdString(m_db->name())
                     + "_operator: 2 bodies"),
            removals.out.constData());
        QVERIFY(removals.out.contains("request: ticket 7"));

        // The invalid delivery went only because it was reviewed: a re-run says that first
        // (a removed body's re-run: invalidKeepsItsBodyUntilReviewed).
        const auto rerun = runProgram(
            ctl(), withDb(*m_db, {"replay", "--delivery", QString::number(m_ids["evt_d"])}));
        QCOMPARE(rerun.exitCode, 4);
        QVERIFY2(rerun.err.contains("was already reviewed by "), rerun.err.constData());
    }

    // #42, 12: one body is "1 body", not "1 bodies", in `inbox removals`.
    void removalsSayOneBody()
    {
        using rdtest::ctl;
        using rdtest::runProgram;
        using rdtest::withDb;
        auto op = as("operator");
        rd::eraseInboxBodies(*op, std::string("stripe-main"), "sub_1", "ticket 1");
        pqxx::nontransaction(*m_db->connect())
            .exec0("INSERT INTO webhook_inbox_removals (kind, request, provider_key, "
                   "provider_subscription_id, bodies, bytes, first_inbox_id, last_inbox_id) "
                   "VALUES ('erasure', 'ticket 2', 'stripe-main', 'sub_2', 1, 1, 1, 1)");
        const auto removals = runProgram(ctl(), withDb(*m_db, {"inbox", "removals"}));
        QCOMPARE(removals.exitCode, 0);
        QVERIFY2(removals.out.contains(": 1 body (deliveries 1 to 1"), removals.out.constData());
        QVERIFY2(removals.out.contains(": 2 bodies ("), removals.out.constData());
        QVERIFY2(!removals.out.contains("1 bodies"), removals.out.constData());
    }

    // The fold sweeps the configured retention and says so; RENEWAL_DESK_RETENTION_DAYS
    // names an age, which a viewer's fold may not choose (it says what to do instead).
    void foldSweeps()
    {
        using rdtest::ctl;
        using rdtest::runProgram;
        using rdtest::withDb;
        const std::string viewer = rdtest::loginAs(*m_db, "viewer", "viewer");
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("RENEWAL_DESK_RETENTION_DAYS", "30");
        const auto refused = runProgram(ctl(), withDb(viewer, {"fold"}), {}, env);
        QCOMPARE(refused.exitCode, 4);
        QVERIFY2(
            refused.err.contains("renewalctl inbox retention --days 30"), refused.err.constData());
        QCOMPARE(removed(), QStringList {});
        const std::string op = rdtest::loginAs(*m_db, "operator", "operator");
        const auto byEnv = runProgram(ctl(), withDb(op, {"fold"}), {}, env);
        QCOMPARE(byEnv.exitCode, 0);
        QVERIFY2(byEnv.out.contains("retention: removed 2 bodies"), byEnv.out.constData());

        pqxx::nontransaction(*m_db->connect()).exec("SELECT set_inbox_retention(0)");
        const auto configured = runProgram(ctl(), withDb(viewer, {"fold", "--json"}));
        QCOMPARE(configured.exitCode, 0);
        const auto j = nlohmann::json::parse(configured.out.toStdString());
        QCOMPARE(j.at("retention").at("removed").get<int>(), 1); // evt_c
        QCOMPARE(j.at("retention").at("configured").get<bool>(), true);
        env.insert("RENEWAL_DESK_RETENTION_DAYS", "ninety");
        pqxx::nontransaction(*m_db->connect()).exec("SELECT set_inbox_retention(NULL)");
        const auto bad = runProgram(ctl(), withDb(viewer, {"fold"}), {}, env);
        QCOMPARE(bad.exitCode, 65);
        QVERIFY2(bad.err.contains("RENEWAL_DESK_RETENTION_DAYS: must be a whole number"),
            bad.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestRetention)
#include "tst_retention.moc"
