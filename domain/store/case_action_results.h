#pragma once

#include "domain/core/apply_result.h"
#include "domain/core/rejection_code.h"
#include "domain/store/action_refused.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

/// What re-applying a case's renewal did.
struct ReapplyResult
{
    std::int64_t caseId = 0;
    ApplyOutcome result = ApplyOutcome::Rejected;
    std::optional<RejectionCode> rejection; ///< rejected: why the case stays open
    std::string resolution; ///< resolved: "reapplied" or "already_applied", as recorded
    std::string billingPeriodId; ///< applied or duplicate: the period that records it
    nlohmann::json json; ///< the database's answer as it came (for --json)

    bool resolved() const { return result != ApplyOutcome::Rejected; }
};

/// What attaching a snapshot did to the case it was attached to.
struct CaseAfterSnapshot
{
    std::int64_t id = 0;
    bool resolved = false; ///< its renewal is recorded (else it stays open)
    ApplyOutcome renewal = ApplyOutcome::Rejected; ///< what the core did with its renewal
    std::optional<RejectionCode> rejection; ///< still open: why
    /// Still open although its renewal is the renewal of the period the snapshot makes current:
    /// why the snapshot did not record it, in words ("the snapshot names renewal in_x ...").
    std::string why;
};

/// A case's renewal as a snapshot attachment speaks of it (migration 0032).
struct CaseRenewal
{
    std::int64_t caseId = 0;
    std::string renewalKey;
    std::string periodStart; ///< RFC 3339, empty when the case's event has no period
    std::string periodEnd;
    std::optional<std::int64_t> paidAmountMinor;
    std::string currency;
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
    /// The case's renewal, recorded as the renewal of the period the snapshot makes current.
    std::optional<CaseRenewal> renewalFromCase;
    /// Open cases whose renewal the subscription was moved past without recording it.
    std::vector<CaseRenewal> leftBehind;
    nlohmann::json json; ///< the database's answer as it came (for --json)
};
std::string_view toString(SnapshotAttachment::Result result);

/// What attaching would do: the attachment, or the refusal it would meet.
struct SnapshotPreview
{
    std::optional<SnapshotAttachment> wouldBe;
    std::optional<ActionRefused> refused;
};

} // namespace rd
