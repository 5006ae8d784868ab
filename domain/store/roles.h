#pragma once

#include "domain/store/db_session.h"

#include <string>
#include <vector>

namespace rd {

/// Gives a login role one of the group roles ("viewer", "operator", "ingest"), creating the
/// login role (without a password) when it does not exist. Throws InputError for a bad kind
/// or name.
void grantRole(DbRef db, const std::string &login, const std::string &kind);

/// The desk's group roles on a server (migrations 0003 and 0027 create them; roles are
/// cluster-wide, so a database restored on another server finds them missing) and the grants
/// between them, as `renewalctl roles check` and `db move` see them.
struct GroupRoleCheck
{
    std::string login; ///< the connection's login role
    /// Group roles that do not exist ("renewal_viewer", ...), in the order of groupRoleNames().
    std::vector<std::string> missingRoles;
    /// Grants between group roles that are missing ("renewal_viewer to renewal_operator").
    std::vector<std::string> missingGrants;
    /// The login may create roles and grant them (superuser or CREATEROLE).
    bool mayCreateRoles = false;
    bool complete() const { return missingRoles.empty() && missingGrants.empty(); }
};

/// renewal_viewer, renewal_operator, renewal_ingest, renewal_payload_reader.
const std::vector<std::string> &groupRoleNames();

GroupRoleCheck checkGroupRoles(DbRef db);

/// Creates the missing group roles (NOLOGIN) and grants between them as the migrations do,
/// when the login may; returns the check afterwards and, in `created`, what it created.
GroupRoleCheck ensureGroupRoles(DbRef db, std::vector<std::string> *created = nullptr);

} // namespace rd
