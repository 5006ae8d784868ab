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

/// The reason codes the desk offers and the CLI accepts; the database accepts these and no
/// other (public.operator_reason_codes, migrations/0010_operator_reasons.sql; a test checks
/// they agree).
const std::vector<std::string> &standardReasonCodes();

} // namespace rd
