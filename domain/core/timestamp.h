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
    /// This machine's clock, to the microsecond.
    static Timestamp now();
};

/// The instants a Timestamp may hold: 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999Z.
/// PostgreSQL's timestamptz reaches further, but it reads no year 0 and formatRfc3339 writes
/// four-digit years: this is the range that survives formatRfc3339 -> PostgreSQL -> rd_rfc3339
/// -> parseRfc3339 unchanged. ("0001-01-01T00:00:00+01:00" is year 0 in UTC: refused.)
inline constexpr Timestamp kMinTimestamp {-62135596800LL * 1000000};
inline constexpr Timestamp kMaxTimestamp {253402300799LL * 1000000 + 999999};
inline bool isStorable(Timestamp t)
{
    return t >= kMinTimestamp && t <= kMaxTimestamp;
}

/// Why parseRfc3339 returned nothing.
enum class TimestampError {
    NotRfc3339, ///< not an RFC 3339 date-time with an offset, or finer than microseconds
    OutOfRange, ///< a valid date-time whose UTC instant is outside kMinTimestamp..kMaxTimestamp
};

/// Parses an RFC 3339 date-time ("2026-01-31T12:00:00.25Z", "...+02:00") into UTC.
/// Up to six fractional digits; anything finer cannot be stored exactly and is refused.
/// Returns std::nullopt for anything that is not such a timestamp, and for one whose UTC
/// instant is not storable (see kMinTimestamp); `error`, when given, says which.
std::optional<Timestamp> parseRfc3339(std::string_view text, TimestampError *error = nullptr);

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
