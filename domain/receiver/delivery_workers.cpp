#include "domain/receiver/delivery_workers.h"

namespace rd {

WorkerContext::WorkerContext(std::string conninfo) : m_conninfo(std::move(conninfo))
{ }

WorkerContext::~WorkerContext() = default;

WebhookIngestor &WorkerContext::ingestor()
{
    if (!m_ingestor)
        m_ingestor = std::make_unique<WebhookIngestor>(m_conninfo);
    return *m_ingestor;
}

IngestResult WorkerContext::ingest(const std::string &providerKey, std::string_view rawBody)
{
    return ingestor().ingest(providerKey, rawBody);
}

void WorkerContext::dropConnection()
{
    m_ingestor.reset();
}

DeliveryWorkers::DeliveryWorkers(std::string conninfo, int threads, std::size_t queueDepth)
    : m_conninfo(std::move(conninfo)), m_queueDepth(queueDepth)
{
    m_threads.reserve(static_cast<std::size_t>(threads));
    for (int i = 0; i < threads; ++i)
        m_threads.emplace_back([this] { run(); });
}

DeliveryWorkers::~DeliveryWorkers()
{
    stop();
}

bool DeliveryWorkers::tryPost(Job job)
{
    {
        const std::lock_guard lock(m_mutex);
        if (m_stopping || m_queue.size() >= m_queueDepth)
            return false;
        m_queue.push_back(std::move(job));
    }
    m_wake.notify_one();
    return true;
}

std::size_t DeliveryWorkers::pending() const
{
    const std::lock_guard lock(m_mutex);
    return m_queue.size() + static_cast<std::size_t>(m_busy);
}

int DeliveryWorkers::busy() const
{
    const std::lock_guard lock(m_mutex);
    return m_busy;
}

void DeliveryWorkers::stop()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    for (auto &t : m_threads) {
        if (t.joinable())
            t.join();
    }
}

void DeliveryWorkers::run()
{
    WorkerContext context(m_conninfo);
    for (;;) {
        Job job;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
            if (m_queue.empty())
                return; // stopping, and everything queued has run
            job = std::move(m_queue.front());
            m_queue.pop_front();
            ++m_busy;
        }
        job(context); // jobs catch their own errors: they answer the client
        const std::lock_guard lock(m_mutex);
        --m_busy;
    }
}

} // namespace rd
