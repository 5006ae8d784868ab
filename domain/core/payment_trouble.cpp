#include "domain/core/payment_trouble.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/renewal_event.h"

#include <nlohmann/json.hpp>

#include <array>
#include <utility>

namespace rd {
namespace {

constexpr std::array<std::pair<ProviderStanding, std::string_view>, 5> kStandings {{
    {ProviderStanding::Active, "active"},
    {ProviderStanding::PastDue, "past_due"},
    {ProviderStanding::Unpaid, "unpaid"},
    {ProviderStanding::Paused, "paused"},
    {ProviderStanding::Canceled, "canceled"},
}};

/// The longest decline code or reason word kept: codes are short words (card_declined,
/// insufficient_funds, 2001); anything longer is not one.
constexpr std::size_t kMaxCodeBytes = 100;

void boundedCode(const std::string &code, const std::string &field)
{
    if (code.size() > kMaxCodeBytes)
        throw InputError(field, "longer than " + std::to_string(kMaxCodeBytes) + " bytes");
    for (const unsigned char c : code) {
        if (c < 0x20 || c == 0x7f)
            throw InputError(field, "holds a control character");
    }
}

nlohmann::json orNull(const std::string &text)
{
    return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

} // namespace

std::string_view toString(ProviderStanding standing)
{
    for (const auto &[s, text] : kStandings) {
        if (s == standing)
            return text;
    }
    return "active";
}

std::optional<ProviderStanding> providerStandingFromString(std::string_view text)
{
    for (const auto &[s, name] : kStandings) {
        if (name == text)
            return s;
    }
    return std::nullopt;
}

void checkTroubleBounds(const PaymentTrouble &t, const std::string &path)
{
    const auto field = [&](std::string_view name) { return joinPath(path, name); };
    if (t.attempts.empty() && !t.standing)
        throw InputError(
            path.empty() ? "paymentTrouble" : path, "tells no attempt and no standing");
    if (t.attempts.size() > kMaxAttemptsPerDelivery)
        throw InputError(field("attempts"),
            std::to_string(t.attempts.size()) + " attempts in one payload, more than "
                + std::to_string(kMaxAttemptsPerDelivery));
    for (std::size_t i = 0; i < t.attempts.size(); ++i) {
        const FailedAttempt &a = t.attempts[i];
        const std::string at = joinPath(field("attempts"), std::to_string(i));
        if (a.invoiceKey.empty())
            throw InputError(joinPath(at, "invoiceKey"), "must not be empty");
        boundedIdentifier(a.invoiceKey, joinPath(at, "invoiceKey"));
        if (a.attempt < 1 || a.attempt > kMaxAttemptNumber)
            throw InputError(joinPath(at, "attempt"),
                std::to_string(a.attempt) + " is not an attempt number (1 to "
                    + std::to_string(kMaxAttemptNumber) + ")");
        boundedCode(a.declineCode, joinPath(at, "declineCode"));
        if (a.amountMinor) {
            if (*a.amountMinor < 0 || *a.amountMinor > kMaxAmountMinor)
                throw InputError(joinPath(at, "amountMinor"),
                    std::to_string(*a.amountMinor) + " minor units is not a payment (0 to "
                        + std::to_string(kMaxAmountMinor) + ")");
            if (a.currency.empty())
                throw InputError(joinPath(at, "currency"), "an amount needs its currency");
        }
    }
    if (t.standing)
        boundedCode(t.standing->reason, joinPath(field("standing"), "reason"));
}

nlohmann::json toJson(const PaymentTrouble &t)
{
    nlohmann::json attempts = nlohmann::json::array();
    for (const auto &a : t.attempts) {
        nlohmann::json j {{"invoiceKey", a.invoiceKey}, {"attempt", a.attempt},
            {"failedAt", formatRfc3339(a.failedAt)},
            {"nextAttemptAt",
                a.nextAttemptAt ? nlohmann::json(formatRfc3339(*a.nextAttemptAt))
                                : nlohmann::json(nullptr)},
            {"declineCode", orNull(a.declineCode)}};
        if (a.amountMinor) {
            j["amountMinor"] = *a.amountMinor;
            j["currency"] = a.currency;
        }
        attempts.push_back(std::move(j));
    }
    nlohmann::json standing = nullptr;
    if (t.standing)
        standing = {{"standing", toString(t.standing->standing)},
            {"observedAt", formatRfc3339(t.standing->observedAt)},
            {"reason", orNull(t.standing->reason)}};
    return {{"attempts", std::move(attempts)}, {"standing", std::move(standing)}};
}

} // namespace rd
