#include "domain/core/currency.h"

#include <algorithm>
#include <iterator>
#include <limits>

namespace rd {

namespace {

constexpr IsoCurrency kIsoCurrencies[] = {
#include "iso4217_table.inc"
};

const IsoCurrency *findIso(std::string_view code)
{
    const auto *end = std::end(kIsoCurrencies);
    const auto *it = std::lower_bound(std::begin(kIsoCurrencies), end, code,
        [](const IsoCurrency &c, std::string_view key) { return c.code < key; });
    return it != end && it->code == code ? it : nullptr;
}

} // namespace

std::span<const IsoCurrency> isoCurrencies()
{
    return kIsoCurrencies;
}

bool isIsoCurrency(std::string_view code)
{
    return findIso(code) != nullptr;
}

int currencyExponent(std::string_view code)
{
    const IsoCurrency *c = findIso(code);
    return c ? c->minorUnits : 2;
}

std::string formatMinorUnits(std::int64_t minor, std::string_view code)
{
    const bool negative = minor < 0;
    // Work on the unsigned magnitude so that INT64_MIN does not overflow.
    std::uint64_t magnitude
        = negative ? 0 - static_cast<std::uint64_t>(minor) : static_cast<std::uint64_t>(minor);
    return *formatMinorUnitsText((negative ? "-" : "") + std::to_string(magnitude), code);
}

std::optional<std::string> formatMinorUnitsText(std::string_view minor, std::string_view code)
{
    const bool negative = minor.starts_with('-');
    std::string digits(negative ? minor.substr(1) : minor);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
    const int exp = currencyExponent(code);
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
