#include "domain/store/operator_session.h"

#include "domain/store/action_refused.h"
#include "domain/store/database_errors.h"
#include "domain/store/database_target.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

namespace rd {

struct OperatorSession::Impl
{
    std::string conninfo;
    std::unique_ptr<pqxx::connection> conn;

    pqxx::connection &connection()
    {
        if (!conn)
            conn = connectTo(conninfo);
        return *conn;
    }
};

OperatorSession::OperatorSession(std::string conninfo) : m_impl(std::make_unique<Impl>())
{
    m_impl->conninfo = std::move(conninfo);
}

OperatorSession::~OperatorSession() = default;

// The session is the desk's door to the store: every call translates libpqxx's errors into
// rd:: types (translatingDatabaseErrors), so the desk catches only those.

void OperatorSession::runOnConnection(const std::function<void(DbRef)> &body)
{
    translatingDatabaseErrors([&] { body(DbRef(m_impl->connection())); });
}

OperatorSession::CaseProvider OperatorSession::providerOfCase(std::int64_t caseId)
{
    return translatingDatabaseErrors([&] {
        pqxx::read_transaction tx(m_impl->connection());
        const auto r = tx.exec_params("SELECT c.provider_key, p.kind FROM reconciliation_cases c "
                                      "LEFT JOIN billing_providers p "
                                      "ON p.provider_key = c.provider_key WHERE c.id = $1",
            caseId);
        if (r.empty())
            throw ActionRefused(
                Refusal::CaseNotFound, "there is no case " + std::to_string(caseId));
        CaseProvider provider {r[0][0].as<std::string>(), std::nullopt};
        if (!r[0][1].is_null())
            provider.kind = r[0][1].as<std::string>();
        return provider;
    });
}

} // namespace rd
