#include "domain/store/roles.h"

#include "domain/core/errors.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

namespace rd {

void grantRole(DbRef db, const std::string &login, const std::string &kind)
{
    pqxx::connection &conn = pqxxOf(db);
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

namespace {

/// Which group role is granted to which (migrations 0003 and 0027).
struct GroupGrant
{
    const char *role;
    const char *member;
};
constexpr GroupGrant kGroupGrants[] = {{"renewal_viewer", "renewal_operator"},
    {"renewal_viewer", "renewal_ingest"}, {"renewal_payload_reader", "renewal_operator"}};

std::string grantName(const GroupGrant &g)
{
    return std::string(g.role) + " to " + g.member;
}

/// Direct membership, as the migrations grant it.
bool isDirectMember(pqxx::transaction_base &tx, const GroupGrant &g)
{
    return !tx.exec_params("SELECT 1 FROM pg_catalog.pg_auth_members m "
                           "JOIN pg_catalog.pg_roles r ON r.oid = m.roleid "
                           "JOIN pg_catalog.pg_roles u ON u.oid = m.member "
                           "WHERE r.rolname = $1 AND u.rolname = $2",
                  g.role, g.member)
                .empty();
}

} // namespace

const std::vector<std::string> &groupRoleNames()
{
    static const std::vector<std::string> names {
        "renewal_viewer", "renewal_operator", "renewal_ingest", "renewal_payload_reader"};
    return names;
}

GroupRoleCheck checkGroupRoles(DbRef db)
{
    pqxx::connection &conn = pqxxOf(db);
    GroupRoleCheck check;
    pqxx::read_transaction tx(conn);
    const auto me
        = tx.exec1("SELECT session_user::text, rolsuper OR rolcreaterole FROM pg_catalog.pg_roles "
                   "WHERE rolname = session_user");
    check.login = me[0].as<std::string>();
    check.mayCreateRoles = me[1].as<bool>();
    for (const auto &name : groupRoleNames()) {
        if (tx.exec_params("SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = $1", name).empty())
            check.missingRoles.push_back(name);
    }
    for (const auto &g : kGroupGrants) {
        if (!isDirectMember(tx, g))
            check.missingGrants.push_back(grantName(g));
    }
    return check;
}

GroupRoleCheck ensureGroupRoles(DbRef db, std::vector<std::string> *created)
{
    pqxx::connection &conn = pqxxOf(db);
    auto check = checkGroupRoles(conn);
    if (check.complete() || !check.mayCreateRoles)
        return check;
    pqxx::work tx(conn);
    for (const auto &name : check.missingRoles) {
        tx.exec0("CREATE ROLE " + tx.quote_name(name) + " NOLOGIN");
        if (created)
            created->push_back(name);
    }
    for (const auto &g : kGroupGrants) {
        if (!isDirectMember(tx, g)) {
            tx.exec0("GRANT " + tx.quote_name(g.role) + " TO " + tx.quote_name(g.member));
            if (created)
                created->push_back(grantName(g));
        }
    }
    tx.commit();
    return checkGroupRoles(conn);
}

} // namespace rd
