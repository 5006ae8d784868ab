#pragma once

#include <pqxx/connection> // pqxx::connection is an alias in 6.4: no forward declaration

#include "renewal_event.hpp"

#include <nlohmann/json_fwd.hpp>

#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace rd {

/// A subscription as an import line describes it.
struct SubscriptionRecord
{
    std::string providerKey;
    std::string providerSubscriptionId;
    std::string status;
    std::optional<Period> currentPeriod;
    bool cancelAtPeriodEnd = false;
    std::optional<std::string> providerVersion;
};

/// The statuses the projection knows (the subscriptions.status check constraint).
bool isKnownSubscriptionStatus(const std::string &status);

/// Strict parse of `{"providerKey","providerSubscriptionId","status","currentPeriod":{"start",
/// "end"}|null,"cancelAtPeriodEnd","providerVersion"}`; InputError names the field.
SubscriptionRecord subscriptionRecordFromJson(const nlohmann::json &json);
nlohmann::json toJson(const SubscriptionRecord &record);

struct ImportReport
{
    long long lines = 0;
    long long created = 0;
    /// Subscriptions that already existed (reported, never overwritten): "providerKey/id".
    std::vector<std::string> existing;
};

/// Imports JSON lines in one transaction, in batches of one statement each (no round trip
/// per row), writing one `subscription_imported` audit row per created subscription.
/// A malformed line aborts the whole import (nothing is written) with InputError
/// "line N: field".
ImportReport importSubscriptions(
    pqxx::connection &conn, std::istream &in, const std::string &actorId);

} // namespace rd
