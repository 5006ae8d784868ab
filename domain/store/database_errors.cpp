#include "domain/store/database_errors.h"

#include "domain/store/action_refused.h"

#include <pqxx/except>

namespace rd {

bool transientSqlstate(const std::string &sqlstate)
{
    return sqlstate.rfind("40", 0) == 0 || sqlstate.rfind("08", 0) == 0 || sqlstate == "53300"
        || sqlstate == "57P01" || sqlstate == "57P02" || sqlstate == "57P03";
}

namespace {

// libpqxx 6.4 throws its subclasses of sql_error without the SQLSTATE (only the plain
// sql_error carries it): the class names the code, or at least its class.
std::string sqlstateOf(const pqxx::sql_error &e)
{
    if (!e.sqlstate().empty())
        return e.sqlstate();
    if (dynamic_cast<const pqxx::insufficient_privilege *>(&e))
        return "42501";
    if (dynamic_cast<const pqxx::undefined_table *>(&e))
        return "42P01";
    if (dynamic_cast<const pqxx::undefined_column *>(&e))
        return "42703";
    if (dynamic_cast<const pqxx::undefined_function *>(&e))
        return "42883";
    if (dynamic_cast<const pqxx::syntax_error *>(&e))
        return "42601";
    if (dynamic_cast<const pqxx::unique_violation *>(&e))
        return "23505";
    if (dynamic_cast<const pqxx::check_violation *>(&e))
        return "23514";
    if (dynamic_cast<const pqxx::foreign_key_violation *>(&e))
        return "23503";
    if (dynamic_cast<const pqxx::not_null_violation *>(&e))
        return "23502";
    if (dynamic_cast<const pqxx::integrity_constraint_violation *>(&e))
        return "23000";
    if (dynamic_cast<const pqxx::data_exception *>(&e))
        return "22000";
    if (dynamic_cast<const pqxx::insufficient_resources *>(&e))
        return "53000";
    return {};
}

} // namespace

void throwDatabaseFailure(const std::string &message, const std::string &sqlstate)
{
    if (auto refused = refusalFromError(sqlstate, message))
        throw *refused;
    throw DatabaseFailure(message, sqlstate, transientSqlstate(sqlstate));
}

void rethrowAsDatabaseFailure()
{
    try {
        throw;
    } catch (const pqxx::sql_error &e) {
        throwDatabaseFailure(e.what(), sqlstateOf(e));
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
