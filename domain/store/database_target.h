#pragma once

#include <optional>
#include <string>

namespace rd {

/// Where a program's database is, chosen the ecosystem's way.
struct DatabaseTarget
{
    std::string conninfo; ///< libpq connection string ("" = libpq's environment)
    bool embedded = false;
    std::string description; ///< for people: "embedded cluster in ...", "PGHOST=..."
};

/// `--db CONNINFO` when given; else the standard libpq environment when it names a server
/// (PGHOST, PGHOSTADDR, PGDATABASE, PGSERVICE or PGPORT set; passwords from ~/.pgpass);
/// else the server the embedded database was moved to (`renewalctl db move`: the data
/// directory's moved-to.json, database_move.h); else the embedded cluster, started on demand
/// when `startEmbedded`.
DatabaseTarget resolveDatabase(const std::optional<std::string> &db, bool startEmbedded = true);

/// Connects and disconnects: DatabaseUnavailable with libpq's reason when it cannot.
void checkConnects(const std::string &conninfo);

/// `conninfo` (key=value or a postgresql:// URI) with libpq's connect_timeout of `seconds`,
/// unless it names one already or PGCONNECT_TIMEOUT does: a server that accepts the connection
/// and never answers then fails the connect, instead of holding its caller for ever.
std::string withConnectTimeout(const std::string &conninfo, int seconds);

} // namespace rd
