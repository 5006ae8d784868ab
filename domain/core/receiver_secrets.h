#pragma once

// The receiver's secrets file: JSON, one entry per provider key, each a list so that secrets
// can rotate:
//   {"stripe-main": {"secrets": ["whsec_new", "whsec_old"]},
//    "chargebee-us": {"basicAuth": ["user:password"]}}

#include "domain/core/webhook_signature.h"

#include <map>
#include <string>
#include <string_view>

namespace rd {

using ReceiverSecrets = std::map<std::string, WebhookCredentials>;

/// Parses the file's text. Throws InputError naming the key and field that is wrong (an entry
/// that is not an object, a secret that is not a non-empty string, an unknown member, a
/// basicAuth entry without ':', an entry with neither list, a provider key or member that
/// appears twice, ...). Never quotes a secret.
ReceiverSecrets parseReceiverSecrets(std::string_view text);

/// Reads and parses `path`. Throws SetupError (exit 78 at the CLI) when the file is readable
/// or writable by group or others, is not a regular file, or cannot be read; InputError as
/// parseReceiverSecrets.
ReceiverSecrets loadReceiverSecrets(const std::string &path);

} // namespace rd
