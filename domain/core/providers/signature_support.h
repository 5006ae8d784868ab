#pragma once

// Helpers shared by the kinds' signature schemes (<kind>/signature.cpp).

#include "domain/core/providers/provider.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rd::providers {

/// `s` without leading and trailing spaces and tabs.
std::string_view trimmed(std::string_view s);

/// `s` cut at each `separator`, each part trimmed.
std::vector<std::string_view> split(std::string_view s, char separator);

/// Lower-cases hex digits; std::nullopt when `text` is empty or holds anything but hex digits.
std::optional<std::string> normalizedHex(std::string_view text);

/// A decimal timestamp: digits only, no sign, no more than fits an int64.
std::optional<std::int64_t> parseDecimalTimestamp(std::string_view text);

/// A header of `key=value` elements cut at `separator`, holding one `timeKey` timestamp (Unix
/// seconds) and one or more `signatureKey` hex signatures (Stripe, Paddle); other keys are
/// ignored. The signed message is the timestamp's text, `prefixEnd`, then the body.
std::variant<SignedHeader, std::string> parseTimestampedPairs(std::string_view value,
    char separator, std::string_view timeKey, std::string_view signatureKey, char prefixEnd);

/// The secret a delivery of `kind` is signed with: the first one configured (InputError
/// "secrets" when there is none).
const std::string &signingSecret(const WebhookCredentials &credentials, ProviderKind kind);

/// `now` as decimal Unix seconds and as decimal Unix milliseconds.
std::string unixSecondsText(std::chrono::system_clock::time_point now);
std::string unixMillisText(std::chrono::system_clock::time_point now);

} // namespace rd::providers
