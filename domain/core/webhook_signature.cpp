#include "domain/core/webhook_signature.h"

#include "domain/core/encoding.h"
#include "domain/core/errors.h"
#include "domain/core/providers/provider.h"
#include "domain/core/providers/signature_support.h"
#include "domain/core/sha256.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <variant>

namespace rd {
namespace {

using providers::trimmed;

// A signature header longer than this is refused before it is split: real ones are well under
// 1 KiB (a timestamp and a few 64-digit signatures), and the bound keeps the work per request
// (HMACs times candidates) small whatever a client sends.
constexpr std::size_t kMaxHeaderBytes = 4096;

SignatureCheck result(SignatureVerdict verdict, std::string detail)
{
    return SignatureCheck {verdict, std::move(detail)};
}

SignatureCheck verifyBasicAuth(
    std::string_view headerName, std::string_view value, const WebhookCredentials &credentials)
{
    const std::string name(headerName);
    const std::string_view v = trimmed(value);
    const auto space = v.find(' ');
    if (space == std::string_view::npos || !asciiIEquals(v.substr(0, space), "Basic"))
        return result(SignatureVerdict::Malformed, name + ": not the Basic scheme");
    const auto decoded = base64Decode(trimmed(v.substr(space + 1)));
    if (!decoded || decoded->empty())
        return result(SignatureVerdict::Malformed, name + ": credentials are not valid base64");
    if (decoded->find(':') == std::string::npos)
        return result(SignatureVerdict::Malformed, name + ": credentials hold no ':'");
    // Digests of equal length are compared, so that neither the time nor an early length
    // mismatch tells how long a configured user:password is.
    const std::string presented = sha256Hex(*decoded);
    bool matched = false;
    for (const std::string &pair : credentials.basicAuth)
        matched = constantTimeEquals(presented, sha256Hex(pair)) || matched;
    if (!matched)
        return result(SignatureVerdict::Mismatch,
            name + ": user and password match none of the "
                + std::to_string(credentials.basicAuth.size()) + " configured");
    return result(SignatureVerdict::Valid, {});
}

SignatureCheck verifyUnchecked(ProviderKind kind, const HeaderLookup &header,
    std::string_view rawBody, const WebhookCredentials &credentials,
    std::chrono::system_clock::time_point now, std::chrono::seconds tolerance)
{
    const ProviderDefinition *provider = findProviderDefinition(kind);
    if (!provider)
        return result(
            SignatureVerdict::NotConfigured, "no signature scheme for this provider kind");
    const SignatureScheme scheme = provider->signatureScheme();
    const std::string name(scheme.header);
    const bool basic = scheme.basicAuth;
    if (basic ? credentials.basicAuth.empty() : credentials.secrets.empty())
        return result(SignatureVerdict::NotConfigured,
            std::string("no ") + (basic ? "basicAuth" : "secrets") + " configured for this "
                + toString(kind) + " provider key");

    const auto value = header ? header(scheme.header) : std::nullopt;
    if (!value)
        return result(SignatureVerdict::Missing, name + ": absent");
    if (value->size() > kMaxHeaderBytes)
        return result(SignatureVerdict::Malformed,
            name + ": " + std::to_string(value->size()) + " bytes exceeds the limit of "
                + std::to_string(kMaxHeaderBytes));
    if (trimmed(*value).empty())
        return result(SignatureVerdict::Malformed, name + ": empty");
    if (basic)
        return verifyBasicAuth(scheme.header, *value, credentials);

    auto parsedOrError = provider->parseSignature(*value);
    if (const auto *error = std::get_if<std::string>(&parsedOrError))
        return result(SignatureVerdict::Malformed, name + ": " + *error);
    const auto &parsed = std::get<SignedHeader>(parsedOrError);

    std::string message;
    message.reserve(parsed.signedPrefix.size() + rawBody.size());
    message += parsed.signedPrefix;
    message += rawBody;
    bool matched = false;
    for (const std::string &secret : credentials.secrets) {
        const std::string expected = hmacSha256Hex(secret, message);
        for (const std::string &candidate : parsed.signatures)
            matched = constantTimeEquals(expected, candidate) || matched;
    }
    if (!matched)
        return result(SignatureVerdict::Mismatch,
            name + ": none of " + std::to_string(parsed.signatures.size())
                + " signature(s) matches any of " + std::to_string(credentials.secrets.size())
                + " configured secret(s)");

    // The signature is checked first: a stale verdict then says that the delivery is genuine
    // but old (a replay, or a clock that is off), never that a forgery carried an old time.
    if (scheme.timestamped && parsed.unixSeconds) {
        const std::int64_t nowSeconds
            = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
        const std::int64_t ts = *parsed.unixSeconds;
        // Both are far from the int64 limits (ts < 10^19 / 1 is checked by parseDecimalTimestamp,
        // now is a real clock), but the subtraction is done on the safe side anyway.
        const bool future = ts > nowSeconds;
        const std::uint64_t distance = future ? std::uint64_t(ts) - std::uint64_t(nowSeconds)
                                              : std::uint64_t(nowSeconds) - std::uint64_t(ts);
        const auto allowed
            = static_cast<std::uint64_t>(std::max<std::int64_t>(0, tolerance.count()));
        if (distance > allowed)
            return result(SignatureVerdict::StaleTimestamp,
                name + ": timestamp " + std::to_string(ts) + " is " + std::to_string(distance)
                    + " s " + (future ? "ahead of" : "before") + " now (tolerance "
                    + std::to_string(tolerance.count()) + " s)");
    }
    return result(SignatureVerdict::Valid, {});
}

} // namespace

std::string_view toString(SignatureVerdict verdict)
{
    switch (verdict) {
    case SignatureVerdict::Valid:
        return "valid";
    case SignatureVerdict::Missing:
        return "missing";
    case SignatureVerdict::Malformed:
        return "malformed";
    case SignatureVerdict::Mismatch:
        return "mismatch";
    case SignatureVerdict::StaleTimestamp:
        return "stale_timestamp";
    case SignatureVerdict::NotConfigured:
        return "not_configured";
    }
    return "unknown";
}

bool signsWithBasicAuth(ProviderKind kind)
{
    const ProviderDefinition *provider = findProviderDefinition(kind);
    return provider && provider->signatureScheme().basicAuth;
}

std::string_view signatureHeaderName(ProviderKind kind)
{
    const ProviderDefinition *provider = findProviderDefinition(kind);
    return provider ? provider->signatureScheme().header : std::string_view {};
}

std::string hmacSha256Hex(std::string_view key, std::string_view message)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    // A non-null key pointer even for an empty key: HMAC() treats a null key as "reuse".
    static const unsigned char kEmpty = 0;
    const void *keyData = key.empty() ? static_cast<const void *>(&kEmpty) : key.data();
    if (key.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())
        || HMAC(EVP_sha256(), keyData, static_cast<int>(key.size()),
               reinterpret_cast<const unsigned char *>(message.data()), message.size(), digest,
               &length)
            == nullptr)
        throw std::runtime_error("HMAC-SHA256: libcrypto's HMAC failed");
    return toHex(std::string_view(reinterpret_cast<const char *>(digest), length));
}

bool constantTimeEquals(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    if (a.empty())
        return true;
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

SignatureCheck verifyDelivery(ProviderKind kind, const HeaderLookup &header,
    std::string_view rawBody, const WebhookCredentials &credentials,
    std::chrono::system_clock::time_point now, std::chrono::seconds tolerance)
{
    try {
        return verifyUnchecked(kind, header, rawBody, credentials, now, tolerance);
    } catch (const std::exception &e) {
        // Only libcrypto or an allocation can fail here; the delivery is refused, not accepted.
        return result(SignatureVerdict::Malformed,
            std::string("the signature could not be checked (") + e.what() + ")");
    }
}

std::vector<std::pair<std::string, std::string>> signDelivery(ProviderKind kind,
    std::string_view rawBody, const WebhookCredentials &credentials,
    std::chrono::system_clock::time_point now)
{
    const ProviderDefinition *provider = findProviderDefinition(kind);
    if (!provider)
        throw InputError("kind", "no signature scheme for " + toString(kind));
    return {{std::string(provider->signatureScheme().header),
        provider->signatureFor(rawBody, credentials, now)}};
}

} // namespace rd
