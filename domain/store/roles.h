#pragma once

#include "domain/store/db_session.h"

#include <string>
#include <vector>

namespace rd {

/// Gives a login role one of the group roles ("viewer", "operator", "ingest",
/// "payload_reader") or makes it a person who owns the desk ("owner": grantOwner), creating the
/// login role (without a password) when it does not exist. Throws InputError for a bad kind,
/// or a name personLoginProblem refuses.
void grantRole(
    DbRef db, const std::string &login, const std::string &kind, bool ownerMayBeSuperuser = false);

/// Why `name` cannot be a person's login role; empty when it can. Refused: an empty name or
/// one longer than PostgreSQL's 63 bytes, a control character, PostgreSQL's own names
/// (`postgres`, `public`, `none`, `pg_...`, `current_user`, `session_user`, `current_role`)
/// and the desk's group roles (anything `renewal_...`): an action recorded "by postgres" or
/// "by renewal_operator" names no person.
std::string personLoginProblem(const std::string &name);

/// Makes `login` a person who owns the desk, for one person's desk on the embedded database:
/// a login role (created without a password when missing) that is an operator (case actions,
/// notes, claims, closes, statement imports) and a member of the role that owns the schema
/// (the migrating role: backups read every table and record themselves, retention is the
/// owner's), so that everything they do is recorded as `login`, the session user, and never
/// as the owner. Throws InputError when personLoginProblem refuses the name, when a role of
/// that name exists that cannot log in (a group role), and, unless `ownerMayBeSuperuser`, when
/// the owner is a superuser: a member could become one (SET ROLE). On the embedded cluster the
/// owner is its superuser, and the person already owns the cluster (its socket is theirs
/// alone), so the desk allows it there.
void grantOwner(DbRef db, const std::string &login, bool ownerMayBeSuperuser);

/// This process's person: $RENEWAL_DESK_PERSON when set (a name of one's choosing), else the
/// account's login name (getpwuid), else $USER; empty when none is known.
std::string personName();

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
