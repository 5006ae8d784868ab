#include "app/renewalctl/command_context.h"
#include "domain/workload/renewal_workload.h"
#include "domain/store/database_target.h"

#include <ostream>

namespace rd::cli {

int runBench(const CommandContext &ctx)
{
    bench::WorkloadOptions options;
    options.subscriptions = ctx.args.integer("subscriptions", 1000, 1, 10'000'000);
    options.renewals = ctx.args.integer("renewals", 10000, 1, 100'000'000);
    options.workers = static_cast<int>(ctx.args.integer("workers", 8, 1, 256));
    options.duplicates = ctx.args.number("duplicates", 0.1, 0.0, 1.0);
    options.seed = static_cast<unsigned>(ctx.args.integer("seed", 1, 0, 1'000'000'000));

    const auto target = resolveDatabase(ctx.args.value("db"));
    // The bench writes thousands of subscriptions and renewals: never into a database that
    // holds anything else, unless asked to.
    if (!ctx.args.flag("force")) {
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

} // namespace rd::cli
