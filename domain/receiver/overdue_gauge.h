#pragma once

// Keeps the receiver's renewal_overdue_subscriptions gauge: a thread of its own reads the
// counts from the database every interval, never on a delivery's path nor a /metrics
// request's. A failed read keeps the last counts and says why through `onError`.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace rd {

class ReceiverMetrics;

class OverdueGauge
{
public:
    using ErrorSink = std::function<void(const std::string &)>;

    OverdueGauge(std::string conninfo, std::chrono::milliseconds interval, ReceiverMetrics &metrics,
        ErrorSink onError);
    ~OverdueGauge(); ///< stops and joins
    OverdueGauge(const OverdueGauge &) = delete;
    OverdueGauge &operator=(const OverdueGauge &) = delete;

    /// Starts reading: once at once, then every interval until stop().
    void start();
    void stop();

private:
    void run();

    std::string m_conninfo;
    std::chrono::milliseconds m_interval;
    ReceiverMetrics &m_metrics;
    ErrorSink m_onError;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace rd
