#include "tests/support/http_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>

namespace rdtest {
namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

} // namespace

std::string httpRequest(const std::string &method, const std::string &path,
    const HttpHeaders &headers, const std::string &body, bool keepAlive)
{
    std::string r = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    r += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    for (const auto &[name, value] : headers)
        r += name + ": " + value + "\r\n";
    return r + "\r\n" + body;
}

std::string httpChunkedRequest(const std::string &method, const std::string &path,
    const HttpHeaders &headers, const std::vector<std::string> &chunks, const HttpHeaders &trailers,
    bool keepAlive)
{
    std::string r = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    r += "Transfer-Encoding: chunked\r\n";
    r += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    for (const auto &[name, value] : headers)
        r += name + ": " + value + "\r\n";
    r += "\r\n";
    char size[32];
    for (const std::string &chunk : chunks) {
        if (chunk.empty())
            continue;
        std::snprintf(size, sizeof size, "%zx\r\n", chunk.size());
        r += size + chunk + "\r\n";
    }
    r += "0\r\n";
    for (const auto &[name, value] : trailers)
        r += name + ": " + value + "\r\n";
    return r + "\r\n";
}

HttpConnection::HttpConnection(std::uint16_t port)
{
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_fd < 0)
        return;
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(m_fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
        ::close(m_fd);
        m_fd = -1;
        return;
    }
    const int one = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

HttpConnection::~HttpConnection()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool HttpConnection::send(const std::string &bytes)
{
    std::size_t done = 0;
    while (m_fd >= 0 && done < bytes.size()) {
        const ssize_t n = ::send(m_fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += static_cast<std::size_t>(n);
    }
    return m_fd >= 0;
}

HttpResponse HttpConnection::receive(std::chrono::milliseconds timeout, bool headOnly)
{
    HttpResponse r;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::string &buf = m_pending;
    std::size_t headerEnd = std::string::npos;
    std::size_t need = std::string::npos;
    for (;;) {
        if (headerEnd == std::string::npos) {
            headerEnd = buf.find("\r\n\r\n");
            if (headerEnd != std::string::npos) {
                const std::string head = buf.substr(0, headerEnd);
                std::size_t lineEnd = head.find("\r\n");
                const std::string statusLine = head.substr(0, lineEnd);
                if (statusLine.size() >= 12)
                    r.status = std::atoi(statusLine.c_str() + 9);
                while (lineEnd != std::string::npos) {
                    const std::size_t next = head.find("\r\n", lineEnd + 2);
                    const std::string line = head.substr(lineEnd + 2,
                        next == std::string::npos ? std::string::npos : next - lineEnd - 2);
                    const auto colon = line.find(':');
                    if (colon != std::string::npos) {
                        std::string value = line.substr(colon + 1);
                        value.erase(0, value.find_first_not_of(' '));
                        r.headers[lower(line.substr(0, colon))] = value;
                    }
                    lineEnd = next;
                }
                need = headerEnd + 4;
                if (!headOnly)
                    need += static_cast<std::size_t>(
                        std::atoll(r.headers["content-length"].c_str()));
            }
        }
        if (need != std::string::npos && buf.size() >= need) {
            r.body = buf.substr(headerEnd + 4, need - headerEnd - 4);
            buf.erase(0, need);
            return r;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            r.status = 0;
            r.error = "timed out";
            return r;
        }
        pollfd p {m_fd, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0)
            continue;
        char chunk[16384];
        const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            r.status = 0;
            r.error = n == 0 ? "connection closed" : "connection reset";
            return r;
        }
        buf.append(chunk, static_cast<std::size_t>(n));
    }
}

bool HttpConnection::closedByPeer(std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return false;
        pollfd p {m_fd, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0)
            continue;
        char chunk[4096];
        const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
        if (n <= 0)
            return true;
        m_pending.append(chunk, static_cast<std::size_t>(n));
    }
}

void HttpConnection::finishSending()
{
    if (m_fd >= 0)
        ::shutdown(m_fd, SHUT_WR);
}

std::string HttpConnection::receiveUntilClosed(std::chrono::milliseconds timeout)
{
    closedByPeer(timeout);
    std::string all;
    all.swap(m_pending);
    return all;
}

HttpResponse httpCall(std::uint16_t port, const std::string &method, const std::string &path,
    const HttpHeaders &headers, const std::string &body, std::chrono::milliseconds timeout)
{
    HttpConnection c(port);
    if (!c.connected())
        return {0, {}, {}, "connection refused"};
    if (!c.send(httpRequest(method, path, headers, body)))
        return {0, {}, {}, "could not send"};
    return c.receive(timeout);
}

} // namespace rdtest
