#include "domain/store/roles.h"

#include "domain/core/errors.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

#include <cctype>
#include <cstdlib>
#include <pwd.h>
#include <unistd.h>

namespace rd {

std::string personLoginProblem(const std::string &name)
{
    if (name.empty() || name.size() > 63)
        return "a login role name of 1 to 63 characters is required";
    for (const unsigned char c : name) {
        if (c < 0x20 || c == 0x7f)
            return "'" + name + "' holds a control character";
    }
    std::string lower;
    for (const unsigned char c : name)
        lower += char(std::tolower(c));
    for (const char *reserved :
        {"postgres", "public", "none", "current_user", "session_user", "current_role"}) {
        if (lower == reserved)
            return "'" + name + "' is PostgreSQL's own name, not a person's";
    }
    if (lower.rfind("pg_", 0) == 0)
        return "'" + name + "' starts with pg_, which PostgreSQL keeps for its own roles";
    if (lower.rfind("renewal_", 0) == 0)
        return "'" + name + "' is (or reads as) one of the desk's group roles, not a person";
    return {};
}

void grantRole(
    DbRef db, const std::string &login, const std::string &kind, bool ownerMayBeSuperuser)
{
    pqxx::connection &conn = pqxxOf(db);
    // payload_reader alone reads raw webhook bodies (customers' personal data, 0027): for an
    // auditor who is otherwise a viewer. Operators have it already.
    if (kind != "viewer" && kind != "operator" && kind != "ingest" && kind != "payload_reader"
        && kind != "owner")
        throw InputError(
            "role", "'" + kind + "' is not viewer, operator, ingest, payload_reader or owner");
    if (const std::string problem = personLoginProblem(login); !problem.empty())
        throw InputError("login", problem);
    if (kind == "owner") {
        grantOwner(db, login, ownerMayBeSuperuser);
        return;
    }
    pqxx::work tx(conn);
    if (tx.exec_params("SELECT 1 FROM pg_roles WHERE rolname = $1", login).empty())
        tx.exec0("CREATE ROLE " + tx.quote_name(login) + " LOGIN");
    tx.exec0("GRANT " + tx.quote_name("renewal_" + kind) + " TO " + tx.quote_name(login));
    tx.commit();
}

void grantOwner(DbRef db, const std::string &login, bool ownerMayBeSuperuser)
{
    if (const std::string problem = personLoginProblem(login); !problem.empty())
        throw InputError("login", problem);
    pqxx::connection &conn = pqxxOf(db);
    pqxx::work tx(conn);
    // The schema's owner: whoever migrated (and so owns) the desk's tables.
    const auto owner = tx.exec1("SELECT r.rolname::text, r.rolsuper FROM pg_catalog.pg_class c "
                                "JOIN pg_catalog.pg_roles r ON r.oid = c.relowner "
                                "WHERE c.oid = 'public.month_closes'::regclass");
    const std::string ownerName = owner[0].as<std::string>();
    if (owner[1].as<bool>() && !ownerMayBeSuperuser)
        throw InputError("role",
            "the desk's tables are owned by '" + ownerName
                + "', a superuser: a member could become one (SET ROLE). Grant 'operator' "
                  "instead, or have a role that is not a superuser own the schema");
    if (ownerName == login)
        return; // the owner already is the person: nothing to record differently
    const auto role
        = tx.exec_params("SELECT rolcanlogin FROM pg_catalog.pg_roles WHERE rolname = $1", login);
    if (role.empty())
        tx.exec0("CREATE ROLE " + tx.quote_name(login) + " LOGIN");
    else if (!role[0][0].as<bool>())
        throw InputError(
            "login", "'" + login + "' is a role that cannot log in (a group role), not a person");
    tx.exec0("GRANT renewal_operator TO " + tx.quote_name(login));
    tx.exec0("GRANT " + tx.quote_name(ownerName) + " TO " + tx.quote_name(login));
    tx.commit();
}

std::string personName()
{
    if (const char *chosen = std::getenv("RENEWAL_DESK_PERSON"); chosen && *chosen)
        return chosen;
    if (const passwd *pw = ::getpwuid(::geteuid()); pw && pw->pw_name && *pw->pw_name)
        return pw->pw_name;
    if (const char *user = std::getenv("USER"); user && *user)
        return user;
    return {};
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
