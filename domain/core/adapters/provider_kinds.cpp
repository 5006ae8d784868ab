#include "domain/core/adapters/provider_kinds.h"

#include "domain/core/errors.h"
#include "domain/core/providers/chargebee/chargebee.h"
#include "domain/core/providers/lemonsqueezy/lemonsqueezy.h"
#include "domain/core/providers/paddle/paddle.h"
#include "domain/core/providers/recurly/recurly.h"
#include "domain/core/providers/stripe/stripe.h"

#include <array>

namespace rd {
namespace {

// One instance of each kind: a kind lacking a part of ProviderDefinition is abstract, and
// its instance here does not compile.
constexpr providers::Stripe kStripe;
constexpr providers::Paddle kPaddle;
constexpr providers::Chargebee kChargebee;
constexpr providers::Recurly kRecurly;
constexpr providers::LemonSqueezy kLemonSqueezy;

constexpr std::array<ProviderKindInfo, 5> kProviderKinds {{
    {ProviderKind::Stripe, "stripe", kStripe},
    {ProviderKind::Paddle, "paddle", kPaddle},
    {ProviderKind::Chargebee, "chargebee", kChargebee},
    {ProviderKind::Recurly, "recurly", kRecurly},
    {ProviderKind::LemonSqueezy, "lemonsqueezy", kLemonSqueezy},
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

// The table's one switch on a kind, there so that the compiler counts the kinds: -Wswitch is an
// error here, so a ProviderKind added to the enum must get a case, and the case's number past
// the last row then fails the static_assert below until the kind has its row.
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
constexpr int ordinalPlusOne(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::Stripe:
        return 1;
    case ProviderKind::Paddle:
        return 2;
    case ProviderKind::Chargebee:
        return 3;
    case ProviderKind::Recurly:
        return 4;
    case ProviderKind::LemonSqueezy:
        return 5;
    }
    return 0; // a value past the enum's kinds
}
#pragma GCC diagnostic pop
static_assert(ordinalPlusOne(static_cast<ProviderKind>(kProviderKinds.size())) == 0,
    "every ProviderKind has a row in kProviderKinds");
static_assert(ordinalPlusOne(kProviderKinds.back().kind) == kProviderKinds.size());

} // namespace

std::span<const ProviderKindInfo> providerKinds()
{
    return kProviderKinds;
}

const ProviderDefinition *findProviderDefinition(ProviderKind kind)
{
    const auto index = static_cast<std::size_t>(kind);
    return index < kProviderKinds.size() ? &kProviderKinds[index].definition : nullptr;
}

const ProviderDefinition &providerDefinition(ProviderKind kind)
{
    if (const auto *definition = findProviderDefinition(kind))
        return *definition;
    throw InputError("kind", "unknown provider kind");
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
