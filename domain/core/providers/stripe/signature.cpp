// Stripe-Signature: "t=<unix seconds>,v1=<hex>[,v1=<hex>...]" (a v0 and other schemes may ride
// along and are ignored), HMAC-SHA256 of "<t>.<body>" under the endpoint's signing secret.

#include "domain/core/providers/stripe/stripe.h"

#include "domain/core/providers/signature_support.h"
#include "domain/core/webhook_signature.h"

namespace rd::providers {

SignatureScheme Stripe::signatureScheme() const
{
    return {"Stripe-Signature", true, false};
}

std::variant<SignedHeader, std::string> Stripe::parseSignature(std::string_view value) const
{
    return parseTimestampedPairs(value, ',', "t", "v1", '.');
}

std::string Stripe::signatureFor(std::string_view rawBody, const WebhookCredentials &credentials,
    std::chrono::system_clock::time_point now) const
{
    const std::string &secret = signingSecret(credentials, ProviderKind::Stripe);
    const std::string seconds = unixSecondsText(now);
    return "t=" + seconds + ",v1=" + hmacSha256Hex(secret, seconds + "." + std::string(rawBody));
}

} // namespace rd::providers
