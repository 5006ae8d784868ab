#pragma once

// A deliberately small HTTP/1.1 client over a raw loopback socket, for the receiver's tests:
// they need what a library would hide (a request trickled byte by byte, a body cut short,
// one connection reused for several requests).

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rdtest {

struct HttpResponse
{
    int status = 0; ///< 0: no response (connection refused, closed or timed out)
    std::map<std::string, std::string> headers; ///< names in lower case
    std::string body;
    std::string error; ///< why status is 0
};

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

/// The request's bytes: "POST /path HTTP/1.1", Host, Content-Length, the headers, the body.
std::string httpRequest(const std::string &method, const std::string &path,
    const HttpHeaders &headers, const std::string &body, bool keepAlive = false);

/// The same request with its body sent as chunked transfer coding: `chunks` in order (an
/// empty one is not sent; the last chunk is implied), then `trailers` as the chunked trailer.
std::string httpChunkedRequest(const std::string &method, const std::string &path,
    const HttpHeaders &headers, const std::vector<std::string> &chunks, const HttpHeaders &trailers,
    bool keepAlive = false);

/// One client connection to 127.0.0.1:port.
class HttpConnection
{
public:
    explicit HttpConnection(std::uint16_t port);
    ~HttpConnection();
    HttpConnection(const HttpConnection &) = delete;
    HttpConnection &operator=(const HttpConnection &) = delete;

    bool connected() const { return m_fd >= 0; }
    /// Writes raw bytes; false when the peer has closed.
    bool send(const std::string &bytes);
    /// Reads one response (Content-Length framed) within `timeout`; the answer to a HEAD
    /// request (`head`) has no body whatever its Content-Length says.
    HttpResponse receive(
        std::chrono::milliseconds timeout = std::chrono::seconds(30), bool head = false);
    /// Tells the peer that nothing more will be sent (shutdown of the sending side).
    void finishSending();
    /// Every byte the peer sends until it closes the connection or `timeout` passes.
    std::string receiveUntilClosed(std::chrono::milliseconds timeout);
    /// Whether the server has closed the connection (a read returns end of stream or an
    /// error within `timeout`).
    bool closedByPeer(std::chrono::milliseconds timeout);

private:
    int m_fd = -1;
    std::string m_pending;
};

/// One request on a new connection.
HttpResponse httpCall(std::uint16_t port, const std::string &method, const std::string &path,
    const HttpHeaders &headers = {}, const std::string &body = {},
    std::chrono::milliseconds timeout = std::chrono::seconds(30));

} // namespace rdtest
