#pragma once

#include "domain/core/adapters/normalization.h"
#include "domain/store/db_session.h"

#include <optional>
#include <string>
#include <vector>

namespace rd {

/// A configured billing provider: deliveries arrive under its key and are normalized by the
/// adapter of its kind.
struct BillingProvider
{
    std::string key;
    ProviderKind kind = ProviderKind::Stripe;
    std::string displayName;
    std::string createdAt; ///< RFC 3339
};

enum class RegisterOutcome { Created, Exists };

/// Registers a provider. The same key, kind and name again is a no-op (Exists), so scripts can
/// run it repeatedly; the key registered with another kind or name throws InputError
/// ("provider_exists: ..."), because stored deliveries were normalized with the old kind.
RegisterOutcome registerBillingProvider(
    DbRef db, const std::string &key, ProviderKind kind, const std::string &displayName);

std::vector<BillingProvider> listBillingProviders(DbRef db);
/// The kind of the provider registered under `key`; nothing when none is.
std::optional<ProviderKind> providerKindOf(DbRef db, const std::string &key);
/// The same over a connection of its own (for callers without libpqxx: the receiver).
std::vector<BillingProvider> listBillingProviders(const std::string &conninfo);

} // namespace rd
