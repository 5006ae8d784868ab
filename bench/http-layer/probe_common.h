// Shared by the two benchmark probes (beast_probe.cpp, httplib_probe.cpp): the Stripe-style
// signature check and the stand-in for the database commit. BENCHMARK PROBE, NOT PRODUCT CODE.
#pragma once

#include "domain/core/encoding.h" // compiled in by run.sh

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace probe {

// The database commit of the real receiver (WebhookIngestor::ingest) is replaced by a fixed
// sleep: the probes measure the HTTP layer, not PostgreSQL.
inline constexpr std::chrono::milliseconds kFakeCommit {2};
inline constexpr std::size_t kMaxBody = 1024 * 1024; // 413 above
inline constexpr std::size_t kMaxHeader = 16 * 1024; // 431 above (where the library can)
inline constexpr int kWorkers = 8; // database workers of the real receiver
inline constexpr std::size_t kQueueDepth = 64; // full: 503

inline std::string hmacSha256Hex(const std::string &secret, std::string_view data)
{
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
        reinterpret_cast<const unsigned char *>(data.data()), data.size(), mac, &len);
    return rd::toHex(std::string_view(reinterpret_cast<const char *>(mac), len));
}

/// `Stripe-Signature: t=<unix>,v1=<hex>[,v1=...]` over t + "." + body. toleranceSeconds 0:
/// the timestamp is not checked (the load test replays one pre-signed body).
inline bool stripeSignatureValid(std::string_view header, std::string_view body,
    const std::string &secret, long toleranceSeconds)
{
    std::string_view t;
    std::vector<std::string_view> v1;
    while (!header.empty()) {
        const auto comma = header.find(',');
        std::string_view item = header.substr(0, comma);
        header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
        while (!item.empty() && item.front() == ' ')
            item.remove_prefix(1);
        if (item.substr(0, 2) == "t=")
            t = item.substr(2);
        else if (item.substr(0, 3) == "v1=")
            v1.push_back(item.substr(3));
    }
    if (t.empty() || v1.empty())
        return false;
    if (toleranceSeconds > 0) {
        const long ts = std::strtol(std::string(t).c_str(), nullptr, 10);
        const long now = static_cast<long>(std::chrono::duration_cast<std::chrono::seconds>(
            std::chrono::system_clock::now().time_since_epoch())
                                               .count());
        if (std::labs(now - ts) > toleranceSeconds)
            return false;
    }
    std::string signed_;
    signed_.reserve(t.size() + 1 + body.size());
    signed_.append(t).append(".").append(body);
    const std::string expected = hmacSha256Hex(secret, signed_);
    for (auto candidate : v1) {
        if (candidate.size() == expected.size()
            && CRYPTO_memcmp(candidate.data(), expected.data(), expected.size()) == 0)
            return true;
    }
    return false;
}

/// The real receiver's DeliveryWorkers, minus the database: fixed threads, one bounded queue.
class Workers
{
public:
    Workers(int threads, std::size_t depth) : m_depth(depth)
    {
        for (int i = 0; i < threads; ++i)
            m_threads.emplace_back([this] { run(); });
    }
    ~Workers()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
        for (auto &t : m_threads)
            t.join();
    }
    bool tryPost(std::function<void()> job)
    {
        {
            std::lock_guard lock(m_mutex);
            if (m_stop || m_queue.size() >= m_depth)
                return false;
            m_queue.push_back(std::move(job));
        }
        m_wake.notify_one();
        return true;
    }

private:
    void run()
    {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock lock(m_mutex);
                m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
                if (m_queue.empty())
                    return;
                job = std::move(m_queue.front());
                m_queue.pop_front();
            }
            job();
        }
    }
    std::size_t m_depth;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_queue;
    bool m_stop = false;
    std::vector<std::thread> m_threads;
};

} // namespace probe
