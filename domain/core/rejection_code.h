#pragma once

#include <optional>
#include <string_view>

namespace rd {

/// Why the renewal core refused to record a renewal (its rules, in rd_renewal_verdict). Each
/// rejection becomes a reconciliation case with this code.
enum class RejectionCode {
    SubscriptionNotFound, ///< no subscription with the provider's id
    NeedsSnapshot, ///< the delivery does not say the period: a provider snapshot must
    RenewalKeyPayloadConflict, ///< the renewal key is recorded with other facts
    StatusNotActive, ///< the subscription is not active
    NoCurrentPeriod, ///< the subscription has no current period to continue
    InvalidPeriod, ///< the period ends before it starts
    PeriodNotContiguous, ///< the period does not start where the current one ends
    ScheduledCancellation, ///< the subscription is set to cancel at the period's end
};

/// The code as the database and the case queue spell it ("renewal_period_is_not_contiguous").
std::string_view toString(RejectionCode code);
std::optional<RejectionCode> rejectionCodeFromString(std::string_view text);

} // namespace rd
