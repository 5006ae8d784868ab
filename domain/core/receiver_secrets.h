#pragma once

// The receiver's secrets file: JSON, one entry per provider key, each a list so that secrets
// can rotate, and the provider's API key for `renewalctl statement fetch`:
//   {"stripe-main": {"secrets": ["whsec_new", "whsec_old"], "apiKey": "rk_live_..."},
//    "chargebee-us": {"basicAuth": ["user:password"], "apiKey": "live_..."}}

#include "domain/core/webhook_signature.h"

#include <map>
#include <string>
#include <string_view>

namespace rd {

/// One provider key's entry: what its webhook deliveries are checked with, and the API key its
/// lists are read with (empty: none). An entry may hold only an apiKey: statement fetch can
/// use it, the receiver refuses to serve it (loadReceiverKeys).
struct ProviderSecrets : WebhookCredentials
{
    std::string apiKey;
};

using ReceiverSecrets = std::map<std::string, ProviderSecrets>;

/// Parses the file's text. Throws InputError naming the key and field that is wrong (an entry
/// that is not an object, a secret that is not a non-empty string, an unknown member, a
/// basicAuth entry without ':', an apiKey that is not a non-empty string or holds a control
/// character, an entry with none of secrets, basicAuth and apiKey, a provider key or member
/// that appears twice, ...). Never quotes a secret.
ReceiverSecrets parseReceiverSecrets(std::string_view text);

/// `providerKey`'s API key, for statement fetch. Throws SetupError (exit 78) naming the file
/// and the provider key, never a secret, when the file has no entry or no apiKey for it.
const std::string &apiKeyFor(
    const ReceiverSecrets &secrets, const std::string &providerKey, const std::string &path);

/// Reads and parses `path`. Throws SetupError (exit 78 at the CLI) when the file is readable
/// or writable by group or others, is not a regular file, or cannot be read; InputError as
/// parseReceiverSecrets.
ReceiverSecrets loadReceiverSecrets(const std::string &path);

} // namespace rd
