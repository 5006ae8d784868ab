// libFuzzer target: untrusted signature headers and bodies into verifyDelivery, and untrusted
// text into parseReceiverSecrets. The first byte selects: its value modulo 6 is a provider
// kind's index in rd::providerKinds() (5: the secrets-file parser), and its bit 0x80 leaves the
// signature header absent. For a kind, the next two bytes (little-endian) are the header
// value's length, the header follows and the rest is the body.
//
// Checks the contract, not just memory safety: verifyDelivery never throws, names what is
// wrong in every refusal, never accepts the fuzzed body under a secret the fuzzer cannot know
// unless it is the signature signDelivery made, and always accepts what signDelivery signs.
// parseReceiverSecrets throws nothing but InputError and returns only usable credentials.

#include "domain/core/encoding.h"
#include "domain/core/errors.h"
#include "domain/core/receiver_secrets.h"
#include "domain/core/webhook_signature.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void fuzzSecretsFile(std::string_view text)
{
    try {
        const rd::ReceiverSecrets secrets = rd::parseReceiverSecrets(text);
        if (secrets.empty())
            std::abort();
        for (const auto &[key, credentials] : secrets) {
            if (key.empty()
                || (credentials.secrets.empty() && credentials.basicAuth.empty()
                    && credentials.apiKey.empty()))
                std::abort();
            for (const char c : credentials.apiKey) {
                if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
                    std::abort();
            }
            for (const auto &s : credentials.secrets) {
                if (s.empty())
                    std::abort();
            }
            for (const auto &pair : credentials.basicAuth) {
                if (pair.find(':') == std::string::npos)
                    std::abort();
            }
        }
    } catch (const rd::InputError &) {
        // expected for malformed input
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const auto kinds = rd::providerKinds();
    const std::size_t selector = data[0] % (kinds.size() + 1);
    const bool absent = (data[0] & 0x80) != 0;
    const std::string_view rest(reinterpret_cast<const char *>(data + 1), size - 1);
    if (selector == kinds.size()) {
        fuzzSecretsFile(rest);
        return 0;
    }
    if (rest.size() < 2)
        return 0;
    const std::size_t wanted = std::uint8_t(rest[0]) | (std::size_t(std::uint8_t(rest[1])) << 8);
    const std::string_view afterLength = rest.substr(2);
    const std::string_view headerValue = afterLength.substr(0, wanted);
    const std::string_view body = afterLength.substr(headerValue.size());

    const rd::ProviderKind kind = kinds[selector].kind;
    const std::string_view headerName = rd::signatureHeaderName(kind);
    const rd::HeaderLookup lookup = [&](std::string_view name) -> std::optional<std::string_view> {
        if (absent || !rd::asciiIEquals(name, headerName))
            return std::nullopt;
        return headerValue;
    };
    rd::WebhookCredentials credentials;
    credentials.secrets = {"whsec_fuzz_current", "whsec_fuzz_previous"};
    credentials.basicAuth = {"fuzz:current", "fuzz:previous"};
    const auto now = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));

    const rd::SignatureCheck check
        = rd::verifyDelivery(kind, lookup, body, credentials, now, std::chrono::seconds(300));
    if (check.verdict != rd::SignatureVerdict::Valid && check.detail.empty())
        std::abort();
    if (absent && check.verdict != rd::SignatureVerdict::Missing)
        std::abort();

    // What signDelivery signs is accepted, for this body, at this time.
    const auto signedHeaders = rd::signDelivery(kind, body, credentials, now);
    if (signedHeaders.size() != 1 || signedHeaders[0].first != headerName)
        std::abort();
    const std::string &good = signedHeaders[0].second;
    const rd::HeaderLookup goodLookup
        = [&](std::string_view name) -> std::optional<std::string_view> {
        if (!rd::asciiIEquals(name, headerName))
            return std::nullopt;
        return std::string_view(good);
    };
    if (!rd::verifyDelivery(kind, goodLookup, body, credentials, now, std::chrono::seconds(300))
             .valid())
        std::abort();

    // Nothing configured: never valid, whatever the header.
    if (rd::verifyDelivery(kind, lookup, body, {}, now, std::chrono::seconds(300)).verdict
        != rd::SignatureVerdict::NotConfigured)
        std::abort();
    return 0;
}
