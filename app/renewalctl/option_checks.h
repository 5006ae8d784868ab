#pragma once

// The checks of option values, which CLI11 runs as it parses (Option::check and transform), so
// that a command's runner only ever sees values it can use.
//
// A value that fails throws UsageError with a sentence of ours naming the option (exit 64),
// rather than returning a message: CLI11 would wrap a returned message in a ValidationError of
// its own wording. The numbers are read here, in base 10, and handed on in canonical form,
// because CLI11 2.1 reads whole numbers with strtoll base 0 ("010" is 8, "0x10" 16) and its
// CLI::Range lets NaN through.

#include <CLI/CLI.hpp>

#include <string>

namespace rd::cli {

/// A whole number from `min` to `max`: "--workers must be a whole number from 1 to 256, not
/// 'many'". `what` names the option or positional ("--workers", "HOURS").
CLI::Validator wholeNumber(const std::string &what, long long min, long long max);

/// A finite number from `min` to `max` ("0.5", "1e-3").
CLI::Validator decimalNumber(const std::string &what, double min, double max);

/// A case id: a whole number from 1 ("'x' is not a case id").
CLI::Validator caseId();

/// A UTC day YYYY-MM-DD that exists (app/renewalctl/utc_day.h); `option` without its dashes.
CLI::Validator utcDay(const std::string &option);

/// A month YYYY-MM from 1970 on.
CLI::Validator yearMonth(const std::string &what);

/// An RFC 3339 timestamp.
CLI::Validator rfc3339(const std::string &what);

/// A provider kind's name ("stripe"), handed on as the number of its rd::ProviderKind so that
/// the option binds to the enum.
CLI::Validator providerKindName(const std::string &what);

/// 64 hexadecimal digits, handed on lower-cased; `which` says which digest is meant.
CLI::Validator hexDigest(const std::string &what, const std::string &which);

/// Text with something to read: spaces and invisible characters alone are not (operator_note.h).
CLI::Validator visibleText(const std::string &complaint);

/// Not the empty string (`--provider-key ""`).
CLI::Validator notEmpty(const std::string &what);

} // namespace rd::cli
