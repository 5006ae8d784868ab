#pragma once

#include <QString>

class QSqlDatabase;

namespace rd::ui {

/// What Help › About says about the database: its server's version and the newest migration
/// applied to it (empty when it has none the login role may read).
struct DatabaseFacts
{
    QString serverVersion;
    QString schemaVersion; ///< "37 (payloads_forget)": the newest migration's version and name
};

/// Reads them (a pool thread; rd::DatabaseFailure).
DatabaseFacts loadDatabaseFacts(QSqlDatabase &db);

} // namespace rd::ui
