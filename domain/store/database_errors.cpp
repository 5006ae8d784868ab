#include "domain/store/database_errors.h"

#include "domain/store/action_refused.h"

#include <pqxx/except>

namespace rd {

bool transientSqlstate(const std::string &sqlstate)
{
    return sqlstate.rfind("40", 0) == 0 || sqlstate.rfind("08", 0) == 0 || sqlstate == "53300"
        || sqlstate == "57P01" || sqlstate == "57P02" || sqlstate == "57P03";
}

void rethrowAsDatabaseFailure()
{
    try {
        throw;
    } catch (const pqxx::sql_error &e) {
        if (auto refused = refusalFromError(e.sqlstate(), e.what()))
            throw *refused;
        throw DatabaseFailure(e.what(), e.sqlstate(), transientSqlstate(e.sqlstate()));
    } catch (const pqxx::broken_connection &e) {
        throw ConnectionLost(e.what());
    } catch (const pqxx::serialization_failure &e) {
        throw DatabaseFailure(e.what(), "40001", true);
    } catch (const pqxx::deadlock_detected &e) {
        throw DatabaseFailure(e.what(), "40P01", true);
    } catch (const pqxx::transaction_rollback &e) {
        // 40003 (statement completion unknown) and the rest of class 40: not known to be
        // harmless to run again.
        throw DatabaseFailure(e.what(), "40000", false);
    } catch (const pqxx::failure &e) {
        // in_doubt_error: a commit whose outcome is unknown, nothing a blind retry may heal.
        throw DatabaseFailure(e.what(), "", false);
    }
}

} // namespace rd
