#include "domain/store/db_session.h"

#include "domain/store/internal/pqxx_session.h"

namespace rd {

struct DbRefAccess
{
    static pqxx::connection &connection(DbRef db)
    {
        return *static_cast<pqxx::connection *>(db.m_connection);
    }
};

DbSession::DbSession(const std::string &conninfo)
    : m_impl(std::make_unique<Impl>(Impl {connectTo(conninfo)}))
{ }

DbSession::~DbSession() = default;
DbSession::DbSession(DbSession &&) noexcept = default;
DbSession &DbSession::operator=(DbSession &&) noexcept = default;

DbRef::DbRef(DbSession &session) : m_connection(session.m_impl->connection.get())
{ }

template<class PqxxConnection>
requires requires(PqxxConnection &c)
{
    c.dbname();
    c.is_open();
}
DbRef::DbRef(PqxxConnection &connection)
    : m_connection(static_cast<pqxx::connection *>(&connection))
{ }

// The one type DbRef borrows: its users (the store, tests) include libpqxx; nobody else can
// name it.
template DbRef::DbRef(pqxx::connection &);

pqxx::connection &pqxxOf(DbRef db)
{
    return DbRefAccess::connection(db);
}

} // namespace rd
