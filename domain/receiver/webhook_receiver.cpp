#include "domain/receiver/webhook_receiver.h"

#include "domain/core/errors.h"
#include "domain/core/timestamp.h"
#include "domain/receiver/delivery_workers.h"
#include "domain/receiver/overdue_gauge.h"
#include "domain/receiver/receiver_answers.h"
#include "domain/receiver/receiver_listener.h"
#include "domain/receiver/receiver_metrics.h"
#include "domain/receiver/receiver_tls.h"
#include "domain/receiver/request_parser.h"
#include "domain/receiver/request_routing.h"
#include "domain/store/database_target.h"
#include "domain/store/schema_version.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <thread>

namespace rd {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

// Room for a chunk-size line and the final chunk's line next to a trailer that uses what the
// header section left of the header limit.
constexpr std::size_t kFramingSlackBytes = 4096;
// How long a refused client may still send before the connection is closed under it.
constexpr std::chrono::seconds kLingerTime {2};

std::string_view view(beast::string_view s)
{
    return {s.data(), s.size()};
}

std::string nowRfc3339()
{
    return formatRfc3339(Timestamp::now());
}

} // namespace

class SessionBase;

/// What every connection shares.
struct WebhookReceiver::Impl
{
    Impl(ReceiverConfig c, ReceiverKeys k, KeysLoader r, std::ostream &l)
        : config(std::move(c))
        , reload(std::move(r))
        , log(l)
        , keys(std::make_shared<const ReceiverKeys>(std::move(k)))
        , workers(config.conninfo, config.databaseConnections, config.queueDepth)
        , overdue(
              config.conninfo, config.overdueRefresh, metrics, [this](const std::string &error) {
                  logLine({{"ts", nowRfc3339()}, {"error", "overdue_count_failed"},
                      {"detail", error}, {"kept", "the last overdue counts"}});
              })
    { }

    ~Impl()
    {
        if (reloader.joinable())
            reloader.join();
    }

    ReceiverConfig config;
    KeysLoader reload;
    /// A SIGHUP's reload runs here, never on the I/O thread: it connects to the database,
    /// which may be slow to answer (#39, item 12: /healthz, /metrics and deliveries went
    /// unanswered while a reload waited for an unresponsive server). One at a time.
    std::thread reloader;
    std::atomic<bool> reloading {false};
    std::ostream &log;
    std::mutex logMutex;

    std::mutex keysMutex;
    std::shared_ptr<const ReceiverKeys> keys;

    net::io_context ioc;
    std::optional<ssl::context> tls;
    std::vector<std::unique_ptr<tcp::acceptor>> acceptors;
    std::vector<ListenAddress> bound;
    net::signal_set stopSignals {ioc, SIGINT, SIGTERM};
    net::signal_set hangup {ioc, SIGHUP};

    ReceiverMetrics metrics;
    DeliveryWorkers workers;
    OverdueGauge overdue;
    std::atomic<bool> draining {false};
    /// A setup error was met at run time (see noteFailure): /healthz answers 500 until a
    /// SIGHUP reload, which checks the setup again, succeeds.
    std::atomic<bool> misconfigured {false};

    std::mutex sessionsMutex;
    std::map<SessionBase *, std::weak_ptr<SessionBase>> sessions;

    std::shared_ptr<const ReceiverKeys> currentKeys()
    {
        const std::lock_guard lock(keysMutex);
        return keys;
    }

    void logLine(const nlohmann::json &line)
    {
        const std::string text
            = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        const std::lock_guard lock(logMutex);
        log << text << std::endl;
    }

    /// Logs a worker's failure (with the log line `line` of the request, when there is one)
    /// and marks the receiver not ready when it is a setup error.
    void noteFailure(const FailureAnswer &failure, nlohmann::json &line);

    void bindAll();
    void accept(tcp::socket socket);
    void waitForStop();
    void waitForHangup();
    /// Reads the secrets and providers again (on `reloader`), and swaps them in.
    void reloadKeys();
    void beginStop();
};

/// A connection, plain or TLS; what the receiver needs of it when it stops.
class SessionBase
{
public:
    explicit SessionBase(WebhookReceiver::Impl &server) : m_server(server)
    {
        m_server.metrics.connectionOpened();
    }
    virtual ~SessionBase()
    {
        m_server.metrics.connectionClosed();
        const std::lock_guard lock(m_server.sessionsMutex);
        m_server.sessions.erase(this);
    }
    /// Posted to the session's strand when the receiver stops.
    virtual void closeIfIdle() = 0;

protected:
    WebhookReceiver::Impl &m_server;
};

namespace {

template<class Stream>
class Session : public SessionBase, public std::enable_shared_from_this<Session<Stream>>
{
public:
    template<class... Args>
    Session(WebhookReceiver::Impl &server, tcp::socket socket, Args &&...args)
        : SessionBase(server)
        , m_stream(std::move(socket), std::forward<Args>(args)...)
        , m_buffer(server.config.maxHeaderBytes + kFramingSlackBytes)
    { }

    void start()
    {
        if constexpr (kTls) {
            beast::get_lowest_layer(m_stream).expires_after(m_server.config.readTimeout);
            m_stream.async_handshake(
                ssl::stream_base::server, [self = this->shared_from_this()](beast::error_code ec) {
                    if (ec)
                        return self->close();
                    self->guarded([&] { self->readRequest(); });
                });
        } else {
            net::dispatch(m_stream.get_executor(),
                [self = this->shared_from_this()] { self->guarded([&] { self->readRequest(); }); });
        }
    }

    void closeIfIdle() override
    {
        net::post(m_stream.get_executor(), [self = this->shared_from_this()] {
            if (!self->m_busy)
                self->close();
        });
    }

private:
    static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;

    /// Runs a step of this connection: whatever it throws ends this connection only.
    template<class Step>
    void guarded(Step &&step)
    {
        try {
            step();
        } catch (const std::exception &e) {
            m_server.logLine({{"ts", nowRfc3339()}, {"connection", "closed"},
                {"error", "unexpected"}, {"detail", e.what()}, {"remote", remoteAddress()}});
            close();
        }
    }

    void readRequest()
    {
        if (m_server.draining)
            return close();
        const auto &config = m_server.config;
        m_parser.emplace(config.maxHeaderBytes, config.maxHeaderFields, config.maxBodyBytes);
        m_head = false;
        // One deadline for the whole request, headers and body, and for an idle keep-alive
        // connection: a client that trickles bytes cannot hold a connection open.
        beast::get_lowest_layer(m_stream).expires_after(config.readTimeout);
        http::async_read_header(m_stream, m_buffer, *m_parser,
            [self = this->shared_from_this()](
                beast::error_code ec, std::size_t) { self->guarded([&] { self->onHeader(ec); }); });
    }

    void onHeader(beast::error_code ec)
    {
        if (ec)
            return refuseRead(ec);
        if (const auto length = m_parser->content_length();
            length && *length > m_server.config.maxBodyBytes)
            return answerAndClose(bodyTooLarge());
        if (beast::iequals(m_parser->headers()[http::field::expect], "100-continue")) {
            auto cont = std::make_shared<http::response<http::empty_body>>(
                http::status::continue_, m_parser->version());
            http::async_write(m_stream, *cont,
                [self = this->shared_from_this(), cont](beast::error_code ec2, std::size_t) {
                    if (ec2)
                        return self->close();
                    self->guarded([&] { self->readBody(); });
                });
            return;
        }
        readBody();
    }

    void readBody()
    {
        http::async_read(m_stream, m_buffer, *m_parser,
            [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                self->guarded([&] {
                    if (ec)
                        return self->refuseRead(ec);
                    self->onRequest();
                });
            });
    }

    /// Whether what waits unparsed in the buffer is the final chunk ("0", maybe with
    /// extensions): then what did not fit is the trailer.
    bool finalChunkPending() const
    {
        const auto data = m_buffer.cdata();
        std::string_view rest(static_cast<const char *>(data.data()), data.size());
        if (rest.substr(0, 2) == "\r\n")
            rest.remove_prefix(2);
        const auto digits = rest.find_first_not_of('0');
        return digits != 0 && digits != std::string_view::npos
            && (rest[digits] == ';' || rest[digits] == '\r' || rest[digits] == ' ');
    }

    /// A request that could not be read: answered where HTTP still allows an answer, and the
    /// connection closed either way. The log has Beast's reason.
    void refuseRead(beast::error_code ec)
    {
        const bool parseError
            = &ec.category() == &beast::error_code(http::error::bad_target).category();
        if (!parseError || ec == http::error::end_of_stream || ec == http::error::partial_message)
            return close(); // the client left, timed out or broke off: nothing to answer
        const ParseRefusal refusal = m_parser->refusal();
        const bool framingTooLarge = ec == http::error::header_limit
            || (ec == http::error::buffer_overflow
                && (!m_parser->is_header_done() || finalChunkPending()));
        m_server.logLine({{"ts", nowRfc3339()}, {"refused", "request"}, {"reason", ec.message()},
            {"remote", remoteAddress()}});
        if (refusal == ParseRefusal::Internal)
            return close();
        if (refusal == ParseRefusal::TooManyFields)
            return answerAndClose(tooManyHeaderFields());
        if (framingTooLarge)
            return answerAndClose(headerTooLarge());
        if (ec == http::error::body_limit)
            return answerAndClose(bodyTooLarge());
        answerAndClose(badRequest());
    }

    void onRequest()
    {
        m_busy = true;
        m_started = Clock::now();
        m_version = m_parser->version();
        m_keepAlive = m_parser->keep_alive();
        const auto method = m_parser->method();
        m_head = method == http::verb::head;
        const auto keys = m_server.currentKeys();
        const Route route = routeRequest(method, m_parser->target(), *keys);
        switch (route.handler) {
        case Handler::Refusal:
            return answer(route.answer);
        case Handler::Health:
            return checkHealth();
        case Handler::Metrics: {
            Answer a;
            a.contentType = "text/plain; version=0.0.4";
            a.body = m_server.metrics.render();
            return answer(std::move(a));
        }
        case Handler::Delivery:
            break;
        }
        const std::string &key = route.providerKey;

        // The header section only: a trailer arrives after the body and is never read.
        const auto &headers = m_parser->headers();
        const HeaderLookup header
            = [&headers](std::string_view name) -> std::optional<std::string_view> {
            const auto it = headers.find(beast::string_view(name.data(), name.size()));
            if (it == headers.end())
                return std::nullopt;
            return view(it->value());
        };
        const SignatureCheck check = verifyDelivery(route.kind, header, m_parser->body(),
            *route.credentials, std::chrono::system_clock::now(), m_server.config.tolerance);
        if (!check.valid()) {
            m_server.metrics.signatureFailure(key, std::string(toString(check.verdict)));
            m_server.logLine({{"ts", nowRfc3339()}, {"provider", key}, {"refused", "signature"},
                {"reason", toString(check.verdict)}, {"detail", check.detail},
                {"remote", remoteAddress()}});
            // Chargebee authenticates with basic auth: a missing or wrong one is a 401.
            const bool basic = signsWithBasicAuth(route.kind)
                && (check.verdict == SignatureVerdict::Missing
                    || check.verdict == SignatureVerdict::Mismatch);
            return answer(signatureRefused(check.verdict, basic));
        }
        deliver(key, std::move(m_parser->body()));
    }

    void deliver(const std::string &key, std::string body)
    {
        auto self = this->shared_from_this();
        // Keeps run() from returning while the database still works on this delivery.
        auto work = std::make_shared<net::executor_work_guard<net::io_context::executor_type>>(
            m_server.ioc.get_executor());
        auto job = [self, work, key, body = std::move(body)](WorkerContext &ctx) {
            Answer a;
            nlohmann::json line {{"provider", key}};
            try {
                const IngestResult r = ctx.ingest(key, body);
                a = deliveryAnswer(r);
                line["eventId"] = r.providerEventId;
                line["outcome"] = toString(r.outcome);
                line["inboxId"] = r.inboxId;
                // What the answer leaves out (a value the database refused, why a payload is
                // invalid) is in the inbox and here.
                if (!r.error.empty())
                    line["error"] = r.error;
                self->m_server.metrics.delivery(key, std::string(toString(r.outcome)));
            } catch (...) {
                const FailureAnswer failure = answerForFailure(std::current_exception());
                if (failure.dropConnection)
                    ctx.dropConnection();
                self->m_server.noteFailure(failure, line);
                a = failure.answer;
            }
            net::post(self->m_stream.get_executor(),
                [self, a = std::move(a), line = std::move(line)]() mutable {
                    self->guarded([&] { self->finishDelivery(std::move(a), std::move(line)); });
                });
        };
        if (!m_server.workers.tryPost(std::move(job)))
            answer(saturated());
    }

    void finishDelivery(Answer a, nlohmann::json line)
    {
        const double ms
            = std::chrono::duration<double, std::milli>(Clock::now() - m_started).count();
        line["ts"] = nowRfc3339();
        line["status"] = static_cast<int>(a.status);
        line["ms"] = std::round(ms * 100) / 100;
        m_server.logLine(line);
        answer(std::move(a));
    }

    void checkHealth()
    {
        auto self = this->shared_from_this();
        auto work = std::make_shared<net::executor_work_guard<net::io_context::executor_type>>(
            m_server.ioc.get_executor());
        auto job = [self, work](WorkerContext &ctx) {
            auto &server = self->m_server;
            Answer a = healthy();
            try {
                // Connects, and asks whether the schema is still one this program knows
                // (another host may have migrated it since this receiver started).
                if (server.config.newestMigration > 0)
                    requireSchemaNotNewer(ctx.conninfo(), server.config.newestMigration);
                else
                    checkConnects(ctx.conninfo());
            } catch (...) {
                const FailureAnswer failure = answerForFailure(std::current_exception());
                nlohmann::json line {{"path", "/healthz"}};
                server.noteFailure(failure, line);
                line["status"] = static_cast<int>(failure.answer.status);
                line["ts"] = nowRfc3339();
                server.logLine(line);
                a = failure.answer;
            }
            // A setup error met by a delivery is not healed by the database answering now.
            if (a.status == http::status::ok && server.misconfigured)
                a = receiverMisconfigured();
            net::post(self->m_stream.get_executor(), [self, a = std::move(a)]() mutable {
                self->guarded([&] { self->answer(std::move(a)); });
            });
        };
        if (!m_server.workers.tryPost(std::move(job)))
            answer(saturated());
    }

    std::string remoteAddress()
    {
        beast::error_code ec;
        const auto ep = beast::get_lowest_layer(m_stream).socket().remote_endpoint(ec);
        return ec ? std::string() : ep.address().to_string();
    }

    void answerAndClose(Answer a)
    {
        a.close = true;
        m_version = m_parser ? m_parser->version() : 11;
        m_started = Clock::now();
        m_busy = true;
        answer(std::move(a));
    }

    void answer(Answer a)
    {
        auto res = std::make_shared<http::response<http::string_body>>(a.status, m_version);
        res->set(http::field::server, "renewal-desk");
        res->set(http::field::content_type, a.contentType);
        for (auto &[field, value] : a.headers)
            res->set(field, value);
        res->body() = std::move(a.body);
        res->keep_alive(m_keepAlive && !a.close && !m_server.draining);
        res->prepare_payload();
        if (m_head) {
            // The headers of the GET answer, Content-Length included, and no body: a body
            // here would be read by a keep-alive client as the start of its next answer.
            const auto length = res->body().size();
            res->body().clear();
            res->content_length(length);
        }
        m_server.metrics.response(static_cast<int>(a.status));
        m_server.metrics.requestDuration(
            std::chrono::duration<double>(Clock::now() - m_started).count());
        beast::get_lowest_layer(m_stream).expires_after(m_server.config.readTimeout);
        http::async_write(m_stream, *res,
            [self = this->shared_from_this(), res, closeAfter = a.close](
                beast::error_code ec, std::size_t) {
                self->m_busy = false;
                if (ec)
                    return self->close();
                if (closeAfter)
                    return self->lingerThenClose();
                if (!res->keep_alive())
                    return self->close();
                self->guarded([&] { self->readRequest(); });
            });
    }

    /// After a refusal the client may still be sending: closing with unread bytes would reset
    /// the connection and could discard the answer before the client reads it. So the sending
    /// side is shut, and what arrives is read and dropped until the client closes or a short
    /// deadline passes.
    void lingerThenClose()
    {
        auto &lowest = beast::get_lowest_layer(m_stream);
        beast::error_code ec;
        lowest.socket().shutdown(tcp::socket::shutdown_send, ec);
        if (ec)
            return close();
        lowest.expires_after(kLingerTime);
        drain();
    }

    void drain()
    {
        beast::get_lowest_layer(m_stream).async_read_some(net::buffer(m_drain),
            [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                if (ec)
                    return self->close();
                self->drain();
            });
    }

    void close()
    {
        m_busy = false;
        auto &lowest = beast::get_lowest_layer(m_stream);
        beast::error_code ec;
        if constexpr (kTls) {
            // No close_notify round trip: a client that stopped reading must not hold us.
            lowest.socket().shutdown(tcp::socket::shutdown_both, ec);
        } else {
            lowest.socket().shutdown(tcp::socket::shutdown_send, ec);
        }
        lowest.close();
    }

    Stream m_stream;
    /// Bounded: a header section, a chunk-size line or a trailer that does not fit is refused
    /// (Beast buffers each whole before parsing it).
    beast::flat_buffer m_buffer;
    std::optional<RequestParser> m_parser;
    std::array<char, 4096> m_drain {};
    bool m_busy = false; ///< a request is being answered
    bool m_keepAlive = false;
    bool m_head = false; ///< the request being answered is a HEAD
    unsigned m_version = 11;
    Clock::time_point m_started;
};

template<class Stream, class... Args>
void startSession(WebhookReceiver::Impl &server, tcp::socket socket, Args &&...args)
{
    auto session
        = std::make_shared<Session<Stream>>(server, std::move(socket), std::forward<Args>(args)...);
    {
        const std::lock_guard lock(server.sessionsMutex);
        server.sessions.emplace(session.get(), session);
    }
    session->start();
}

} // namespace

void WebhookReceiver::Impl::bindAll()
{
    tls = serverTlsContext(config.tlsCertPath, config.tlsKeyPath);
    for (const auto &address : config.listen) {
        Listener listener = bindListener(ioc, address);
        bound.push_back(listener.bound);
        acceptors.push_back(std::move(listener.acceptor));
    }
}

void WebhookReceiver::Impl::accept(tcp::socket socket)
{
    if (metrics.connectionsInUse() >= config.maxClients) {
        // Bounded: the kernel's backlog and the provider's retry absorb the excess.
        metrics.response(503);
        beast::error_code ignored;
        socket.close(ignored);
    } else if (tls) {
        startSession<beast::ssl_stream<beast::tcp_stream>>(*this, std::move(socket), *tls);
    } else {
        startSession<beast::tcp_stream>(*this, std::move(socket));
    }
}

// A setup error (a schema newer than this program, a function or privilege the database
// lacks, a provider kind this program does not know) does not heal by retrying, so it is no
// 503 for providers to retry on a schedule that assumes it will: it is answered 500
// receiver_setup_error, the receiver reports itself not ready (/healthz 500, /metrics'
// renewal_receiver_misconfigured 1) and says so loudly once in the log, with what to do. The
// mark stays until a SIGHUP reload checks the setup again and succeeds (or a restart, which
// checks it before serving and exits 78 on it). Deliveries are still tried meanwhile: a
// setup error may concern one provider key only, and the store refuses per delivery what this
// program cannot understand.
void WebhookReceiver::Impl::noteFailure(const FailureAnswer &failure, nlohmann::json &line)
{
    line["error"] = failure.code;
    line["detail"] = failure.detail;
    if (!failure.misconfigured)
        return;
    metrics.setMisconfigured(true);
    if (misconfigured.exchange(true))
        return;
    logLine({{"ts", nowRfc3339()}, {"alert", "receiver_misconfigured"}, {"detail", failure.detail},
        {"action",
            "the deliveries that meet it are answered 500, and /healthz too until it is fixed: "
            "fix it (e.g. install the program that migrated the database), then reload (SIGHUP) "
            "or restart the receiver"}});
}

void WebhookReceiver::Impl::waitForStop()
{
    stopSignals.async_wait([this](beast::error_code ec, int) {
        if (!ec)
            beginStop();
    });
}

void WebhookReceiver::Impl::waitForHangup()
{
    hangup.async_wait([this](beast::error_code ec, int) {
        if (ec)
            return;
        if (reloading.exchange(true)) {
            logLine({{"ts", nowRfc3339()}, {"reloaded", "secrets"},
                {"skipped", "the previous SIGHUP's reload is still running"}});
        } else {
            if (reloader.joinable())
                reloader.join(); // finished: it cleared `reloading`
            reloader = std::thread([this] {
                reloadKeys();
                reloading = false;
            });
        }
        waitForHangup();
    });
}

void WebhookReceiver::Impl::reloadKeys()
{
    try {
        auto fresh = std::make_shared<const ReceiverKeys>(reload());
        const auto count = fresh->secrets.size();
        {
            const std::lock_guard lock(keysMutex);
            keys = std::move(fresh);
        }
        logLine({{"ts", nowRfc3339()}, {"reloaded", "secrets"}, {"providerKeys", count}});
        // The reload checked the setup too (the schema among it): whatever a delivery met
        // before has been fixed.
        if (misconfigured.exchange(false)) {
            metrics.setMisconfigured(false);
            logLine({{"ts", nowRfc3339()}, {"ready", true}});
        }
    } catch (const std::exception &e) {
        logLine({{"ts", nowRfc3339()}, {"reloaded", "secrets"}, {"error", e.what()},
            {"kept", "the previous secrets"}});
    }
}

void WebhookReceiver::Impl::beginStop()
{
    if (draining.exchange(true))
        return;
    logLine({{"ts", nowRfc3339()}, {"stopping", true},
        {"inFlight", static_cast<long long>(workers.pending())}});
    beast::error_code ec;
    for (auto &a : acceptors)
        a->close(ec);
    stopSignals.cancel(ec);
    hangup.cancel(ec);
    std::vector<std::shared_ptr<SessionBase>> live;
    {
        const std::lock_guard lock(sessionsMutex);
        for (auto &[ptr, weak] : sessions) {
            if (auto s = weak.lock())
                live.push_back(std::move(s));
        }
    }
    for (auto &s : live)
        s->closeIfIdle();
}

WebhookReceiver::WebhookReceiver(
    ReceiverConfig config, ReceiverKeys keys, KeysLoader reload, std::ostream &log)
    : d(std::make_unique<Impl>(std::move(config), std::move(keys), std::move(reload), log))
{
    if (d->config.listen.empty())
        throw SetupError("nothing to listen on: give --listen HOST:PORT");
    d->bindAll();
}

WebhookReceiver::~WebhookReceiver()
{
    d->overdue.stop();
    d->workers.stop();
}

std::vector<ListenAddress> WebhookReceiver::boundAddresses() const
{
    return d->bound;
}

void WebhookReceiver::run()
{
    for (auto &a : d->acceptors)
        acceptConnections(d->ioc, *a, [this](tcp::socket socket) { d->accept(std::move(socket)); });
    d->waitForStop();
    d->waitForHangup();
    nlohmann::json listening = nlohmann::json::array();
    for (const auto &b : d->bound)
        listening.push_back((b.host.find(':') != std::string::npos ? "[" + b.host + "]" : b.host)
            + ":" + std::to_string(b.port));
    d->logLine({{"ts", nowRfc3339()}, {"listening", listening}, {"tls", d->tls.has_value()},
        {"databaseConnections", d->config.databaseConnections},
        {"providerKeys", d->currentKeys()->secrets.size()}});
    // Last resort: every connection's steps catch what they throw and end that connection
    // only; should anything still escape, it is logged and the receiver serves on.
    const auto serve = [this] {
        for (;;) {
            try {
                d->ioc.run();
                return;
            } catch (const std::exception &e) {
                d->logLine({{"ts", nowRfc3339()}, {"error", "unexpected"}, {"detail", e.what()}});
            }
        }
    };
    d->overdue.start();
    std::vector<std::thread> extra;
    for (int i = 1; i < d->config.ioThreads; ++i)
        extra.emplace_back(serve);
    serve();
    for (auto &t : extra)
        t.join();
    d->overdue.stop();
    d->workers.stop();
    d->logLine({{"ts", nowRfc3339()}, {"stopped", true}});
}

void WebhookReceiver::stop()
{
    net::post(d->ioc, [this] { d->beginStop(); });
}

} // namespace rd
