#pragma once

// Private to domain/store: the rules of schema public that a restore compares with the
// migrations' (#39, item 3). The public types are in database_backup.h.

#include "domain/store/database_backup.h"

#include <pqxx/connection>

#include <map>
#include <string>

namespace rd {

/// Every rule of schema public beyond its rows, by name: the privileges of each relation,
/// column, function, sequence and schema and the default privileges; each function's and
/// view's definition (with SECURITY DEFINER and its settings); each column's type, NOT NULL
/// and default; each constraint, index, trigger, rule and policy; each domain and enum; the
/// extensions and event triggers. Names and texts as PostgreSQL prints them, so that two
/// databases that hold the same rules give the same map.
std::map<std::string, std::string> schemaRules(pqxx::connection &conn);

/// The rules of `restored` against those of a scratch database on the same server, made by
/// the migrations of `migrationsDir` and dropped again: SchemaRulesCheck::compared is false,
/// with the reason, when the login may not create a database.
SchemaRulesCheck compareSchemaRulesWithMigrations(pqxx::connection &restored,
    const std::string &restoredConninfo, const std::filesystem::path &migrationsDir);

} // namespace rd
