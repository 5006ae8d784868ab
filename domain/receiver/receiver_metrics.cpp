#include "domain/receiver/receiver_metrics.h"

#include <sstream>

namespace rd {
namespace {

// A label value in the exposition format: backslash, double quote and newline escaped.
std::string labelValue(const std::string &v)
{
    std::string out;
    out.reserve(v.size());
    for (const char c : v) {
        if (c == '\\' || c == '"')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out;
}

} // namespace

void ReceiverMetrics::delivery(const std::string &providerKey, const std::string &outcome)
{
    const std::lock_guard lock(m_mutex);
    ++m_deliveries[{providerKey, outcome}];
}

void ReceiverMetrics::signatureFailure(const std::string &providerKey, const std::string &verdict)
{
    const std::lock_guard lock(m_mutex);
    ++m_signatureFailures[{providerKey, verdict}];
}

void ReceiverMetrics::response(int status)
{
    const std::lock_guard lock(m_mutex);
    ++m_responses[status];
}

void ReceiverMetrics::requestDuration(double seconds)
{
    const std::lock_guard lock(m_mutex);
    for (std::size_t i = 0; i < kBuckets.size(); ++i) {
        if (seconds <= kBuckets[i])
            ++m_bucketCounts[i];
    }
    ++m_durationCount;
    m_durationSum += seconds;
}

void ReceiverMetrics::connectionOpened()
{
    const std::lock_guard lock(m_mutex);
    ++m_connections;
}

void ReceiverMetrics::connectionClosed()
{
    const std::lock_guard lock(m_mutex);
    --m_connections;
}

int ReceiverMetrics::connectionsInUse() const
{
    const std::lock_guard lock(m_mutex);
    return m_connections;
}

void ReceiverMetrics::overdueSubscriptions(std::map<std::string, long long> counts)
{
    const std::lock_guard lock(m_mutex);
    m_overdue = std::move(counts);
}

void ReceiverMetrics::setMisconfigured(bool misconfigured)
{
    const std::lock_guard lock(m_mutex);
    m_misconfigured = misconfigured;
}

std::string ReceiverMetrics::render() const
{
    const std::lock_guard lock(m_mutex);
    std::ostringstream out;
    out << "# HELP renewal_receiver_deliveries_total Deliveries committed, by provider key and "
           "outcome.\n# TYPE renewal_receiver_deliveries_total counter\n";
    for (const auto &[key, n] : m_deliveries)
        out << "renewal_receiver_deliveries_total{provider=\"" << labelValue(key.first)
            << "\",outcome=\"" << labelValue(key.second) << "\"} " << n << "\n";
    out << "# HELP renewal_receiver_signature_failures_total Deliveries refused before storage "
           "(bad, missing or stale signature), by provider key and reason.\n"
           "# TYPE renewal_receiver_signature_failures_total counter\n";
    for (const auto &[key, n] : m_signatureFailures)
        out << "renewal_receiver_signature_failures_total{provider=\"" << labelValue(key.first)
            << "\",reason=\"" << labelValue(key.second) << "\"} " << n << "\n";
    out << "# HELP renewal_receiver_responses_total HTTP responses, by status code.\n"
           "# TYPE renewal_receiver_responses_total counter\n";
    for (const auto &[status, n] : m_responses)
        out << "renewal_receiver_responses_total{code=\"" << status << "\"} " << n << "\n";
    out << "# HELP renewal_receiver_request_duration_seconds Time from a request's last byte to "
           "its answer.\n# TYPE renewal_receiver_request_duration_seconds histogram\n";
    for (std::size_t i = 0; i < kBuckets.size(); ++i)
        out << "renewal_receiver_request_duration_seconds_bucket{le=\"" << kBuckets[i] << "\"} "
            << m_bucketCounts[i] << "\n";
    out << "renewal_receiver_request_duration_seconds_bucket{le=\"+Inf\"} " << m_durationCount
        << "\nrenewal_receiver_request_duration_seconds_sum " << m_durationSum
        << "\nrenewal_receiver_request_duration_seconds_count " << m_durationCount << "\n";
    out << "# HELP renewal_receiver_connections_in_use Open client connections.\n"
           "# TYPE renewal_receiver_connections_in_use gauge\nrenewal_receiver_connections_in_use "
        << m_connections << "\n";
    out << "# HELP renewal_receiver_misconfigured 1 while a setup error keeps the receiver not "
           "ready (its log says which), else 0.\n"
           "# TYPE renewal_receiver_misconfigured gauge\nrenewal_receiver_misconfigured "
        << (m_misconfigured ? 1 : 0) << "\n";
    out << "# HELP renewal_overdue_subscriptions Active subscriptions whose period ended more "
           "than the provider's grace ago without a renewal recorded (read every few seconds, "
           "not per request).\n# TYPE renewal_overdue_subscriptions gauge\n";
    for (const auto &[key, n] : m_overdue)
        out << "renewal_overdue_subscriptions{provider=\"" << labelValue(key) << "\"} " << n
            << "\n";
    return out.str();
}

} // namespace rd
