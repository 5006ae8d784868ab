#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
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

} // namespace rd
