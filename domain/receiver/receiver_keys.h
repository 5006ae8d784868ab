#pragma once

#include "domain/core/adapters/provider_kinds.h"
#include "domain/core/receiver_secrets.h"

#include <map>
#include <string>

namespace rd {

/// What the receiver checks a delivery against: the provider keys it serves, with their kind
/// (from billing_providers) and their credentials (from the secrets file).
struct ReceiverKeys
{
    ReceiverSecrets secrets;
    std::map<std::string, ProviderKind> kinds;
};

/// Loads the secrets file and the registered providers. Throws SetupError (exit 78) when the
/// file is unsafe or unreadable, names a provider key that is not registered, or gives a key
/// no credentials of the kind its provider is checked with (a Chargebee key without
/// "basicAuth", a signing provider without "secrets", an entry with only an apiKey); InputError
/// when its content is wrong; DatabaseUnavailable when the database cannot be asked.
ReceiverKeys loadReceiverKeys(const std::string &secretsPath, const std::string &conninfo);

} // namespace rd
