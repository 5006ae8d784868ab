#pragma once

#include <pqxx/connection> // pqxx::connection is an alias in 6.4: no forward declaration

#include <filesystem>
#include <string>
#include <vector>

namespace rd {

struct MigrationFile
{
    int version = 0; ///< the number the file name starts with
    std::string name; ///< the file name, e.g. "0001_schema.sql"
    std::string sql;
};

/// `$RENEWAL_DESK_MIGRATIONS`, else the installed data directory when it exists, else the
/// source tree's `migrations/` (a development build).
std::filesystem::path defaultMigrationsDir();

/// Reads `NNNN_name.sql` files in version order. Throws SetupError on a duplicate version or
/// an unreadable directory.
std::vector<MigrationFile> loadMigrations(const std::filesystem::path &dir);

struct MigrationReport
{
    std::vector<std::string> applied; ///< file names applied by this run, in order
    int alreadyApplied = 0;
};

/// Applies the files not yet recorded in `schema_migrations`, each in its own transaction.
/// Concurrent runs are serialized by a lock on schema_migrations that only its owner can take.
/// An applied file whose content
/// changed, or a database that records a version this program does not have, is refused with
/// SetupError before anything is applied.
MigrationReport migrate(pqxx::connection &conn, const std::vector<MigrationFile> &files);

/// Connects to `conninfo` and applies the default migrations (defaultMigrationsDir()): what
/// every program does before it uses a database it owns (the embedded one) or was asked to
/// migrate.
MigrationReport migrateDatabase(const std::string &conninfo);

} // namespace rd
