#pragma once

#include <filesystem>
#include <string>
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

/// Parses `conninfo` (key/value or URI) with libpq; InputError naming what is wrong otherwise.
ToolConnection toolConnection(const std::string &conninfo);

/// The path of PostgreSQL client program `name` ("pg_dump", "pg_restore") of the server's
/// major version (`serverVersionNum`, e.g. 150004): Debian's /usr/lib/postgresql/<major>/bin
/// when it is installed, else the server binaries' directory (findPostgresBinDir()), else the
/// bare name for PATH. A pg_dump older than the server refuses to run; one of the same major
/// writes what that server's pg_restore reads.
std::string postgresTool(const std::string &name, int serverVersionNum);

} // namespace rd
