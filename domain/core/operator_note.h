#pragma once

#include <string>
#include <vector>

namespace rd {

/// Why an operator acts: a reason code (lower case, e.g. "provider_confirmed") and a comment.
struct OperatorNote
{
    std::string reason;
    std::string comment;
};

/// The reason codes the desk and the CLI offer (the database accepts any lower-case code).
const std::vector<std::string> &standardReasonCodes();

} // namespace rd
