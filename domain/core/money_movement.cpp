#include "domain/core/money_movement.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/renewal_event.h"

#include <nlohmann/json.hpp>

#include <array>
#include <utility>

namespace rd {
namespace {

constexpr std::array<std::pair<MovementKind, std::string_view>, 4> kKinds {{
    {MovementKind::Refund, "refund"},
    {MovementKind::RefundReversal, "refund_reversal"},
    {MovementKind::Chargeback, "chargeback"},
    {MovementKind::ChargebackReversal, "chargeback_reversal"},
}};

} // namespace

std::string_view toString(MovementKind kind)
{
    for (const auto &[k, text] : kKinds) {
        if (k == kind)
            return text;
    }
    return "refund";
}

std::optional<MovementKind> movementKindFromString(std::string_view text)
{
    for (const auto &[k, name] : kKinds) {
        if (name == text)
            return k;
    }
    return std::nullopt;
}

bool takesMoneyAway(MovementKind kind)
{
    return kind == MovementKind::Refund || kind == MovementKind::Chargeback;
}

std::string signedAmountSql(std::string_view alias)
{
    const std::string a(alias);
    return "CASE WHEN " + a + ".kind IN ('" + std::string(toString(MovementKind::Refund)) + "', '"
        + std::string(toString(MovementKind::Chargeback)) + "') THEN -" + a + ".amount_minor ELSE "
        + a + ".amount_minor END";
}

void checkMovementBounds(const MoneyMovement &m, const std::string &path)
{
    const auto field = [&](std::string_view name) { return joinPath(path, name); };
    if (m.movementKey.empty())
        throw InputError(field("movementKey"), "must not be empty");
    boundedIdentifier(m.movementKey, field("movementKey"));
    if (m.amountMinor <= 0)
        throw InputError(field("amountMinor"), "a movement moves more than nothing");
    if (m.amountMinor > kMaxAmountMinor)
        throw InputError(field("amountMinor"),
            std::to_string(m.amountMinor) + " minor units is more than any payment ("
                + std::to_string(kMaxAmountMinor) + " at most)");
    if (m.renewalRefs.empty())
        throw InputError(field("renewalRefs"), "names no renewal it pays back");
    if (m.renewalRefs.size() > kMaxRenewalRefs)
        throw InputError(field("renewalRefs"), "more than " + std::to_string(kMaxRenewalRefs));
    for (const auto &ref : m.renewalRefs) {
        if (ref.empty())
            throw InputError(field("renewalRefs"), "holds an empty ref");
        boundedIdentifier(ref, field("renewalRefs"));
    }
    if (m.cumulativeMinor
        && (m.kind != MovementKind::Refund || *m.cumulativeMinor != m.amountMinor))
        throw InputError(
            field("cumulativeMinor"), "a running total is a refund's, and its amount is the total");
}

nlohmann::json toJson(const MoneyMovement &m)
{
    nlohmann::json j {{"movementKey", m.movementKey}, {"kind", toString(m.kind)},
        {"amountMinor", m.amountMinor}, {"currency", m.currency},
        {"occurredAt", formatRfc3339(m.occurredAt)}, {"renewalRefs", m.renewalRefs}};
    if (m.cumulativeMinor)
        j["cumulativeMinor"] = *m.cumulativeMinor;
    return j;
}

} // namespace rd
