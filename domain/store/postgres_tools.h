#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace rd {

/// A libpq connection string taken apart so that PostgreSQL's programs (pg_dump, pg_restore)
/// can be given it without its password on their command line, where every account on the
/// machine could read it in /proc: the password goes into the child's environment (PGPASSWORD,
/// readable only by the same account) and the rest onto the command line.
struct ToolConnection
{
    std::string conninfo; ///< key='value' pairs, password removed ("" = libpq's environment)
    std::string password; ///< "" when the string named none
    std::string description; ///< "host=... port=... dbname=... user=...", for people
    /// "PGPASSWORD=..." when there is a password: the child's environment additions.
    std::vector<std::string> environment() const;
    /// `text` with the password, wherever it appears, replaced by "***" (a tool's error
    /// output may quote what it was given).
    std::string scrubbed(std::string text) const;
};

/// `value` quoted for a key/value connection string ('...', with \ before ' and \), so that
/// paths and names with spaces or quotes survive.
std::string conninfoValue(const std::string &value);

/// A connection string's settings in libpq's order, as libpq reads them (key/value or URI).
using ConninfoSettings = std::vector<std::pair<std::string, std::string>>;

/// libpq's own reading of `conninfo`. What libpq says of a string it cannot read may quote
/// the string, and so a password: the InputError here is a fixed sentence instead.
ConninfoSettings parseConninfo(const std::string &conninfo);

/// `text` with every occurrence of `secret` replaced by `mask` (nothing when `secret` is
/// empty); the search goes on after each mask, so a mask that contains the secret is kept.
std::string scrubbedOf(std::string text, const std::string &secret, const std::string &mask);

/// Parses `conninfo` (parseConninfo) and takes its password apart.
ToolConnection toolConnection(const std::string &conninfo);

/// The path of PostgreSQL client program `name` ("pg_dump", "pg_restore") of the server's
/// major version (`serverVersionNum`, e.g. 150004): Debian's /usr/lib/postgresql/<major>/bin
/// when it is installed, else the server binaries' directory (findPostgresBinDir()), else the
/// bare name for PATH. A pg_dump older than the server refuses to run; one of the same major
/// writes what that server's pg_restore reads.
std::string postgresTool(const std::string &name, int serverVersionNum);

} // namespace rd
