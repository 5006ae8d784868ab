#include "domain/core/currency.h"

#include <algorithm>
#include <array>
#include <limits>

namespace rd {

int currencyExponent(std::string_view code)
{
    // ISO 4217 list of currencies whose minor unit is not 2 (as published by SIX).
    static constexpr std::array<std::string_view, 16> zero {"BIF", "CLP", "DJF", "GNF", "ISK",
        "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF"};
    static constexpr std::array<std::string_view, 7> three {
        "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"};
    if (std::find(zero.begin(), zero.end(), code) != zero.end() || code == "XPF")
        return 0;
    if (std::find(three.begin(), three.end(), code) != three.end())
        return 3;
    if (code == "CLF" || code == "UYW")
        return 4;
    return 2;
}

std::string formatMinorUnits(std::int64_t minor, std::string_view code)
{
    const int exp = currencyExponent(code);
    const bool negative = minor < 0;
    // Work on the unsigned magnitude so that INT64_MIN does not overflow.
    std::uint64_t magnitude
        = negative ? 0 - static_cast<std::uint64_t>(minor) : static_cast<std::uint64_t>(minor);
    std::string digits = std::to_string(magnitude);
    if (exp > 0) {
        if (digits.size() <= static_cast<std::size_t>(exp))
            digits.insert(0, static_cast<std::size_t>(exp) + 1 - digits.size(), '0');
        digits.insert(digits.size() - static_cast<std::size_t>(exp), 1, '.');
    }
    return negative ? "-" + digits : digits;
}

std::optional<std::int64_t> parseMajorUnits(std::string_view s, std::string_view code)
{
    const int exp = currencyExponent(code);
    if (s.empty())
        return std::nullopt;
    std::uint64_t value = 0;
    int fractionDigits = -1; // -1: no decimal point seen yet
    bool anyDigit = false;
    for (const char c : s) {
        if (c == '.') {
            if (fractionDigits >= 0)
                return std::nullopt;
            fractionDigits = 0;
            continue;
        }
        if (c < '0' || c > '9')
            return std::nullopt;
        anyDigit = true;
        if (fractionDigits >= 0) {
            if (++fractionDigits > exp) {
                if (c != '0') // trailing zeros beyond the exponent change nothing
                    return std::nullopt;
                continue;
            }
        }
        if (value > (std::numeric_limits<std::uint64_t>::max() - 9) / 10)
            return std::nullopt;
        value = value * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (!anyDigit)
        return std::nullopt;
    for (int i = std::max(fractionDigits, 0); i < exp; ++i) {
        if (value > std::numeric_limits<std::uint64_t>::max() / 10)
            return std::nullopt;
        value *= 10;
    }
    if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return std::nullopt;
    return static_cast<std::int64_t>(value);
}

} // namespace rd
