#pragma once

#include "domain/core/errors.h"

#include <string>
#include <string_view>

namespace rd {

/// The connection was lost mid-call (libpqxx's broken_connection): a DatabaseFailure that a
/// retry on a new connection can heal, without a SQLSTATE (the server gave none).
class ConnectionLost : public DatabaseFailure
{
public:
    explicit ConnectionLost(const std::string &message) : DatabaseFailure(message, "", true) { }
};

/// SQLSTATEs callers tell apart (DatabaseFailure::sqlstate()).
inline constexpr std::string_view kInsufficientPrivilege = "42501";
inline constexpr std::string_view kUndefinedTable = "42P01";

/// Whether a failure's SQLSTATE is one a retry can heal: serialization failure and deadlock
/// (class 40), a connection exception (08), too many connections (53300), the server shutting
/// down or starting (57P01, 57P02, 57P03).
bool transientSqlstate(const std::string &sqlstate);

/// Throws what the database reported as the store's callers see it, whichever driver reported
/// it (libpqxx here, Qt's QPSQL in the desk): a refusal (SQLSTATE class RD) as ActionRefused,
/// anything else as DatabaseFailure, transient when transientSqlstate says so. `message` is the
/// server's, `sqlstate` its code ("" when it gave none).
[[noreturn]] void throwDatabaseFailure(const std::string &message, const std::string &sqlstate);

/// Rethrows the exception being handled (call it only inside a catch block) as the store's
/// callers see it: a refusal (SQLSTATE class RD) as ActionRefused, a lost connection as
/// ConnectionLost, any other libpqxx failure as DatabaseFailure (what() the server's message,
/// for logs; libpqxx 6.4's transaction_rollback has no SQLSTATE: 40001/40P01 by its type).
/// Anything else goes on as it is (libpqxx's usage and conversion errors are the program's
/// bugs, std::logic_error).
[[noreturn]] void rethrowAsDatabaseFailure();

/// Runs `body` at the store's edge: libpqxx's exceptions leave it as rd:: types
/// (rethrowAsDatabaseFailure), so that callers outside domain/store catch only those.
template<class Body>
auto translatingDatabaseErrors(Body &&body) -> decltype(body())
{
    try {
        return body();
    } catch (...) {
        rethrowAsDatabaseFailure();
    }
}

} // namespace rd
