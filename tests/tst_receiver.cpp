#include "tests/support/fixture_files.h"
#include "tests/support/http_client.h"
#include "tests/support/lock_waiters.h"
#include "tests/support/process_runner.h"
#include "tests/support/receiver_process.h"
#include "tests/support/test_database.h"

#include "domain/core/webhook_signature.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <csignal>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace std::chrono_literals;
using rdtest::ctl;
using rdtest::fixtureFile;
using rdtest::HttpConnection;
using rdtest::HttpHeaders;
using rdtest::HttpResponse;
using rdtest::Receiver;
using rdtest::replaceAll;
using rdtest::runProgram;
using rdtest::scalar;
using rdtest::text;
using rdtest::withDb;
using rdtest::writeSecrets;

namespace {

// The Stripe fixture renews sub_1QxSub0001 from December 2025 into January 2026; `n` makes its
// subscription, invoice and event ids distinct, so that each `n` is a renewal of its own.
std::string stripeRenewal(const std::string &n)
{
    std::string body = fixtureFile("stripe/renewal_basil.json");
    body = replaceAll(body, "sub_1QxSub0001", "sub_rx_" + n);
    body = replaceAll(body, "in_1QxRenew0002", "in_rx_" + n);
    return replaceAll(body, "evt_1QxRenew0002", "evt_rx_" + n);
}

std::string stripeSubscription(const std::string &n)
{
    return rdtest::subscriptionLine(
        "stripe-main", "sub_rx_" + n, "active", "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z");
}

const rd::WebhookCredentials kStripe {{"whsec_test_new", "whsec_test_old"}, {}};
const rd::WebhookCredentials kPaddle {{"pdl_ntfset_secret"}, {}};
const rd::WebhookCredentials kRecurly {{"recurly-signing-key"}, {}};
const rd::WebhookCredentials kLemon {{"lemon-signing-secret"}, {}};
const rd::WebhookCredentials kChargebee {{}, {"hooks:correct-horse"}};

// The credentials kSecretsJson gives the provider key of `kind`.
const rd::WebhookCredentials &credentialsOf(rd::ProviderKind kind)
{
    static const std::map<rd::ProviderKind, rd::WebhookCredentials> credentials {
        {rd::ProviderKind::Stripe, kStripe}, {rd::ProviderKind::Paddle, kPaddle},
        {rd::ProviderKind::Recurly, kRecurly}, {rd::ProviderKind::LemonSqueezy, kLemon},
        {rd::ProviderKind::Chargebee, kChargebee}};
    return credentials.at(kind);
}

const char *kSecretsJson = R"({
  "stripe-main": {"secrets": ["whsec_test_new", "whsec_test_old"]},
  "paddle-eu": {"secrets": ["pdl_ntfset_secret"]},
  "recurly-us": {"secrets": ["recurly-signing-key"]},
  "lemon-shop": {"secrets": ["lemon-signing-secret"]},
  "chargebee-us": {"basicAuth": ["hooks:correct-horse"]}
})";

HttpHeaders signedHeaders(rd::ProviderKind kind, const std::string &body,
    const rd::WebhookCredentials &credentials,
    std::chrono::system_clock::time_point at = std::chrono::system_clock::now())
{
    HttpHeaders h {{"Content-Type", "application/json"}};
    for (auto &header : rd::signDelivery(kind, body, credentials, at))
        h.push_back(std::move(header));
    return h;
}

// Registers the five providers the secrets file names.
void registerProviders(const std::string &conninfo)
{
    const std::pair<const char *, const char *> providers[]
        = {{"stripe-main", "stripe"}, {"paddle-eu", "paddle"}, {"recurly-us", "recurly"},
            {"lemon-shop", "lemonsqueezy"}, {"chargebee-us", "chargebee"}};
    for (const auto &[key, kind] : providers) {
        const auto r
            = runProgram(ctl(), withDb(conninfo, {"providers", "add", key, "--kind", kind}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
}

nlohmann::json bodyJson(const HttpResponse &r)
{
    return nlohmann::json::parse(r.body, nullptr, false);
}

QByteArray describe(const HttpResponse &r)
{
    return QByteArray::fromStdString(std::to_string(r.status) + " " + r.error + " " + r.body);
}

// The value of `name` in a libpq key=value connection string ("host" is the socket folder).
std::string conninfoValue(const std::string &conninfo, const std::string &name)
{
    std::istringstream words(conninfo);
    for (std::string word; words >> word;) {
        if (word.rfind(name + "=", 0) == 0)
            return word.substr(name.size() + 1);
    }
    return {};
}

// What an answer outside trust must never carry: where the database is, who the receiver is
// in it, and the words of libpq, libpqxx and PostgreSQL.
void verifyNoInternalText(const HttpResponse &r, const rdtest::TestDatabase &db)
{
    std::vector<std::string> internal {
        db.name(), "pqxx", "ERROR:", "FATAL", "function", "connection to server", "renewalctl"};
    if (const std::string host = conninfoValue(db.conninfo(), "host"); !host.empty())
        internal.push_back(host);
    for (const auto &word : internal)
        QVERIFY2(r.body.find(word) == std::string::npos,
            ("'" + word + "' in the answer: " + r.body).c_str());
}

// The database refuses new connections and drops the receiver's: for the receiver it is down,
// as in a restart, while the rest of the test cluster runs on.
void stopDatabase(const rdtest::TestDatabase &db, bool stopped)
{
    auto admin = pqxx::connection(rdtest::clusterConninfo());
    const std::string name = admin.quote_name(db.name());
    pqxx::nontransaction(admin).exec(
        "ALTER DATABASE " + name + " ALLOW_CONNECTIONS " + (stopped ? "false" : "true"));
    if (stopped)
        pqxx::nontransaction(admin).exec_params(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", db.name());
}

// `headers` with the signature's own header(s) taken out into the second list.
std::pair<HttpHeaders, HttpHeaders> signatureApart(
    rd::ProviderKind kind, const HttpHeaders &headers)
{
    std::pair<HttpHeaders, HttpHeaders> out;
    for (const auto &h : headers) {
        const bool signature = QString::fromStdString(h.first).compare(
                                   QString::fromUtf8(rd::signatureHeaderName(kind).data(),
                                       int(rd::signatureHeaderName(kind).size())),
                                   Qt::CaseInsensitive)
            == 0;
        (signature ? out.second : out.first).push_back(h);
    }
    return out;
}

} // namespace

/// `renewalctl serve` against a real PostgreSQL over real loopback sockets: signatures are
/// checked before anything is stored, a delivery is answered 200 only after its commit, and
/// the server survives what the internet sends it.
class TestReceiver : public QObject
{
    Q_OBJECT

private slots:
    void everySchemeIsVerifiedBeforeAnythingIsStored_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<bool>("timestamped");
        QTest::newRow("stripe") << int(rd::ProviderKind::Stripe) << "stripe-main"
                                << "stripe/renewal_basil.json" << true;
        QTest::newRow("paddle") << int(rd::ProviderKind::Paddle) << "paddle-eu"
                                << "paddle/renewal.json" << true;
        QTest::newRow("recurly") << int(rd::ProviderKind::Recurly) << "recurly-us"
                                 << "recurly/renewal.json" << true;
        QTest::newRow("lemonsqueezy") << int(rd::ProviderKind::LemonSqueezy) << "lemon-shop"
                                      << "lemonsqueezy/renewal_needs_snapshot.json" << false;
        QTest::newRow("chargebee") << int(rd::ProviderKind::Chargebee) << "chargebee-us"
                                   << "chargebee/renewal_payment_succeeded.json" << false;
    }

    void everySchemeIsVerifiedBeforeAnythingIsStored()
    {
        QFETCH(int, kind);
        QFETCH(QString, key);
        QFETCH(QString, fixture);
        QFETCH(bool, timestamped);
        const auto k = static_cast<rd::ProviderKind>(kind);
        const bool basicAuth = k == rd::ProviderKind::Chargebee;
        const int refused = basicAuth ? 401 : 400;

        rdtest::TestDatabase db("rx_schemes");
        registerProviders(db.conninfo());
        QTemporaryDir dir;
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson));
        QVERIFY(rx.port() != 0);
        const std::string path = "/webhooks/" + key.toStdString();
        const std::string body = ::fixtureFile(fixture.toStdString());
        const auto inbox = [&] { return scalar(db, "SELECT count(*) FROM webhook_inbox"); };

        // Refused, and nothing stored: a wrong secret, one changed byte, no signature at all.
        const rd::WebhookCredentials wrong {{"not-the-secret"}, {"hooks:wrong-password"}};
        auto r = rdtest::httpCall(rx.port(), "POST", path, signedHeaders(k, body, wrong), body);
        QVERIFY2(r.status == refused, describe(r));
        QVERIFY2(bodyJson(r).value("error", "").find("signature") == 0, r.body.c_str());
        if (!basicAuth) { // basic auth proves the sender, not the bytes
            std::string changed = body;
            changed[changed.size() / 2] = changed[changed.size() / 2] == 'a' ? 'b' : 'a';
            r = rdtest::httpCall(
                rx.port(), "POST", path, signedHeaders(k, body, credentialsOf(k)), changed);
            QVERIFY2(r.status == refused, describe(r));
        }
        r = rdtest::httpCall(rx.port(), "POST", path, {{"Content-Type", "application/json"}}, body);
        QVERIFY2(r.status == refused, describe(r));
        if (timestamped) {
            const auto old = std::chrono::system_clock::now() - 10min;
            r = rdtest::httpCall(
                rx.port(), "POST", path, signedHeaders(k, body, credentialsOf(k), old), body);
            QVERIFY2(r.status == 400, describe(r));
            QVERIFY2(bodyJson(r)["error"] == "signature_stale_timestamp", r.body.c_str());
        }
        QCOMPARE(inbox(), 0LL);

        // Signed right: kept, processed, answered with the inbox's outcome.
        r = rdtest::httpCall(
            rx.port(), "POST", path, signedHeaders(k, body, credentialsOf(k)), body);
        QVERIFY2(r.status == 200, describe(r));
        const auto answer = bodyJson(r);
        QVERIFY2(
            answer.contains("outcome") && answer["inboxId"].get<long long>() > 0, r.body.c_str());
        QCOMPARE(inbox(), 1LL);

        // The metrics count both.
        const auto metrics = rdtest::httpCall(rx.port(), "GET", "/metrics");
        QCOMPARE(metrics.status, 200);
        QVERIFY2(metrics.body.find("renewal_receiver_signature_failures_total{provider=\""
                     + key.toStdString() + "\"")
                != std::string::npos,
            metrics.body.c_str());
        QVERIFY2(metrics.body.find(
                     "renewal_receiver_deliveries_total{provider=\"" + key.toStdString() + "\"")
                != std::string::npos,
            metrics.body.c_str());
    }

    // renewal_overdue_subscriptions: read by the receiver's own thread every --overdue-refresh
    // seconds (never per request: a change shows at the next reading), every registered
    // provider listed, 0 included; a failed reading is logged and the last counts are kept.
    void theOverdueGaugeIsReadEveryIntervalAndKeptOnErrors()
    {
        rdtest::TestDatabase db("rx_overdue");
        registerProviders(db.conninfo());
        const auto addOverdue = [&](const std::string &id) {
            scalar(db,
                "WITH s AS (INSERT INTO subscriptions (provider_key, provider_subscription_id, "
                "status, current_period_start, current_period_end) VALUES ('stripe-main', '"
                    + id
                    + "', 'active', now() - interval '40 days', now() - interval '10 days') "
                      "RETURNING 1) SELECT count(*) FROM s");
        };
        addOverdue("sub_late_1");
        const auto gaugeShows = [](std::uint16_t port, const std::string &sample) {
            const auto m = rdtest::httpCall(port, "GET", "/metrics");
            return m.status == 200 && m.body.find(sample + "\n") != std::string::npos;
        };
        const auto waitFor = [&](std::uint16_t port, const std::string &sample) {
            for (int i = 0; i < 100 && !gaugeShows(port, sample); ++i)
                std::this_thread::sleep_for(100ms);
            return gaugeShows(port, sample);
        };
        QTemporaryDir dir;
        const auto secrets = writeSecrets(dir, kSecretsJson);
        // As the ingest login the receiver runs as.
        const std::string ingest = rdtest::loginAs(db, "rx", "ingest");
        Receiver slow(ingest, secrets, {"--overdue-refresh", "3600"});
        Receiver rx(ingest, secrets, {"--overdue-refresh", "1"});
        QVERIFY(waitFor(rx.port(), R"(renewal_overdue_subscriptions{provider="stripe-main"} 1)"));
        QVERIFY(gaugeShows(rx.port(), R"(renewal_overdue_subscriptions{provider="paddle-eu"} 0)"));
        QVERIFY(waitFor(slow.port(), R"(renewal_overdue_subscriptions{provider="stripe-main"} 1)"));

        addOverdue("sub_late_2");
        QVERIFY(waitFor(rx.port(), R"(renewal_overdue_subscriptions{provider="stripe-main"} 2)"));
        // The hourly one has not read again: /metrics answers from what was read.
        QVERIFY(
            gaugeShows(slow.port(), R"(renewal_overdue_subscriptions{provider="stripe-main"} 1)"));

        const auto execute = [&](const std::string &sql) {
            auto conn = db.connect();
            pqxx::nontransaction(*conn).exec0(sql);
        };
        execute("ALTER FUNCTION overdue_subscription_counts(interval) RENAME TO gone");
        const auto logged = rx.waitForLogLine("overdue_count_failed", 10s);
        QVERIFY2(!logged.isEmpty(), rx.stderrText().constData());
        QVERIFY2(logged.contains("the last overdue counts"), logged.constData());
        addOverdue("sub_late_3");
        std::this_thread::sleep_for(1500ms);
        QVERIFY(
            gaugeShows(rx.port(), R"(renewal_overdue_subscriptions{provider="stripe-main"} 2)"));
        execute("ALTER FUNCTION gone(interval) RENAME TO overdue_subscription_counts");
        QVERIFY(waitFor(rx.port(), R"(renewal_overdue_subscriptions{provider="stripe-main"} 3)"));
    }

    void aRenewalIsAppliedOnceAndItsRedeliveryAnsweredFromTheInbox()
    {
        rdtest::TestDatabase db("rx_once");
        registerProviders(db.conninfo());
        rdtest::importSubscriptions(db.conninfo(), stripeSubscription("1"));
        QTemporaryDir dir;
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson));
        const std::string body = stripeRenewal("1");
        // Signed with the older of two secrets: a rotation under way.
        const rd::WebhookCredentials old {{"whsec_test_old"}, {}};
        auto r = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, body, old), body);
        QVERIFY2(r.status == 200, describe(r));
        QCOMPARE(bodyJson(r)["outcome"], "applied");
        r = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body);
        QVERIFY2(r.status == 200, describe(r));
        QCOMPARE(bodyJson(r)["outcome"], "duplicate_delivery");
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 1LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_transition_audits WHERE transition = "
                     "'subscription_renewed'"),
            1LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_outbox"), 1LL);
        QCOMPARE(scalar(db, "SELECT deliveries FROM webhook_inbox"), 2LL);
    }

    // Audit finding: a correctly signed invoice.paid with a 4,000-character invoice id was
    // answered 503 on every attempt (the renewal-key index cannot hold it), so the provider
    // retried it for ever. Now it is stored as invalid, naming the field, and answered 200.
    void aPoisonInvoiceIdIsStoredAsInvalidAndAnswered200()
    {
        rdtest::TestDatabase db("rx_poison");
        registerProviders(db.conninfo());
        rdtest::importSubscriptions(db.conninfo(), stripeSubscription("1"));
        QTemporaryDir dir;
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson));
        const std::string body
            = replaceAll(stripeRenewal("1"), "in_rx_1", rdtest::incompressibleId("in_", 4000));
        const auto r = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body);
        QVERIFY2(r.status == 200, describe(r));
        QCOMPARE(bodyJson(r)["outcome"], "invalid");
        QVERIFY2(r.body.find("4000") == std::string::npos, r.body.c_str());
        // Delivered again, it is answered from the inbox row, which holds why it is invalid:
        // the answer still says only what became of it.
        const auto again = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body);
        QVERIFY2(again.status == 200, describe(again));
        QCOMPARE(bodyJson(again)["outcome"], "duplicate_delivery");
        QVERIFY2(bodyJson(again)["error"].is_null() && again.body.find("4000") == std::string::npos,
            again.body.c_str());
        QCOMPARE(text(db, "SELECT outcome || ' ' || error FROM webhook_inbox"),
            std::string("invalid data.object.id: is 4000 bytes; at most 255"));
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 0LL);
    }

    void httpAnswersForWhatIsNotADelivery()
    {
        rdtest::TestDatabase db("rx_http");
        registerProviders(db.conninfo());
        QTemporaryDir dir;
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson),
            {"--max-body", "2048"});
        const auto p = rx.port();
        QCOMPARE(rdtest::httpCall(p, "GET", "/healthz").status, 200);
        QCOMPARE(rdtest::httpCall(p, "POST", "/webhooks/braintree-x", {}, "{}").status, 404);
        QCOMPARE(rdtest::httpCall(p, "POST", "/somewhere", {}, "{}").status, 404);
        const auto get = rdtest::httpCall(p, "GET", "/webhooks/stripe-main");
        QCOMPARE(get.status, 405);
        QCOMPARE(get.headers.at("allow"), std::string("POST"));
        const std::string big(4096, 'x');
        const auto tooBig = rdtest::httpCall(p, "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, big, kStripe), big);
        QVERIFY2(tooBig.status == 413, describe(tooBig));
        // A header block over the limit, and a flood of header fields.
        const auto hugeHeader = rdtest::httpCall(
            p, "POST", "/webhooks/stripe-main", {{"X-Pad", std::string(20000, 'a')}}, "{}");
        QVERIFY2(hugeHeader.status == 431, describe(hugeHeader));
        HttpHeaders many;
        for (int i = 0; i < 150; ++i)
            many.emplace_back("X-Field-" + std::to_string(i), "1");
        const auto manyFields = rdtest::httpCall(p, "POST", "/webhooks/stripe-main", many, "{}");
        QVERIFY2(manyFields.status == 431, describe(manyFields));
        QCOMPARE(scalar(db, "SELECT count(*) FROM webhook_inbox"), 0LL);

        // Keep-alive: three requests on one connection.
        HttpConnection c(p);
        for (int i = 0; i < 3; ++i) {
            QVERIFY(c.send(rdtest::httpRequest("GET", "/healthz", {}, {}, true)));
            QCOMPARE(c.receive().status, 200);
        }
    }

    void concurrentDeliveriesOfOneEventApplyOnce()
    {
        rdtest::TestDatabase db("rx_concurrent");
        registerProviders(db.conninfo());
        rdtest::importSubscriptions(db.conninfo(), stripeSubscription("c"));
        QTemporaryDir dir;
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson),
            {"--connections", "8"});
        const std::string body = stripeRenewal("c");

        // Hold the subscription's row lock: every delivery must queue behind it (the first on
        // the row, the others on the first's inbox row), and all eight are seen waiting.
        auto holder = db.connect();
        auto observer = db.connect();
        const int holderPid = rdtest::backendPid(*holder);
        pqxx::work hold(*holder);
        hold.exec("SELECT 1 FROM subscriptions WHERE provider_subscription_id = 'sub_rx_c' "
                  "FOR UPDATE");
        std::vector<HttpResponse> answers(8);
        std::vector<std::thread> clients;
        for (std::size_t i = 0; i < answers.size(); ++i)
            clients.emplace_back([&, i] {
                answers[i] = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
                    signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body, 60s);
            });
        const auto waiting = rdtest::waitForLockWaiters(*observer, holderPid, 8);
        hold.commit();
        for (auto &t : clients)
            t.join();
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        int applied = 0;
        for (const auto &a : answers) {
            QVERIFY2(a.status == 200, describe(a));
            const std::string outcome = bodyJson(a)["outcome"];
            QVERIFY2(outcome == "applied" || outcome == "duplicate_delivery", outcome.c_str());
            applied += outcome == "applied";
        }
        QCOMPARE(applied, 1);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 1LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_transition_audits WHERE transition = "
                     "'subscription_renewed'"),
            1LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_outbox"), 1LL);
        QCOMPARE(scalar(db, "SELECT deliveries FROM webhook_inbox"), 8LL);
    }

    void anUnavailableDatabaseIsA503AndTheRetryLands()
    {
        rdtest::TestDatabase db("rx_unavailable");
        registerProviders(db.conninfo());
        rdtest::importSubscriptions(db.conninfo(), stripeSubscription("u"));
        QTemporaryDir dir;
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson),
            {"--connections", "2"});
        QCOMPARE(rdtest::httpCall(rx.port(), "GET", "/healthz").status, 200);

        stopDatabase(db, true);
        const std::string body = stripeRenewal("u");
        const auto down = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body, 120s);
        QVERIFY2(down.status == 503, describe(down));
        QVERIFY(down.headers.count("retry-after") == 1);
        QCOMPARE(bodyJson(down)["error"], "database_unavailable");
        verifyNoInternalText(down, db);
        const auto health = rdtest::httpCall(rx.port(), "GET", "/healthz", {}, {}, 60s);
        QCOMPARE(health.status, 503);
        QCOMPARE(bodyJson(health)["error"], "database_unavailable");
        verifyNoInternalText(health, db);

        stopDatabase(db, false);
        const auto up = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body, 60s);
        QVERIFY2(up.status == 200, describe(up));
        QCOMPARE(bodyJson(up)["outcome"], "applied");
        QCOMPARE(rdtest::httpCall(rx.port(), "GET", "/healthz").status, 200);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 1LL);

        // The answers said nothing; the log has what happened.
        QByteArray log;
        rx.terminate(&log);
        QVERIFY2(log.contains("\"status\":503") && log.contains("connect"), log.constData());
    }

    void theFirstDeliveryAfterADatabaseRestartIsServed()
    {
        rdtest::TestDatabase db("rx_restart");
        registerProviders(db.conninfo());
        rdtest::importSubscriptions(db.conninfo(), stripeSubscription("r1"));
        rdtest::importSubscriptions(db.conninfo(), stripeSubscription("r2"));
        QTemporaryDir dir;
        // One worker: its connection is the one the restart kills.
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson),
            {"--connections", "1"});
        std::string body = stripeRenewal("r1");
        auto r = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body);
        QVERIFY2(r.status == 200, describe(r));

        // Down and up again while the receiver is idle: nobody asked it in between.
        stopDatabase(db, true);
        stopDatabase(db, false);
        // A provider key this worker has not served yet, then the one it has.
        body = ::fixtureFile("paddle/renewal.json");
        r = rdtest::httpCall(rx.port(), "POST", "/webhooks/paddle-eu",
            signedHeaders(rd::ProviderKind::Paddle, body, kPaddle), body);
        QVERIFY2(r.status == 200, describe(r));
        stopDatabase(db, true);
        stopDatabase(db, false);
        body = stripeRenewal("r2");
        r = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body);
        QVERIFY2(r.status == 200, describe(r));
        QCOMPARE(bodyJson(r)["outcome"], "applied");
    }

    void refusalsCarryNoConfigurationOrAdvice()
    {
        rdtest::TestDatabase db("rx_fixed_text");
        registerProviders(db.conninfo());
        QTemporaryDir dir;
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson));
        const std::string body = stripeRenewal("f");

        // A wrong secret: the verdict, not how many secrets would have been tried.
        const rd::WebhookCredentials wrong {{"not-the-secret"}, {"hooks:wrong"}};
        auto r = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, body, wrong), body);
        QCOMPARE(r.status, 400);
        QCOMPARE(bodyJson(r)["error"], "signature_mismatch");
        QVERIFY2(r.body.find("configured") == std::string::npos
                && r.body.find(std::to_string(kStripe.secrets.size())) == std::string::npos,
            r.body.c_str());
        r = rdtest::httpCall(rx.port(), "POST", "/webhooks/chargebee-us",
            signedHeaders(rd::ProviderKind::Chargebee, body, wrong), body);
        QCOMPARE(r.status, 401);
        QVERIFY2(r.body.find("configured") == std::string::npos, r.body.c_str());

        // A provider removed from the database after the receiver loaded its keys: not found,
        // without the command line's advice.
        {
            auto admin = db.connect();
            pqxx::nontransaction(*admin).exec(
                "DELETE FROM billing_providers WHERE provider_key = 'paddle-eu'");
        }
        const std::string paddle = ::fixtureFile("paddle/renewal.json");
        r = rdtest::httpCall(rx.port(), "POST", "/webhooks/paddle-eu",
            signedHeaders(rd::ProviderKind::Paddle, paddle, kPaddle), paddle);
        QVERIFY2(r.status == 404, describe(r));
        QCOMPARE(bodyJson(r)["error"], "unknown_provider_key");
        verifyNoInternalText(r, db);
        QVERIFY2(r.body.find("--provider-key") == std::string::npos, r.body.c_str());
        // An unknown key is not echoed back.
        r = rdtest::httpCall(rx.port(), "POST", "/webhooks/<script>", {}, "{}");
        QCOMPARE(r.status, 404);
        QVERIFY2(r.body.find("<script>") == std::string::npos, r.body.c_str());
        // The log says what happened in the receiver's words: the command line's option and
        // advice were its words before.
        QByteArray log;
        rx.terminate(&log);
        QByteArray line;
        for (const QByteArray &l : log.split('\n'))
            if (l.contains("\"provider\":\"paddle-eu\""))
                line = l;
        QVERIFY2(line.contains("\"error\":\"unknown_provider_key\"")
                && line.contains("no longer registered") && !line.contains("renewalctl")
                && !line.contains("--provider-key"),
            log.constData());
    }

    void aSetupErrorThatWillNotHealIsA500()
    {
        rdtest::TestDatabase db("rx_setup_error");
        registerProviders(db.conninfo());
        QTemporaryDir dir;
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson));
        // A kind this program does not know, as a newer schema could hold: retrying will not
        // help, so it is no 503 for the provider to retry forever.
        {
            auto admin = db.connect();
            pqxx::nontransaction tx(*admin);
            tx.exec("ALTER TABLE billing_providers DROP CONSTRAINT billing_providers_kind_check");
            tx.exec("UPDATE billing_providers SET kind = 'braintree' WHERE provider_key = "
                    "'recurly-us'");
        }
        const std::string body = ::fixtureFile("recurly/renewal.json");
        const auto r = rdtest::httpCall(rx.port(), "POST", "/webhooks/recurly-us",
            signedHeaders(rd::ProviderKind::Recurly, body, kRecurly), body);
        QVERIFY2(r.status == 500, describe(r));
        QCOMPARE(bodyJson(r)["error"], "receiver_setup_error");
        QCOMPARE(
            bodyJson(r)["detail"], "the receiver is misconfigured; its operator has to fix it");
        QVERIFY(r.headers.count("retry-after") == 0);
        QVERIFY2(r.body.find("braintree") == std::string::npos, r.body.c_str());
        verifyNoInternalText(r, db);
        // Not ready until the operator has fixed it and reloaded: the database answering is
        // not enough.
        auto health = rdtest::httpCall(rx.port(), "GET", "/healthz");
        QVERIFY2(health.status == 500, describe(health));
        QCOMPARE(bodyJson(health)["error"], "receiver_setup_error");
        QVERIFY(rdtest::httpCall(rx.port(), "GET", "/metrics")
                    .body.find("renewal_receiver_misconfigured 1")
            != std::string::npos);
        {
            auto admin = db.connect();
            pqxx::nontransaction(*admin).exec(
                "UPDATE billing_providers SET kind = 'recurly' WHERE provider_key = 'recurly-us'");
        }
        ::kill(static_cast<pid_t>(rx.pid()), SIGHUP);
        QVERIFY(!rx.waitForLogLine("\"ready\":true", 10s).isEmpty());
        health = rdtest::httpCall(rx.port(), "GET", "/healthz");
        QVERIFY2(health.status == 200, describe(health));
        QVERIFY(rdtest::httpCall(rx.port(), "GET", "/metrics")
                    .body.find("renewal_receiver_misconfigured 0")
            != std::string::npos);
        QByteArray log;
        rx.terminate(&log);
        QVERIFY2(log.contains("\"status\":500") && log.contains("unknown kind"), log.constData());
        // Said loudly, once, with what to do.
        QCOMPARE(log.count("\"alert\":\"receiver_misconfigured\""), 1);
    }

    // A schema newer than this program (another host migrated the database with a newer
    // renewalctl): `serve` refuses to start (exit 78: a restart will not help), and a running
    // receiver reports itself not ready (500, fixed text) instead of a 503 to retry.
    void aSchemaNewerThanTheProgramIsASetupError()
    {
        rdtest::TestDatabase db("rx_newer_schema");
        registerProviders(db.conninfo());
        QTemporaryDir dir;
        const QString secrets = writeSecrets(dir, kSecretsJson);
        const std::string login = rdtest::loginAs(db, "rx", "ingest");
        Receiver rx(login, secrets);
        QCOMPARE(rdtest::httpCall(rx.port(), "GET", "/healthz").status, 200);
        {
            auto admin = db.connect();
            pqxx::nontransaction(*admin).exec(
                "INSERT INTO schema_migrations (version, name, checksum) "
                "VALUES (99999, '99999_from_the_future.sql', 'x')");
        }
        const auto health = rdtest::httpCall(rx.port(), "GET", "/healthz");
        QVERIFY2(health.status == 500, describe(health));
        QCOMPARE(bodyJson(health)["error"], "receiver_setup_error");
        QVERIFY2(health.body.find("99999") == std::string::npos, health.body.c_str());
        verifyNoInternalText(health, db);
        // A reload checks the schema too: it fails, and the receiver stays not ready.
        ::kill(static_cast<pid_t>(rx.pid()), SIGHUP);
        QVERIFY(!rx.waitForLogLine("\"kept\":\"the previous secrets\"", 10s).isEmpty());
        QCOMPARE(rdtest::httpCall(rx.port(), "GET", "/healthz").status, 500);
        QByteArray log;
        rx.terminate(&log);
        QVERIFY2(log.contains("\"alert\":\"receiver_misconfigured\"")
                && log.contains("99999_from_the_future.sql"),
            log.constData());

        const auto start = runProgram(ctl(),
            withDb(login, {"serve", "--listen", "127.0.0.1:0", "--secrets", secrets}), {},
            QProcessEnvironment::systemEnvironment(), 30000);
        QCOMPARE(start.exitCode, 78);
        QVERIFY2(start.err.contains("99999_from_the_future.sql") && start.err.contains("newer"),
            start.err.constData());
    }

    void aSignatureInTheTrailerIsNoSignature_data()
    {
        everySchemeIsVerifiedBeforeAnythingIsStored_data();
    }

    void aSignatureInTheTrailerIsNoSignature()
    {
        QFETCH(int, kind);
        QFETCH(QString, key);
        QFETCH(QString, fixture);
        const auto k = static_cast<rd::ProviderKind>(kind);
        rdtest::TestDatabase db("rx_trailer");
        registerProviders(db.conninfo());
        QTemporaryDir dir;
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson));
        const std::string path = "/webhooks/" + key.toStdString();
        const std::string body = ::fixtureFile(fixture.toStdString());
        const std::vector<std::string> chunks {
            body.substr(0, body.size() / 2), body.substr(body.size() / 2)};
        const auto [plain, signature] = signatureApart(k, signedHeaders(k, body, credentialsOf(k)));
        QVERIFY(!signature.empty());

        // The same signature in the chunked trailer: as if there were none.
        HttpConnection trailer(rx.port());
        QVERIFY(trailer.send(rdtest::httpChunkedRequest("POST", path, plain, chunks, signature)));
        auto r = trailer.receive();
        QVERIFY2(r.status == (k == rd::ProviderKind::Chargebee ? 401 : 400), describe(r));
        QCOMPARE(bodyJson(r)["error"], "signature_missing");
        QCOMPARE(scalar(db, "SELECT count(*) FROM webhook_inbox"), 0LL);

        // In the header section, the chunked delivery is accepted.
        HttpHeaders all = plain;
        all.insert(all.end(), signature.begin(), signature.end());
        HttpConnection header(rx.port());
        QVERIFY(header.send(rdtest::httpChunkedRequest("POST", path, all, chunks, {})));
        r = header.receive();
        QVERIFY2(r.status == 200, describe(r));
        QCOMPARE(scalar(db, "SELECT count(*) FROM webhook_inbox"), 1LL);
    }

    void headIsAnsweredWithoutABody()
    {
        rdtest::TestDatabase db("rx_head");
        registerProviders(db.conninfo());
        QTemporaryDir dir;
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson));
        // HEAD then GET on one keep-alive connection: a body after the HEAD's headers would be
        // read as the start of the GET's answer.
        HttpConnection c(rx.port());
        QVERIFY(c.send(rdtest::httpRequest("HEAD", "/healthz", {}, {}, true)));
        const auto head = c.receive(30s, true);
        QVERIFY2(head.status == 200, describe(head));
        QVERIFY(c.send(rdtest::httpRequest("GET", "/healthz", {}, {}, true)));
        const auto get = c.receive();
        QVERIFY2(get.status == 200, describe(get));
        QCOMPARE(bodyJson(get)["status"], "ok");
        QVERIFY(c.send(rdtest::httpRequest("HEAD", "/metrics", {}, {}, true)));
        QVERIFY2(c.receive(30s, true).status == 405, "HEAD /metrics");
        QVERIFY(c.send(rdtest::httpRequest("GET", "/healthz", {}, {}, false)));
        QCOMPARE(c.receive().status, 200);
    }

    void aSecretsFileThatWouldRefuseDeliveriesIsRefused_data()
    {
        QTest::addColumn<QString>("secrets");
        QTest::addColumn<QString>("named");
        // Two blocks for one key: a rotation written so would silently keep only the second.
        QTest::newRow("provider key twice")
            << R"({"stripe-main": {"secrets": ["whsec_a"]}, "stripe-main": {"secrets": ["whsec_b"]}})"
            << "stripe-main";
        QTest::newRow("member twice")
            << R"({"stripe-main": {"secrets": ["whsec_a"], "secrets": ["whsec_b"]}})"
            << "stripe-main.secrets";
        // Would start, then refuse every delivery.
        QTest::newRow("chargebee without basicAuth") << R"({"chargebee-us": {"secrets": ["x"]}})"
                                                     << "chargebee-us";
        QTest::newRow("stripe with only basicAuth") << R"({"stripe-main": {"basicAuth": ["u:p"]}})"
                                                    << "stripe-main";
        // An apiKey is for statement fetch: it checks no delivery, and the refusal says so.
        QTest::newRow("stripe with only apiKey") << R"({"stripe-main": {"apiKey": "rk_live_x"}})"
                                                 << "'stripe-main' is a stripe provider";
        QTest::newRow("chargebee with only apiKey")
            << R"({"chargebee-us": {"apiKey": "live_cb_x"}})"
            << "is for statement fetch only";
    }

    void aSecretsFileThatWouldRefuseDeliveriesIsRefused()
    {
        QFETCH(QString, secrets);
        QFETCH(QString, named);
        rdtest::TestDatabase db("rx_secrets_kind");
        registerProviders(db.conninfo());
        QTemporaryDir dir;
        const auto r = runProgram(ctl(),
            withDb(db.conninfo(),
                {"serve", "--listen", "127.0.0.1:0", "--secrets",
                    writeSecrets(dir, secrets.toStdString())}),
            {}, QProcessEnvironment::systemEnvironment(), 30000);
        QCOMPARE(r.exitCode, 78);
        QVERIFY2(r.err.contains(named.toUtf8()), r.err.constData());

        // On SIGHUP: refused the same way, logged, and the previous secrets stay in force.
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson));
        writeSecrets(dir, secrets.toStdString());
        ::kill(static_cast<pid_t>(rx.pid()), SIGHUP);
        const QByteArray line = rx.waitForLogLine("\"reloaded\"", 30s);
        QVERIFY2(line.contains("\"error\"") && line.contains(named.toUtf8()), line.constData());
        const std::string body = ::fixtureFile("chargebee/renewal_payment_succeeded.json");
        const auto delivered = rdtest::httpCall(rx.port(), "POST", "/webhooks/chargebee-us",
            signedHeaders(rd::ProviderKind::Chargebee, body, kChargebee), body);
        QVERIFY2(delivered.status == 200, describe(delivered));
        const std::string stripe = stripeRenewal("k");
        const auto signedOld = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, stripe, kStripe), stripe);
        QVERIFY2(signedOld.status == 200, describe(signedOld));
    }

    void aSlowClientIsCutOffWhileOthersAreServed()
    {
        rdtest::TestDatabase db("rx_slow");
        registerProviders(db.conninfo());
        rdtest::importSubscriptions(db.conninfo(), stripeSubscription("s"));
        QTemporaryDir dir;
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson),
            {"--read-timeout", "3"});
        const std::string body = stripeRenewal("s");
        const std::string request = rdtest::httpRequest("POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body);

        // Four clients trickle a byte every 300 ms: each byte arrives well within any
        // per-read timeout, but no request completes within the whole-request deadline.
        std::vector<std::unique_ptr<HttpConnection>> slow;
        for (int i = 0; i < 4; ++i)
            slow.push_back(std::make_unique<HttpConnection>(rx.port()));
        const auto start = std::chrono::steady_clock::now();
        std::atomic<bool> stop {false};
        std::atomic<int> cut {0};
        std::thread trickle([&] {
            for (std::size_t at = 0; at < request.size() && !stop; ++at) {
                int open = 0;
                for (auto &c : slow)
                    open += c->send(request.substr(at, 1)) ? 1 : 0;
                if (open == 0)
                    break;
                std::this_thread::sleep_for(300ms);
            }
        });
        // Meanwhile a normal delivery is answered at once.
        const auto normal = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body, 5s);
        const auto normalTook = std::chrono::steady_clock::now() - start;
        for (auto &c : slow)
            cut += c->closedByPeer(10s) ? 1 : 0;
        const auto cutAfter = std::chrono::steady_clock::now() - start;
        stop = true;
        trickle.join();
        QVERIFY2(normal.status == 200, describe(normal));
        QVERIFY(normalTook < 3s);
        QCOMPARE(cut.load(), 4);
        QVERIFY2(cutAfter < 8s, "the slow clients were not cut off at the deadline");
        QCOMPARE(scalar(db, "SELECT count(*) FROM webhook_inbox"), 1LL);
    }

    void sigtermMidLoadLosesNothing()
    {
        rdtest::TestDatabase db("rx_sigterm");
        registerProviders(db.conninfo());
        constexpr int kRenewals = 300;
        std::string subscriptions;
        for (int i = 0; i < kRenewals; ++i)
            subscriptions += stripeSubscription(std::to_string(i)) + "\n";
        rdtest::importSubscriptions(db.conninfo(), subscriptions);
        QTemporaryDir dir;
        const QString secrets = writeSecrets(dir, kSecretsJson);
        const std::string conninfo = rdtest::loginAs(db, "rx", "ingest");

        // Eight clients deliver; the receiver is stopped with SIGTERM halfway. Whatever was
        // answered 200 must be committed; whatever was not is delivered again to a new
        // receiver, as a provider would. In the end: every renewal exactly once.
        std::vector<int> answered(kRenewals, 0);
        std::atomic<int> next {0};
        std::atomic<int> ok {0};
        QByteArray log;
        int exitCode = -1;
        {
            Receiver rx(conninfo, secrets, {"--connections", "4"});
            std::vector<std::thread> clients;
            for (int c = 0; c < 8; ++c)
                clients.emplace_back([&] {
                    for (int i = next++; i < kRenewals; i = next++) {
                        const std::string body = stripeRenewal(std::to_string(i));
                        const auto r = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
                            signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body, 30s);
                        if (r.status == 200) {
                            answered[static_cast<std::size_t>(i)] = 1;
                            ++ok;
                        }
                    }
                });
            while (ok < kRenewals / 3)
                std::this_thread::sleep_for(5ms);
            exitCode = rx.terminate(&log);
            for (auto &t : clients)
                t.join();
        }
        QCOMPARE(exitCode, 0);
        QVERIFY2(log.contains("\"stopped\":true"), log.constData());
        const int beforeRetry = ok;
        QVERIFY2(beforeRetry < kRenewals, "SIGTERM came after the load: nothing was cut");
        // Everything answered 200 is there, each once.
        {
            auto conn = db.connect();
            pqxx::nontransaction tx(*conn);
            for (int i = 0; i < kRenewals; ++i) {
                if (!answered[static_cast<std::size_t>(i)])
                    continue;
                const auto n = tx.exec_params1("SELECT count(*) FROM subscription_billing_periods "
                                               "WHERE provider_renewal_key = $1",
                                     "in_rx_" + std::to_string(i))[0]
                                   .as<long long>();
                QVERIFY2(n == 1,
                    ("renewal " + std::to_string(i) + " answered 200, not recorded").c_str());
            }
        }
        // The provider's retries, to a new receiver.
        Receiver again(conninfo, secrets);
        for (int i = 0; i < kRenewals; ++i) {
            if (answered[static_cast<std::size_t>(i)])
                continue;
            const std::string body = stripeRenewal(std::to_string(i));
            const auto r = rdtest::httpCall(again.port(), "POST", "/webhooks/stripe-main",
                signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body);
            QVERIFY2(r.status == 200, describe(r));
        }
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"),
            static_cast<long long>(kRenewals));
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_transition_audits WHERE transition = "
                     "'subscription_renewed'"),
            static_cast<long long>(kRenewals));
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_outbox"),
            static_cast<long long>(kRenewals));
        QCOMPARE(scalar(db, "SELECT count(*) FROM webhook_inbox WHERE outcome IS NULL"), 0LL);
        qInfo("SIGTERM after %d of %d renewals were answered; the rest were redelivered",
            beforeRetry, kRenewals);
    }

    void twoProcessesShareOnePort()
    {
        rdtest::TestDatabase db("rx_reuseport");
        registerProviders(db.conninfo());
        constexpr int kRenewals = 60;
        std::string subscriptions;
        for (int i = 0; i < kRenewals; ++i)
            subscriptions += stripeSubscription("p" + std::to_string(i)) + "\n";
        rdtest::importSubscriptions(db.conninfo(), subscriptions);
        QTemporaryDir dir;
        const QString secrets = writeSecrets(dir, kSecretsJson);
        const std::string conninfo = rdtest::loginAs(db, "rx", "ingest");
        Receiver first(conninfo, secrets);
        QVERIFY(first.port() != 0);
        Receiver second(conninfo, secrets, {}, first.port());
        QCOMPARE(second.port(), first.port());
        for (int i = 0; i < kRenewals; ++i) {
            const std::string body = stripeRenewal("p" + std::to_string(i));
            const auto r = rdtest::httpCall(first.port(), "POST", "/webhooks/stripe-main",
                signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body);
            QVERIFY2(r.status == 200, describe(r));
        }
        QByteArray firstLog, secondLog;
        QCOMPARE(first.terminate(&firstLog), 0);
        QCOMPARE(second.terminate(&secondLog), 0);
        const auto served = [](const QByteArray &log) { return log.count("\"status\":200"); };
        QVERIFY2(served(firstLog) > 0 && served(secondLog) > 0,
            (firstLog + "\n----\n" + secondLog).constData());
        QCOMPARE(served(firstLog) + served(secondLog), qsizetype(kRenewals));
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"),
            static_cast<long long>(kRenewals));
    }

    void httpsWithACertificateCurlTrusts()
    {
        rdtest::TestDatabase db("rx_tls");
        registerProviders(db.conninfo());
        rdtest::importSubscriptions(db.conninfo(), stripeSubscription("t"));
        QTemporaryDir dir;
        const QString cert = dir.filePath("cert.pem"), key = dir.filePath("key.pem");
        const auto made = runProgram("openssl",
            {"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout",
                key, "-out", cert});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), writeSecrets(dir, kSecretsJson),
            {"--tls-cert", cert, "--tls-key", key});
        QVERIFY(rx.port() != 0);
        const std::string body = stripeRenewal("t");
        const QString bodyPath = dir.filePath("body.json");
        {
            QFile f(bodyPath);
            f.open(QIODevice::WriteOnly);
            f.write(body.data(), static_cast<qint64>(body.size()));
        }
        QStringList args {"--silent", "--show-error", "--cacert", cert, "--data-binary",
            "@" + bodyPath, "-H", "Content-Type: application/json"};
        for (const auto &[name, value] : rd::signDelivery(
                 rd::ProviderKind::Stripe, body, kStripe, std::chrono::system_clock::now()))
            args << "-H" << QString::fromStdString(name + ": " + value);
        args << QString("https://127.0.0.1:%1/webhooks/stripe-main").arg(rx.port());
        const auto r = runProgram("curl", args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(nlohmann::json::parse(r.out.toStdString())["outcome"], "applied");
        // Plain HTTP to the TLS port is not served.
        QCOMPARE(rdtest::httpCall(rx.port(), "GET", "/healthz", {}, {}, 5s).status, 0);
    }

    void anUnsafeOrWrongSecretsFileStopsTheStart()
    {
        rdtest::TestDatabase db("rx_secrets");
        registerProviders(db.conninfo());
        QTemporaryDir dir;
        const auto serve = [&](const QString &secrets) {
            return runProgram(ctl(),
                withDb(db.conninfo(), {"serve", "--listen", "127.0.0.1:0", "--secrets", secrets}),
                {}, QProcessEnvironment::systemEnvironment(), 30000);
        };
        auto r = serve(writeSecrets(dir, kSecretsJson, 0644));
        QCOMPARE(r.exitCode, 78);
        QVERIFY2(r.err.contains("group or others"), r.err.constData());
        r = serve(writeSecrets(dir, R"({"stripe-elsewhere": {"secrets": ["x"]}})"));
        QCOMPARE(r.exitCode, 78);
        QVERIFY2(r.err.contains("stripe-elsewhere") && r.err.contains("not registered"),
            r.err.constData());
        r = serve(writeSecrets(dir, R"({"stripe-main": {"secrets": []}})"));
        QCOMPARE(r.exitCode, 78);
        QVERIFY2(r.err.contains("stripe-main"), r.err.constData());
        r = serve(dir.filePath("missing.json"));
        QCOMPARE(r.exitCode, 78);
    }

    void sighupRereadsTheSecrets()
    {
        rdtest::TestDatabase db("rx_sighup");
        registerProviders(db.conninfo());
        rdtest::importSubscriptions(db.conninfo(), stripeSubscription("h"));
        QTemporaryDir dir;
        const QString secrets = writeSecrets(dir, kSecretsJson);
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), secrets);
        const std::string body = stripeRenewal("h");
        const rd::WebhookCredentials rotated {{"whsec_rotated"}, {}};
        auto r = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, body, rotated), body);
        QCOMPARE(r.status, 400);
        writeSecrets(dir, R"({"stripe-main": {"secrets": ["whsec_rotated"]}})");
        ::kill(static_cast<pid_t>(rx.pid()), SIGHUP);
        // The reload is logged; deliveries signed with the new secret are then accepted.
        for (int i = 0; i < 100 && r.status != 200; ++i) {
            std::this_thread::sleep_for(50ms);
            r = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
                signedHeaders(rd::ProviderKind::Stripe, body, rotated), body);
        }
        QVERIFY2(r.status == 200, describe(r));
        r = rdtest::httpCall(rx.port(), "POST", "/webhooks/stripe-main",
            signedHeaders(rd::ProviderKind::Stripe, body, kStripe), body);
        QCOMPARE(r.status, 400);
    }

    // #39, 12: a SIGHUP while the database accepts connections and never answers them. The
    // reload waits on a thread of its own and gives up after connect_timeout, keeping the
    // previous secrets; /metrics is answered meanwhile, /healthz says the database is
    // unavailable once its own connect times out, and a second SIGHUP is skipped, not queued.
    // (The reload ran on the single I/O thread with no timeout: nothing was answered until the
    // database was.)
    void aReloadAgainstAHangingDatabaseBlocksNothing()
    {
        rdtest::TestDatabase db("rx_hang");
        registerProviders(db.conninfo());
        QTemporaryDir dir;
        const QString secrets = writeSecrets(dir, kSecretsJson);
        // The receiver finds its database through a service file; the file then names a socket
        // that takes connections (the kernel's backlog) and never answers them.
        std::map<QString, QString> params;
        for (const auto &pair : QString::fromStdString(rdtest::loginAs(db, "rx", "ingest"))
                                    .split(' ', Qt::SkipEmptyParts)) {
            QString value = pair.section('=', 1);
            if (value.size() >= 2 && value.startsWith('\'') && value.endsWith('\''))
                value = value.mid(1, value.size() - 2); // a service file's values are bare
            params[pair.section('=', 0, 0)] = value;
        }
        const QString serviceFile = dir.filePath("pg_service.conf");
        const auto writeService = [&](const std::map<QString, QString> &p) {
            QFile f(serviceFile);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("[rd]\n");
            for (const auto &[key, value] : p)
                f.write((key + "=" + value + "\n").toUtf8());
        };
        writeService(params);
        const int hole = ::socket(AF_INET, SOCK_STREAM, 0);
        QVERIFY(hole >= 0);
        const auto closeHole = qScopeGuard([&] { ::close(hole); });
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        QVERIFY(::bind(hole, reinterpret_cast<sockaddr *>(&address), length) == 0);
        QVERIFY(::listen(hole, 16) == 0);
        QVERIFY(::getsockname(hole, reinterpret_cast<sockaddr *>(&address), &length) == 0);

        qputenv("PGSERVICEFILE", serviceFile.toLocal8Bit());
        Receiver rx("service=rd", secrets);
        qunsetenv("PGSERVICEFILE");
        QVERIFY2(rx.port() != 0, rx.stderrText().constData());
        QCOMPARE(rdtest::httpCall(rx.port(), "GET", "/healthz").status, 200);

        auto hanging = params;
        hanging["host"] = "127.0.0.1";
        hanging["port"] = QString::number(ntohs(address.sin_port));
        writeService(hanging);
        ::kill(static_cast<pid_t>(rx.pid()), SIGHUP);
        std::this_thread::sleep_for(500ms);
        const auto metrics = rdtest::httpCall(rx.port(), "GET", "/metrics", {}, {}, 3s);
        QVERIFY2(metrics.status == 200, describe(metrics));
        ::kill(static_cast<pid_t>(rx.pid()), SIGHUP);
        QVERIFY(!rx.waitForLogLine("is still running", 5s).isEmpty());
        // /healthz connects too: it answers 503 when its connect times out (10 s).
        const auto health = rdtest::httpCall(rx.port(), "GET", "/healthz", {}, {}, 25s);
        QVERIFY2(health.status == 503, describe(health));
        // connect_timeout ends the first reload, which keeps the previous secrets.
        const QByteArray failed = rx.waitForLogLine("the previous secrets", 30s);
        QVERIFY2(!failed.isEmpty(), rx.stderrText().constData());

        // The database back: the next SIGHUP reloads.
        writeService(params);
        ::kill(static_cast<pid_t>(rx.pid()), SIGHUP);
        QVERIFY(!rx.waitForLogLine("\"providerKeys\"", 15s).isEmpty());
        QCOMPARE(rdtest::httpCall(rx.port(), "GET", "/healthz", {}, {}, 15s).status, 200);
    }

    void theSimulatorDeliversThroughTheReceiver()
    {
        rdtest::TestDatabase db("rx_simulate");
        registerProviders(db.conninfo());
        QTemporaryDir dir;
        const QString secrets = writeSecrets(dir, kSecretsJson);
        Receiver rx(rdtest::loginAs(db, "rx", "ingest"), secrets);
        const QStringList providers {"--provider", "stripe-main:stripe", "--provider",
            "paddle-eu:paddle", "--provider", "recurly-us:recurly", "--provider",
            "chargebee-us:chargebee", "--provider", "lemon-shop:lemonsqueezy"};
        const QStringList set = QStringList {"--seed", "5", "--subscriptions", "25", "--months",
                                    "3", "--now", "2026-06-01T00:00:00Z"}
            << providers;
        const QString subscriptions = dir.filePath("subscriptions.jsonl");
        auto r = runProgram(
            ctl(), QStringList {"simulate", "--write-subscriptions", subscriptions} << set);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runProgram(ctl(), withDb(db, {"subscriptions", "import", subscriptions}));
        QVERIFY2(r.exitCode == 0, r.err.constData());

        r = runProgram(ctl(),
            QStringList {"simulate", "--target", QString("http://127.0.0.1:%1").arg(rx.port()),
                "--secrets", secrets, "--rate", "200"}
                << set);
        QVERIFY2(r.exitCode == 0, r.out + r.err);
        const auto summary
            = nlohmann::json::parse(r.out.trimmed().split('\n').last().toStdString());
        const long long deliveries = summary["deliveries"];
        QVERIFY2(deliveries > 20 && summary["acknowledged"] == deliveries, r.out.constData());

        // Every kind of delivery arrived and got its outcome; the renewals applied once each.
        std::map<std::string, long long> outcomes;
        {
            auto conn = db.connect();
            pqxx::nontransaction tx(*conn);
            for (const auto &row : tx.exec(
                     "SELECT coalesce(outcome, '<none>'), count(*) FROM webhook_inbox GROUP BY 1"))
                outcomes[row[0].as<std::string>()] = row[1].as<long long>();
        }
        QCOMPARE(outcomes.count("<none>"), std::size_t(0));
        for (const char *expected :
            {"applied", "duplicate", "not_a_renewal", "invalid", "rejected", "needs_snapshot"})
            QVERIFY2(outcomes.count(expected),
                (expected + (" not among " + nlohmann::json(outcomes).dump())).c_str());
        // Redeliveries of one event are one inbox row that counts them.
        QVERIFY(scalar(db, "SELECT count(*) FROM webhook_inbox WHERE deliveries > 1") > 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"),
            scalar(db,
                "SELECT count(*) FROM subscription_transition_audits "
                "WHERE transition = 'subscription_renewed'"));
        QVERIFY(scalar(db, "SELECT count(*) FROM subscription_billing_periods") > 25);
    }
};

QTEST_GUILESS_MAIN(TestReceiver)
#include "tst_receiver.moc"
