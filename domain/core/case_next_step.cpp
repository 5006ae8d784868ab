#include "domain/core/case_next_step.h"

#include <array>
#include <utility>

namespace rd {
namespace {

// One sentence a reason; the README's table "case reason | what it means | what resolves it"
// says the same at more length. English, as the CLI prints it; the desk lists the same
// sentences for its translations (ui/models/caseevidence.cpp), and tst_ui_caseevidence keeps
// the two word for word alike.
constexpr std::array<std::pair<std::string_view, std::string_view>, 14> kNextSteps {{
    {"renewal_period_is_not_contiguous",
        "Usually wait: when the missing renewal arrives the core applies this one too and "
        "closes the case by itself. If the provider's periods differ from the desk's, attach a "
        "provider snapshot."},
    {"provider_renewal_key_payload_conflict",
        "Check the invoice at the provider: if the stored renewal is right, dismiss with a note; "
        "if the provider corrected the invoice, attach a provider snapshot."},
    {"renewal_conflicts_with_scheduled_cancellation",
        "Ask the provider whether the cancellation was withdrawn: attach a provider snapshot "
        "of the subscription as it shows it, then re-apply; if it still cancels, refund and "
        "dismiss with a note."},
    {"renewal_not_allowed_for_subscription_status",
        "Attach a provider snapshot that brings the subscription's status up to date, then "
        "re-apply."},
    {"subscription_not_found",
        "Import the subscription, or attach a provider snapshot of it: that creates the "
        "subscription and records its latest renewal. Then re-apply if the case stays open."},
    {"subscription_has_no_current_period",
        "Attach a provider snapshot with the subscription's current period, then re-apply."},
    {"invalid_provider_billing_period",
        "Check the invoice at the provider: attach a provider snapshot with the correct period, "
        "or dismiss with a note if the provider confirms it was sent in error."},
    {"needs_snapshot",
        "Look the subscription up in the provider's dashboard or API and attach a provider "
        "snapshot with what it shows: the renewal is then judged again against it. Re-apply "
        "cannot help: the message does not say which period was paid."},
    {"statement_disagrees",
        "Look at the provider: a refund or a corrected invoice is a note and a dismissal; a "
        "wrong recording is a provider snapshot with the provider's state."},
    {"not_in_statement",
        "Find out why the statement lacks it (refunded, another account, test mode, a wrong "
        "filter) and dismiss with a note saying what it was."},
    {"statement_object_unreadable",
        "Open the object in the provider's dashboard. If it is a renewal, see that it is "
        "recorded (its delivery, or a provider snapshot of its subscription), then dismiss "
        "with a note naming it; if it is not, dismiss with a note saying what it was."},
    {"refund_without_renewal",
        "Usually wait: when the renewal it pays back is recorded, the movement is "
        "recorded with it and the case closes by itself. If that renewal is recorded "
        "and the case is still open, re-apply it; if the renewal never reaches the "
        "desk, or the provider names it only by a payment the desk does not know, find "
        "it at the provider and dismiss with a note naming it."},
    {"refund_exceeds_payment",
        "Check the renewal and its refunds and disputes at the provider: the desk never records "
        "more money back than was paid. If a recorded movement is wrong, or the provider paid "
        "back more than the renewal, dismiss with a note saying what it shows."},
    {"money_movement_conflict",
        "The provider sent a refund or dispute already recorded with another amount, currency or "
        "renewal, or a reversal of nothing recorded. The recorded movement is kept: check it at "
        "the provider and dismiss with a note saying what it shows."},
}};

} // namespace

std::string_view caseNextStep(std::string_view errorCode)
{
    for (const auto &[code, step] : kNextSteps) {
        if (code == errorCode)
            return step;
    }
    return {};
}

const std::vector<std::string_view> &caseReasonCodes()
{
    static const std::vector<std::string_view> codes = [] {
        std::vector<std::string_view> all;
        for (const auto &entry : kNextSteps)
            all.push_back(entry.first);
        return all;
    }();
    return codes;
}

} // namespace rd
