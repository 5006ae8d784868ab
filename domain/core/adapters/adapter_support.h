#pragma once

// Helpers shared by the provider adapters; not part of the domain's public interface.

#include "domain/core/adapters/normalization.h"
#include "domain/core/errors.h"
#include "domain/core/renewal_event.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace rd::adapters {

/// A NormalizeResult that is no renewal, with its machine reason and a sentence.
NormalizeResult notARenewal(std::string reason, std::string message);

/// An Invalid NormalizeResult carrying whatever ids were already known.
NormalizeResult invalidPayload(
    std::string message, std::string eventId = {}, std::string subscriptionId = {});

/// Unix seconds (a JSON integer) as a Timestamp. Refuses values outside years 1970..9999 so
/// that no later arithmetic can overflow. Throws InputError naming the path.
Timestamp requireUnixSeconds(const nlohmann::json &obj, std::string_view path, const char *key);

/// An RFC 3339 string field as a Timestamp (InputError naming the path).
Timestamp requireRfc3339(const nlohmann::json &obj, std::string_view path, const char *key);

/// A provider id that some providers send as a number (Lemon Squeezy) and others as a string;
/// a string is bounded as requireIdentifier bounds it.
std::string requireId(const nlohmann::json &obj, std::string_view path, const char *key);

/// A non-negative integer sent as a string of decimal digits ("1999"), as Paddle does.
std::int64_t requireMinorUnitsString(
    const nlohmann::json &obj, std::string_view path, const char *key);

/// The array `key` of `obj` (InputError naming the path when missing or not an array).
const nlohmann::json &requireArray(
    const nlohmann::json &obj, std::string_view path, const char *key);

/// `path[index]`.
std::string indexPath(std::string_view path, std::size_t index);

/// A period [start, end); InputError naming `endPath` when end <= start.
Period checkedPeriod(Timestamp start, Timestamp end, const std::string &endPath);

/// A currency code upper-cased and checked (InputError naming the path).
std::string requireCurrency(const nlohmann::json &obj, std::string_view path, const char *key);

/// The ids an adapter's result carries, filled in as the adapter reads them.
struct DeliveryIds
{
    std::string providerKey;
    std::string eventId;
    std::string subscriptionId; ///< empty until known
    bool eventIdDerived = false; ///< eventId is derivedEventId(rawBody)
    std::string objectId; ///< the provider object's own id (invoice, transaction) once read
};

/// A renewal event with the ids and its renewal key set; the adapter fills in the rest.
SuccessfulRenewalEvent renewalEvent(const DeliveryIds &ids, std::string renewalKey);

/// NormalizeOutcome::Renewal for a complete `event`, with the message
/// "<what> <renewal key> renews subscription <subscription id>".
NormalizeResult renewal(SuccessfulRenewalEvent event, std::string_view what);

/// The result every adapter assembles alike: `classify` reads the payload (and may throw
/// InputError, which becomes NormalizeOutcome::Invalid) while it fills in `ids`; its result, or the
/// Invalid one, then carries the ids known by that time.
template<class Classify>
NormalizeResult withDeliveryIds(const DeliveryIds &ids, Classify &&classify)
{
    NormalizeResult n;
    try {
        n = classify();
    } catch (const InputError &e) {
        n = invalidPayload(e.what());
    }
    n.providerEventId = ids.eventId;
    n.providerSubscriptionId = ids.subscriptionId;
    n.eventIdDerived = ids.eventIdDerived;
    return n;
}

/// `n` as normalizePayload and readStatement hand it out: an event's identifiers bounded (an
/// adapter bounds each where it reads it; this catches one read without the bound) and a
/// renewal's reason set.
NormalizeResult finishedNormalization(NormalizeResult n);

/// A paid time to read only when the object lacks its own: a webhook falls back to its
/// event's time, a statement (which has no event) to a time on the object itself.
using FallbackTime = std::function<Timestamp()>;

// The object-level classification, one per provider, shared by the webhook envelopes below and
// the statement reader (statement.h): `ids` gets the subscription and object ids as they are
// read; `path` is the object's JSON path for messages. Each may throw InputError.

/// A Stripe invoice; `basil` selects its shape (see stripe_adapter.cpp).
NormalizeResult classifyStripeInvoice(DeliveryIds &ids, const nlohmann::json &invoice,
    const std::string &path, bool basil, const FallbackTime &fallbackPaidAt);
/// Basil or not from the invoice's own fields, for invoices that come without an api_version.
bool stripeInvoiceIsBasil(const nlohmann::json &invoice, const std::string &path);
/// A Paddle Billing transaction.
NormalizeResult classifyPaddleTransaction(DeliveryIds &ids, const nlohmann::json &txn,
    const std::string &path, const FallbackTime &fallbackPaidAt);
/// A Chargebee invoice; `subscription` (with its path), when known, tells a mid-term change.
NormalizeResult classifyChargebeeInvoice(DeliveryIds &ids, const nlohmann::json &invoice,
    const std::string &path, const nlohmann::json *subscription, std::string_view subscriptionPath,
    const FallbackTime &fallbackPaidAt);
/// A Recurly invoice parsed by parseKeepingDecimalText.
NormalizeResult classifyRecurlyInvoice(
    DeliveryIds &ids, const nlohmann::json &invoice, const std::string &path);
/// A Lemon Squeezy subscription-invoices resource {type, id, attributes}.
NormalizeResult classifyLemonSqueezyInvoice(
    DeliveryIds &ids, const nlohmann::json &resource, const std::string &path);

/// JSON whose floating-point numbers are kept as strings of their original text ("20.0"), so
/// that no decimal amount is rounded to binary (Recurly). For text that passed
/// checkJsonLimits; InputError (field "body") when it is not JSON.
nlohmann::json parseKeepingDecimalText(std::string_view text);

// One entry point per provider; each may throw InputError (and only that, by intent), which
// normalizePayload turns into NormalizeOutcome::Invalid.
NormalizeResult normalizeStripe(std::string_view providerKey, const nlohmann::json &body);
NormalizeResult normalizePaddle(std::string_view providerKey, const nlohmann::json &body);
NormalizeResult normalizeChargebee(std::string_view providerKey, const nlohmann::json &body);
/// Recurly re-parses the raw body (after the shared limits were applied) to keep decimal text.
NormalizeResult normalizeRecurly(std::string_view providerKey, std::string_view rawBody);
NormalizeResult normalizeLemonSqueezy(
    std::string_view providerKey, std::string_view rawBody, const nlohmann::json &body);

} // namespace rd::adapters
