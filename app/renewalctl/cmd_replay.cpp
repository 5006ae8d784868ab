#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/store/action_refused.h"
#include "domain/store/inbox_replay.h"

#include <nlohmann/json.hpp>

#include <istream>
#include <limits>
#include <ostream>

namespace rd::cli {

namespace {

// An invalid inbox delivery again, with its stored body, after an adapter fix: the same path
// as the desk's Re-run (domain/store/inbox_replay).
int rerunDelivery(const CommandContext &ctx)
{
    if (ctx.args.positionals().size() > 1 || ctx.args.value("provider-key"))
        throw UsageError("usage: renewalctl replay --delivery N (no provider key or file: the "
                         "delivery's own)");
    const auto id = ctx.args.integer("delivery", 0, 1, std::numeric_limits<long long>::max());
    DeliveryRerun rerun;
    try {
        rerun = rerunInvalidDelivery(ctx.conninfo(), id);
    } catch (const ActionRefused &e) {
        return reportRefusal(ctx, e.code(), e.what());
    }
    if (ctx.json())
        ctx.out << rerun.toJson().dump() << "\n";
    else
        ctx.out << rerun.text();
    if (rerun.stillInvalid)
        return ExitRejected;
    return rerun.summary.openCases.empty() ? ExitOk : ExitRejected;
}

} // namespace

// A provider's event export (e.g. a saved page of Stripe's event list), in any order, through
// the same ingest path as live deliveries; then what became of it: applied at once, applied
// when its predecessor arrived (healed), and the cases left for a person.
int runReplay(const CommandContext &ctx)
{
    if (ctx.args.value("delivery"))
        return rerunDelivery(ctx);
    if (ctx.args.positionals().size() > 2)
        throw UsageError("usage: renewalctl replay --provider-key KEY [FILE|-] | --delivery N");
    const std::string providerKey = ctx.args.requireValue("provider-key");
    InputFile input(ctx.args.inputPath(1), ctx.in);
    InboxReplay replay(ctx.conninfo());
    replay.kindOf(providerKey); // an unknown provider is refused before anything is read

    for (std::string line; std::getline(input.stream(), line);) {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        replay.ingest(providerKey, line);
    }
    const ReplaySummary summary = replay.finish();
    if (ctx.json())
        ctx.out << summary.toJson().dump() << "\n";
    else
        ctx.out << summary.text();
    return summary.openCases.empty() ? ExitOk : ExitRejected;
}

} // namespace rd::cli
