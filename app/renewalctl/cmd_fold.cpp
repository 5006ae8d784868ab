#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "domain/store/summary_folds.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <sstream>

namespace rd::cli {
namespace {

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
            {"inboxDayRows", folds.inboxDayRows}, {"moneyBackDeltas", folds.moneyBackDeltas},
            {"retention",
                sweep}}.dump()
                << "\n";
    else
        ctx.out << "folded " << folds.renewalDeltas << " renewal delta rows into the daily totals, "
                << folds.inboxDayRows << " (day, outcome) rows of finished inbox days, "
                << folds.moneyBackDeltas << " money back delta rows\n"
                << sweepText.str();
    return swept;
}

} // namespace

void registerFoldCommand(CommandTree &tree, CLI::App &root)
{
    auto *app = tree.command(root, "fold",
        "fold the renewal totals and finished inbox days into the summaries the ledger and "
        "the Overview read (run it from a timer; readers are right without it)",
        runFold, commandGroups::kDatabase);
    db(app);
    json(app);
}

} // namespace rd::cli
