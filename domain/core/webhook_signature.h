#pragma once

// How a delivery proves that it comes from the provider: each provider kind's signature
// scheme, checked over the raw body bytes before anything parses them. HMAC-SHA256 by OpenSSL,
// compared in constant time, every configured secret tried (secrets rotate).

#include "domain/core/adapters/provider_kinds.h"

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rd {

/// What a provider key is allowed to sign with: HMAC secrets (Stripe, Paddle, Recurly, Lemon
/// Squeezy), or for Chargebee "user:password" pairs for HTTP basic auth. A list each, so that
/// an old and a new secret are both accepted while a rotation is under way.
struct WebhookCredentials
{
    std::vector<std::string> secrets;
    std::vector<std::string> basicAuth;
};

enum class SignatureVerdict {
    Valid,
    Missing, ///< the signature header (or Authorization) is absent: 400 (Chargebee: 401)
    Malformed, ///< present but not in the provider's format: 400
    Mismatch, ///< well-formed, but no configured secret produces it: 400 (Chargebee: 401)
    StaleTimestamp, ///< signed, but its timestamp is outside the tolerance: 400
    NotConfigured, ///< the credentials hold nothing this kind can check with: refuse, 400
};
std::string_view toString(SignatureVerdict verdict);

struct SignatureCheck
{
    SignatureVerdict verdict = SignatureVerdict::Missing;
    /// One line for the log and the 4xx body, naming what was wrong (never a secret, never
    /// the expected signature): "Stripe-Signature: no v1= signature", "timestamp 1700000000 is
    /// 812 s from now (tolerance 300 s)".
    std::string detail;

    bool valid() const { return verdict == SignatureVerdict::Valid; }
};

/// A request header by name, compared case-insensitively; nullopt when absent.
using HeaderLookup = std::function<std::optional<std::string_view>(std::string_view name)>;

/// Checks one delivery of `kind` against `credentials`. Pure: `now` is passed in. `tolerance`
/// bounds the age (and the future skew) of a signed timestamp, for the schemes that sign one
/// (Stripe, Paddle, Recurly). Never throws on any header or body content.
SignatureCheck verifyDelivery(ProviderKind kind, const HeaderLookup &header,
    std::string_view rawBody, const WebhookCredentials &credentials,
    std::chrono::system_clock::time_point now, std::chrono::seconds tolerance);

/// The headers a provider of `kind` would send with `rawBody` at `now`, signed with the first
/// secret (or the first basic-auth pair): for the simulator and tests. Throws InputError when
/// the credentials hold nothing for this kind.
std::vector<std::pair<std::string, std::string>> signDelivery(ProviderKind kind,
    std::string_view rawBody, const WebhookCredentials &credentials,
    std::chrono::system_clock::time_point now);

/// The request header that carries the proof for `kind`: "Stripe-Signature",
/// "Paddle-Signature", "Recurly-Signature", "X-Signature" (Lemon Squeezy) or "Authorization"
/// (Chargebee's HTTP basic auth).
std::string_view signatureHeaderName(ProviderKind kind);

/// Whether `kind` proves its deliveries with HTTP basic auth (WebhookCredentials::basicAuth,
/// Chargebee) rather than an HMAC signature (WebhookCredentials::secrets).
bool signsWithBasicAuth(ProviderKind kind);

/// Lower-case hex HMAC-SHA256 of `message` under `key`.
std::string hmacSha256Hex(std::string_view key, std::string_view message);

/// Constant-time equality for equal lengths (a length difference is not secret).
bool constantTimeEquals(std::string_view a, std::string_view b);

} // namespace rd
