#include "domain/core/rejection_code.h"

#include <array>
#include <utility>

namespace rd {
namespace {

constexpr std::array<std::pair<RejectionCode, std::string_view>, 8> kCodes {{
    {RejectionCode::SubscriptionNotFound, "subscription_not_found"},
    {RejectionCode::NeedsSnapshot, "needs_snapshot"},
    {RejectionCode::RenewalKeyPayloadConflict, "provider_renewal_key_payload_conflict"},
    {RejectionCode::StatusNotActive, "renewal_not_allowed_for_subscription_status"},
    {RejectionCode::NoCurrentPeriod, "subscription_has_no_current_period"},
    {RejectionCode::InvalidPeriod, "invalid_provider_billing_period"},
    {RejectionCode::PeriodNotContiguous, "renewal_period_is_not_contiguous"},
    {RejectionCode::ScheduledCancellation, "renewal_conflicts_with_scheduled_cancellation"},
}};

} // namespace

std::string_view toString(RejectionCode code)
{
    for (const auto &[c, text] : kCodes) {
        if (c == code)
            return text;
    }
    return "rejected";
}

std::optional<RejectionCode> rejectionCodeFromString(std::string_view text)
{
    for (const auto &[c, name] : kCodes) {
        if (name == text)
            return c;
    }
    return std::nullopt;
}

} // namespace rd
