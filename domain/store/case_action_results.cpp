#include "domain/store/case_action_results.h"

namespace rd {
namespace {

nlohmann::json answer(std::int64_t caseId, std::string_view result)
{
    return {{"caseId", caseId}, {"result", result}};
}

} // namespace

std::string_view toString(ClaimOutcome outcome)
{
    switch (outcome) {
    case ClaimOutcome::Claimed:
        return "claimed";
    case ClaimOutcome::AlreadyYours:
        break;
    }
    return "already_yours";
}

std::string_view toString(ReleaseOutcome outcome)
{
    switch (outcome) {
    case ReleaseOutcome::Released:
        return "released";
    case ReleaseOutcome::NotClaimed:
        break;
    }
    return "not_claimed";
}

// Each toJson() has the keys claim_case & co. answer with (migrations 0027, 0033), so that
// --json prints what it printed when it passed their answer through.

nlohmann::json ClaimResult::toJson() const
{
    nlohmann::json j = answer(caseId, toString(outcome));
    j["assignedTo"] = assignedTo;
    if (!takenFrom.empty())
        j["takenFrom"] = takenFrom;
    return j;
}

nlohmann::json ReleaseResult::toJson() const
{
    nlohmann::json j = answer(caseId, toString(outcome));
    if (outcome == ReleaseOutcome::Released)
        j["releasedFrom"] = releasedFrom;
    return j;
}

nlohmann::json NoteResult::toJson() const
{
    return answer(caseId, "noted");
}

nlohmann::json DismissResult::toJson() const
{
    return answer(caseId, "dismissed");
}

nlohmann::json ReopenResult::toJson() const
{
    nlohmann::json j = answer(caseId, "reopened");
    if (!errorCode.empty())
        j["errorCode"] = errorCode;
    if (!dismissedBy.empty())
        j["dismissedBy"] = dismissedBy;
    return j;
}

} // namespace rd
