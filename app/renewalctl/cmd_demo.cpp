#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/demo/demo_history.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <ostream>

namespace rd::cli {

Timestamp presentOf(const CommandContext &ctx)
{
    if (const auto now = ctx.args.value("now")) {
        const auto t = parseRfc3339(*now);
        if (!t)
            throw UsageError("--now must be an RFC 3339 timestamp, not '" + *now + "'");
        return *t;
    }
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch());
    return Timestamp::fromSeconds(seconds.count());
}

int runDemo(const CommandContext &ctx)
{
    if (ctx.args.positionals().size() != 1)
        throw UsageError("usage: renewalctl demo [--subscriptions N] [--months M] [--seed S] "
                         "[--now RFC3339] [--statements DIR] [--if-empty | --replay-set DIR]");
    DemoOptions options;
    options.subscriptions = static_cast<int>(ctx.args.integer("subscriptions", 60, 6, 5000));
    options.months = static_cast<int>(ctx.args.integer("months", 6, 2, 36));
    options.seed = static_cast<std::uint64_t>(ctx.args.integer("seed", 1, 0, 1LL << 62));
    options.now = presentOf(ctx);
    if (const auto dir = ctx.args.value("statements")) {
        std::error_code ec;
        std::filesystem::create_directories(*dir, ec);
        if (ec)
            throw InputFileError("cannot create '" + *dir + "': " + ec.message());
        options.statementsDir = *dir;
    }

    if (const auto dir = ctx.args.value("replay-set")) {
        // Files only: a shuffled Stripe event export and the subscriptions it renews.
        const auto set = buildOutOfOrderReplaySet(options);
        const auto write = [](const std::string &path, const std::string &text) {
            std::ofstream f(path, std::ios::binary | std::ios::trunc);
            f << text;
            if (!f.flush())
                throw InputError(path, "cannot write the file");
        };
        write(*dir + "/subscriptions.jsonl", set.subscriptionLines);
        std::string events;
        for (const auto &p : set.payloads)
            events += p + "\n";
        write(*dir + "/stripe-events.jsonl", events);
        ctx.out << "demo: " << options.subscriptions << " Stripe subscriptions in " << *dir
                << "/subscriptions.jsonl, " << set.payloads.size() << " shuffled payloads in "
                << *dir << "/stripe-events.jsonl\n";
        return ExitOk;
    }

    const std::string conninfo = ctx.conninfo();
    if (ctx.args.flag("if-empty")) {
        auto conn = ctx.connect();
        if (hasSubscriptions(*conn)) {
            if (ctx.json())
                ctx.out << nlohmann::json {{"result", "skipped"}}.dump() << "\n";
            else
                ctx.out << "demo: the database already has subscriptions; nothing done\n";
            return ExitOk;
        }
    }
    const DemoReport report = buildDemoHistory(conninfo, options);
    if (ctx.json()) {
        ctx.out << nlohmann::json {{"result", "built"}, {"providers", report.providers},
            {"subscriptions", report.subscriptions}, {"payloads", report.payloads},
            {"outcomes", report.outcomes}, {"lostDeliveries", report.lostDeliveries},
            {"statementFiles", report.statementFiles}}
                       .dump()
                << "\n";
    } else {
        ctx.out << "demo: " << report.providers << " providers, " << report.subscriptions
                << " subscriptions, " << report.payloads << " payloads ingested\n";
        for (const auto &[outcome, count] : report.outcomes)
            ctx.out << "  " << outcome << ": " << count << "\n";
        if (!report.statementFiles.empty()) {
            ctx.out << "demo: " << report.lostDeliveries
                    << " Stripe renewal(s) were charged but never delivered; stripe-main's "
                       "statements:\n";
            for (const auto &path : report.statementFiles)
                ctx.out << "  " << path << "\n";
            // The last month that has ended: the one a finance person would close.
            const std::string lastMonth = formatRfc3339(addMonths(options.now, -1)).substr(0, 7);
            std::string suggested = report.statementFiles.back();
            for (const auto &path : report.statementFiles)
                if (path.find("stripe-main-" + lastMonth) != std::string::npos)
                    suggested = path;
            const auto monthStart = parseRfc3339(lastMonth + "-01T00:00:00Z");
            const std::string monthEnd = monthStart
                ? formatRfc3339(Timestamp {addMonths(*monthStart, 1).micros - 1}).substr(0, 10)
                : lastMonth + "-28";
            ctx.out << "import last month's with: renewalctl statement import --provider-key "
                       "stripe-main --from "
                    << lastMonth << "-01 --to " << monthEnd << " " << suggested << "\n";
        }
    }
    return ExitOk;
}

} // namespace rd::cli
