#include "app/renewalctl/command_context.h"
#include "domain/store/summary_folds.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <ostream>
#include <sstream>

namespace rd::cli {

int runFold(const CommandContext &ctx)
{
    auto conn = ctx.connect();
    const auto folds = foldSummaries(*conn);
    // The retention sweep (0037) when one is configured: said in the one output.
    std::ostringstream sweepText;
    nlohmann::json sweep;
    const CommandContext sweepCtx {ctx.args, ctx.in, sweepText, ctx.err};
    const int swept = purgeForFold(sweepCtx, *conn, sweep);
    if (ctx.json())
        ctx.out << nlohmann::json {{"renewalDeltas", folds.renewalDeltas},
            {"inboxDayRows", folds.inboxDayRows},
            {"retention",
                sweep}}.dump()
                << "\n";
    else
        ctx.out << "folded " << folds.renewalDeltas << " renewal delta rows into the daily totals, "
                << folds.inboxDayRows << " (day, outcome) rows of finished inbox days\n"
                << sweepText.str();
    return swept;
}

} // namespace rd::cli
