#pragma once

#include <optional>
#include <string_view>

namespace rd {

/// What the renewal core did with one renewal: recorded it now, found it recorded before (the
/// same facts under the same renewal key), or refused it (see RejectionCode).
enum class ApplyOutcome { Applied, Duplicate, Rejected };

/// "applied", "duplicate" or "rejected", as the database answers.
std::string_view toString(ApplyOutcome outcome);
/// The inverse of toString, strictly: nothing for any other name (a newer schema's outcome is
/// not guessed; the store throws UnknownAnswer for it).
std::optional<ApplyOutcome> applyOutcomeFromString(std::string_view name);

} // namespace rd
