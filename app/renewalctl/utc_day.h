#pragma once

#include <chrono>
#include <string>

namespace rd::cli {

/// "YYYY-MM-DD".
std::string dayText(const std::chrono::year_month_day &d);

/// --from / --to style options: a UTC day written YYYY-MM-DD that exists (no 2026-02-30), year
/// 1 to 9999 as the database's instants; a UsageError naming the option otherwise.
std::chrono::year_month_day parseDay(const std::string &option, const std::string &value);

} // namespace rd::cli
