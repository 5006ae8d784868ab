#pragma once

#include "domain/core/operator_note.h"
#include "domain/core/provider_snapshot.h"
#include "domain/store/case_action_results.h"
#include "domain/store/statement_run.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rd {

/// The operator actions and the lookups around them over one database connection, for
/// programs that do not use libpqxx themselves (the desk). The connection opens on first use
/// as the conninfo's login role, so the database judges every action as that operator.
///
/// Not thread-safe: a session belongs to the thread that uses it (one connection per thread).
/// Failures throw what the functions of case_actions.h throw: ActionRefused for a refusal,
/// DatabaseUnavailable when the server cannot be reached, UnknownAnswer for an answer this
/// program does not know, DatabaseFailure (ConnectionLost) for the rest of what the database
/// reports; never a libpqxx type.
class OperatorSession
{
public:
    explicit OperatorSession(std::string conninfo);
    ~OperatorSession();
    OperatorSession(const OperatorSession &) = delete;
    OperatorSession &operator=(const OperatorSession &) = delete;

    /// rd::reapplyCase.
    ReapplyResult reapply(std::int64_t caseId, const OperatorNote &note);
    /// rd::dismissCase.
    DismissResult dismiss(std::int64_t caseId, const OperatorNote &note);
    /// rd::reopenCase.
    ReopenResult reopen(std::int64_t caseId, const std::string &note);
    /// rd::claimCase, rd::releaseCase, rd::noteCase.
    ClaimResult claim(std::int64_t caseId, const std::string &comment);
    ReleaseResult release(std::int64_t caseId, const std::string &comment);
    NoteResult note(std::int64_t caseId, const std::string &comment);
    /// rd::attachSnapshot.
    SnapshotAttachment attachSnapshot(const ProviderSnapshot &snapshot,
        std::optional<std::int64_t> caseId, const OperatorNote &note);
    /// rd::previewSnapshot.
    SnapshotPreview previewSnapshot(
        const ProviderSnapshot &snapshot, std::optional<std::int64_t> caseId);

    /// rd::closeMonth (`month`: its first day, "2026-02-01"), and the closed month's report
    /// (rd::monthCloseReport; null when it is not closed).
    nlohmann::json closeMonth(const std::string &providerKey, const std::string &month);
    nlohmann::json monthCloseReport(const std::string &providerKey, const std::string &month);

    /// rd::importStatementFiles, as this operator: `from`/`to` are UTC days "YYYY-MM-DD" or
    /// nothing (the statement's own paid days).
    StatementImportResult importStatement(const std::string &providerKey,
        const std::vector<StatementFile> &files, const std::optional<std::string> &from,
        const std::optional<std::string> &to, bool dryRun);

    /// The provider a case is about: its key, and its kind ("stripe", ...) when the provider
    /// is registered with one. ActionRefused "case_not_found" when there is no such case.
    struct CaseProvider
    {
        std::string providerKey;
        std::optional<std::string> kind;
    };
    CaseProvider providerOfCase(std::int64_t caseId);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace rd
