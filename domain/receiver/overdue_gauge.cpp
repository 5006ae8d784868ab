#include "domain/receiver/overdue_gauge.h"

#include "domain/receiver/receiver_metrics.h"
#include "domain/store/overdue_watch.h"

#include <map>

namespace rd {

OverdueGauge::OverdueGauge(std::string conninfo, std::chrono::milliseconds interval,
    ReceiverMetrics &metrics, ErrorSink onError)
    : m_conninfo(std::move(conninfo))
    , m_interval(interval)
    , m_metrics(metrics)
    , m_onError(std::move(onError))
{ }

OverdueGauge::~OverdueGauge()
{
    stop();
}

void OverdueGauge::start()
{
    if (!m_thread.joinable())
        m_thread = std::thread([this] { run(); });
}

void OverdueGauge::stop()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void OverdueGauge::run()
{
    for (;;) {
        try {
            // A connection per reading: one every interval costs less than holding a server
            // backend for it, and a restarted server needs no reconnect logic.
            std::map<std::string, long long> counts;
            for (const auto &c : overdueCounts(m_conninfo))
                counts[c.providerKey] = c.overdue;
            m_metrics.overdueSubscriptions(std::move(counts));
        } catch (const std::exception &e) {
            m_onError(e.what());
        }
        std::unique_lock lock(m_mutex);
        if (m_wake.wait_for(lock, m_interval, [this] { return m_stopping; }))
            return;
    }
}

} // namespace rd
