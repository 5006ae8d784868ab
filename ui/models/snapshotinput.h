#pragma once

#include "domain/core/adapters/normalization.h"
#include "domain/core/provider_snapshot.h"

#include <optional>
#include <string>

namespace rd::ui {

/// Reads a provider snapshot as an operator pastes it or loads it from a file: Renewal Desk's
/// own form (told by its "providerSubscriptionId"), or the provider's subscription object as
/// fetched from its API, read for the case's provider `providerKey` with the mapping of `kind`
/// (Stripe, Paddle). Without a kind (a provider registered before kinds were kept) the object's
/// shape decides: "object": "subscription" is Stripe, "current_billing_period" is Paddle.
/// A provider object carries no capture time: it gets `capturedAt`. Either is refused when
/// captured later than this machine's clock allows (rd::requireCapturedBy).
/// Throws rd::InputError naming what is wrong ("current_period_end: period end is not after
/// its start", "body: not JSON ...").
rd::ProviderSnapshot readSnapshotText(const std::string &text, const std::string &providerKey,
    std::optional<rd::ProviderKind> kind, rd::Timestamp capturedAt);

} // namespace rd::ui
