#pragma once

// The provider simulator behind `renewalctl simulate`: signs deliveries as each provider does
// (signDelivery) and POSTs them to a receiver's /webhooks/{providerKey} at a chosen pace,
// retrying every non-2xx answer and every broken connection with capped exponential backoff
// and jitter, as providers do. Plain HTTP/1.1 over one kept-alive connection (Boost.Beast,
// synchronous); one request in flight at a time.

#include "domain/core/adapters/provider_kinds.h"
#include "domain/core/receiver_secrets.h"

#include <nlohmann/json_fwd.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace rd {

/// Where the receiver listens: from "http://HOST:PORT" (an optional path prefix is kept:
/// "http://h:8080/rd" posts to /rd/webhooks/KEY).
struct SimulatorTarget
{
    std::string host;
    std::string port;
    std::string pathPrefix; ///< "" or "/rd", never ending in '/'
};
/// Throws InputError (field "target") for anything but http://HOST[:PORT][/PREFIX].
SimulatorTarget parseSimulatorTarget(const std::string &url);

struct SimulatorDelivery
{
    std::string providerKey;
    ProviderKind kind;
    std::string body;
    std::string scenario; ///< what the delivery stands for, counted in the summary
};

struct SimulatorOptions
{
    double rate = 20; ///< new deliveries started per second
    /// Deliveries to make; the list is gone through again (as redeliveries) when this is more
    /// than its size. Default: the list once.
    std::optional<std::size_t> count;
    /// Stop after this long even when deliveries remain (they count as unfinished).
    std::optional<std::chrono::milliseconds> duration;
    int maxAttempts = 6; ///< attempts per delivery before it is given up
    std::chrono::milliseconds backoffBase {500};
    std::chrono::milliseconds backoffCap {30000};
    std::chrono::milliseconds timeout {10000}; ///< connect, write and read, per request
    std::uint64_t jitterSeed = 1;
};

struct SimulatorSummary
{
    long long planned = 0; ///< deliveries to make (options.count, or the list once)
    long long deliveries = 0; ///< distinct deliveries started
    long long sent = 0; ///< HTTP attempts, retries included
    long long acknowledged = 0; ///< deliveries answered 2xx
    long long retries = 0; ///< attempts after a failed one
    long long gaveUp = 0; ///< deliveries that failed maxAttempts times
    long long unfinished = 0; ///< deliveries still waiting for a retry when time ran out
    std::map<std::string, long long> byStatus; ///< "200", "400", "connection_error", per attempt
    std::map<std::string, long long> byScenario; ///< acknowledged deliveries by scenario
    /// By the "outcome" member of a JSON answer, when the receiver gives one.
    std::map<std::string, long long> byOutcome;
    double elapsedSeconds = 0;

    nlohmann::json toJson() const;
};

/// The wait before attempt `attempt + 1` after `attempt` failed ones (attempt >= 1): half of
/// min(cap, base * 2^(attempt-1)) plus a uniformly random part of the other half.
std::chrono::milliseconds retryDelay(int attempt, std::chrono::milliseconds base,
    std::chrono::milliseconds cap, std::mt19937_64 &rng);

/// Posts `deliveries` to `target`, each signed with its provider key's credentials from
/// `secrets` at the moment it is sent (a retry is signed anew, with a new timestamp). Throws
/// InputError when a delivery's key has no entry in `secrets`, before anything is sent.
/// `progress`, when given, receives a line now and then.
SimulatorSummary runProviderSimulation(const SimulatorTarget &target,
    const ReceiverSecrets &secrets, const std::vector<SimulatorDelivery> &deliveries,
    const SimulatorOptions &options, const std::function<void(const std::string &)> &progress = {});

} // namespace rd
