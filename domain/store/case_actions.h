#pragma once

#include "domain/core/operator_note.h"
#include "domain/core/provider_snapshot.h"
#include "domain/store/action_refused.h"
#include "domain/store/case_action_results.h"

#include "domain/store/db_session.h"
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rd {

/// The operator actions. Each is one transaction in the database (a SECURITY DEFINER
/// function): the acting operator is the connection's login role. Each throws ActionRefused
/// for a refusal, UnknownAnswer for an answer this program does not know (a newer schema's);
/// serialization failures and deadlocks are retried (RetryPolicy).

/// Re-apply: the case's renewal through the same core as the webhooks; the case is resolved
/// when the renewal is recorded (applied now, or already), else it stays open.
ReapplyResult reapplyCase(DbRef db, std::int64_t caseId, const OperatorNote &note);
/// Dismiss: closes the case; the comment (a note saying why) is required.
DismissResult dismissCase(DbRef db, std::int64_t caseId, const OperatorNote &note);
/// Reopen: a dismissed case is open again, in the queue (0033's reopen_case); the note saying
/// why is required. Refused (CaseNotReopenable) for an open or resolved case, a renewal
/// recorded since, or another open case of the same renewal.
ReopenResult reopenCase(DbRef db, std::int64_t caseId, const std::string &note);
/// Claim: the open case is assigned to the calling login role (Claimed, or AlreadyYours);
/// taking over another's claim needs a comment (NoteRequired).
ClaimResult claimCase(DbRef db, std::int64_t caseId, const std::string &comment);
/// Release: the open case goes back to the queue (Released, or NotClaimed); releasing
/// another's claim needs a comment.
ReleaseResult releaseCase(DbRef db, std::int64_t caseId, const std::string &comment);
/// Note: a comment in the case's history (open or closed), not an action; it needs text.
NoteResult noteCase(DbRef db, std::int64_t caseId, const std::string &comment);
/// Attach a provider snapshot: brings the subscription to the provider's state, records the
/// latest renewal, audits before/after. With a case, the case's renewal is judged again by the
/// core in the same transaction: recorded -> the case is resolved, else it stays open with the
/// reason it still fails.
SnapshotAttachment attachSnapshot(DbRef db, const ProviderSnapshot &snapshot,
    std::optional<std::int64_t> caseId, const OperatorNote &note);
/// What attaching would do, judged by the database's own attach in a transaction it rolls back.
SnapshotPreview previewSnapshot(
    DbRef db, const ProviderSnapshot &snapshot, std::optional<std::int64_t> caseId);

/// Cases for lists and detail views.
nlohmann::json listCases(DbRef db, const std::optional<std::string> &status, int limit = 500);
/// The case with its evidence, history and whether it is applicable now. ActionRefused
/// "case_not_found" when there is none.
nlohmann::json showCase(DbRef db, std::int64_t caseId);

} // namespace rd
