#include "domain/core/timestamp.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace rd {

Timestamp Timestamp::now()
{
    return Timestamp {std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::system_clock::now().time_since_epoch())
                          .count()};
}
namespace {

namespace chr = std::chrono;

using Micros = chr::duration<std::int64_t, std::micro>;
using UtcMicros = chr::sys_time<Micros>; // system_clock counts from 1970-01-01T00:00:00Z

// The proleptic Gregorian calendar repeats every 400 years (146097 days). std::chrono::year
// holds only -32767..32767, while a Timestamp reaches some 292000 years either way (and
// PostgreSQL's timestamptz hands out years up to 294276), so a date is kept as whole 400-year
// cycles from 2000 plus a date in 2000..2399, on which chrono's calendar types do the work.
constexpr std::int64_t kYearsPerCycle = 400;
constexpr std::int64_t kMonthsPerCycle = 12 * kYearsPerCycle;
constexpr chr::days kDaysPerCycle {146097};
constexpr chr::sys_days kCycleStart = chr::sys_days {chr::year {2000} / chr::January / 1};

std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

struct CycleDate
{
    std::int64_t cycles; ///< whole 400-year cycles after (or before) `date`
    chr::year_month_day date; ///< in 2000..2399 (or later, after month arithmetic)
};

CycleDate toCycleDate(chr::sys_days day)
{
    const std::int64_t cycles = floorDiv((day - kCycleStart).count(), kDaysPerCycle.count());
    return {cycles, chr::year_month_day {day - cycles * kDaysPerCycle}};
}

chr::sys_days fromCycleDate(const CycleDate &c)
{
    return chr::sys_days {c.date} + c.cycles * kDaysPerCycle;
}

Timestamp fromTimePoint(UtcMicros t)
{
    return Timestamp {t.time_since_epoch().count()};
}

UtcMicros toTimePoint(Timestamp t)
{
    return UtcMicros {Micros {t.micros}};
}

// Reads exactly `n` ASCII digits at `pos`.
bool digits(std::string_view s, std::size_t pos, std::size_t n, int &out)
{
    if (pos + n > s.size())
        return false;
    int v = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const char c = s[pos + i];
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + (c - '0');
    }
    out = v;
    return true;
}

} // namespace

std::int64_t daysFromCivil(int year, unsigned month, unsigned day)
{
    // A day past the end of its month rolls into the next one, as chrono's conversion does.
    const std::int64_t cycles = floorDiv(std::int64_t {year} - 2000, kYearsPerCycle);
    const chr::year inCycle {static_cast<int>(year - cycles * kYearsPerCycle)};
    return fromCycleDate({cycles, inCycle / chr::month {month} / chr::day {day}})
        .time_since_epoch()
        .count();
}

Timestamp makeUtc(
    int year, unsigned month, unsigned day, unsigned hour, unsigned minute, unsigned second)
{
    return fromTimePoint(chr::sys_days {chr::days {daysFromCivil(year, month, day)}}
        + chr::hours {hour} + chr::minutes {minute} + chr::seconds {second});
}

Timestamp addMonths(Timestamp t, int months)
{
    const UtcMicros at = toTimePoint(t);
    const chr::sys_days day = chr::floor<chr::days>(at);
    const CycleDate from = toCycleDate(day);
    // Whole cycles of months join the cycles; chrono adds the rest (under 400 years).
    const std::int64_t moreCycles = floorDiv(months, kMonthsPerCycle);
    const chr::year_month month = from.date.year() / from.date.month()
        + chr::months {static_cast<int>(months - moreCycles * kMonthsPerCycle)};
    // The same day of the month, clamped to the end of a shorter one (Jan 31 -> Feb 28 or 29).
    const chr::day clamped = std::min(from.date.day(), (month / chr::last).day());
    return fromTimePoint(fromCycleDate({from.cycles + moreCycles, month / clamped}) + (at - day));
}

std::optional<Timestamp> parseRfc3339(std::string_view s, TimestampError *error)
{
    if (error)
        *error = TimestampError::NotRfc3339;
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!digits(s, 0, 4, year) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, month)
        || s[7] != '-' || !digits(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't')
        || !digits(s, 11, 2, hour) || s[13] != ':' || !digits(s, 14, 2, minute) || s[16] != ':'
        || !digits(s, 17, 2, second))
        return std::nullopt;
    const chr::year_month_day date {chr::year {year}, chr::month {static_cast<unsigned>(month)},
        chr::day {static_cast<unsigned>(day)}};
    if (!date.ok() || hour > 23 || minute > 59 || second > 59)
        return std::nullopt; // leap seconds cannot be stored by PostgreSQL either

    std::size_t pos = 19;
    Micros fraction {0};
    if (pos < s.size() && s[pos] == '.') {
        ++pos;
        std::size_t n = 0;
        std::int64_t value = 0;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
            if (++n > 6)
                return std::nullopt;
            value = value * 10 + (s[pos] - '0');
            ++pos;
        }
        if (n == 0)
            return std::nullopt;
        for (; n < 6; ++n)
            value *= 10;
        fraction = Micros {value};
    }

    chr::minutes offset {0};
    if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
        ++pos;
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
        int oh = 0, om = 0;
        if (!digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':'
            || !digits(s, pos + 4, 2, om) || oh > 23 || om > 59)
            return std::nullopt;
        offset = (s[pos] == '+' ? 1 : -1) * (chr::hours {oh} + chr::minutes {om});
        pos += 6;
    } else {
        return std::nullopt; // RFC 3339 requires an offset; a local time is ambiguous
    }
    if (pos != s.size())
        return std::nullopt;

    const Timestamp t = fromTimePoint(chr::sys_days {date} + chr::hours {hour}
        + chr::minutes {minute} + chr::seconds {second} + fraction - offset);
    if (!isStorable(t)) {
        if (error)
            *error = TimestampError::OutOfRange;
        return std::nullopt;
    }
    return t;
}

std::string formatRfc3339(Timestamp t)
{
    const UtcMicros at = toTimePoint(t);
    const chr::sys_days date = chr::floor<chr::days>(at);
    const CycleDate c = toCycleDate(date);
    const chr::hh_mm_ss<Micros> time {at - date};
    const auto year
        = static_cast<long long>(static_cast<int>(c.date.year()) + c.cycles * kYearsPerCycle);
    const auto month = static_cast<unsigned>(c.date.month());
    const auto day = static_cast<unsigned>(c.date.day());
    const auto hh = static_cast<int>(time.hours().count());
    const auto mm = static_cast<int>(time.minutes().count());
    const auto ss = static_cast<int>(time.seconds().count());
    const auto micros = static_cast<int>(time.subseconds().count());
    char buf[64];
    if (micros == 0)
        std::snprintf(
            buf, sizeof buf, "%04lld-%02u-%02uT%02d:%02d:%02dZ", year, month, day, hh, mm, ss);
    else
        std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02d:%02d:%02d.%06dZ", year, month, day,
            hh, mm, ss, micros);
    return buf;
}

} // namespace rd
