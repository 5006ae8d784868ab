// LemonSqueezy's subscription objects have no reader yet: a snapshot of one is refused, saying so.

#include "domain/core/providers/lemonsqueezy/lemonsqueezy.h"

#include "domain/core/providers/snapshot_support.h"

namespace rd::providers {

ProviderSnapshot LemonSqueezy::readSnapshot(const std::string &, const nlohmann::json &) const
{
    snapshotNotMapped(ProviderKind::LemonSqueezy);
}

bool LemonSqueezy::isOwnSubscriptionObject(const nlohmann::json &) const
{
    return false;
}

} // namespace rd::providers
