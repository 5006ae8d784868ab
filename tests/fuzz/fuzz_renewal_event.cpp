// libFuzzer target: untrusted JSON into the renewal event's strict parser. Only InputError
// may escape the parser; an accepted event must round-trip through its JSON form exactly.

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/renewal_event.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        const rd::SuccessfulRenewalEvent e = rd::renewalEventFromJson(rd::parseUntrustedJson(text));
        if (rd::renewalEventFromJson(rd::toJson(e)) != e)
            std::abort();
    } catch (const rd::InputError &) {
        // expected for malformed input
    }
    return 0;
}
