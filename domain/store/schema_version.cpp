#include "domain/store/schema_version.h"

#include "domain/core/errors.h"
#include "domain/store/database_target.h"
#include "domain/store/internal/pqxx_session.h"
#include "domain/store/migrator.h"

#include <pqxx/pqxx>

namespace rd {

int newestKnownMigration()
{
    const auto files = loadMigrations(defaultMigrationsDir());
    if (files.empty())
        throw SetupError("no migrations in " + defaultMigrationsDir().string());
    return files.back().version;
}

void requireSchemaNotNewer(const std::string &conninfo, int newestKnown)
{
    const auto conn = connectTo(conninfo);
    try {
        pqxx::read_transaction tx(*conn);
        const auto newest = tx.exec_params(
            "SELECT version, name FROM public.schema_migrations WHERE version > $1 "
            "ORDER BY version DESC LIMIT 1",
            newestKnown);
        if (!newest.empty())
            throw SetupError("the database has migration " + newest[0][1].as<std::string>()
                + " applied, which this program does not have: it is newer than this program "
                  "(whose newest is "
                + std::to_string(newestKnown) + "); install the program that migrated it");
    } catch (const pqxx::broken_connection &e) {
        throw DatabaseUnavailable(std::string("lost the database connection: ") + e.what());
    } catch (const pqxx::sql_error &e) {
        // No schema_migrations (never migrated) or no right to read it: the program cannot
        // know what this database is; not something a retry heals.
        throw SetupError(std::string("cannot read the database's schema version: ") + e.what());
    }
}

} // namespace rd
