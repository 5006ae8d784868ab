#pragma once

#include "domain/store/outbox_sinks.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace rd {

/// The publisher's connection says who it is: the desk counts the sessions of this name in
/// pg_stat_activity to say "publisher running" (ui/models/overview.cpp).
inline constexpr const char *kOutboxPublisherApplicationName = "renewalctl outbox publish";

struct PublishOptions
{
    int batch = 10; ///< intents claimed (and row-locked) per transaction
    std::optional<int> maxAttempts; ///< intents with this many attempts are left alone
    std::chrono::milliseconds retryDelay {1000}; ///< backoff base: delay × 2^attempts
    std::chrono::milliseconds maxRetryDelay {std::chrono::hours(1)};
    /// Keep running: poll for due intents every `pollInterval` (no trigger NOTIFYs from the
    /// renewal path, see 0004_webhook_inbox.sql), and wake at once on NOTIFY
    /// renewal_desk_outbox from anyone who wants a faster delivery.
    bool follow = false;
    std::chrono::milliseconds pollInterval {std::chrono::seconds(1)};
    /// With `follow`: called when the publisher has drained every due intent and starts to
    /// wait, once per such transition (again only after it has worked on an intent since),
    /// not once per poll. Anything NOTIFYing or inserting after it is found by the wait.
    std::function<void()> onIdle;
};

struct PublishReport
{
    long long delivered = 0;
    long long failed = 0;
    long long batches = 0;
    long long pending = 0; ///< unpublished intents left when the run ended
};

/// Publishes pending intents, at least once each, until none is due (or, with `follow`, until
/// `stop` becomes true). Each batch is claimed FOR UPDATE SKIP LOCKED in a transaction that
/// stays open while the batch is delivered and marked, so concurrent publishers never deliver
/// the same intent at the same time; a crash between delivery and COMMIT means the intent is
/// delivered again (never lost). Database errors throw.
PublishReport publishOutbox(const std::string &conninfo, OutboxSink &sink,
    const PublishOptions &options, const std::atomic<bool> &stop);

} // namespace rd
