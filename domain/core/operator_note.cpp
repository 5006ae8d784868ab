#include "domain/core/operator_note.h"

#include <algorithm>
#include <array>
#include <utility>

namespace rd {

const std::vector<std::string> &standardReasonCodes()
{
    static const std::vector<std::string> codes {"provider_confirmed", "missing_renewal_arrived",
        "customer_request", "duplicate_charge", "data_correction", "test_data", "other"};
    return codes;
}

namespace {

// Inclusive ranges, ascending; rd_note_text's character class in migration 0027, in order.
constexpr std::array<std::pair<char32_t, char32_t>, 22> kInvisible {{
    {0x0000, 0x0020},
    {0x007F, 0x00A0},
    {0x00AD, 0x00AD},
    {0x034F, 0x034F},
    {0x061C, 0x061C},
    {0x115F, 0x1160},
    {0x1680, 0x1680},
    {0x17B4, 0x17B5},
    {0x180B, 0x180F},
    {0x2000, 0x200F},
    {0x2028, 0x202F},
    {0x205F, 0x206F},
    {0x2800, 0x2800},
    {0x3000, 0x3000},
    {0x3164, 0x3164},
    {0xFE00, 0xFE0F},
    {0xFEFF, 0xFEFF},
    {0xFFA0, 0xFFA0},
    {0xFFF0, 0xFFF8},
    {0x1BCA0, 0x1BCA3},
    {0x1D173, 0x1D17A},
    {0xE0000, 0xE0FFF},
}};

} // namespace

bool isInvisibleCodePoint(char32_t c)
{
    const auto it = std::upper_bound(kInvisible.begin(), kInvisible.end(), c,
        [](char32_t value, const auto &range) { return value < range.first; });
    return it != kInvisible.begin() && c <= std::prev(it)->second;
}

bool hasVisibleText(std::string_view utf8)
{
    for (std::size_t i = 0; i < utf8.size();) {
        const auto lead = static_cast<unsigned char>(utf8[i]);
        const std::size_t length = lead < 0x80 ? 1
            : (lead & 0xE0) == 0xC0            ? 2
            : (lead & 0xF0) == 0xE0            ? 3
            : (lead & 0xF8) == 0xF0            ? 4
                                               : 0;
        if (length == 0 || i + length > utf8.size())
            return true;
        char32_t c = length == 1 ? lead : lead & (0x7F >> length);
        for (std::size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(utf8[i + k]);
            if ((next & 0xC0) != 0x80)
                return true;
            c = (c << 6) | (next & 0x3F);
        }
        if (!isInvisibleCodePoint(c))
            return true;
        i += length;
    }
    return false;
}

} // namespace rd
