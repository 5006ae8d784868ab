#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace rd {

/// One pending outbox intent as a sink receives it.
struct OutboxIntent
{
    std::string id; ///< stable across deliveries: consumers deduplicate on it
    std::string eventType;
    std::string subscriptionId;
    std::string billingPeriodId; ///< may be empty
    nlohmann::json payload;
    int attempt = 1; ///< 1 for the first delivery, 2 for the first retry, ...
    std::string createdAt; ///< RFC 3339

    /// {"id","eventType","subscriptionId","billingPeriodId","payload","attempt","createdAt"}
    nlohmann::json toJson() const;
};

/// Where intents go. deliver() returns std::nullopt when the intent was accepted, else a
/// reason. flush() makes everything accepted so far durable (or returns why it could not):
/// the publisher marks nothing published before flush() succeeded.
class OutboxSink
{
public:
    virtual ~OutboxSink() = default;
    virtual std::optional<std::string> deliver(const OutboxIntent &intent) = 0;
    virtual std::optional<std::string> flush() { return std::nullopt; }
};

/// Appends one JSON line per intent to a file (or standard output for "-"); flush() fsyncs.
class JsonLinesSink : public OutboxSink
{
public:
    explicit JsonLinesSink(const std::string &path);
    ~JsonLinesSink() override;
    std::optional<std::string> deliver(const OutboxIntent &intent) override;
    std::optional<std::string> flush() override;

private:
    int m_fd = -1;
    bool m_owned = false;
    std::string m_pending;
};

/// Runs a shell command (/bin/sh -c) per intent with its JSON on standard input; exit status
/// 0 means delivered. The command's standard output goes to our standard error, so that it
/// never mixes with the publisher's own output. RD_OUTBOX_ID holds the intent's id.
/// A command still running after `timeout` is killed with its process group and counts as a
/// failure: a hung sink must not hold its batch's row locks forever.
class ExecSink : public OutboxSink
{
public:
    explicit ExecSink(
        std::string command, std::chrono::milliseconds timeout = std::chrono::seconds(30));
    std::optional<std::string> deliver(const OutboxIntent &intent) override;

private:
    std::string m_command;
    std::chrono::milliseconds m_timeout;
};

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
