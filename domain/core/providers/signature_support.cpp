#include "domain/core/providers/signature_support.h"

#include "domain/core/errors.h"
#include "domain/core/webhook_signature.h"

#include <charconv>

namespace rd::providers {

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

std::optional<std::int64_t> parseDecimalTimestamp(std::string_view text)
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

std::variant<SignedHeader, std::string> parseTimestampedPairs(std::string_view value,
    char separator, std::string_view timeKey, std::string_view signatureKey, char prefixEnd)
{
    SignedHeader parsed;
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
    parsed.unixSeconds = parseDecimalTimestamp(*timeText);
    if (!parsed.unixSeconds)
        return std::string(timeKey) + "= is not a decimal Unix timestamp";
    if (parsed.signatures.empty())
        return "no " + std::string(signatureKey) + "= signature";
    parsed.signedPrefix = std::string(*timeText) + prefixEnd;
    return parsed;
}

const std::string &signingSecret(const WebhookCredentials &credentials, ProviderKind kind)
{
    if (credentials.secrets.empty())
        throw InputError("secrets", "no secret to sign a " + toString(kind) + " delivery with");
    return credentials.secrets.front();
}

std::string unixSecondsText(std::chrono::system_clock::time_point now)
{
    return std::to_string(
        std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count());
}

std::string unixMillisText(std::chrono::system_clock::time_point now)
{
    return std::to_string(
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count());
}

} // namespace rd::providers
