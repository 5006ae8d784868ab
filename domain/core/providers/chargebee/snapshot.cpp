// Chargebee's subscription objects have no reader yet: a snapshot of one is refused, saying so.

#include "domain/core/providers/chargebee/chargebee.h"

#include "domain/core/providers/snapshot_support.h"

namespace rd::providers {

ProviderSnapshot Chargebee::readSnapshot(const std::string &, const nlohmann::json &) const
{
    snapshotNotMapped(ProviderKind::Chargebee);
}

bool Chargebee::isOwnSubscriptionObject(const nlohmann::json &) const
{
    return false;
}

} // namespace rd::providers
