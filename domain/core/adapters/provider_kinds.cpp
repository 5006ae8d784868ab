#include "domain/core/adapters/provider_kinds.h"

#include "domain/core/adapters/adapter_support.h"

#include <nlohmann/json.hpp>

#include <array>

namespace rd {
namespace {

// Each adapter takes what it needs of (providerKey, rawBody, body): Recurly re-parses the raw
// body to keep decimal text, Lemon Squeezy and Recurly hash it for their event ids.
constexpr std::array<ProviderKindInfo, 5> kProviderKinds {{
    {ProviderKind::Stripe, "stripe",
        [](std::string_view key, std::string_view, const nlohmann::json &body) {
            return adapters::normalizeStripe(key, body);
        },
        false},
    {ProviderKind::Paddle, "paddle",
        [](std::string_view key, std::string_view, const nlohmann::json &body) {
            return adapters::normalizePaddle(key, body);
        },
        false},
    {ProviderKind::Chargebee, "chargebee",
        [](std::string_view key, std::string_view, const nlohmann::json &body) {
            return adapters::normalizeChargebee(key, body);
        },
        false},
    {ProviderKind::Recurly, "recurly",
        [](std::string_view key, std::string_view rawBody, const nlohmann::json &) {
            return adapters::normalizeRecurly(key, rawBody);
        },
        true},
    {ProviderKind::LemonSqueezy, "lemonsqueezy",
        [](std::string_view key, std::string_view rawBody, const nlohmann::json &body) {
            return adapters::normalizeLemonSqueezy(key, rawBody, body);
        },
        true},
}};

constexpr bool rowsInEnumOrder()
{
    for (std::size_t i = 0; i < kProviderKinds.size(); ++i) {
        if (kProviderKinds[i].kind != static_cast<ProviderKind>(i))
            return false;
    }
    return true;
}
static_assert(rowsInEnumOrder(), "kProviderKinds lists every ProviderKind once, in enum order");

} // namespace

std::span<const ProviderKindInfo> providerKinds()
{
    return kProviderKinds;
}

std::vector<std::string> providerKindNames()
{
    std::vector<std::string> names;
    for (const auto &row : kProviderKinds)
        names.emplace_back(row.name);
    return names;
}

std::optional<ProviderKind> providerKindFromString(std::string_view name)
{
    for (const auto &row : kProviderKinds) {
        if (row.name == name)
            return row.kind;
    }
    return std::nullopt;
}

std::string toString(ProviderKind kind)
{
    const auto index = static_cast<std::size_t>(kind);
    return index < kProviderKinds.size() ? std::string(kProviderKinds[index].name) : "unknown";
}

} // namespace rd
