#include "domain/core/apply_result.h"

namespace rd {

std::string resultName(ApplyOutcome r)
{
    switch (r) {
    case ApplyOutcome::Applied:
        return "applied";
    case ApplyOutcome::Duplicate:
        return "duplicate";
    case ApplyOutcome::Rejected:
        return "rejected";
    }
    return "rejected";
}

ApplyOutcome applyResultFromName(std::string_view name)
{
    if (name == "applied")
        return ApplyOutcome::Applied;
    if (name == "duplicate")
        return ApplyOutcome::Duplicate;
    return ApplyOutcome::Rejected;
}

} // namespace rd
