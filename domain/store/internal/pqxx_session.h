#pragma once

// Private to domain/store (and its tests): the libpqxx connection behind the store's opaque
// DbSession and DbRef (db_session.h), and how the store opens one.

#include "domain/store/db_session.h"

#include <pqxx/connection>

#include <memory>
#include <string>

namespace rd {

struct DbSession::Impl
{
    std::unique_ptr<pqxx::connection> connection;
};

/// The pqxx::connection `db` refers to.
pqxx::connection &pqxxOf(DbRef db);

/// Opens a connection; throws DatabaseUnavailable with libpq's reason, never a password.
std::unique_ptr<pqxx::connection> connectTo(const std::string &conninfo);

} // namespace rd
