#include "app/renewalctl/command_context.h"
#include "domain/store/summary_folds.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <ostream>

namespace rd::cli {

int runFold(const CommandContext &ctx)
{
    auto conn = ctx.connect();
    const auto folds = foldSummaries(*conn);
    if (ctx.json())
        ctx.out << nlohmann::json {{"renewalDeltas", folds.renewalDeltas},
            {"inboxDayRows", folds.inboxDayRows}}
                       .dump()
                << "\n";
    else
        ctx.out << "folded " << folds.renewalDeltas << " renewal delta rows into the daily totals, "
                << folds.inboxDayRows << " (day, outcome) rows of finished inbox days\n";
    return ExitOk;
}

} // namespace rd::cli
