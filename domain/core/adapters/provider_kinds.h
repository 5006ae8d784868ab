#pragma once

// The billing provider kinds, in one table: each kind's name and its definition, the one
// instance of its class in domain/core/providers/<kind>/ (providers/provider.h: the adapter,
// the signature scheme, the list paging, the snapshot reader, the demo payloads). Adding a
// provider is its folder and a row here; the CHECK on billing_providers.kind (migrations) must
// list the same names, which tst_ingest verifies against this table.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

/// The billing providers an adapter exists for.
enum class ProviderKind { Stripe, Paddle, Chargebee, Recurly, LemonSqueezy };

class ProviderDefinition;

/// One row of the table: everything that differs per provider kind.
struct ProviderKindInfo
{
    ProviderKind kind;
    /// As stored in billing_providers.kind and typed on the command line ("lemonsqueezy").
    std::string_view name;
    /// Every part of the kind (providers/provider.h).
    const ProviderDefinition &definition;
};

/// Every provider kind, in the order of ProviderKind.
std::span<const ProviderKindInfo> providerKinds();

/// The definition of `kind`; nullptr for a value that is no kind of the table (a ProviderKind
/// cast from a number).
const ProviderDefinition *findProviderDefinition(ProviderKind kind);

/// The definition of `kind`; InputError ("kind") for a value that is no kind of the table.
const ProviderDefinition &providerDefinition(ProviderKind kind);

/// The kinds' names in table order ("stripe", "paddle", ...), e.g. for a usage line.
std::vector<std::string> providerKindNames();

/// The kind named `name`; std::nullopt for anything that is not a name in the table.
std::optional<ProviderKind> providerKindFromString(std::string_view name);
std::string toString(ProviderKind kind);

} // namespace rd
