// libFuzzer target: any bytes through every adapter. The first byte picks the provider, the
// rest is the body. Checks the adapters' contract, not just memory safety: normalizePayload
// never throws, and a Renewal carries an event the core's own strict parser accepts unchanged.

#include "domain/core/adapters/normalization.h"
#include "domain/core/renewal_event.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const auto kind = static_cast<rd::ProviderKind>(data[0] % 5);
    const std::string_view body(reinterpret_cast<const char *>(data + 1), size - 1);
    const rd::Normalization n = rd::normalizePayload(kind, "fuzz-main", body);
    (void)rd::toJson(n).dump();
    if (n.outcome == rd::Outcome::Renewal) {
        if (!n.event || !(n.event->period.start < n.event->period.end))
            std::abort();
        if (rd::renewalEventFromJson(rd::toJson(*n.event)) != *n.event)
            std::abort();
    } else if (n.outcome == rd::Outcome::Invalid && n.message.empty()) {
        std::abort();
    }
    return 0;
}
