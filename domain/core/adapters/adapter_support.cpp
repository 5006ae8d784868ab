#include "domain/core/adapters/adapter_support.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <algorithm>
#include <limits>

namespace rd::adapters {

namespace {
// 9999-12-31T23:59:59Z: beyond it no provider timestamp is plausible, and bounding here keeps
// the microsecond conversion far from int64 overflow.
constexpr std::int64_t kMaxUnixSeconds = 253402300799;
} // namespace

NormalizeResult notARenewal(std::string reason, std::string message)
{
    NormalizeResult n;
    n.outcome = NormalizeOutcome::NotARenewal;
    n.reason = std::move(reason);
    n.message = std::move(message);
    return n;
}

NormalizeResult invalidPayload(std::string message, std::string eventId, std::string subscriptionId)
{
    NormalizeResult n;
    n.outcome = NormalizeOutcome::Invalid;
    n.reason = "invalid_payload";
    n.message = std::move(message);
    n.providerEventId = std::move(eventId);
    n.providerSubscriptionId = std::move(subscriptionId);
    return n;
}

Timestamp requireUnixSeconds(const nlohmann::json &obj, std::string_view path, const char *key)
{
    const auto &v = requireField(obj, path, key);
    if (!v.is_number_integer())
        throw InputError(joinPath(path, key),
            std::string("expected unix seconds as an integer, got ") + v.type_name());
    std::int64_t seconds = 0;
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(kMaxUnixSeconds))
            throw InputError(joinPath(path, key), "is beyond the year 9999");
        seconds = static_cast<std::int64_t>(u);
    } else {
        seconds = v.get<std::int64_t>();
    }
    if (seconds < 0 || seconds > kMaxUnixSeconds)
        throw InputError(joinPath(path, key), "is outside the years 1970..9999");
    return Timestamp::fromSeconds(seconds);
}

Timestamp requireRfc3339(const nlohmann::json &obj, std::string_view path, const char *key)
{
    return requireTimestamp(obj, std::string(path), key);
}

std::optional<Timestamp> optionalRfc3339(
    const nlohmann::json &obj, std::string_view path, const char *key)
{
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return std::nullopt;
    return requireRfc3339(obj, path, key);
}

std::optional<Timestamp> optionalUnixSeconds(
    const nlohmann::json &obj, std::string_view path, const char *key)
{
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return std::nullopt;
    return requireUnixSeconds(obj, path, key);
}

void addRenewalRef(std::vector<std::string> &refs, const std::optional<std::string> &ref)
{
    if (ref && !ref->empty() && std::find(refs.begin(), refs.end(), *ref) == refs.end())
        refs.push_back(*ref);
}

std::string requireId(const nlohmann::json &obj, std::string_view path, const char *key)
{
    const auto &v = requireField(obj, path, key);
    if (v.is_number_integer()) {
        // At most 20 digits: within the identifier bound.
        return v.is_number_unsigned() ? std::to_string(v.get<std::uint64_t>())
                                      : std::to_string(v.get<std::int64_t>());
    }
    return requireIdentifier(obj, path, key);
}

std::int64_t requireMinorUnitsString(
    const nlohmann::json &obj, std::string_view path, const char *key)
{
    const std::string text = requireString(obj, path, key);
    // Plain digits only: a sign, a decimal point or an exponent would be a different contract.
    std::int64_t value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            throw InputError(joinPath(path, key),
                "'" + text + "' is not a string of decimal digits (minor units)");
        const int digit = c - '0';
        if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10)
            throw InputError(joinPath(path, key), "is too large");
        value = value * 10 + digit;
    }
    return value;
}

const nlohmann::json &requireArray(
    const nlohmann::json &obj, std::string_view path, const char *key)
{
    const auto &v = requireField(obj, path, key);
    if (!v.is_array())
        throw InputError(
            joinPath(path, key), std::string("expected an array, got ") + v.type_name());
    return v;
}

std::string indexPath(std::string_view path, std::size_t index)
{
    return std::string(path) + "[" + std::to_string(index) + "]";
}

Period checkedPeriod(Timestamp start, Timestamp end, const std::string &endPath)
{
    if (end <= start)
        throw InputError(endPath,
            "period end " + formatRfc3339(end) + " is not after its start " + formatRfc3339(start));
    return Period {start, end};
}

std::string requireCurrency(const nlohmann::json &obj, std::string_view path, const char *key)
{
    return normalizeCurrency(requireString(obj, path, key), joinPath(path, key));
}

SuccessfulRenewalEvent renewalEvent(const DeliveryIds &ids, std::string renewalKey)
{
    SuccessfulRenewalEvent e;
    e.providerKey = ids.providerKey;
    e.providerEventId = ids.eventId;
    e.providerSubscriptionId = ids.subscriptionId;
    e.providerRenewalKey = std::move(renewalKey);
    return e;
}

NormalizeResult moneyMoved(
    std::vector<MoneyMovement> movements, std::string reason, std::string message)
{
    if (movements.empty())
        return notARenewal(std::move(reason), message + " (moves no money)");
    NormalizeResult n;
    n.outcome = NormalizeOutcome::MoneyMovement;
    n.reason = std::move(reason);
    n.message = std::move(message);
    n.movements = std::move(movements);
    return n;
}

NormalizeResult finishedNormalization(NormalizeResult n)
{
    // Naming the event's field, so that no adapter can hand the database a key its indexes
    // cannot hold, an amount no payment has, or a period no plan has.
    if (n.event)
        checkEventBounds(*n.event);
    if (n.movements.size() > kMaxMovementsPerDelivery)
        throw InputError("movements",
            std::to_string(n.movements.size()) + " money movements in one payload, more than "
                + std::to_string(kMaxMovementsPerDelivery));
    for (std::size_t i = 0; i < n.movements.size(); ++i)
        checkMovementBounds(n.movements[i], indexPath("movements", i));
    if (n.trouble)
        checkTroubleBounds(*n.trouble, "trouble");
    if (n.outcome == NormalizeOutcome::PaymentTrouble) {
        if (!n.trouble)
            throw InputError("trouble", "payment trouble that tells nothing");
        if (n.providerSubscriptionId.empty())
            throw InputError("subscription", "payment trouble of no subscription");
        boundedIdentifier(n.providerSubscriptionId, "subscription");
    }
    if (n.outcome == NormalizeOutcome::Renewal && n.event)
        n.reason = "renewal";
    return n;
}

NormalizeResult paymentTrouble(
    PaymentTrouble trouble, std::string subscriptionId, std::string reason, std::string message)
{
    NormalizeResult n;
    n.outcome = NormalizeOutcome::PaymentTrouble;
    n.reason = std::move(reason);
    n.message = std::move(message);
    n.providerSubscriptionId = std::move(subscriptionId);
    n.trouble = std::move(trouble);
    return n;
}

NormalizeResult renewal(SuccessfulRenewalEvent event, std::string_view what)
{
    NormalizeResult n;
    n.outcome = NormalizeOutcome::Renewal;
    n.message = std::string(what) + " " + event.providerRenewalKey + " renews subscription "
        + event.providerSubscriptionId;
    n.event = std::move(event);
    return n;
}

const nlohmann::json &asListed(const nlohmann::json &item, std::string &)
{
    return item;
}

bool listObjectHasMore(const nlohmann::json &page)
{
    if (requireString(page, "", "object") != "list")
        throw InputError("object", "expected \"list\" on a list page");
    return requireBool(page, "", "has_more");
}

std::string stringAt(const nlohmann::json &body, std::initializer_list<const char *> keys)
{
    const nlohmann::json *at = &body;
    for (const char *key : keys) {
        if (!at->is_object())
            return {};
        const auto it = at->find(key);
        if (it == at->end())
            return {};
        at = &*it;
    }
    return at->is_string() ? at->get<std::string>() : std::string();
}

std::string customerEmail(std::string_view written)
{
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!written.empty() && space(written.front()))
        written.remove_prefix(1);
    while (!written.empty() && space(written.back()))
        written.remove_suffix(1);
    if (written.empty() || written.size() > kMaxCustomerEmailBytes)
        return {};
    const auto at = written.rfind('@');
    if (at == std::string_view::npos || at == 0 || at + 1 == written.size())
        return {};
    std::string email;
    email.reserve(written.size());
    for (const char c : written) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u == 0x7f)
            return {};
        email += u >= 'A' && u <= 'Z' ? static_cast<char>(u - 'A' + 'a') : c;
    }
    return email;
}

} // namespace rd::adapters
