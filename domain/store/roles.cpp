#include "domain/store/roles.h"

#include "domain/core/errors.h"

#include <pqxx/pqxx>

namespace rd {

void grantRole(pqxx::connection &conn, const std::string &login, const std::string &kind)
{
    // payload_reader alone reads raw webhook bodies (customers' personal data, 0027): for an
    // auditor who is otherwise a viewer. Operators have it already.
    if (kind != "viewer" && kind != "operator" && kind != "ingest" && kind != "payload_reader")
        throw InputError(
            "role", "'" + kind + "' is not viewer, operator, ingest or payload_reader");
    if (login.empty() || login.size() > 63)
        throw InputError("login", "a login role name of 1 to 63 characters is required");
    pqxx::work tx(conn);
    if (tx.exec_params("SELECT 1 FROM pg_roles WHERE rolname = $1", login).empty())
        tx.exec0("CREATE ROLE " + tx.quote_name(login) + " LOGIN");
    tx.exec0("GRANT " + tx.quote_name("renewal_" + kind) + " TO " + tx.quote_name(login));
    tx.commit();
}

} // namespace rd
