#pragma once

// The billing provider kinds, in one table: each kind's name and adapter. Adding a provider is
// a row here plus its adapter; the CHECK on billing_providers.kind (migrations) must list the
// same names, which tst_ingest verifies against this table.

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

/// The billing providers an adapter exists for.
enum class ProviderKind { Stripe, Paddle, Chargebee, Recurly, LemonSqueezy };

struct NormalizeResult;

/// One row of the table: everything that differs per provider kind.
struct ProviderKindInfo
{
    ProviderKind kind;
    /// As stored in billing_providers.kind and typed on the command line ("lemonsqueezy").
    std::string_view name;
    /// The adapter: the provider key, the verified body and that body parsed under the shared
    /// limits. May throw InputError (normalizePayload turns it into NormalizeOutcome::Invalid).
    NormalizeResult (*normalize)(
        std::string_view providerKey, std::string_view rawBody, const nlohmann::json &body);
    /// The provider sends no delivery id: its event id is derivedEventId(rawBody), even for a
    /// body too broken to read.
    bool derivesEventIds;
};

/// Every provider kind, in the order of ProviderKind.
std::span<const ProviderKindInfo> providerKinds();

/// The kinds' names in table order ("stripe", "paddle", ...), e.g. for a usage line.
std::vector<std::string> providerKindNames();

/// The kind named `name`; std::nullopt for anything that is not a name in the table.
std::optional<ProviderKind> providerKindFromString(std::string_view name);
std::string toString(ProviderKind kind);

} // namespace rd
