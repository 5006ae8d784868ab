#pragma once

// The store's connection as its callers hold it: opaque, so that a program using the store
// (the CLI, the demo, the bench workload) neither includes nor links libpqxx. Only
// domain/store's own sources see the pqxx::connection behind it (internal/pqxx_session.h).

#include <memory>
#include <string>

namespace rd {

/// One open database connection, owned. Not thread-safe: it belongs to the thread that uses
/// it, as a libpq connection does.
class DbSession
{
public:
    /// Connects to `conninfo`; throws DatabaseUnavailable with libpq's reason, never a password.
    explicit DbSession(const std::string &conninfo);
    ~DbSession();
    DbSession(DbSession &&) noexcept;
    DbSession &operator=(DbSession &&) noexcept;

    struct Impl;

private:
    friend class DbRef;
    std::unique_ptr<Impl> m_impl;
};

/// What the store's functions take: an open connection that the caller keeps open for the
/// call, passed by value (a reference, as std::string_view is one to text). Made from a
/// DbSession, or from a libpqxx connection where that type is known (the store's own sources,
/// tests): that constructor is a template instantiated in the store for pqxx::connection
/// alone, so any other type fails to link rather than to run.
class DbRef
{
public:
    DbRef(DbSession &session);
    template<class PqxxConnection>
    requires requires(PqxxConnection &c)
    {
        c.dbname();
        c.is_open();
    }
    DbRef(PqxxConnection &connection);

private:
    friend struct DbRefAccess;
    void *m_connection; ///< the pqxx::connection: internal/pqxx_session.h gives it its type
};

} // namespace rd
