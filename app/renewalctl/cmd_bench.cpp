#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/store/database_target.h"
#include "domain/workload/renewal_workload.h"

#include <ostream>

namespace rd::cli {
namespace {

struct BenchOptions
{
    bench::WorkloadOptions workload;
    bool force = false;
};

int runBench(const CommandContext &ctx, const BenchOptions &o)
{
    const bench::WorkloadOptions &options = o.workload;
    const auto target = resolveDatabase(ctx.args.value("db"));
    // The bench writes thousands of subscriptions and renewals: never into a database that
    // holds anything else, unless asked to.
    if (!o.force) {
        if (const auto others = bench::nonBenchSubscriptions(target.conninfo); others > 0) {
            ctx.err << "renewalctl: refused: the database holds " << others
                    << " subscription(s) that are not bench data (provider keys not starting "
                       "with 'bench-'); bench writes into the database it measures: give it a "
                       "scratch database, or --force\n";
            return ExitRefused;
        }
    }

    const auto report = bench::runRenewalWorkload(target.conninfo, options);
    if (ctx.json()) {
        ctx.out << report.toJson().dump() << "\n";
    } else {
        ctx.out << "applied " << report.applied << ", duplicates " << report.duplicates
                << ", rejected " << report.rejected << ", retries " << report.retries << "\n"
                << report.deliveries << " deliveries in " << report.seconds
                << " s: " << static_cast<long long>(report.renewalsPerSecond())
                << " renewals/s, p50 " << report.p50Ms << " ms, p99 " << report.p99Ms << " ms\n"
                << (report.invariantsHold() ? "invariants hold" : "INVARIANTS BROKEN") << "\n";
        for (const auto &b : report.broken)
            ctx.err << "broken: " << b << "\n";
    }
    return report.invariantsHold() ? ExitOk : ExitInternal;
}

} // namespace

void registerBenchCommand(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<BenchOptions>(); // the workload's defaults are the help's
    auto *app = tree.command(
        root, "bench", "measure the renewal core (writes bench-* data: use a scratch database)",
        [o](const CommandContext &ctx) { return runBench(ctx, *o); }, commandGroups::kRenewals);
    option(app, "subscriptions", o->workload.subscriptions, "N",
        "subscriptions to seed (default 1000)")
        ->transform(wholeNumber("--subscriptions", 1, 10'000'000));
    option(app, "renewals", o->workload.renewals, "M", "renewals to apply (default 10000)")
        ->transform(wholeNumber("--renewals", 1, 100'000'000));
    option(app, "workers", o->workload.workers, "K", "concurrent workers (default 8)")
        ->transform(wholeNumber("--workers", 1, 256));
    option(app, "duplicates", o->workload.duplicates, "F",
        "share of renewals delivered twice, 0 to 1 (default 0.1)")
        ->transform(decimalNumber("--duplicates", 0.0, 1.0));
    option(app, "seed", o->workload.seed, "S", "random seed (default 1)")
        ->transform(wholeNumber("--seed", 0, 1'000'000'000));
    flag(app, "force", o->force, "run even though the database holds data that is not the bench's");
    db(app);
    json(app);
}

} // namespace rd::cli
