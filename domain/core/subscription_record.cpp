#include "domain/core/subscription_record.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <nlohmann/json.hpp>

namespace rd {

bool isKnownSubscriptionStatus(const std::string &status)
{
    static const std::array<std::string, 7> known {
        "trialing", "active", "past_due", "paused", "unpaid", "incomplete", "canceled"};
    return std::find(known.begin(), known.end(), status) != known.end();
}

SubscriptionRecord subscriptionRecordFromJson(const nlohmann::json &json)
{
    if (!json.is_object())
        throw InputError("$", "expected a JSON object describing a subscription");
    SubscriptionRecord r;
    r.providerKey = requireIdentifier(json, "", "providerKey");
    r.providerSubscriptionId = requireIdentifier(json, "", "providerSubscriptionId");
    r.status = requireString(json, "", "status");
    if (!isKnownSubscriptionStatus(r.status))
        throw InputError("status",
            "'" + r.status
                + "' is not one of trialing, active, past_due, paused, "
                  "unpaid, incomplete, canceled");
    const auto &period = requireField(json, "", "currentPeriod");
    if (!period.is_null()) {
        r.currentPeriod = requirePeriod(json, "", "currentPeriod");
        if (r.currentPeriod->end <= r.currentPeriod->start)
            throw InputError("currentPeriod.end", "must be after currentPeriod.start");
    }
    r.cancelAtPeriodEnd = requireBool(json, "", "cancelAtPeriodEnd");
    requireField(json, "", "providerVersion");
    r.providerVersion = optionalIdentifier(json, "", "providerVersion");
    return r;
}

nlohmann::json toJson(const SubscriptionRecord &r)
{
    return {{"providerKey", r.providerKey}, {"providerSubscriptionId", r.providerSubscriptionId},
        {"status", r.status},
        {"currentPeriod", r.currentPeriod ? toJson(*r.currentPeriod) : nlohmann::json()},
        {"cancelAtPeriodEnd", r.cancelAtPeriodEnd},
        {"providerVersion",
            r.providerVersion ? nlohmann::json(*r.providerVersion) : nlohmann::json()}};
}

} // namespace rd
