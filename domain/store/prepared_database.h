#pragma once

// No libpqxx here: this is the store's way in for programs that do not use libpqxx themselves
// (the desk), as operator_session.h is for their operator actions. Conninfo in, conninfo out.

#include <string>

namespace rd {

/// A database made ready to be opened.
struct PreparedDatabase
{
    std::string conninfo; ///< what to connect to ("" = libpq's environment)
    bool embedded = false; ///< the embedded cluster: ours, started and migrated
    std::string description; ///< for people: where it is, never a password
};

/// `conninfo` empty: the database a program chooses by itself (resolveDatabase: the libpq
/// environment, the server the embedded database was moved to, else the embedded cluster,
/// started), the embedded one migrated to this program's schema and opened as the person using
/// it (personName(), made an owning operator by grantOwner: roles.h), never as its superuser,
/// so that what they do is recorded under their name. Otherwise the server
/// `conninfo` names, as it is (a server's schema is its owner's: `renewalctl migrate`): a
/// restored embedded cluster named by its socket directory (`.../socket`) is started first,
/// and the connection is tried. Throws DatabaseUnavailable with libpq's reason, SetupError
/// when the embedded database cannot be migrated or cannot take the person's name.
PreparedDatabase prepareDatabase(const std::string &conninfo);

} // namespace rd
