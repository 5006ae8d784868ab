#include "domain/core/timestamp.h"

#include <array>
#include <cstdio>

namespace rd {
namespace {

constexpr std::int64_t kMicrosPerSecond = 1000000;
constexpr std::int64_t kSecondsPerDay = 86400;

bool isLeap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

unsigned daysInMonth(int y, unsigned m)
{
    static constexpr std::array<unsigned, 12> days {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && isLeap(y) ? 29 : days[m - 1];
}

struct Civil
{
    int year;
    unsigned month;
    unsigned day;
};

// Howard Hinnant's days_from_civil / civil_from_days.
Civil civilFromDays(std::int64_t z)
{
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    return {static_cast<int>(y + (m <= 2)), m, d};
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

std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

} // namespace

std::int64_t daysFromCivil(int year, unsigned month, unsigned day)
{
    const std::int64_t y = static_cast<std::int64_t>(year) - (month <= 2);
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

Timestamp makeUtc(
    int year, unsigned month, unsigned day, unsigned hour, unsigned minute, unsigned second)
{
    const std::int64_t secs
        = daysFromCivil(year, month, day) * kSecondsPerDay + hour * 3600 + minute * 60 + second;
    return Timestamp {secs * kMicrosPerSecond};
}

Timestamp addMonths(Timestamp t, int months)
{
    const std::int64_t days = floorDiv(t.micros, kSecondsPerDay * kMicrosPerSecond);
    const std::int64_t timeOfDay = t.micros - days * kSecondsPerDay * kMicrosPerSecond;
    const Civil c = civilFromDays(days);
    const std::int64_t monthIndex = static_cast<std::int64_t>(c.year) * 12 + (c.month - 1) + months;
    const int year = static_cast<int>(floorDiv(monthIndex, 12));
    const auto month = static_cast<unsigned>(monthIndex - static_cast<std::int64_t>(year) * 12 + 1);
    const unsigned day = std::min(c.day, daysInMonth(year, month));
    return Timestamp {
        daysFromCivil(year, month, day) * kSecondsPerDay * kMicrosPerSecond + timeOfDay};
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
    if (month < 1 || month > 12 || day < 1
        || static_cast<unsigned>(day) > daysInMonth(year, static_cast<unsigned>(month)) || hour > 23
        || minute > 59 || second > 59)
        return std::nullopt; // leap seconds cannot be stored by PostgreSQL either

    std::size_t pos = 19;
    std::int64_t fraction = 0;
    if (pos < s.size() && s[pos] == '.') {
        ++pos;
        std::size_t n = 0;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
            if (++n > 6)
                return std::nullopt;
            fraction = fraction * 10 + (s[pos] - '0');
            ++pos;
        }
        if (n == 0)
            return std::nullopt;
        for (; n < 6; ++n)
            fraction *= 10;
    }

    std::int64_t offsetSeconds = 0;
    if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
        ++pos;
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
        int oh = 0, om = 0;
        if (!digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':'
            || !digits(s, pos + 4, 2, om) || oh > 23 || om > 59)
            return std::nullopt;
        offsetSeconds = (s[pos] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
        pos += 6;
    } else {
        return std::nullopt; // RFC 3339 requires an offset; a local time is ambiguous
    }
    if (pos != s.size())
        return std::nullopt;

    const std::int64_t secs
        = daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day))
            * kSecondsPerDay
        + hour * 3600 + minute * 60 + second - offsetSeconds;
    const Timestamp t {secs * kMicrosPerSecond + fraction};
    if (!isStorable(t)) {
        if (error)
            *error = TimestampError::OutOfRange;
        return std::nullopt;
    }
    return t;
}

std::string formatRfc3339(Timestamp t)
{
    const std::int64_t days = floorDiv(t.micros, kSecondsPerDay * kMicrosPerSecond);
    std::int64_t rest = t.micros - days * kSecondsPerDay * kMicrosPerSecond;
    const Civil c = civilFromDays(days);
    const auto micros = static_cast<int>(rest % kMicrosPerSecond);
    rest /= kMicrosPerSecond;
    const auto hh = static_cast<int>(rest / 3600);
    const auto mm = static_cast<int>(rest / 60 % 60);
    const auto ss = static_cast<int>(rest % 60);
    char buf[48];
    if (micros == 0)
        std::snprintf(
            buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", c.year, c.month, c.day, hh, mm, ss);
    else
        std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d.%06dZ", c.year, c.month,
            c.day, hh, mm, ss, micros);
    return buf;
}

} // namespace rd
