// Recurly-Signature: "<unix milliseconds>,<hex>[,<hex>...]", HMAC-SHA256 of "<ms>.<body>" under
// the webhook endpoint's key.

#include "domain/core/providers/recurly/recurly.h"

#include "domain/core/providers/signature_support.h"
#include "domain/core/webhook_signature.h"

namespace rd::providers {

SignatureScheme Recurly::signatureScheme() const
{
    return {"Recurly-Signature", true, false};
}

std::variant<SignedHeader, std::string> Recurly::parseSignature(std::string_view value) const
{
    SignedHeader parsed;
    const auto items = split(value, ',');
    const auto ms = parseDecimalTimestamp(items.front());
    if (!ms)
        return std::string("the first element is not a decimal Unix time in milliseconds");
    if (items.size() < 2)
        return std::string("no signature after the timestamp");
    for (std::size_t i = 1; i < items.size(); ++i) {
        auto hex = normalizedHex(items[i]);
        if (!hex)
            return "signature " + std::to_string(i) + " is not hexadecimal";
        parsed.signatures.push_back(std::move(*hex));
    }
    parsed.unixSeconds = *ms / 1000;
    parsed.signedPrefix = std::string(items.front()) + ".";
    return parsed;
}

std::string Recurly::signatureFor(std::string_view rawBody, const WebhookCredentials &credentials,
    std::chrono::system_clock::time_point now) const
{
    const std::string &secret = signingSecret(credentials, ProviderKind::Recurly);
    const std::string millis = unixMillisText(now);
    return millis + "," + hmacSha256Hex(secret, millis + "." + std::string(rawBody));
}

} // namespace rd::providers
