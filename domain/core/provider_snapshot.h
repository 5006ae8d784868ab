#pragma once

#include "domain/core/adapters/normalization.h"
#include "domain/core/renewal_event.h"
#include "domain/core/timestamp.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>

#include <optional>
#include <string>

namespace rd {

/// What a provider said about a subscription at one moment: used to complete renewals whose
/// payload lacks facts (Lemon Squeezy's period) and to reconcile our state with the provider's.
struct ProviderSnapshot
{
    std::string providerKey;
    std::string providerSubscriptionId;
    /// Ours, not the provider's: "active", "trialing", "past_due", "paused", "canceled" or
    /// "incomplete" (see snapshotFromProviderObject for the mapping).
    std::string status;
    std::optional<Period> currentPeriod; ///< none for e.g. a canceled or paused subscription
    bool cancelAtPeriodEnd = false;
    std::optional<std::string> providerVersion;
    Timestamp capturedAt;
    std::optional<SuccessfulRenewalEvent> latestRenewal;
    /// The provider's id of the renewal that began the current period, when its object names it
    /// without the renewal's facts (Stripe's latest_invoice, not expanded). Attached to a case
    /// whose renewal has another key, it tells the database that the case's renewal is not the
    /// current period's (migration 0032); with latestRenewal, it is that renewal's key.
    std::optional<std::string> latestRenewalKey;

    bool operator==(const ProviderSnapshot &) const = default;
};

/// Whether `status` is one of our snapshot statuses.
bool isSnapshotStatus(const std::string &status);

/// Parses our JSON form: {"providerKey", "providerSubscriptionId", "status",
/// "currentPeriod": {"start", "end"} | null, "cancelAtPeriodEnd", "providerVersion": string |
/// null, "capturedAt", "latestRenewal": SuccessfulRenewalEvent | null}, and optionally
/// "latestRenewalKey": string | null. Strict: every other key must be present (null where
/// allowed), providerVersion is a string (an opaque version, e.g. Paddle's updated_at; a number
/// is refused), the period must have end > start; InputError names the field
/// ("currentPeriod.end", "latestRenewal.paidAmountMinor").
ProviderSnapshot providerSnapshotFromJson(const nlohmann::json &json);

/// How far a snapshot's capturedAt may lie ahead of this machine's clock: skew between the
/// machine that fetched it and this one, not more. The database allows the same against its
/// own clock (migration 0027).
constexpr std::int64_t kCapturedAtSkewMicros = 5LL * 60 * 1000 * 1000;

/// Throws InputError naming "capturedAt" when the snapshot claims to be captured later than
/// `now` plus kCapturedAtSkewMicros: a snapshot from the future (2099, or 2062 for 2026) would
/// make every later snapshot of its subscription stale until then.
void requireCapturedBy(const ProviderSnapshot &snapshot, Timestamp now);

nlohmann::json toJson(const ProviderSnapshot &snapshot);

/// Builds a snapshot from a provider's own subscription object, as fetched from its API.
/// - Stripe subscription: before API version 2025-03-31 ("basil") the period is the
///   subscription's current_period_start/end; from basil on it is on each item
///   (items.data[].current_period_start/end), and we take the item ending last. Status mapping:
///   active, trialing, past_due, paused, canceled, incomplete keep their names; unpaid ->
///   past_due (money still owed); incomplete_expired -> canceled. cancel_at_period_end is read
///   as is. providerVersion is null. latest_invoice: an id (as Stripe returns it unless
///   expanded) is latestRenewalKey; an expanded invoice (expand[]=latest_invoice) that is a
///   paid subscription_cycle invoice of the current period is latestRenewal too, and one that
///   is not a renewal (a proration, a manual invoice) names none.
/// - Paddle subscription: current_billing_period {starts_at, ends_at} (null when canceled or
///   paused); scheduled_change.action = "cancel" -> cancelAtPeriodEnd. Statuses active,
///   trialing, past_due, paused, canceled keep their names. providerVersion is updated_at.
/// Other providers throw InputError: their subscription objects are not mapped yet.
/// Other than Stripe's expanded latest_invoice, subscription objects do not carry the paid
/// invoice: `latestRenewal` is left empty.
ProviderSnapshot snapshotFromProviderObject(ProviderKind kind, const std::string &providerKey,
    const nlohmann::json &obj, Timestamp capturedAt);

/// The kind whose own subscription object `obj` (a JSON object) looks like, for a pasted object
/// whose provider is not known: "object": "subscription" is Stripe's, "current_billing_period"
/// Paddle's; nullopt for any other shape.
std::optional<ProviderKind> kindOfSubscriptionObject(const nlohmann::json &obj);

} // namespace rd
