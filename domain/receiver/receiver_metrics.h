#pragma once

// What the receiver counts, rendered in the Prometheus text exposition format for GET /metrics.
// Thread-safe: the network thread and the delivery workers both record.

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace rd {

class ReceiverMetrics
{
public:
    void delivery(const std::string &providerKey, const std::string &outcome);
    void signatureFailure(const std::string &providerKey, const std::string &verdict);
    void response(int status);
    void requestDuration(double seconds);
    void connectionOpened();
    void connectionClosed();
    int connectionsInUse() const;
    /// The overdue subscriptions per provider key, as last read from the database (a gauge:
    /// replaces the previous reading whole).
    void overdueSubscriptions(std::map<std::string, long long> counts);
    /// Whether the receiver met a setup error and reports itself not ready (a gauge, 0 or 1).
    void setMisconfigured(bool misconfigured);

    /// The text for GET /metrics.
    std::string render() const;

private:
    // Upper bounds of the request duration histogram, in seconds.
    static constexpr std::array<double, 12> kBuckets {
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10};

    mutable std::mutex m_mutex;
    std::map<std::pair<std::string, std::string>, std::uint64_t> m_deliveries;
    std::map<std::pair<std::string, std::string>, std::uint64_t> m_signatureFailures;
    std::map<int, std::uint64_t> m_responses;
    std::array<std::uint64_t, kBuckets.size()> m_bucketCounts {};
    std::uint64_t m_durationCount = 0;
    double m_durationSum = 0;
    int m_connections = 0;
    std::map<std::string, long long> m_overdue;
    bool m_misconfigured = false;
};

} // namespace rd
