#include "domain/receiver/provider_simulator.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/webhook_signature.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <queue>
#include <thread>

namespace rd {

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

// An answer larger than this is cut off: a receiver answers with a line, not a document.
constexpr std::uint64_t kMaxResponseBytes = 64 * 1024;

struct Answer
{
    std::optional<int> status; ///< nullopt: no HTTP answer (connect, write or read failed)
    std::string body;
    std::string error;
};

/// One kept-alive HTTP/1.1 connection, reopened after any failure or a "Connection: close".
class Client
{
public:
    Client(SimulatorTarget target, std::chrono::milliseconds timeout)
        : m_target(std::move(target)), m_timeout(timeout), m_resolver(m_io)
    { }

    Answer post(const std::string &path,
        const std::vector<std::pair<std::string, std::string>> &headers, const std::string &body)
    {
        Answer answer;
        try {
            if (!m_stream)
                connect();
            http::request<http::string_body> request {http::verb::post, path, 11};
            request.set(http::field::host, m_target.host + ":" + m_target.port);
            request.set(http::field::user_agent, "renewalctl-simulate");
            request.set(http::field::content_type, "application/json");
            for (const auto &[name, value] : headers)
                request.set(name, value);
            request.keep_alive(true);
            request.body() = body;
            request.prepare_payload();

            m_stream->expires_after(m_timeout);
            http::write(*m_stream, request);
            beast::flat_buffer buffer;
            http::response_parser<http::string_body> parser;
            parser.body_limit(kMaxResponseBytes);
            m_stream->expires_after(m_timeout);
            http::read(*m_stream, buffer, parser);
            const auto &response = parser.get();
            answer.status = static_cast<int>(response.result_int());
            answer.body = response.body();
            if (!response.keep_alive())
                close();
        } catch (const std::exception &e) {
            answer.status.reset();
            answer.error = e.what();
            close();
        }
        return answer;
    }

private:
    void connect()
    {
        const auto endpoints = m_resolver.resolve(m_target.host, m_target.port);
        m_stream.emplace(m_io);
        m_stream->expires_after(m_timeout);
        m_stream->connect(endpoints);
    }

    void close()
    {
        if (!m_stream)
            return;
        beast::error_code ignored;
        m_stream->socket().shutdown(tcp::socket::shutdown_both, ignored);
        m_stream->socket().close(ignored);
        m_stream.reset();
    }

    SimulatorTarget m_target;
    std::chrono::milliseconds m_timeout;
    net::io_context m_io;
    tcp::resolver m_resolver;
    std::optional<beast::tcp_stream> m_stream;
};

/// The percent-encoding of a provider key for the request path (keys are usually plain).
std::string pathSegment(const std::string &key)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : key) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += c;
        } else {
            out += '%';
            out += kHex[u >> 4];
            out += kHex[u & 0x0f];
        }
    }
    return out;
}

struct Retry
{
    Clock::time_point due;
    std::size_t delivery; ///< the index of the delivery in the run (not in the list)
    int attempt; ///< the attempt this will be
    bool operator>(const Retry &other) const { return due > other.due; }
};

} // namespace

SimulatorTarget parseSimulatorTarget(const std::string &url)
{
    const std::string scheme = "http://";
    if (url.rfind(scheme, 0) != 0)
        throw InputError("target",
            "expected http://HOST:PORT (the simulator speaks plain HTTP), not '" + url + "'");
    std::string rest = url.substr(scheme.size());
    SimulatorTarget target;
    if (const auto slash = rest.find('/'); slash != std::string::npos) {
        target.pathPrefix = rest.substr(slash);
        rest.resize(slash);
        while (!target.pathPrefix.empty() && target.pathPrefix.back() == '/')
            target.pathPrefix.pop_back();
    }
    std::string host = rest;
    std::string port = "80";
    if (!rest.empty() && rest.front() == '[') { // [::1]:8080
        const auto close = rest.find(']');
        if (close == std::string::npos)
            throw InputError("target", "unbalanced '[' in '" + url + "'");
        host = rest.substr(1, close - 1);
        if (close + 1 < rest.size()) {
            if (rest[close + 1] != ':')
                throw InputError("target", "expected ':' after ']' in '" + url + "'");
            port = rest.substr(close + 2);
        }
    } else if (const auto colon = rest.rfind(':'); colon != std::string::npos) {
        host = rest.substr(0, colon);
        port = rest.substr(colon + 1);
    }
    if (host.empty())
        throw InputError("target", "no host in '" + url + "'");
    if (port.empty() || port.size() > 5
        || !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; })
        || std::stoi(port) < 1 || std::stoi(port) > 65535)
        throw InputError("target", "the port in '" + url + "' is not a number from 1 to 65535");
    target.host = host;
    target.port = port;
    return target;
}

std::chrono::milliseconds retryDelay(int attempt, std::chrono::milliseconds base,
    std::chrono::milliseconds cap, std::mt19937_64 &rng)
{
    const int doublings = std::clamp(attempt - 1, 0, 30);
    const long long ceiling = std::min<long long>(cap.count(), base.count() << doublings);
    const long long half = std::max<long long>(ceiling / 2, 0);
    const long long jitter
        = std::uniform_int_distribution<long long>(0, std::max<long long>(ceiling - half, 0))(rng);
    return std::chrono::milliseconds(half + jitter);
}

nlohmann::json SimulatorSummary::toJson() const
{
    return nlohmann::json {{"planned", planned}, {"deliveries", deliveries}, {"sent", sent},
        {"acknowledged", acknowledged}, {"retries", retries}, {"gaveUp", gaveUp},
        {"unfinished", unfinished}, {"byStatus", byStatus}, {"byScenario", byScenario},
        {"byOutcome", byOutcome}, {"elapsedSeconds", elapsedSeconds}};
}

SimulatorSummary runProviderSimulation(const SimulatorTarget &target,
    const ReceiverSecrets &secrets, const std::vector<SimulatorDelivery> &deliveries,
    const SimulatorOptions &options, const std::function<void(const std::string &)> &progress)
{
    for (const auto &d : deliveries) {
        if (secrets.find(d.providerKey) == secrets.end())
            throw InputError("secrets", "no entry for provider key '" + d.providerKey + "'");
    }
    if (!(options.rate > 0))
        throw InputError("rate", "must be more than 0");
    SimulatorSummary summary;
    const std::size_t total = deliveries.empty() ? 0 : options.count.value_or(deliveries.size());
    summary.planned = static_cast<long long>(total);
    Client client(target, options.timeout);
    std::mt19937_64 rng(options.jitterSeed);
    std::priority_queue<Retry, std::vector<Retry>, std::greater<>> retries;
    const auto start = Clock::now();
    const auto interval = std::chrono::duration<double>(1.0 / options.rate);
    std::size_t started = 0;
    auto lastProgress = start;

    for (;;) {
        const bool moreNew = started < total;
        if (!moreNew && retries.empty())
            break;
        const auto nextNew = start
            + std::chrono::duration_cast<Clock::duration>(interval * static_cast<double>(started));
        const bool takeRetry = !retries.empty() && (!moreNew || retries.top().due <= nextNew);
        const Retry next = takeRetry ? retries.top() : Retry {nextNew, started, 1};
        if (options.duration && next.due - start > *options.duration) {
            summary.unfinished = static_cast<long long>(retries.size());
            break;
        }
        if (takeRetry)
            retries.pop();
        else
            ++started;
        std::this_thread::sleep_until(next.due);

        const SimulatorDelivery &d = deliveries[next.delivery % deliveries.size()];
        const bool cycled = next.delivery >= deliveries.size();
        const auto headers = signDelivery(
            d.kind, d.body, secrets.at(d.providerKey), std::chrono::system_clock::now());
        const Answer answer = client.post(
            target.pathPrefix + "/webhooks/" + pathSegment(d.providerKey), headers, d.body);
        ++summary.sent;
        if (next.attempt == 1)
            ++summary.deliveries;
        else
            ++summary.retries;
        ++summary.byStatus[answer.status ? std::to_string(*answer.status) : "connection_error"];
        if (answer.status && !answer.body.empty()) {
            try {
                const auto json = parseUntrustedJson(answer.body);
                if (json.is_object() && json.contains("outcome") && json["outcome"].is_string())
                    ++summary.byOutcome[json["outcome"].get<std::string>()];
            } catch (const InputError &) {
                // not a JSON answer: counted by status only
            }
        }
        if (answer.status && *answer.status >= 200 && *answer.status < 300) {
            ++summary.acknowledged;
            ++summary.byScenario[cycled ? std::string("redelivery") : d.scenario];
        } else if (next.attempt < options.maxAttempts) {
            retries.push({Clock::now()
                    + retryDelay(next.attempt, options.backoffBase, options.backoffCap, rng),
                next.delivery, next.attempt + 1});
        } else {
            ++summary.gaveUp;
        }

        if (progress && Clock::now() - lastProgress >= std::chrono::seconds(5)) {
            lastProgress = Clock::now();
            progress("simulate: " + std::to_string(summary.deliveries) + " of "
                + std::to_string(total) + " deliveries started, "
                + std::to_string(summary.acknowledged) + " acknowledged, "
                + std::to_string(retries.size()) + " waiting to be retried"
                + (answer.error.empty() ? "" : " (last error: " + answer.error + ")"));
        }
    }
    summary.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    return summary;
}

} // namespace rd
