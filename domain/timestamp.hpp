#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rd {

/// A UTC instant with microsecond precision: exactly what PostgreSQL's timestamptz stores,
/// so that a value survives a round trip through the database and compares exactly.
struct Timestamp
{
    std::int64_t micros = 0; ///< microseconds since 1970-01-01T00:00:00Z

    // Spelled out rather than `<=> = default`: Qt 6.4's moc cannot parse <compare>/<concepts>,
    // and test files that moc reads include this header.
    friend bool operator==(Timestamp a, Timestamp b) { return a.micros == b.micros; }
    friend bool operator!=(Timestamp a, Timestamp b) { return a.micros != b.micros; }
    friend bool operator<(Timestamp a, Timestamp b) { return a.micros < b.micros; }
    friend bool operator<=(Timestamp a, Timestamp b) { return a.micros <= b.micros; }
    friend bool operator>(Timestamp a, Timestamp b) { return a.micros > b.micros; }
    friend bool operator>=(Timestamp a, Timestamp b) { return a.micros >= b.micros; }

    static Timestamp fromSeconds(std::int64_t seconds) { return Timestamp {seconds * 1000000}; }
};

/// Parses an RFC 3339 date-time ("2026-01-31T12:00:00.25Z", "...+02:00") into UTC.
/// Up to six fractional digits; anything finer cannot be stored exactly and is refused.
/// Returns std::nullopt for anything that is not such a timestamp.
std::optional<Timestamp> parseRfc3339(std::string_view text);

/// Formats as RFC 3339 in UTC: "2026-01-31T12:00:00Z", with ".ffffff" only when needed.
std::string formatRfc3339(Timestamp t);

/// Calendar helpers used by adapters, the demo and benchmarks (proleptic Gregorian, UTC).
std::int64_t daysFromCivil(int year, unsigned month, unsigned day);
Timestamp makeUtc(int year, unsigned month, unsigned day, unsigned hour = 0, unsigned minute = 0,
    unsigned second = 0);
/// The same day-of-month and time `months` later, clamped to the end of a shorter month
/// (Jan 31 + 1 month = Feb 28/29), the way billing providers count monthly periods.
Timestamp addMonths(Timestamp t, int months);

} // namespace rd
