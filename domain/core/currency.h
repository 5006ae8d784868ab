#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rd {

/// ISO 4217 minor-unit exponent: 2 for most currencies, 0 for JPY/KRW/..., 3 for KWD/BHD/...
int currencyExponent(std::string_view upperCaseCode);

/// Formats integer minor units as a decimal in major units: (123456, "USD") -> "1234.56",
/// (500, "JPY") -> "500", (1234, "KWD") -> "1.234". No floating point anywhere.
std::string formatMinorUnits(std::int64_t minor, std::string_view upperCaseCode);

/// Converts a decimal string in major units ("12.5", "0.001") to minor units exactly.
/// std::nullopt when it is not a plain non-negative decimal or has more digits than the
/// currency's exponent allows (that would be a rounding, which billing never does silently).
std::optional<std::int64_t> parseMajorUnits(std::string_view decimal, std::string_view code);

} // namespace rd
