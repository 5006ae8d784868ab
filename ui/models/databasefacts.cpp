#include "ui/models/databasefacts.h"

#include "ui/models/databasepool.h"

#include <QSqlQuery>

namespace rd::ui {

DatabaseFacts loadDatabaseFacts(QSqlDatabase &db)
{
    DatabaseFacts facts;
    QSqlQuery server = execSql(db,
        u"SELECT current_setting('server_version'), "
        "to_regclass('public.schema_migrations') IS NOT NULL "
        "AND has_table_privilege('public.schema_migrations', 'SELECT')"_qs);
    if (server.next()) {
        facts.serverVersion = server.value(0).toString();
        if (server.value(1).toBool()) {
            QSqlQuery schema = execSql(db,
                u"SELECT version, name FROM public.schema_migrations "
                "ORDER BY version DESC LIMIT 1"_qs);
            if (schema.next())
                facts.schemaVersion
                    = u"%1 (%2)"_qs.arg(schema.value(0).toString(), schema.value(1).toString());
        }
    }
    return facts;
}

} // namespace rd::ui
