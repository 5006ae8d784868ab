// A Paddle Billing subscription object as a snapshot (provider_snapshot.h tells the mapping).

#include "domain/core/providers/paddle/paddle.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/providers/snapshot_support.h"

namespace rd::providers {

ProviderSnapshot Paddle::readSnapshot(
    const std::string &providerKey, const nlohmann::json &obj) const
{
    ProviderSnapshot s;
    s.providerKey = providerKey;
    s.providerSubscriptionId = requireIdentifier(obj, "", "id");
    const std::string status = requireString(obj, "", "status");
    if (!isSnapshotStatus(status) || status == "incomplete")
        throw InputError("status", "unknown Paddle subscription status '" + status + "'");
    s.status = status;
    const auto &period = requireField(obj, "", "current_billing_period");
    if (!period.is_null()) {
        s.currentPeriod
            = orderedPeriod(Period {requireTimestamp(period, "current_billing_period", "starts_at"),
                                requireTimestamp(period, "current_billing_period", "ends_at")},
                "current_billing_period.ends_at");
    }
    const auto change = obj.find("scheduled_change");
    if (change != obj.end() && !change->is_null())
        s.cancelAtPeriodEnd = requireString(*change, "scheduled_change", "action") == "cancel";
    s.providerVersion = optionalIdentifier(obj, "", "updated_at");
    return s;
}

bool Paddle::isOwnSubscriptionObject(const nlohmann::json &obj) const
{
    return obj.contains("current_billing_period");
}

} // namespace rd::providers
