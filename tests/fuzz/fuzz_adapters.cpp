// libFuzzer target: any bytes through every adapter. The first byte picks the provider (its
// index in rd::providerKinds(), modulo their number), the rest is the body. Checks the adapters'
// contract, not just memory safety: normalizePayload never throws, and a Renewal carries an event
// the core's own strict parser accepts unchanged.

#include "domain/core/adapters/normalization.h"
#include "domain/core/renewal_event.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

// `fuzz_adapters -list_kinds=1` prints the provider kinds' names in selector order, one a
// line, and exits: run-fuzz.sh seeds the corpus from that rather than from a copy of the list.
// (libFuzzer calls this before it reads its own flags.)
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    for (int i = 1; i < *argc; ++i) {
        if (std::string_view((*argv)[i]) == "-list_kinds=1") {
            for (const auto &row : rd::providerKinds())
                std::printf("%.*s\n", static_cast<int>(row.name.size()), row.name.data());
            std::exit(0);
        }
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const auto kinds = rd::providerKinds();
    const rd::ProviderKind kind = kinds[data[0] % kinds.size()].kind;
    const std::string_view body(reinterpret_cast<const char *>(data + 1), size - 1);
    const rd::NormalizeResult n = rd::normalizePayload(kind, "fuzz-main", body);
    (void)rd::toJson(n).dump();
    if (n.outcome == rd::NormalizeOutcome::Renewal) {
        if (!n.event || !(n.event->period.start < n.event->period.end))
            std::abort();
        if (rd::renewalEventFromJson(rd::toJson(*n.event)) != *n.event)
            std::abort();
    } else if (n.outcome == rd::NormalizeOutcome::Invalid && n.message.empty()) {
        std::abort();
    }
    return 0;
}
