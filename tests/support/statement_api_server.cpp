#include "support/statement_api_server.h"

#include "domain/core/encoding.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <sys/socket.h>

namespace rdtest {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

std::string lower(std::string s)
{
    for (char &c : s) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
    return s;
}

ApiRequest parsed(const http::request<http::string_body> &request)
{
    ApiRequest out;
    out.method = std::string(request.method_string());
    out.target = std::string(request.target());
    const auto q = out.target.find('?');
    out.path = percentDecode(std::string_view(out.target).substr(0, q));
    if (q != std::string::npos) {
        std::string_view rest = std::string_view(out.target).substr(q + 1);
        while (!rest.empty()) {
            const auto amp = rest.find('&');
            const std::string_view pair = rest.substr(0, amp);
            const auto eq = pair.find('=');
            out.query.emplace(percentDecode(pair.substr(0, eq)),
                eq == std::string_view::npos ? std::string() : percentDecode(pair.substr(eq + 1)));
            rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
        }
    }
    for (const auto &field : request)
        out.headers[lower(std::string(field.name_string()))] = std::string(field.value());
    return out;
}

} // namespace

std::string percentDecode(std::string_view text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto escaped = text[i] == '%' ? rd::fromHex(text.substr(i + 1, 2)) : std::nullopt;
        if (escaped && escaped->size() == 1) {
            out += *escaped;
            i += 2;
        } else if (text[i] == '+') {
            out += ' ';
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string ApiRequest::param(const std::string &name) const
{
    const auto range = query.equal_range(name);
    if (range.first == range.second)
        return {};
    if (std::next(range.first) != range.second)
        return "<repeated>";
    return range.first->second;
}

std::string ApiRequest::header(const std::string &name) const
{
    const auto it = headers.find(lower(name));
    return it == headers.end() ? std::string() : it->second;
}

struct ApiServer::State
{
    Handler handler;
    asio::io_context io;
    tcp::acceptor acceptor {io};
    std::thread thread;
    std::atomic<bool> stopping {false};
    mutable std::mutex mutex;
    std::vector<ApiRequest> requests;
    int activeFd = -1;

    void serve(tcp::socket &socket)
    {
        beast::flat_buffer buffer;
        for (;;) {
            http::request<http::string_body> request;
            beast::error_code ec;
            http::read(socket, buffer, request, ec);
            if (ec)
                return;
            ApiRequest seen = parsed(request);
            {
                std::lock_guard lock(mutex);
                requests.push_back(seen);
            }
            const ApiResponse answer = handler(seen);
            http::response<http::string_body> response {
                static_cast<http::status>(answer.status), request.version()};
            response.set(http::field::content_type, answer.contentType);
            for (const auto &[name, value] : answer.headers)
                response.set(name, value);
            response.body() = answer.body;
            response.keep_alive(request.keep_alive());
            response.prepare_payload();
            http::write(socket, response, ec);
            if (ec || !request.keep_alive())
                return;
        }
    }

    void run()
    {
        while (!stopping) {
            tcp::socket socket(io);
            beast::error_code ec;
            acceptor.accept(socket, ec);
            if (ec || stopping)
                return;
            {
                std::lock_guard lock(mutex);
                activeFd = socket.native_handle();
            }
            serve(socket);
            {
                std::lock_guard lock(mutex);
                activeFd = -1;
            }
            socket.close(ec);
        }
    }
};

ApiServer::ApiServer(Handler handler) : m_state(std::make_unique<State>())
{
    m_state->handler = std::move(handler);
    const tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), 0);
    m_state->acceptor.open(endpoint.protocol());
    m_state->acceptor.set_option(tcp::acceptor::reuse_address(true));
    m_state->acceptor.bind(endpoint);
    m_state->acceptor.listen();
    m_state->thread = std::thread([state = m_state.get()] { state->run(); });
}

ApiServer::~ApiServer()
{
    m_state->stopping = true;
    // shutdown() wakes a thread blocked in accept() or read() on Linux; close() from here
    // would race with it.
    ::shutdown(m_state->acceptor.native_handle(), SHUT_RDWR);
    {
        std::lock_guard lock(m_state->mutex);
        if (m_state->activeFd >= 0)
            ::shutdown(m_state->activeFd, SHUT_RDWR);
    }
    m_state->thread.join();
}

std::uint16_t ApiServer::port() const
{
    return m_state->acceptor.local_endpoint().port();
}

std::string ApiServer::base() const
{
    return "http://127.0.0.1:" + std::to_string(port());
}

std::vector<ApiRequest> ApiServer::requests() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->requests;
}

ApiResponse endlessStripePage(const ApiRequest &request, std::size_t filler)
{
    const std::string after = request.param("starting_after");
    const long long n = after.empty() ? 1 : std::stoll(after.substr(3)) + 1;
    return {200,
        R"({"object":"list","has_more":true,"data":[{"id":"in_)" + std::to_string(n)
            + R"(","object":"invoice","filler":")" + std::string(filler, 'x') + R"("}]})",
        {}};
}

} // namespace rdtest
