#pragma once

// The receiver's database side: a fixed set of threads, each with its own WebhookIngestor
// (one database connection per thread), fed from one bounded queue. The network thread never
// waits for the database, and never holds more than the queue's depth of deliveries: a full
// queue is answered 503 at once instead of growing.

#include "domain/store/webhook_ingestor.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace rd {

/// What a job gets on its worker thread: the thread's own ingestor, opened on first use and
/// dropped after a failure so that the next job reconnects.
class WorkerContext
{
public:
    explicit WorkerContext(std::string conninfo);
    ~WorkerContext();
    WebhookIngestor &ingestor(); ///< throws DatabaseUnavailable when it cannot connect
    /// ingestor().ingest(), nothing more: the ingestor's one retry loop already reconnects
    /// when the thread's connection, opened for an earlier job, turns out to be lost (the
    /// database restarted meanwhile), within the attempts RetryPolicy allows a delivery.
    IngestResult ingest(const std::string &providerKey, std::string_view rawBody);
    void dropConnection();
    const std::string &conninfo() const { return m_conninfo; }

private:
    std::string m_conninfo;
    std::unique_ptr<WebhookIngestor> m_ingestor;
};

class DeliveryWorkers
{
public:
    using Job = std::function<void(WorkerContext &)>;

    DeliveryWorkers(std::string conninfo, int threads, std::size_t queueDepth);
    ~DeliveryWorkers();
    DeliveryWorkers(const DeliveryWorkers &) = delete;
    DeliveryWorkers &operator=(const DeliveryWorkers &) = delete;

    /// Queues `job`; false (and `job` dropped) when the queue is full or the workers stop.
    bool tryPost(Job job);
    /// Jobs queued or running.
    std::size_t pending() const;
    /// Workers in a job now (the database connections in use).
    int busy() const;
    /// Runs what is queued, then joins the threads. Idempotent.
    void stop();

private:
    void run();

    const std::string m_conninfo;
    const std::size_t m_queueDepth;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<Job> m_queue;
    int m_busy = 0;
    bool m_stopping = false;
    std::vector<std::thread> m_threads;
};

} // namespace rd
