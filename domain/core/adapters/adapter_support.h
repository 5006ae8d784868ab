#pragma once

// Helpers shared by the provider adapters (domain/core/providers/<kind>/adapter.cpp); not part
// of the domain's public interface.

#include "domain/core/adapters/normalization.h"
#include "domain/core/errors.h"
#include "domain/core/renewal_event.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rd::adapters {

/// A NormalizeResult that is no renewal, with its machine reason and a sentence.
NormalizeResult notARenewal(std::string reason, std::string message);

/// Money back (#40): the movements a payload moves, or NotARenewal with `reason` when it moves
/// none (the message then says so).
NormalizeResult moneyMoved(
    std::vector<MoneyMovement> movements, std::string reason, std::string message);

/// Payment trouble (#41): the failed attempts and standing a payload tells of subscription
/// `subscriptionId` (NormalizeResult::trouble), with its machine reason and a sentence.
NormalizeResult paymentTrouble(
    PaymentTrouble trouble, std::string subscriptionId, std::string reason, std::string message);

/// An Invalid NormalizeResult carrying whatever ids were already known.
NormalizeResult invalidPayload(
    std::string message, std::string eventId = {}, std::string subscriptionId = {});

/// Unix seconds (a JSON integer) as a Timestamp. Refuses values outside years 1970..9999 so
/// that no later arithmetic can overflow. Throws InputError naming the path.
Timestamp requireUnixSeconds(const nlohmann::json &obj, std::string_view path, const char *key);

/// An RFC 3339 string field as a Timestamp (InputError naming the path).
Timestamp requireRfc3339(const nlohmann::json &obj, std::string_view path, const char *key);

/// requireRfc3339 / requireUnixSeconds for a time that may be absent or null: nullopt then.
std::optional<Timestamp> optionalRfc3339(
    const nlohmann::json &obj, std::string_view path, const char *key);
std::optional<Timestamp> optionalUnixSeconds(
    const nlohmann::json &obj, std::string_view path, const char *key);

/// Adds `ref` to a movement's renewal refs unless it is absent, empty or there already.
void addRenewalRef(std::vector<std::string> &refs, const std::optional<std::string> &ref);

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

/// The longest e-mail address kept (RFC 5321's path limit less its brackets).
inline constexpr std::size_t kMaxCustomerEmailBytes = 254;

/// The string at `keys` under `body` (objects all the way down), or empty when any step is
/// missing or of another type: for optional fields such as a customer's e-mail.
std::string stringAt(const nlohmann::json &body, std::initializer_list<const char *> keys);

/// A customer e-mail address as the database hashes it (#42): ASCII white space trimmed, ASCII
/// letters lower-cased (the same in ingest_delivery and in every search, whatever the server's
/// locale), or empty when it is no address: no '@' between a local part and a domain, a
/// control character or space inside, or longer than kMaxCustomerEmailBytes. An address that
/// is not one is left out, never made the payload invalid: a renewal is recorded whatever its
/// customer field holds.
std::string customerEmail(std::string_view written);

/// A paid time to read only when the object lacks its own: a webhook falls back to its
/// event's time, a statement (which has no event) to a time on the object itself.
using FallbackTime = std::function<Timestamp()>;

/// A listed object as it is: for the list pages whose items are the objects themselves.
const nlohmann::json &asListed(const nlohmann::json &item, std::string &path);

/// A list object {"object": "list", "has_more": ...} says more pages follow (Stripe, Recurly);
/// InputError naming the field when it is no such list.
bool listObjectHasMore(const nlohmann::json &page);

} // namespace rd::adapters
