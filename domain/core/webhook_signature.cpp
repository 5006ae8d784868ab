#include "domain/core/webhook_signature.h"

#include "domain/core/encoding.h"
#include "domain/core/errors.h"
#include "domain/core/sha256.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <variant>

namespace rd {
namespace {

// A signature header longer than this is refused before it is split: real ones are well under
// 1 KiB (a timestamp and a few 64-digit signatures), and the bound keeps the work per request
// (HMACs times candidates) small whatever a client sends.
constexpr std::size_t kMaxHeaderBytes = 4096;

struct Scheme
{
    std::string_view header;
    bool timestamped;
};

Scheme schemeOf(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::Stripe:
        return {"Stripe-Signature", true};
    case ProviderKind::Paddle:
        return {"Paddle-Signature", true};
    case ProviderKind::Recurly:
        return {"Recurly-Signature", true};
    case ProviderKind::LemonSqueezy:
        return {"X-Signature", false};
    case ProviderKind::Chargebee:
        return {"Authorization", false};
    }
    return {"", false};
}

SignatureCheck result(SignatureVerdict verdict, std::string detail)
{
    return SignatureCheck {verdict, std::move(detail)};
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> split(std::string_view s, char separator)
{
    std::vector<std::string_view> parts;
    for (;;) {
        const auto p = s.find(separator);
        parts.push_back(trimmed(s.substr(0, p)));
        if (p == std::string_view::npos)
            return parts;
        s.remove_prefix(p + 1);
    }
}

/// Lower-cases hex digits; std::nullopt when `text` is empty or holds anything but hex digits.
std::optional<std::string> normalizedHex(std::string_view text)
{
    if (text.empty())
        return std::nullopt;
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        if (c >= '0' && c <= '9')
            out += c;
        else if (c >= 'a' && c <= 'f')
            out += c;
        else if (c >= 'A' && c <= 'F')
            out += static_cast<char>(c - 'A' + 'a');
        else
            return std::nullopt;
    }
    return out;
}

/// A decimal timestamp: digits only, no sign, no more than fits an int64.
std::optional<std::int64_t> parseTimestamp(std::string_view text)
{
    if (text.empty() || text.size() > 19)
        return std::nullopt;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
    }
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

struct ParsedHeader
{
    std::optional<std::int64_t> unixSeconds; ///< for the timestamped schemes
    std::string signedPrefix; ///< what precedes the body in the signed message
    std::vector<std::string> signatures; ///< normalized lower-case hex
};

/// Parses the header value of an HMAC scheme, or says (in the returned string) what is wrong.
std::variant<ParsedHeader, std::string> parseHmacHeader(ProviderKind kind, std::string_view value)
{
    ParsedHeader parsed;
    switch (kind) {
    case ProviderKind::Stripe:
    case ProviderKind::Paddle: {
        const bool stripe = kind == ProviderKind::Stripe;
        const char separator = stripe ? ',' : ';';
        const std::string_view timeKey = stripe ? "t" : "ts";
        const std::string_view signatureKey = stripe ? "v1" : "h1";
        std::optional<std::string_view> timeText;
        for (const std::string_view item : split(value, separator)) {
            const auto eq = item.find('=');
            if (eq == std::string_view::npos)
                return std::string("an element without '='");
            const std::string_view key = item.substr(0, eq);
            const std::string_view v = item.substr(eq + 1);
            if (key == timeKey) {
                if (timeText)
                    return "more than one " + std::string(timeKey) + "= timestamp";
                timeText = v;
            } else if (key == signatureKey) {
                auto hex = normalizedHex(v);
                if (!hex)
                    return std::string(signatureKey) + "= is not hexadecimal";
                parsed.signatures.push_back(std::move(*hex));
            }
            // Other schemes (Stripe's v0, a future h2) are not ours to check: ignored.
        }
        if (!timeText)
            return "no " + std::string(timeKey) + "= timestamp";
        parsed.unixSeconds = parseTimestamp(*timeText);
        if (!parsed.unixSeconds)
            return std::string(timeKey) + "= is not a decimal Unix timestamp";
        if (parsed.signatures.empty())
            return "no " + std::string(signatureKey) + "= signature";
        parsed.signedPrefix = std::string(*timeText) + (stripe ? "." : ":");
        return parsed;
    }
    case ProviderKind::Recurly: {
        const auto items = split(value, ',');
        const auto ms = parseTimestamp(items.front());
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
    case ProviderKind::LemonSqueezy: {
        auto hex = normalizedHex(trimmed(value));
        if (!hex)
            return std::string("not a hexadecimal signature");
        parsed.signatures.push_back(std::move(*hex));
        return parsed;
    }
    case ProviderKind::Chargebee:
        break;
    }
    return std::string("not an HMAC scheme");
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
    const Scheme scheme = schemeOf(kind);
    const std::string name(scheme.header);
    if (scheme.header.empty())
        return result(
            SignatureVerdict::NotConfigured, "no signature scheme for this provider kind");
    const bool basic = signsWithBasicAuth(kind);
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

    auto parsedOrError = parseHmacHeader(kind, *value);
    if (const auto *error = std::get_if<std::string>(&parsedOrError))
        return result(SignatureVerdict::Malformed, name + ": " + *error);
    const auto &parsed = std::get<ParsedHeader>(parsedOrError);

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
        // Both are far from the int64 limits (ts < 10^19 / 1 is checked by parseTimestamp, now
        // is a real clock), but the subtraction is done on the safe side anyway.
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
    return kind == ProviderKind::Chargebee;
}

std::string_view signatureHeaderName(ProviderKind kind)
{
    return schemeOf(kind).header;
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
    const Scheme scheme = schemeOf(kind);
    std::string name(scheme.header);
    if (kind == ProviderKind::Chargebee) {
        if (credentials.basicAuth.empty())
            throw InputError("basicAuth", "no user:password to sign a chargebee delivery with");
        return {{std::move(name), "Basic " + base64Encode(credentials.basicAuth.front())}};
    }
    if (credentials.secrets.empty())
        throw InputError("secrets", "no secret to sign a " + toString(kind) + " delivery with");
    const std::string &secret = credentials.secrets.front();
    const auto sinceEpoch = now.time_since_epoch();
    const std::string seconds
        = std::to_string(std::chrono::duration_cast<std::chrono::seconds>(sinceEpoch).count());
    const std::string millis
        = std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(sinceEpoch).count());
    auto sign = [&](const std::string &prefix) {
        std::string message = prefix;
        message += rawBody;
        return hmacSha256Hex(secret, message);
    };
    switch (kind) {
    case ProviderKind::Stripe:
        return {{std::move(name), "t=" + seconds + ",v1=" + sign(seconds + ".")}};
    case ProviderKind::Paddle:
        return {{std::move(name), "ts=" + seconds + ";h1=" + sign(seconds + ":")}};
    case ProviderKind::Recurly:
        return {{std::move(name), millis + "," + sign(millis + ".")}};
    case ProviderKind::LemonSqueezy:
        return {{std::move(name), sign({})}};
    case ProviderKind::Chargebee:
        break;
    }
    throw InputError("kind", "no signature scheme for " + toString(kind));
}

} // namespace rd
