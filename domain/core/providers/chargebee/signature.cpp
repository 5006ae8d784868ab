// Chargebee signs nothing: its webhooks carry HTTP basic auth ("Authorization: Basic ...") with
// a user and password configured on the site, checked against WebhookCredentials::basicAuth by
// the shared basic-auth check (webhook_signature.cpp).

#include "domain/core/providers/chargebee/chargebee.h"

#include "domain/core/encoding.h"
#include "domain/core/errors.h"
#include "domain/core/webhook_signature.h"

namespace rd::providers {

SignatureScheme Chargebee::signatureScheme() const
{
    return {"Authorization", false, true};
}

std::variant<SignedHeader, std::string> Chargebee::parseSignature(std::string_view) const
{
    return std::string("not an HMAC scheme");
}

std::string Chargebee::signatureFor(std::string_view, const WebhookCredentials &credentials,
    std::chrono::system_clock::time_point) const
{
    if (credentials.basicAuth.empty())
        throw InputError("basicAuth", "no user:password to sign a chargebee delivery with");
    return "Basic " + base64Encode(credentials.basicAuth.front());
}

} // namespace rd::providers
