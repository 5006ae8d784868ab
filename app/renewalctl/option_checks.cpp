#include "app/renewalctl/option_checks.h"

#include "app/renewalctl/usage_error.h"
#include "app/renewalctl/utc_day.h"
#include "domain/core/adapters/provider_kinds.h"
#include "domain/core/json_input.h"
#include "domain/core/operator_note.h"
#include "domain/core/timestamp.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace rd::cli {
namespace {

/// The value as an error message quotes it: printable, and not a page long.
std::string quotedValue(const std::string &value)
{
    return "'" + printableAscii(value.substr(0, 64)) + "'";
}

/// A validator that may rewrite the value (CLI11 converts what it leaves in `value`), with no
/// description: the option's type name in the help and the manual stays as declared.
CLI::Validator checking(std::function<void(std::string &value)> check)
{
    return CLI::Validator(
        [check = std::move(check)](std::string &value) {
            check(value);
            return std::string();
        },
        std::string());
}

std::optional<long long> parseWhole(const std::string &text, long long min, long long max)
{
    errno = 0;
    char *end = nullptr;
    const long long n = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || end == text.c_str() || *end != '\0' || n < min || n > max)
        return std::nullopt;
    return n;
}

/// "0.1", "100000", "3e+07": the shortest of %g that reads back as the same bound.
std::string numberText(double n)
{
    char text[32];
    for (int precision = 6; precision <= 17; ++precision) {
        std::snprintf(text, sizeof text, "%.*g", precision, n);
        if (std::strtod(text, nullptr) == n)
            break;
    }
    return text;
}

} // namespace

CLI::Validator wholeNumber(const std::string &what, long long min, long long max)
{
    return checking([what, min, max](std::string &value) {
        const auto n = parseWhole(value, min, max);
        if (!n)
            throw UsageError(what + " must be a whole number from " + std::to_string(min) + " to "
                + std::to_string(max) + ", not " + quotedValue(value));
        value = std::to_string(*n);
    });
}

CLI::Validator decimalNumber(const std::string &what, double min, double max)
{
    return checking([what, min, max](std::string &value) {
        errno = 0;
        char *end = nullptr;
        const double n = std::strtod(value.c_str(), &end);
        if (errno != 0 || end == value.c_str() || *end != '\0' || !std::isfinite(n)
            || !(n >= min && n <= max))
            throw UsageError(what + " must be a number from " + numberText(min) + " to "
                + numberText(max) + ", not " + quotedValue(value));
        char exact[32];
        std::snprintf(exact, sizeof exact, "%.17g", n);
        value = exact;
    });
}

CLI::Validator caseId()
{
    return checking([](std::string &value) {
        const auto id = parseWhole(value, 1, std::numeric_limits<long long>::max());
        if (!id)
            throw UsageError(quotedValue(value) + " is not a case id");
        value = std::to_string(*id);
    });
}

CLI::Validator utcDay(const std::string &option)
{
    return checking([option](std::string &value) { parseDay(option, value); });
}

CLI::Validator yearMonth(const std::string &what)
{
    return checking([what](std::string &value) {
        const auto digits = [&](std::size_t from, std::size_t n) {
            for (std::size_t i = from; i < from + n; ++i)
                if (value[i] < '0' || value[i] > '9')
                    return false;
            return true;
        };
        const bool shaped = value.size() == 7 && value[4] == '-' && digits(0, 4) && digits(5, 2);
        const int month = shaped ? std::stoi(value.substr(5, 2)) : 0;
        if (!shaped || month < 1 || month > 12 || value < "1970")
            throw UsageError(
                what + ": expected a month as YYYY-MM (2026-02), not " + quotedValue(value));
    });
}

CLI::Validator rfc3339(const std::string &what)
{
    return checking([what](std::string &value) {
        if (!parseRfc3339(value))
            throw UsageError(what + " must be an RFC 3339 timestamp, not " + quotedValue(value));
    });
}

CLI::Validator providerKindName(const std::string &what)
{
    return checking([what](std::string &value) {
        const auto kind = providerKindFromString(value);
        if (!kind) {
            const auto names = providerKindNames();
            std::string choices;
            for (std::size_t i = 0; i < names.size(); ++i)
                choices += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
            throw UsageError(what + " must be " + choices + ", not " + quotedValue(value));
        }
        value = std::to_string(static_cast<int>(*kind));
    });
}

CLI::Validator hexDigest(const std::string &what, const std::string &which)
{
    return checking([what, which](std::string &value) {
        bool ok = value.size() == 64;
        for (const char c : value)
            ok = ok && std::isxdigit(static_cast<unsigned char>(c));
        if (!ok)
            throw UsageError(
                what + " must be 64 hexadecimal digits (" + which + "), not " + quotedValue(value));
        for (char &c : value)
            c = char(std::tolower(static_cast<unsigned char>(c)));
    });
}

CLI::Validator visibleText(const std::string &complaint)
{
    return checking([complaint](std::string &value) {
        if (!hasVisibleText(value))
            throw UsageError(complaint);
    });
}

CLI::Validator notEmpty(const std::string &what)
{
    return checking([what](std::string &value) {
        if (value.empty())
            throw UsageError(what + " must not be empty");
    });
}

} // namespace rd::cli
