#include "domain/core/apply_result.h"

namespace rd {

std::string resultName(ApplyResult r)
{
    switch (r) {
    case ApplyResult::Applied:
        return "applied";
    case ApplyResult::Duplicate:
        return "duplicate";
    case ApplyResult::Rejected:
        return "rejected";
    }
    return "rejected";
}

ApplyResult applyResultFromName(std::string_view name)
{
    if (name == "applied")
        return ApplyResult::Applied;
    if (name == "duplicate")
        return ApplyResult::Duplicate;
    return ApplyResult::Rejected;
}

} // namespace rd
