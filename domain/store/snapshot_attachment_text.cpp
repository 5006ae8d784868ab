#include "domain/store/snapshot_attachment_text.h"

#include "domain/core/currency.h"

namespace rd {
namespace {

// "in_feb of case 7 (2026-02-01T00:00:00Z - 2026-03-01T00:00:00Z, 29.00 USD)"
std::string renewalText(const CaseRenewal &r)
{
    std::string text = r.renewalKey + " of case " + std::to_string(r.caseId);
    std::string facts;
    if (!r.periodStart.empty())
        facts = r.periodStart + " - " + r.periodEnd;
    if (r.paidAmountMinor && !r.currency.empty())
        facts += (facts.empty() ? "" : ", ") + formatMinorUnits(*r.paidAmountMinor, r.currency)
            + " " + r.currency;
    return facts.empty() ? text : text + " (" + facts + ")";
}

} // namespace

std::string previewHeadline(const SnapshotAttachment &a, const std::string &providerSubscriptionId)
{
    using Outcome = SnapshotAttachment::Outcome;
    const std::string sub = "subscription " + providerSubscriptionId;
    switch (a.outcome) {
    case Outcome::Created:
        return "attaching would create " + sub + " from the snapshot";
    case Outcome::Attached:
        return "attaching would bring " + sub + " to the snapshot";
    case Outcome::Unchanged:
        break;
    }
    return "attaching would change nothing: the same snapshot of " + sub + " was attached before";
}

std::vector<std::string> renewalSentences(const SnapshotAttachment &a, bool preview)
{
    std::vector<std::string> out;
    if (a.renewalFromCase)
        out.push_back("renewal " + renewalText(*a.renewalFromCase)
            + (preview ? " would be recorded" : " is recorded")
            + ": it is the renewal of the period the snapshot makes current");
    if (a.caseAfter && !a.caseAfter->resolved && !a.caseAfter->why.empty())
        out.push_back("case " + std::to_string(a.caseAfter->id)
            + (preview ? " would stay open: " : " stays open: ") + a.caseAfter->why);
    for (const auto &r : a.leftBehind)
        out.push_back(
            std::string(preview ? "the subscription would move" : "the subscription moved")
            + " past renewal " + renewalText(r) + " without recording it");
    return out;
}

} // namespace rd
