#pragma once

#include <string>

namespace rd {

/// What the renewal core did with one renewal: recorded it now, found it recorded before (the
/// same facts under the same renewal key), or refused it (see RejectionCode).
enum class ApplyResult { Applied, Duplicate, Rejected };

/// "applied", "duplicate" or "rejected", as the database answers.
std::string resultName(ApplyResult r);

} // namespace rd
