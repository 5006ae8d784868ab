#pragma once

// Whether a database's schema is one this program knows: a program older than the schema
// (another host ran a newer `renewalctl migrate`) cannot tell what the database's functions
// now answer, and a retry will not change that. The migrator refuses such a database before it
// applies anything; a program that does not migrate (the receiver on a server database) asks
// here.

#include <string>

namespace rd {

/// The highest version among this program's migrations (defaultMigrationsDir()). Throws
/// SetupError when they cannot be read.
int newestKnownMigration();

/// Connects to `conninfo` and throws SetupError, naming the migration, when its
/// schema_migrations records a version above `newestKnown`; DatabaseUnavailable when it cannot
/// connect. Reads one row: cheap enough for a health check.
void requireSchemaNotNewer(const std::string &conninfo, int newestKnown);

} // namespace rd
