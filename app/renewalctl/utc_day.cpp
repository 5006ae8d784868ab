#include "app/renewalctl/utc_day.h"

#include "app/renewalctl/usage_error.h"
#include "domain/core/json_input.h"

#include <cstdio>

namespace rd::cli {

namespace chrono = std::chrono;

std::string dayText(const chrono::year_month_day &d)
{
    char text[16];
    std::snprintf(
        text, sizeof text, "%04d-%02u-%02u", int(d.year()), unsigned(d.month()), unsigned(d.day()));
    return text;
}

chrono::year_month_day parseDay(const std::string &option, const std::string &value)
{
    const auto bad = [&] {
        return UsageError(
            "--" + option + " must be a UTC day YYYY-MM-DD, not '" + printableAscii(value) + "'");
    };
    if (value.size() != 10 || value[4] != '-' || value[7] != '-')
        throw bad();
    for (const std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
        if (value[i] < '0' || value[i] > '9')
            throw bad();
    const chrono::year_month_day day {chrono::year {std::stoi(value.substr(0, 4))},
        chrono::month {unsigned(std::stoi(value.substr(5, 2)))},
        chrono::day {unsigned(std::stoi(value.substr(8, 2)))}};
    if (!day.ok() || int(day.year()) < 1)
        throw bad();
    return day;
}

} // namespace rd::cli
