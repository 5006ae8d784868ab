// BENCHMARK PROBE, NOT PRODUCT CODE. The HTTP layer of domain/receiver/webhook_receiver.cpp
// (Boost.Beast/Asio) with the same handler semantics, minus the database:
//   POST /webhooks/stripe-main: Stripe-Signature checked (HMAC-SHA256 over t + "." + body),
//   then the delivery is handed to 8 worker threads through a bounded queue (depth 64; full:
//   503). A worker SLEEPS 2 ms as a stand-in for the database commit, then the 200 is written
//   from the io thread. Body limit 1 MiB (413), header limit 16 KiB (431). One io thread,
//   a strand per connection, one deadline (10 s) for the whole request and for an idle
//   keep-alive connection (tcp_stream::expires_after), keep-alive honoured.
// Usage: beast_probe PORT SECRET
#include <utility> // before Asio: Boost 1.74 awaitable.hpp uses std::exchange without it (GCC 12)

#include "probe_common.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <iostream>
#include <memory>
#include <optional>

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

constexpr std::chrono::seconds kReadTimeout {10};
std::string g_secret;
probe::Workers *g_workers = nullptr;

class Session : public std::enable_shared_from_this<Session>
{
public:
    explicit Session(tcp::socket socket) : m_stream(std::move(socket)) { }

    void start()
    {
        net::dispatch(
            m_stream.get_executor(), [self = shared_from_this()] { self->readRequest(); });
    }

private:
    void readRequest()
    {
        m_parser.emplace();
        m_parser->header_limit(static_cast<std::uint32_t>(probe::kMaxHeader));
        m_parser->body_limit(probe::kMaxBody);
        // One deadline for the whole request (headers and body) and for an idle connection.
        m_stream.expires_after(kReadTimeout);
        http::async_read_header(m_stream, m_buffer, *m_parser,
            [self = shared_from_this()](beast::error_code ec, std::size_t) { self->onHeader(ec); });
    }

    void onHeader(beast::error_code ec)
    {
        if (ec == http::error::header_limit)
            return answer(http::status::request_header_fields_too_large, "header_too_large", true);
        if (ec == http::error::body_limit)
            return answer(http::status::payload_too_large, "body_too_large", true);
        if (ec)
            return close();
        if (auto length = m_parser->content_length(); length && *length > probe::kMaxBody)
            return answer(http::status::payload_too_large, "body_too_large", true);
        http::async_read(m_stream, m_buffer, *m_parser,
            [self = shared_from_this()](beast::error_code ec2, std::size_t) {
                if (ec2 == http::error::body_limit)
                    return self->answer(http::status::payload_too_large, "body_too_large", true);
                if (ec2)
                    return self->close();
                self->onRequest();
            });
    }

    void onRequest()
    {
        auto &req = m_parser->get();
        m_version = req.version();
        m_keepAlive = req.keep_alive();
        if (req.target() != "/webhooks/stripe-main")
            return answer(http::status::not_found, "not_found");
        if (req.method() != http::verb::post)
            return answer(http::status::method_not_allowed, "method_not_allowed");
        const auto sig = req.find("Stripe-Signature");
        if (sig == req.end()
            || !probe::stripeSignatureValid(
                std::string_view(sig->value().data(), sig->value().size()), req.body(), g_secret,
                0))
            return answer(http::status::bad_request, "signature_mismatch");
        auto self = shared_from_this();
        auto job = [self, body = std::move(req.body())] {
            std::this_thread::sleep_for(probe::kFakeCommit); // stand-in for the database commit
            net::post(self->m_stream.get_executor(),
                [self] { self->answer(http::status::ok, "stored"); });
        };
        if (!g_workers->tryPost(std::move(job)))
            answer(http::status::service_unavailable, "saturated");
    }

    void answer(http::status status, const char *what, bool close = false)
    {
        auto res = std::make_shared<http::response<http::string_body>>(status, m_version);
        res->set(http::field::server, "beast-probe");
        res->set(http::field::content_type, "application/json");
        if (status == http::status::service_unavailable)
            res->set(http::field::retry_after, "1");
        res->body() = std::string("{\"result\":\"") + what + "\"}";
        res->keep_alive(m_keepAlive && !close);
        res->prepare_payload();
        m_stream.expires_after(kReadTimeout);
        http::async_write(
            m_stream, *res, [self = shared_from_this(), res](beast::error_code ec, std::size_t) {
                if (ec || !res->keep_alive())
                    return self->close();
                self->readRequest();
            });
    }

    void close()
    {
        beast::error_code ec;
        m_stream.socket().shutdown(tcp::socket::shutdown_send, ec);
        m_stream.close();
    }

    beast::tcp_stream m_stream;
    beast::flat_buffer m_buffer;
    std::optional<http::request_parser<http::string_body>> m_parser;
    unsigned m_version = 11;
    bool m_keepAlive = false;
};

void accept(net::io_context &ioc, tcp::acceptor &acceptor)
{
    acceptor.async_accept(
        net::make_strand(ioc), [&ioc, &acceptor](beast::error_code ec, tcp::socket socket) {
            if (!ec)
                std::make_shared<Session>(std::move(socket))->start();
            accept(ioc, acceptor);
        });
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::cerr << "usage: beast_probe PORT SECRET\n";
        return 2;
    }
    g_secret = argv[2];
    probe::Workers workers(probe::kWorkers, probe::kQueueDepth);
    g_workers = &workers;
    net::io_context ioc(1);
    tcp::acceptor acceptor(ioc);
    const tcp::endpoint ep(
        net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(std::atoi(argv[1])));
    acceptor.open(ep.protocol());
    acceptor.set_option(net::socket_base::reuse_address(true));
    acceptor.bind(ep);
    acceptor.listen(net::socket_base::max_listen_connections);
    accept(ioc, acceptor);
    std::cerr << "beast_probe listening on 127.0.0.1:" << argv[1] << "\n";
    ioc.run(); // the one io thread
}
