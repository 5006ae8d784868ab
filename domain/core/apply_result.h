#pragma once

#include <string>
#include <string_view>

namespace rd {

/// What the renewal core did with one renewal: recorded it now, found it recorded before (the
/// same facts under the same renewal key), or refused it (see RejectionCode).
enum class ApplyOutcome { Applied, Duplicate, Rejected };

/// "applied", "duplicate" or "rejected", as the database answers.
std::string resultName(ApplyOutcome r);
/// The inverse of resultName; anything else is Rejected (the core answers only these three).
ApplyOutcome applyResultFromName(std::string_view name);

} // namespace rd
