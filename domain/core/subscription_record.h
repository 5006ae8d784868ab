#pragma once

#include "domain/core/renewal_event.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

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

} // namespace rd
