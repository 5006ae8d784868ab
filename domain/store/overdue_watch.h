#pragma once

// The overdue watch (migration 0030): active subscriptions whose current period ended more
// than a grace ago, not set to cancel at period end. Their renewal failed at the provider or
// never reached us. Shared by `renewalctl subscriptions overdue`, `providers set-grace` and the
// receiver's /metrics gauge.

#include "domain/store/db_session.h"

#include "domain/core/overdue.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace rd {

struct OverdueCount
{
    std::string providerKey;
    std::chrono::seconds grace {0}; ///< the grace applied: the override, the provider's, or 24 h
    long long overdue = 0;
};

struct OverdueSubscription
{
    std::string providerKey;
    std::string providerSubscriptionId;
    std::string subscriptionId; ///< the subscription's uuid
    std::string currentPeriodEnd; ///< RFC 3339, UTC: the period whose renewal is missing
    std::chrono::seconds overdueFor {0}; ///< since that period end
    std::chrono::seconds grace {0};
};

/// Per provider key (every registered provider and every key an active subscription has, 0s
/// included), in key order. `grace` overrides every provider's own.
std::vector<OverdueCount> overdueCounts(
    DbRef db, std::optional<std::chrono::seconds> grace = std::nullopt);
/// The same over a connection of its own (for callers without libpqxx: the receiver).
std::vector<OverdueCount> overdueCounts(
    const std::string &conninfo, std::optional<std::chrono::seconds> grace = std::nullopt);

/// Every overdue subscription, by provider key, then oldest missed period end first; read a
/// page at a time in the index's order. `providerKey` limits it to one provider.
std::vector<OverdueSubscription> overdueSubscriptions(DbRef db,
    std::optional<std::chrono::seconds> grace, const std::optional<std::string> &providerKey);

/// Sets a registered provider's grace (the owner's: billing_providers is not writable by the
/// group roles). InputError naming the key when it is not registered.
void setOverdueGrace(DbRef db, const std::string &providerKey, std::chrono::seconds grace);

} // namespace rd
