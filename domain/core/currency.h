#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace rd {

/// An active ISO 4217 currency and its minor units (decimal places).
struct IsoCurrency
{
    std::string_view code; ///< three upper-case letters
    int minorUnits = 2;
};

/// ISO 4217's active currencies, sorted by code. The same rows as the database's
/// public.iso_currencies: CMake builds this table from migrations/0028_edge_bounds.sql, whose
/// header says which codes are in and which are left out (the X codes without minor units).
std::span<const IsoCurrency> isoCurrencies();

/// Whether `upperCaseCode` is an active ISO 4217 code ("USD" is, "usd" and "XYZ" are not).
bool isIsoCurrency(std::string_view upperCaseCode);

/// ISO 4217 minor-unit exponent from the table: 2 for most currencies, 0 for JPY/KRW/...,
/// 3 for KWD/BHD/..., 4 for CLF/UYW. A code outside the table (nothing stores one since 0028)
/// is shown with 2.
int currencyExponent(std::string_view upperCaseCode);

/// Formats integer minor units as a decimal in major units: (123456, "USD") -> "1234.56",
/// (500, "JPY") -> "500", (1234, "KWD") -> "1.234". No floating point anywhere.
std::string formatMinorUnits(std::int64_t minor, std::string_view upperCaseCode);
/// As formatMinorUnits, for a count of minor units of any size written in decimal ("-" and
/// digits, as PostgreSQL prints a numeric sum): totals are summed in numeric and may pass
/// 64 bits. nullopt for text that is not such a number.
std::optional<std::string> formatMinorUnitsText(
    std::string_view minor, std::string_view upperCaseCode);

/// Converts a decimal string in major units ("12.5", "0.001") to minor units exactly.
/// std::nullopt when it is not a plain non-negative decimal or has more digits than the
/// currency's exponent allows (that would be a rounding, which billing never does silently).
std::optional<std::int64_t> parseMajorUnits(std::string_view decimal, std::string_view code);

} // namespace rd
