#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/errors.h"
#include "domain/store/action_refused.h"
#include "domain/store/inbox_replay.h"

#include <nlohmann/json.hpp>

#include <istream>
#include <limits>
#include <ostream>

namespace rd::cli {

namespace {

struct ReplayOptions
{
    std::string providerKey;
    std::string file;
    std::optional<long long> delivery;
};

// An invalid inbox delivery again, with its stored body, after an adapter fix: the same path
// as the desk's Re-run (domain/store/inbox_replay).
int rerunDelivery(const CommandContext &ctx, long long id)
{
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

// A provider's event export (e.g. a saved page of Stripe's event list), in any order, through
// the same ingest path as live deliveries; then what became of it: applied at once, applied
// when its predecessor arrived (healed), and the cases left for a person.
int runReplay(const CommandContext &ctx, const ReplayOptions &o)
{
    if (o.delivery) // with no provider key or file: the parser refuses them together
        return rerunDelivery(ctx, *o.delivery);
    if (o.providerKey.empty())
        throw UsageError("option --provider-key is required (or --delivery N)");
    const std::string &providerKey = o.providerKey;
    InputFile input(o.file, ctx.in);
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

} // namespace

void registerReplayCommand(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<ReplayOptions>();
    auto *app = tree.command(
        root, "replay",
        "a provider's event export, one payload per line, in any order; says how many "
        "applied at once, how many healed, and the cases left open",
        [o](const CommandContext &ctx) { return runReplay(ctx, *o); }, commandGroups::kWebhooks);
    auto *providerKey = option(app, "provider-key", o->providerKey, "KEY",
        "the registered provider the export comes from");
    auto *file = inputFile(app, o->file, "the export, one payload a line");
    option(app, "delivery", o->delivery, "N",
        "instead of an export: re-run invalid inbox delivery N with its stored body "
        "(after an adapter fix); a new delivery marks it reviewed")
        ->transform(wholeNumber("--delivery", 1, std::numeric_limits<long long>::max()))
        ->excludes(providerKey)
        ->excludes(file);
    db(app);
    json(app);
}

} // namespace rd::cli
