#include "domain/core/renewal_event.h"

#include "domain/core/currency.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <nlohmann/json.hpp>

namespace rd {

Timestamp requireTimestamp(const nlohmann::json &obj, const std::string &path, const char *key)
{
    const std::string text = requireString(obj, path, key);
    TimestampError why = TimestampError::NotRfc3339;
    const auto t = parseRfc3339(text, &why);
    if (!t && why == TimestampError::OutOfRange)
        throw InputError(joinPath(path, key),
            "'" + text + "' is outside " + formatRfc3339(kMinTimestamp) + " .. "
                + formatRfc3339(kMaxTimestamp) + " (UTC), the instants that can be stored");
    if (!t)
        throw InputError(joinPath(path, key),
            "'" + text
                + "' is not an RFC 3339 timestamp with an offset "
                  "(at most microsecond precision)");
    return *t;
}

Period requirePeriod(const nlohmann::json &obj, const std::string &path, const char *key)
{
    const auto &p = requireField(obj, path, key);
    const std::string periodPath = joinPath(path, key);
    if (!p.is_object())
        throw InputError(periodPath, "expected an object with start and end");
    return Period {
        requireTimestamp(p, periodPath, "start"), requireTimestamp(p, periodPath, "end")};
}

std::string normalizeCurrency(const std::string &code, const std::string &field)
{
    if (code.size() != 3)
        throw InputError(field, "'" + code + "' is not a three-letter ISO 4217 code");
    std::string out = code;
    for (char &c : out) {
        if (c >= 'a' && c <= 'z')
            c = static_cast<char>(c - 'a' + 'A');
        else if (c < 'A' || c > 'Z')
            throw InputError(field, "'" + code + "' is not a three-letter ISO 4217 code");
    }
    if (!isIsoCurrency(out))
        throw InputError(field, "currency '" + out + "' is not an active ISO 4217 code");
    return out;
}

SuccessfulRenewalEvent renewalEventFromJson(const nlohmann::json &json)
{
    if (!json.is_object())
        throw InputError("$", "expected a JSON object describing a renewal event");
    SuccessfulRenewalEvent e;
    e.providerKey = requireIdentifier(json, "", "providerKey");
    e.providerEventId = requireIdentifier(json, "", "providerEventId");
    e.providerSubscriptionId = requireIdentifier(json, "", "providerSubscriptionId");
    e.providerRenewalKey = requireIdentifier(json, "", "providerRenewalKey");
    // providerVersion must be present (null allowed): a missing key is more often a mistake.
    requireField(json, "", "providerVersion");
    e.providerVersion = optionalIdentifier(json, "", "providerVersion");
    e.period = requirePeriod(json, "", "period");
    e.paidAmountMinor = requireNonNegativeInteger(json, "", "paidAmountMinor");
    e.currency = normalizeCurrency(requireString(json, "", "currency"), "currency");
    e.paidAt = requireTimestamp(json, "", "paidAt");
    if (json.contains("paymentRefs")) {
        const auto &refs = json.at("paymentRefs");
        if (!refs.is_array())
            throw InputError("paymentRefs", "expected an array of strings");
        for (std::size_t i = 0; i < refs.size(); ++i) {
            if (!refs[i].is_string())
                throw InputError("paymentRefs[" + std::to_string(i) + "]", "expected a string");
            e.paymentRefs.push_back(refs[i].get<std::string>());
        }
    }
    checkEventBounds(e);
    return e;
}

namespace {

/// Whether `to` is more than `micros` after `from`; the instants span more than 64 bits of
/// microseconds between PostgreSQL's first and last, so the difference is taken with care.
bool moreThanAfter(Timestamp from, Timestamp to, std::int64_t micros)
{
    std::int64_t difference = 0;
    if (__builtin_sub_overflow(to.micros, from.micros, &difference))
        return to.micros > from.micros;
    return difference > micros;
}

} // namespace

void checkEventBounds(const SuccessfulRenewalEvent &e)
{
    boundedIdentifier(e.providerKey, "providerKey");
    boundedIdentifier(e.providerEventId, "providerEventId");
    boundedIdentifier(e.providerSubscriptionId, "providerSubscriptionId");
    boundedIdentifier(e.providerRenewalKey, "providerRenewalKey");
    if (e.providerVersion)
        boundedIdentifier(*e.providerVersion, "providerVersion");
    if (e.paymentRefs.size() > kMaxPaymentRefs)
        throw InputError("paymentRefs",
            std::to_string(e.paymentRefs.size()) + " refs, more than a payment has ("
                + std::to_string(kMaxPaymentRefs) + " at most)");
    for (const auto &ref : e.paymentRefs)
        boundedIdentifier(ref, "paymentRefs");
    if (e.paidAmountMinor > kMaxAmountMinor)
        throw InputError("paidAmountMinor",
            std::to_string(e.paidAmountMinor) + " minor units is more than any payment ("
                + std::to_string(kMaxAmountMinor) + " at most)");
    constexpr std::int64_t kMaxPeriodMicros = std::int64_t {kMaxPeriodDays} * 86'400'000'000;
    if (moreThanAfter(e.period.start, e.period.end, kMaxPeriodMicros))
        throw InputError("period",
            "from " + formatRfc3339(e.period.start) + " to " + formatRfc3339(e.period.end)
                + " is longer than any plan (" + std::to_string(kMaxPeriodDays) + " days at most)");
    if (moreThanAfter(e.paidAt, e.period.end, kMaxPeriodMicros))
        throw InputError("period.end",
            formatRfc3339(e.period.end) + " is more than " + std::to_string(kMaxPeriodDays)
                + " days after the payment (" + formatRfc3339(e.paidAt) + ")");
}

nlohmann::json toJson(const Period &period)
{
    return {{"start", formatRfc3339(period.start)}, {"end", formatRfc3339(period.end)}};
}

nlohmann::json toJson(const SuccessfulRenewalEvent &e)
{
    nlohmann::json json {{"providerKey", e.providerKey}, {"providerEventId", e.providerEventId},
        {"providerSubscriptionId", e.providerSubscriptionId},
        {"providerRenewalKey", e.providerRenewalKey},
        {"providerVersion",
            e.providerVersion ? nlohmann::json(*e.providerVersion) : nlohmann::json(nullptr)},
        {"period", toJson(e.period)}, {"paidAmountMinor", e.paidAmountMinor},
        {"currency", e.currency}, {"paidAt", formatRfc3339(e.paidAt)}};
    if (!e.paymentRefs.empty())
        json["paymentRefs"] = e.paymentRefs;
    return json;
}

} // namespace rd
