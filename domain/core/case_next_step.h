#pragma once

#include <string_view>
#include <vector>

namespace rd {

/// What a person does next about an open case of `errorCode` (a reason the database opens
/// cases with: the core's rejections, needs_snapshot, the statement findings), in one or two
/// sentences naming the desk's actions, or empty for a code this program does not know. The
/// desk shows it under the case's finding; `renewalctl cases show` prints it as "next step".
/// tst_reconciliation reads every code the database's functions can open a case with and
/// fails for one without a next step.
std::string_view caseNextStep(std::string_view errorCode);

/// Every reason code caseNextStep() knows, in the order of the README's table.
const std::vector<std::string_view> &caseReasonCodes();

} // namespace rd
