#include "domain/core/errors.h"
#include "domain/receiver/receiver_answers.h"
#include "domain/receiver/receiver_keys.h"
#include "domain/receiver/request_routing.h"
#include "domain/store/database_errors.h"
#include "domain/store/webhook_ingestor.h"

#include <nlohmann/json.hpp>
#include <pqxx/except>

#include <QtTest>

#include <set>

namespace http = boost::beast::http;

Q_DECLARE_METATYPE(http::verb)
Q_DECLARE_METATYPE(rd::Handler)
Q_DECLARE_METATYPE(std::exception_ptr)

namespace {

rd::ReceiverKeys keys()
{
    rd::ReceiverKeys k;
    k.kinds
        = {{"stripe-main", rd::ProviderKind::Stripe}, {"chargebee-us", rd::ProviderKind::Chargebee},
            {"registered-only", rd::ProviderKind::Paddle}};
    k.secrets["stripe-main"].secrets = {"whsec_x"};
    k.secrets["chargebee-us"].basicAuth = {"u:p"};
    k.secrets["secrets-only"].secrets = {"whsec_y"};
    return k;
}

nlohmann::json body(const rd::Answer &a)
{
    return nlohmann::json::parse(a.body);
}

// Every error answer's body: {"error": CODE, "detail": SENTENCE}, both from the fixed table.
const std::set<std::string> &fixedSentences()
{
    static const std::set<std::string> sentences {
        "POST deliveries to /webhooks/{providerKey}",
        "no such provider key is served here",
        "use GET",
        "use POST",
        "the body is over the receiver's limit",
        "the request's header section and trailer are over the receiver's limit",
        "the request has more header and trailer fields than the receiver accepts",
        "the request is not valid HTTP/1.1",
        "the database is unavailable; retry later",
        "every database worker is busy; retry shortly",
        "the receiver is misconfigured; its operator has to fix it",
        "the receiver failed on this delivery; nothing was stored",
        "the delivery carries no signature",
        "the signature is not in the provider's format",
        "the signature does not match",
        "the signed timestamp is outside the accepted window",
        "this provider key cannot verify deliveries",
    };
    return sentences;
}

void verifyFixed(const rd::Answer &a)
{
    const auto j = body(a);
    QVERIFY2(j.size() == 2 && j.contains("error") && j.contains("detail"), a.body.c_str());
    QVERIFY2(fixedSentences().count(j["detail"].get<std::string>()) == 1, a.body.c_str());
}

/// `failure` as it leaves the store (database_errors.h): the receiver catches rd:: types only.
template<class Failure>
std::exception_ptr throughTheStoresEdge(const Failure &failure)
{
    try {
        rd::translatingDatabaseErrors([&] { throw failure; });
    } catch (...) {
        return std::current_exception();
    }
    return {};
}

} // namespace

/// routeRequest() and the answer table, without a socket or a database: which handler each
/// method and path reaches, and what each failure a database worker can meet is answered with.
class TestReceiverRouting : public QObject
{
    Q_OBJECT

private slots:
    void routes_data()
    {
        QTest::addColumn<http::verb>("method");
        QTest::addColumn<QString>("target");
        QTest::addColumn<rd::Handler>("handler");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("allow");
        using V = http::verb;
        using H = rd::Handler;
        QTest::newRow("health") << V::get << "/healthz" << H::Health << 0 << ""
                                << "";
        QTest::newRow("health HEAD") << V::head << "/healthz" << H::Health << 0 << ""
                                     << "";
        QTest::newRow("health with a query") << V::get << "/healthz?x=1" << H::Health << 0 << ""
                                             << "";
        QTest::newRow("health POST")
            << V::post << "/healthz" << H::Refusal << 405 << "method_not_allowed"
            << "GET";
        QTest::newRow("metrics") << V::get << "/metrics" << H::Metrics << 0 << ""
                                 << "";
        QTest::newRow("metrics HEAD")
            << V::head << "/metrics" << H::Refusal << 405 << "method_not_allowed"
            << "GET";
        QTest::newRow("delivery") << V::post << "/webhooks/stripe-main" << H::Delivery << 0 << ""
                                  << "";
        QTest::newRow("delivery with a query")
            << V::post << "/webhooks/chargebee-us?via=proxy" << H::Delivery << 0 << ""
            << "";
        QTest::newRow("GET of a served key")
            << V::get << "/webhooks/stripe-main" << H::Refusal << 405 << "method_not_allowed"
            << "POST";
        QTest::newRow("PUT of a served key")
            << V::put << "/webhooks/stripe-main" << H::Refusal << 405 << "method_not_allowed"
            << "POST";
        QTest::newRow("GET of an unknown key")
            << V::get << "/webhooks/nope" << H::Refusal << 404 << "unknown_provider_key"
            << "";
        QTest::newRow("unknown key")
            << V::post << "/webhooks/braintree-x" << H::Refusal << 404 << "unknown_provider_key"
            << "";
        QTest::newRow("registered, no secrets")
            << V::post << "/webhooks/registered-only" << H::Refusal << 404 << "unknown_provider_key"
            << "";
        QTest::newRow("secrets, not registered")
            << V::post << "/webhooks/secrets-only" << H::Refusal << 404 << "unknown_provider_key"
            << "";
        QTest::newRow("empty key")
            << V::post << "/webhooks/" << H::Refusal << 404 << "unknown_provider_key"
            << "";
        QTest::newRow("key with a slash")
            << V::post << "/webhooks/stripe-main/x" << H::Refusal << 404 << "unknown_provider_key"
            << "";
        QTest::newRow("no prefix slash")
            << V::post << "/webhooks" << H::Refusal << 404 << "not_found"
            << "";
        QTest::newRow("elsewhere") << V::post << "/somewhere" << H::Refusal << 404 << "not_found"
                                   << "";
        QTest::newRow("root") << V::get << "/" << H::Refusal << 404 << "not_found"
                              << "";
        QTest::newRow("absolute form")
            << V::post << "http://x/webhooks/stripe-main" << H::Refusal << 404 << "not_found"
            << "";
        QTest::newRow("markup is not echoed")
            << V::post << "/webhooks/<script>" << H::Refusal << 404 << "unknown_provider_key"
            << "";
    }

    void routes()
    {
        QFETCH(http::verb, method);
        QFETCH(QString, target);
        QFETCH(rd::Handler, handler);
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(QString, allow);
        const auto k = keys();
        const rd::Route r = rd::routeRequest(method, target.toStdString(), k);
        QCOMPARE(r.handler, handler);
        if (handler == rd::Handler::Delivery) {
            QVERIFY(r.kind == k.kinds.at(r.providerKey));
            QCOMPARE(r.credentials, &k.secrets.at(r.providerKey));
            return;
        }
        if (handler != rd::Handler::Refusal)
            return;
        QCOMPARE(static_cast<int>(r.answer.status), status);
        QCOMPARE(QString::fromStdString(body(r.answer)["error"]), code);
        verifyFixed(r.answer);
        QVERIFY2(r.answer.body.find("<script>") == std::string::npos, r.answer.body.c_str());
        QString allowed;
        for (const auto &[field, value] : r.answer.headers)
            if (field == http::field::allow)
                allowed = QString::fromStdString(value);
        QCOMPARE(allowed, allow);
    }

    void failures_data()
    {
        QTest::addColumn<std::exception_ptr>("failure");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::addColumn<bool>("misconfigured");
        QTest::addColumn<bool>("retryAfter");
        const std::string secret = "server said: password=hunter2 at /var/run/postgresql";
        const auto row = [&](const char *name, std::exception_ptr e, int status, const char *code,
                             bool misconfigured, bool retryAfter) {
            QTest::newRow(name) << e << status << code << misconfigured << retryAfter;
        };
        row("unknown provider",
            std::make_exception_ptr(rd::UnknownProvider("--provider-key",
                "'x' is not a registered provider (see renewalctl providers list / add)")),
            404, "unknown_provider_key", false, false);
        // Before, any InputError was answered "unknown provider key".
        row("another input error", std::make_exception_ptr(rd::InputError("period.start", secret)),
            500, "internal_error", false, false);
        row("setup error",
            std::make_exception_ptr(rd::SetupError("the database has migration 9999_x.sql")), 500,
            "receiver_setup_error", true, false);
        row("database unavailable", std::make_exception_ptr(rd::DatabaseUnavailable(secret)), 503,
            "database_unavailable", false, true);
        row("transient database failure",
            std::make_exception_ptr(rd::DatabaseFailure(secret, "40001", true)), 503,
            "database_unavailable", false, true);
        row("disk full", std::make_exception_ptr(rd::DatabaseFailure(secret, "53100", false)), 503,
            "database_unavailable", false, true);
        row("function missing",
            std::make_exception_ptr(rd::DatabaseFailure(secret, "42883", false)), 500,
            "receiver_setup_error", true, false);
        row("privilege missing",
            std::make_exception_ptr(rd::DatabaseFailure(secret, "42501", false)), 500,
            "receiver_setup_error", true, false);
        // libpqxx's failures reach the receiver as the store's edge translates them.
        row("libpqxx lost connection", throughTheStoresEdge(pqxx::broken_connection(secret)), 503,
            "database_unavailable", false, true);
        row("libpqxx undefined table",
            throughTheStoresEdge(pqxx::sql_error(secret, "SELECT 1", "42P01")), 500,
            "receiver_setup_error", true, false);
        row("libpqxx other", throughTheStoresEdge(pqxx::sql_error(secret, "SELECT 1", "XX000")),
            503, "database_unavailable", false, true);
        row("anything else", std::make_exception_ptr(std::runtime_error(secret)), 503,
            "database_unavailable", false, true);
        row("not even an exception", std::make_exception_ptr(42), 503, "database_unavailable",
            false, true);
    }

    void failures()
    {
        QFETCH(std::exception_ptr, failure);
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(bool, misconfigured);
        QFETCH(bool, retryAfter);
        const rd::FailureAnswer f = rd::answerForFailure(failure);
        QCOMPARE(static_cast<int>(f.answer.status), status);
        QCOMPARE(QString::fromStdString(body(f.answer)["error"]), code);
        QCOMPARE(QString::fromStdString(f.code), code);
        QCOMPARE(f.misconfigured, misconfigured);
        verifyFixed(f.answer);
        bool hasRetryAfter = false;
        for (const auto &[field, value] : f.answer.headers)
            hasRetryAfter = hasRetryAfter || field == http::field::retry_after;
        QCOMPARE(hasRetryAfter, retryAfter);
        // The detail is for the log; the answer carries none of it, nor the command line's advice.
        for (const char *word : {"hunter2", "postgresql", "renewalctl", "9999", "period.start"})
            QVERIFY2(f.answer.body.find(word) == std::string::npos, f.answer.body.c_str());
        QVERIFY2(f.detail.find("renewalctl") == std::string::npos, f.detail.c_str());
    }

    // A delivery's 200 answer holds a rejection's code as the core names it, fixed words for a
    // value the database refused, and nothing of why a payload is invalid (the inbox has it).
    void deliveryAnswers_data()
    {
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("answered");
        const auto invalid = static_cast<int>(rd::IngestOutcome::Invalid);
        const auto rejected = static_cast<int>(rd::IngestOutcome::Rejected);
        QTest::newRow("applied") << static_cast<int>(rd::IngestOutcome::Applied) << ""
                                 << "";
        QTest::newRow("rejected") << rejected << "renewal_period_is_not_contiguous"
                                  << "renewal_period_is_not_contiguous";
        QTest::newRow("invalid") << invalid << ""
                                 << "";
        QTest::newRow("invalid, answered from the inbox")
            << invalid << "body: not valid JSON (parse error at line 1; last read: 'x')"
            << "";
        QTest::newRow("refused value")
            << rejected << "the database refused a value: value too long for type character"
            << "the database refused a value of this renewal";
        QTest::newRow("duplicate of an invalid one")
            << static_cast<int>(rd::IngestOutcome::DuplicateDelivery)
            << "data.object.id: is 4000 bytes; at most 255"
            << "";
    }

    void deliveryAnswers()
    {
        QFETCH(int, outcome);
        QFETCH(QString, error);
        QFETCH(QString, answered);
        rd::IngestResult r;
        r.outcome = static_cast<rd::IngestOutcome>(outcome);
        r.error = error.toStdString();
        r.inboxId = 7;
        const auto a = rd::deliveryAnswer(r);
        QCOMPARE(static_cast<int>(a.status), 200);
        const auto j = body(a);
        QCOMPARE(j["inboxId"], 7);
        if (answered.isEmpty())
            QVERIFY(j["error"].is_null());
        else
            QCOMPARE(QString::fromStdString(j["error"]), answered);
    }
};

QTEST_APPLESS_MAIN(TestReceiverRouting)
#include "tst_receiver_routing.moc"
