// X-Signature: the hex HMAC-SHA256 of the body under the webhook's signing secret; no time is
// signed.

#include "domain/core/providers/lemonsqueezy/lemonsqueezy.h"

#include "domain/core/providers/signature_support.h"
#include "domain/core/webhook_signature.h"

namespace rd::providers {

SignatureScheme LemonSqueezy::signatureScheme() const
{
    return {"X-Signature", false, false};
}

std::variant<SignedHeader, std::string> LemonSqueezy::parseSignature(std::string_view value) const
{
    auto hex = normalizedHex(trimmed(value));
    if (!hex)
        return std::string("not a hexadecimal signature");
    SignedHeader parsed;
    parsed.signatures.push_back(std::move(*hex));
    return parsed;
}

std::string LemonSqueezy::signatureFor(std::string_view rawBody,
    const WebhookCredentials &credentials, std::chrono::system_clock::time_point) const
{
    return hmacSha256Hex(signingSecret(credentials, ProviderKind::LemonSqueezy), rawBody);
}

} // namespace rd::providers
