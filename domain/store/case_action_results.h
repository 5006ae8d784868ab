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

/// A subscription's current period as an action left it (rd_subscription_state_json's
/// currentPeriod, read in the action's own transaction), RFC 3339.
struct CurrentPeriod
{
    std::string start;
    std::string end;
};

/// What re-applying a case's renewal did.
struct ReapplyResult
{
    std::int64_t caseId = 0;
    ApplyOutcome outcome = ApplyOutcome::Rejected;
    std::optional<RejectionCode> rejection; ///< rejected: why the case stays open
    std::string resolution; ///< resolved: "reapplied" or "already_applied", as recorded
    std::string billingPeriodId; ///< applied or duplicate: the period that records it
    /// The subscription's current period after the apply (and the healing it set off); nothing
    /// when the subscription does not exist or has no period.
    std::optional<CurrentPeriod> periodAfter;
    nlohmann::json json; ///< the database's answer as it came (for --json)

    bool resolved() const { return outcome != ApplyOutcome::Rejected; }
};

// Claim, release, note, dismiss and reopen: what the database answered, typed. toJson() is that
// answer as the database spells it (renewalctl's --json prints it, byte for byte as before).

/// What claiming a case did: it is the calling login role's now (taken over from another's
/// claim, or it was free), or it was already.
enum class ClaimOutcome { Claimed, AlreadyYours };
std::string_view toString(ClaimOutcome outcome); ///< "claimed", "already_yours"
struct ClaimResult
{
    std::int64_t caseId = 0;
    ClaimOutcome outcome = ClaimOutcome::Claimed;
    std::string assignedTo; ///< the calling login role
    std::string takenFrom; ///< claimed: whose claim it took over; empty when the case was free

    nlohmann::json toJson() const;
};

/// What releasing a case did: back in the queue (it was someone's), or nobody held it.
enum class ReleaseOutcome { Released, NotClaimed };
std::string_view toString(ReleaseOutcome outcome); ///< "released", "not_claimed"
struct ReleaseResult
{
    std::int64_t caseId = 0;
    ReleaseOutcome outcome = ReleaseOutcome::NotClaimed;
    std::string releasedFrom; ///< released: whose claim it was

    nlohmann::json toJson() const;
};

/// A note was added to the case's history (its only outcome: anything else is a refusal).
struct NoteResult
{
    std::int64_t caseId = 0;

    nlohmann::json toJson() const; ///< {"caseId", "result": "noted"}
};

/// The case was dismissed (its only outcome: anything else is a refusal).
struct DismissResult
{
    std::int64_t caseId = 0;

    nlohmann::json toJson() const; ///< {"caseId", "result": "dismissed"}
};

/// The dismissed case is open again (its only outcome: anything else is a refusal).
struct ReopenResult
{
    std::int64_t caseId = 0;
    std::string errorCode; ///< the case's rejection, as it was recorded; empty when none
    std::string dismissedBy; ///< who had dismissed it; empty when not recorded

    nlohmann::json toJson() const; ///< {"caseId", "result": "reopened", ...}
};

/// What attaching a snapshot did to the case it was attached to.
struct CaseAfterSnapshot
{
    std::int64_t id = 0;
    bool resolved = false; ///< its renewal is recorded (else it stays open)
    ApplyOutcome renewalOutcome = ApplyOutcome::Rejected; ///< what the core did with its renewal
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
    enum class Outcome { Attached, Created, Unchanged };
    Outcome outcome = Outcome::Unchanged;
    std::int64_t snapshotId = 0;
    std::string subscriptionId;
    nlohmann::json changes; ///< {"field": {"before", "after"}} of what moved
    std::optional<CaseAfterSnapshot> caseAfter; ///< with a case
    std::vector<std::int64_t> applicableCases; ///< other open cases it made applicable
    /// The case's renewal, recorded as the renewal of the period the snapshot makes current.
    std::optional<CaseRenewal> renewalFromCase;
    /// Open cases whose renewal the subscription was moved past without recording it.
    std::vector<CaseRenewal> leftBehind;
    /// The subscription's current period after the attachment (and the healing it set off).
    std::optional<CurrentPeriod> periodAfter;
    nlohmann::json json; ///< the database's answer as it came (for --json)
};
std::string_view toString(SnapshotAttachment::Outcome outcome);

/// What attaching would do: the attachment, or the refusal it would meet.
struct SnapshotPreview
{
    std::optional<SnapshotAttachment> wouldBe;
    std::optional<ActionRefused> refused;
};

} // namespace rd
