#pragma once

#include "domain/core/timestamp.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rd {

/// A half-open billing period [start, end) in UTC. Contiguity is plain equality of instants.
struct Period
{
    Timestamp start;
    Timestamp end;

    bool operator==(const Period &) const = default;
};

/// A provider's confirmed, paid, recurring renewal, normalized by an adapter. This is the only
/// thing the renewal core accepts.
struct SuccessfulRenewalEvent
{
    std::string providerKey; ///< a configured provider, e.g. "stripe-main"
    std::string providerEventId; ///< the delivery's event id (transport-level identity)
    std::string providerSubscriptionId; ///< the provider's subscription id
    std::string providerRenewalKey; ///< the domain key of the renewal (e.g. invoice id)
    std::optional<std::string> providerVersion;
    Period period;
    std::int64_t paidAmountMinor = 0; ///< integer minor units of `currency`
    std::string currency; ///< ISO 4217, upper case
    Timestamp paidAt;
    /// What a later refund may name this renewal by besides its renewal key: Stripe's charge and
    /// payment intent of the invoice (#40). Empty for the kinds whose refunds name the renewal
    /// key itself. In the JSON form only when not empty.
    std::vector<std::string> paymentRefs;

    bool operator==(const SuccessfulRenewalEvent &) const = default;
};

/// Parses the JSON form (camelCase, RFC 3339 timestamps). Strict: a missing or mistyped field,
/// an empty key, an identifier longer than kMaxIdentifierBytes, a negative or fractional
/// amount, a currency that is not an active ISO 4217 code or an unparsable timestamp throws
/// InputError naming the field. The currency is upper-cased.
SuccessfulRenewalEvent renewalEventFromJson(const nlohmann::json &json);

nlohmann::json toJson(const SuccessfulRenewalEvent &event);

/// The largest amount a renewal may carry: 10^12 minor units, ten billion in a two-decimal
/// currency. Above it nothing is a real payment, and sums of such amounts stay far inside 64
/// bits (#39, item 6). migrations/0046_amount_bound.sql bounds the stored amount the same.
inline constexpr std::int64_t kMaxAmountMinor = 1'000'000'000'000;
/// The longest period a renewal may renew into, and how far after its payment it may end: five
/// years and a leap day, longer than any plan a provider sells (#39, item 11: a period ending
/// 9999-12-31 made its subscription never overdue). Bounded here alone: a CHECK in the
/// database cost the one-statement renewal 0.8 % of its instructions (0046's comment).
inline constexpr int kMaxPeriodDays = 1827;
/// The most payment refs a renewal keeps (a charge, a payment intent, a few retried payments).
inline constexpr std::size_t kMaxPaymentRefs = 8;

/// InputError naming the first field of `event` out of its bounds: an identifier (providerKey,
/// providerEventId, ...) longer than kMaxIdentifierBytes, paidAmountMinor above
/// kMaxAmountMinor, a period longer than kMaxPeriodDays or ending more than kMaxPeriodDays
/// after paidAt. Every adapter's and statement's event passes here (finishedNormalization), and
/// every event given as JSON (renewalEventFromJson).
void checkEventBounds(const SuccessfulRenewalEvent &event);
nlohmann::json toJson(const Period &period);

/// Shared by every parser of the JSON forms: a required RFC 3339 field and a period object.
Timestamp requireTimestamp(const nlohmann::json &obj, const std::string &path, const char *key);
Period requirePeriod(const nlohmann::json &obj, const std::string &path, const char *key);
/// Three ASCII letters naming an active ISO 4217 currency (iso4217.h), returned upper-cased
/// ("usd" is USD); InputError naming `field` otherwise.
std::string normalizeCurrency(const std::string &code, const std::string &field);

} // namespace rd
