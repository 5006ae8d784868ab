#pragma once

#include "domain/store/db_session.h"

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

/// A repeatable definition (docs/migrations.md): the current text of one function's or view's
/// definition, `functions/<name>.sql` or `views/<name>.sql` under the migrations directory,
/// re-applied whenever its content changes.
struct RepeatableFile
{
    std::string name; ///< its path under the migrations directory, e.g. "functions/f.sql"
    std::string sql;
};

/// `$RENEWAL_DESK_MIGRATIONS`, else the installed data directory when it exists, else the
/// source tree's `migrations/` (a development build).
std::filesystem::path defaultMigrationsDir();

/// Reads `NNNN_name.sql` files in version order. Throws SetupError on a duplicate version or
/// an unreadable directory.
std::vector<MigrationFile> loadMigrations(const std::filesystem::path &dir);

/// The repeatable definitions of `dir`, in the order its `repeatables.txt` lists them (the
/// order they can be created in). A directory without the list has none. Throws SetupError
/// when the list names a file that is missing, or a `.sql` file under `functions/` or `views/`
/// is not listed (it would never be applied).
std::vector<RepeatableFile> loadRepeatables(const std::filesystem::path &dir);

struct MigrationReport
{
    std::vector<std::string> applied; ///< file names applied by this run, in order
    int alreadyApplied = 0;
    std::vector<std::string> reapplied; ///< repeatable definitions applied by this run
};

/// Applies the files not yet recorded in `schema_migrations`, each in its own transaction,
/// then the repeatable definitions: those whose checksum differs from the one recorded in
/// `schema_repeatables`, or all of them when this run applied a versioned file (it may have
/// dropped one). They run in the transaction of the last versioned file (or one of their own,
/// under the same lock), so a schema never has the new tables without the new functions.
/// Concurrent runs are serialized by a lock on schema_migrations that only its owner can take.
/// An applied file whose content
/// changed, or a database that records a version this program does not have, is refused with
/// SetupError before anything is applied.
MigrationReport migrate(DbRef db, const std::vector<MigrationFile> &files,
    const std::vector<RepeatableFile> &repeatables = {});

/// Connects to `conninfo` and applies the default migrations and repeatable definitions
/// (defaultMigrationsDir()): what
/// every program does before it uses a database it owns (the embedded one) or was asked to
/// migrate.
MigrationReport migrateDatabase(const std::string &conninfo);

} // namespace rd
