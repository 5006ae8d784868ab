#include "domain/store/random_uuid.h"

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
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(36);
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out += '-';
        out += hex[b[i] >> 4];
        out += hex[b[i] & 0x0f];
    }
    return out;
}

} // namespace rd
