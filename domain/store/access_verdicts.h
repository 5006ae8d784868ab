#pragma once

// Payment trouble and access (#41, migration 0053): a subscription's access verdict, worked out
// by the database from the failed attempts, the provider's standing facts, the local policy and
// an operator's extension (rd_access_verdict); the sweep that records the transitions time makes
// due; the owner's policy per provider. Shared by `renewalctl access ...`, `providers
// set-access` and the desk.

#include "domain/core/timestamp.h"
#include "domain/store/db_session.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rd {

/// What a sweep did: subscriptions looked at, transitions recorded, batches committed.
struct AccessSweepResult
{
    long long examined = 0;
    long long changed = 0;
    int batches = 0;
};

/// Records every transition due at `now` (nullopt: the database's clock), `batchSize`
/// subscriptions a transaction (access_sweep), until none is left. `afterBatch`, when given, is
/// called after each commit (for progress and for tests that stop a sweep mid-way).
AccessSweepResult sweepAccess(DbRef db, std::optional<Timestamp> now, int batchSize = 5000,
    const std::function<void(const AccessSweepResult &)> &afterBatch = {});

/// access_verdict_json: the verdict at `now` (nullopt: the database's clock) with its attempts,
/// standing, recorded verdict and history; nullopt for a subscription not known here.
std::optional<nlohmann::json> accessVerdict(DbRef db, const std::string &providerKey,
    const std::string &providerSubscriptionId, std::optional<Timestamp> now);

/// One subscription in grace or blocked (access_trouble).
struct AccessTroubleRow
{
    std::string subscriptionId;
    std::string providerKey;
    std::string providerSubscriptionId;
    std::string verdict; ///< "in_grace" or "blocked"
    std::string since; ///< RFC 3339
    std::string until; ///< RFC 3339; empty when none
    std::string source;
    std::string reason;
    long long attempts = 0;
    std::string lastFailedAt; ///< RFC 3339; empty when no attempt
    std::string declineCode;
};

/// The subscriptions in grace or blocked at `now`, of one provider or all, by subscription id,
/// at most `limit`.
std::vector<AccessTroubleRow> accessTrouble(DbRef db, std::optional<Timestamp> now,
    const std::optional<std::string> &providerKey, int limit);

/// An operator extends a subscription's grace until `until`, with a note (extend_access).
/// ActionRefused: note_required, subscription_not_found, access_extension_refused. Returns the
/// verdict afterwards (accessVerdict's form).
nlohmann::json extendAccess(DbRef db, const std::string &providerKey,
    const std::string &providerSubscriptionId, Timestamp until, const std::string &note);

/// A provider's local access policy (access_policies): how many days a period may end unpaid,
/// and whether access is kept until then when the provider gives up (else blocked at once).
struct AccessPolicy
{
    int graceDays = 7;
    bool keepUntilPeriodEnd = false;
    bool isDefault = true; ///< no row: the defaults above
};

inline constexpr int kMaxAccessGraceDays = 90;

AccessPolicy accessPolicy(DbRef db, const std::string &providerKey);
/// The owner's (the group roles may not write access_policies). InputError naming the key when
/// it is not registered, or the days when outside 0..kMaxAccessGraceDays.
void setAccessPolicy(DbRef db, const std::string &providerKey, const AccessPolicy &policy);

} // namespace rd
