#pragma once

// A provider's list API on 127.0.0.1, for the statement fetch tests: a real HTTP/1.1 server
// (Boost.Beast, the receiver's HTTP layer) on a port of its own, answering each request with
// what the test's handler says and recording every request it was sent. One connection at a
// time, kept alive as the client asks: enough for one client fetching pages in turn.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rdtest {

struct ApiRequest
{
    std::string method;
    std::string target; ///< as sent: "/v1/invoices?limit=100&..."
    std::string path; ///< the target before '?', percent-decoded
    std::multimap<std::string, std::string> query; ///< names and values percent-decoded
    std::map<std::string, std::string> headers; ///< names in lower case

    /// The one value of `name`; "" when absent; "<repeated>" when given twice.
    std::string param(const std::string &name) const;
    std::string header(const std::string &name) const;
};

struct ApiResponse
{
    int status = 200;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string contentType = "application/json";
};

class ApiServer
{
public:
    using Handler = std::function<ApiResponse(const ApiRequest &)>;

    explicit ApiServer(Handler handler);
    ~ApiServer();
    ApiServer(const ApiServer &) = delete;
    ApiServer &operator=(const ApiServer &) = delete;

    std::uint16_t port() const;
    /// "http://127.0.0.1:PORT"
    std::string base() const;
    /// Every request received so far, in order.
    std::vector<ApiRequest> requests() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

std::string percentDecode(std::string_view text);

/// Stripe's list as an API that never ends would serve it: every page says has_more and names
/// the next cursor ("in_N", counting up); each object carries `filler` bytes.
ApiResponse endlessStripePage(const ApiRequest &request, std::size_t filler = 0);

} // namespace rdtest
