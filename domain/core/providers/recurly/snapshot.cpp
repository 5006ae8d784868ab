// Recurly's subscription objects have no reader yet: a snapshot of one is refused, saying so.

#include "domain/core/providers/recurly/recurly.h"

#include "domain/core/providers/snapshot_support.h"

namespace rd::providers {

ProviderSnapshot Recurly::readSnapshot(const std::string &, const nlohmann::json &) const
{
    snapshotNotMapped(ProviderKind::Recurly);
}

bool Recurly::isOwnSubscriptionObject(const nlohmann::json &) const
{
    return false;
}

} // namespace rd::providers
