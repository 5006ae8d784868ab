#include "domain/store/random_uuid.h"

#include "domain/core/encoding.h"

#include <cerrno>
#include <sys/random.h>
#include <system_error>

namespace rd {

std::string randomUuid()
{
    unsigned char b[16];
    std::size_t filled = 0;
    while (filled < sizeof b) {
        const ssize_t n = ::getrandom(b + filled, sizeof b - filled, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            throw std::system_error(errno, std::generic_category(), "getrandom");
        }
        filled += static_cast<std::size_t>(n);
    }
    b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
    b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
    // 8-4-4-4-12 hex digits.
    std::string out = toHex(std::string_view(reinterpret_cast<const char *>(b), sizeof b));
    for (const std::size_t dash : {8, 13, 18, 23})
        out.insert(dash, 1, '-');
    return out;
}

} // namespace rd
