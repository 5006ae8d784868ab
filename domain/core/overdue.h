#pragma once

// The overdue watch's rules shared by the CLI, the receiver and the desk (migration 0030
// keeps the database's side: billing_providers_overdue_grace_range).

#include <chrono>
#include <string>

namespace rd {

/// The longest grace the database accepts.
inline constexpr std::chrono::hours kMaxOverdueGrace {90 * 24};

/// What a person does about an overdue subscription, one sentence (the CLI's and the desk's).
inline std::string overdueNextStep(
    const std::string &providerKey, const std::string &missedPeriodEnd)
{
    return "Import or fetch a statement, or attach a snapshot: " + providerKey
        + " has no renewal recorded for the period that ended " + missedPeriodEnd;
}

} // namespace rd
