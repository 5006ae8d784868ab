#include "domain/store/operator_session.h"

#include "domain/store/action_refused.h"
#include "domain/store/case_actions.h"
#include "domain/store/database_errors.h"
#include "domain/store/database_target.h"
#include "domain/store/internal/pqxx_session.h"
#include "domain/store/month_close.h"
#include "domain/store/statement_import.h"

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

ReapplyResult OperatorSession::reapply(std::int64_t caseId, const OperatorNote &note)
{
    return translatingDatabaseErrors(
        [&] { return reapplyCase(m_impl->connection(), caseId, note); });
}

DismissResult OperatorSession::dismiss(std::int64_t caseId, const OperatorNote &note)
{
    return translatingDatabaseErrors(
        [&] { return dismissCase(m_impl->connection(), caseId, note); });
}

ReopenResult OperatorSession::reopen(std::int64_t caseId, const std::string &note)
{
    return translatingDatabaseErrors(
        [&] { return reopenCase(m_impl->connection(), caseId, note); });
}

nlohmann::json OperatorSession::closeMonth(const std::string &providerKey, const std::string &month)
{
    return translatingDatabaseErrors(
        [&] { return rd::closeMonth(m_impl->connection(), providerKey, month); });
}

nlohmann::json OperatorSession::monthCloseReport(
    const std::string &providerKey, const std::string &month)
{
    return translatingDatabaseErrors(
        [&] { return rd::monthCloseReport(m_impl->connection(), providerKey, month); });
}

ClaimResult OperatorSession::claim(std::int64_t caseId, const std::string &comment)
{
    return translatingDatabaseErrors(
        [&] { return claimCase(m_impl->connection(), caseId, comment); });
}

ReleaseResult OperatorSession::release(std::int64_t caseId, const std::string &comment)
{
    return translatingDatabaseErrors(
        [&] { return releaseCase(m_impl->connection(), caseId, comment); });
}

NoteResult OperatorSession::note(std::int64_t caseId, const std::string &comment)
{
    return translatingDatabaseErrors(
        [&] { return noteCase(m_impl->connection(), caseId, comment); });
}

SnapshotAttachment OperatorSession::attachSnapshot(
    const ProviderSnapshot &snapshot, std::optional<std::int64_t> caseId, const OperatorNote &note)
{
    return translatingDatabaseErrors(
        [&] { return rd::attachSnapshot(m_impl->connection(), snapshot, caseId, note); });
}

SnapshotPreview OperatorSession::previewSnapshot(
    const ProviderSnapshot &snapshot, std::optional<std::int64_t> caseId)
{
    return translatingDatabaseErrors(
        [&] { return rd::previewSnapshot(m_impl->connection(), snapshot, caseId); });
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

StatementImportResult OperatorSession::importStatement(const std::string &providerKey,
    const std::vector<StatementFile> &files, const std::optional<std::string> &from,
    const std::optional<std::string> &to, bool dryRun)
{
    return translatingDatabaseErrors([&] {
        return importStatementFiles(m_impl->connection(), providerKey, files, from, to, dryRun);
    });
}

} // namespace rd
