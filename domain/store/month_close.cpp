#include "domain/store/month_close.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

namespace rd {

nlohmann::json closeMonth(DbRef db, const std::string &providerKey, const std::string &month)
{
    pqxx::connection &conn = pqxxOf(db);
    try {
        pqxx::nontransaction tx(conn);
        const auto row
            = tx.exec_params1("SELECT public.close_month($1, $2::date)", providerKey, month);
        return nlohmann::json::parse(row[0].c_str());
    } catch (const pqxx::sql_error &e) {
        if (auto refused = refusalFromError(e.sqlstate(), e.what()))
            throw *refused;
        throw;
    }
}

nlohmann::json monthCloseReport(DbRef db, const std::string &providerKey, const std::string &month)
{
    pqxx::connection &conn = pqxxOf(db);
    pqxx::nontransaction tx(conn);
    const auto row
        = tx.exec_params1("SELECT public.month_close_report($1, $2::date)", providerKey, month);
    return row[0].is_null() ? nlohmann::json() : nlohmann::json::parse(row[0].c_str());
}

} // namespace rd
