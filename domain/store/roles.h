#pragma once

#include <pqxx/connection> // pqxx::connection is an alias in 6.4: no forward declaration

#include <string>

namespace rd {

/// Gives a login role one of the group roles ("viewer", "operator", "ingest"), creating the
/// login role (without a password) when it does not exist. Throws InputError for a bad kind
/// or name.
void grantRole(pqxx::connection &conn, const std::string &login, const std::string &kind);

} // namespace rd
