// libFuzzer target: untrusted JSON into the snapshot parsers. The first byte picks our JSON
// form, a Stripe subscription or a Paddle subscription; the rest is the body. Only InputError
// may escape; an accepted snapshot must round-trip through our JSON form exactly.

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/provider_snapshot.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view text(reinterpret_cast<const char *>(data + 1), size - 1);
    try {
        const nlohmann::json json = rd::parseUntrustedJson(text);
        rd::ProviderSnapshot s;
        switch (data[0] % 3) {
        case 0:
            s = rd::providerSnapshotFromJson(json);
            break;
        case 1:
            s = rd::snapshotFromProviderObject(
                rd::ProviderKind::Stripe, "fuzz-main", json, rd::Timestamp {});
            break;
        default:
            s = rd::snapshotFromProviderObject(
                rd::ProviderKind::Paddle, "fuzz-main", json, rd::Timestamp {});
            break;
        }
        if (!(rd::providerSnapshotFromJson(rd::toJson(s)) == s))
            std::abort();
    } catch (const rd::InputError &) {
        // expected for malformed input
    }
    return 0;
}
