#include "domain/core/apply_result.h"

namespace rd {

std::string_view toString(ApplyOutcome outcome)
{
    switch (outcome) {
    case ApplyOutcome::Applied:
        return "applied";
    case ApplyOutcome::Duplicate:
        return "duplicate";
    case ApplyOutcome::Rejected:
        break;
    }
    return "rejected";
}

std::optional<ApplyOutcome> applyOutcomeFromString(std::string_view name)
{
    for (const auto outcome :
        {ApplyOutcome::Applied, ApplyOutcome::Duplicate, ApplyOutcome::Rejected}) {
        if (toString(outcome) == name)
            return outcome;
    }
    return std::nullopt;
}

} // namespace rd
