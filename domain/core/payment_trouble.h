#pragma once

// Payment trouble (#41): a renewal payment that failed, and the provider's word on the
// subscription's standing while it collects (its dunning), as an adapter reads them. Renewal
// Desk never retries a charge itself: it keeps each failed attempt once, each status as a fact
// dated by the provider's own time, and works out an access verdict from them
// (migrations/functions/rd_access_verdict.sql). Recovery is no event of its own: the failed
// invoice paid is a renewal, which the core records.

#include "domain/core/timestamp.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

/// The provider's standing of a subscription, in the database's words.
enum class ProviderStanding {
    Active, ///< paid up (again): trialing and active
    PastDue, ///< a payment failed and the provider retries it (its dunning runs)
    Unpaid, ///< the provider gave up collecting (retries exhausted) and keeps the subscription
    Paused, ///< collection paused by the provider or the merchant
    Canceled ///< the subscription ended (for non-payment, or otherwise)
};

/// "active", "past_due", "unpaid", "paused", "canceled".
std::string_view toString(ProviderStanding standing);
std::optional<ProviderStanding> providerStandingFromString(std::string_view text);

/// One failed attempt to collect an invoice (a transaction, for Paddle). Kept once on
/// (provider, invoiceKey, attempt): the same attempt told by two events is one.
struct FailedAttempt
{
    std::string invoiceKey; ///< the invoice or transaction whose payment failed
    int attempt = 1; ///< the provider's count of attempts on it, from 1
    Timestamp failedAt; ///< when it failed, by the provider's clock
    /// When the provider tries again; none when it does not (retries exhausted, or none set).
    std::optional<Timestamp> nextAttemptAt;
    std::string declineCode; ///< the provider's or the card network's code; empty when none
    std::optional<std::int64_t> amountMinor; ///< what it tried to collect, when told
    std::string currency; ///< ISO 4217 upper case, with amountMinor

    bool operator==(const FailedAttempt &) const = default;
};

/// The provider's standing of a subscription at an instant of its own clock (an event's
/// occurred_at, created, occurred_at...). A later-delivered older fact never replaces a newer one.
struct StandingFact
{
    ProviderStanding standing = ProviderStanding::Active;
    Timestamp observedAt;
    /// A machine word for why: "retries_exhausted", "dunning_exhausted", "not_paid",
    /// "payment_recovered", ... or empty.
    std::string reason;

    bool operator==(const StandingFact &) const = default;
};

/// What one payload tells of a subscription's payment trouble: failed attempts (oldest first;
/// Paddle lists every attempt of a transaction), a standing, or both. The subscription is
/// NormalizeResult::providerSubscriptionId, which is never empty for this outcome.
struct PaymentTrouble
{
    std::vector<FailedAttempt> attempts;
    std::optional<StandingFact> standing;

    bool operator==(const PaymentTrouble &) const = default;
};

/// The most attempts one delivery may carry, and the highest attempt number.
inline constexpr std::size_t kMaxAttemptsPerDelivery = 50;
inline constexpr int kMaxAttemptNumber = 1000;

/// InputError naming the field of `t` out of its bounds: nothing told, an invoice key or
/// decline code empty/too long, an attempt number outside 1..kMaxAttemptNumber, an amount
/// outside 0..kMaxAmountMinor, an amount without a currency, too many attempts.
void checkTroubleBounds(const PaymentTrouble &t, const std::string &path);

/// {"attempts": [{"invoiceKey", "attempt", "failedAt", "nextAttemptAt" (or null),
///  "declineCode" (or null), "amountMinor" and "currency" (when told)}], "standing":
///  {"standing", "observedAt", "reason" (or null)} or null}
nlohmann::json toJson(const PaymentTrouble &t);

} // namespace rd
