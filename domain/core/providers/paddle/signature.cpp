// Paddle-Signature: "ts=<unix seconds>;h1=<hex>", HMAC-SHA256 of "<ts>:<body>" under the
// notification destination's secret key.

#include "domain/core/providers/paddle/paddle.h"

#include "domain/core/providers/signature_support.h"
#include "domain/core/webhook_signature.h"

namespace rd::providers {

SignatureScheme Paddle::signatureScheme() const
{
    return {"Paddle-Signature", true, false};
}

std::variant<SignedHeader, std::string> Paddle::parseSignature(std::string_view value) const
{
    return parseTimestampedPairs(value, ';', "ts", "h1", ':');
}

std::string Paddle::signatureFor(std::string_view rawBody, const WebhookCredentials &credentials,
    std::chrono::system_clock::time_point now) const
{
    const std::string &secret = signingSecret(credentials, ProviderKind::Paddle);
    const std::string seconds = unixSecondsText(now);
    return "ts=" + seconds + ";h1=" + hmacSha256Hex(secret, seconds + ":" + std::string(rawBody));
}

} // namespace rd::providers
