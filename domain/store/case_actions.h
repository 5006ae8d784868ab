#pragma once

#include "domain/core/operator_note.h"
#include "domain/core/provider_snapshot.h"
#include "domain/store/action_refused.h"
#include "domain/store/renewal_applier.h"

#include <nlohmann/json.hpp>
#include <pqxx/connection> // pqxx::connection is an alias in 6.4: no forward declaration

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rd {

/// The operator actions. Each is one transaction in the database (a SECURITY DEFINER
/// function): the acting operator is the connection's login role. Each throws ActionRefused
/// for a refusal; serialization failures and deadlocks are retried (RetryPolicy).

/// What re-applying a case's renewal did.
struct ReapplyResult
{
    std::int64_t caseId = 0;
    ApplyResult result = ApplyResult::Rejected;
    std::optional<RejectionCode> rejection; ///< rejected: why the case stays open
    std::string billingPeriodId; ///< applied or duplicate: the period that records it
    nlohmann::json json; ///< the database's answer as it came (for --json)

    bool resolved() const { return result != ApplyResult::Rejected; }
};

/// What attaching a snapshot did to the case it was attached to.
struct CaseAfterSnapshot
{
    std::int64_t id = 0;
    bool resolved = false; ///< its renewal is recorded (else it stays open)
    ApplyResult renewal = ApplyResult::Rejected; ///< what the core did with its renewal
    std::optional<RejectionCode> rejection; ///< still open: why
};

/// What attaching a provider snapshot did.
struct SnapshotAttachment
{
    enum class Result { Attached, Created, Unchanged };
    Result result = Result::Unchanged;
    std::int64_t snapshotId = 0;
    std::string subscriptionId;
    nlohmann::json changes; ///< {"field": {"before", "after"}} of what moved
    std::optional<CaseAfterSnapshot> caseAfter; ///< with a case
    std::vector<std::int64_t> applicableCases; ///< other open cases it made applicable
    nlohmann::json json; ///< the database's answer as it came (for --json)
};
std::string_view toString(SnapshotAttachment::Result result);

/// What attaching would do: the attachment, or the refusal it would meet.
struct SnapshotPreview
{
    std::optional<SnapshotAttachment> wouldBe;
    std::optional<ActionRefused> refused;
};

/// Re-apply: the case's renewal through the same core as the webhooks; the case is resolved
/// when the renewal is recorded (applied now, or already), else it stays open.
ReapplyResult reapplyCase(pqxx::connection &conn, std::int64_t caseId, const OperatorNote &note);
/// Dismiss: closes the case; the comment (a note saying why) is required. The database's
/// answer ({"caseId","result":"dismissed"}).
nlohmann::json dismissCase(pqxx::connection &conn, std::int64_t caseId, const OperatorNote &note);
/// Attach a provider snapshot: brings the subscription to the provider's state, records the
/// latest renewal, audits before/after. With a case, the case's renewal is judged again by the
/// core in the same transaction: recorded -> the case is resolved, else it stays open with the
/// reason it still fails.
SnapshotAttachment attachSnapshot(pqxx::connection &conn, const ProviderSnapshot &snapshot,
    std::optional<std::int64_t> caseId, const OperatorNote &note);
/// What attaching would do, judged by the database's own attach in a transaction it rolls back.
SnapshotPreview previewSnapshot(
    pqxx::connection &conn, const ProviderSnapshot &snapshot, std::optional<std::int64_t> caseId);

/// Cases for lists and detail views.
nlohmann::json listCases(
    pqxx::connection &conn, const std::optional<std::string> &status, int limit = 500);
/// The case with its evidence, history and whether it is applicable now. ActionRefused
/// "case_not_found" when there is none.
nlohmann::json showCase(pqxx::connection &conn, std::int64_t caseId);

} // namespace rd
