#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/errors.h"
#include "domain/demo/demo_history.h"
#include "domain/store/subscription_import.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <ostream>

namespace rd::cli {

Timestamp presentOf(const std::optional<std::string> &now)
{
    if (now) {
        if (const auto t = parseRfc3339(*now)) // checked as it was parsed (option_checks.h)
            return *t;
    }
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch());
    return Timestamp::fromSeconds(seconds.count());
}

namespace {

struct DemoCommandOptions
{
    DemoOptions demo; // --subscriptions, --months and --seed, else its defaults
    std::optional<std::string> now;
    bool ifEmpty = false;
    std::optional<std::string> replaySet;
    std::optional<std::string> statements;
};

int runDemo(const CommandContext &ctx, const DemoCommandOptions &o)
{
    DemoOptions options = o.demo;
    options.now = presentOf(o.now);
    if (const auto &dir = o.statements) {
        std::error_code ec;
        std::filesystem::create_directories(*dir, ec);
        if (ec)
            throw InputFileError("cannot create '" + *dir + "': " + ec.message());
        options.statementsDir = *dir;
    }

    if (const auto &dir = o.replaySet) {
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
    if (o.ifEmpty) {
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
            // Its renewals' page and its money back lists' pages, if any.
            std::string suggested;
            for (const auto &path : report.statementFiles)
                if (path.find("stripe-main-" + lastMonth) != std::string::npos)
                    suggested += (suggested.empty() ? "" : " ") + path;
            if (suggested.empty())
                suggested = report.statementFiles.back();
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

} // namespace

void registerDemoCommand(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<DemoCommandOptions>();
    auto *app = tree.command(
        root, "demo",
        "build a believable history through ingest; with --replay-set DIR, write a shuffled "
        "Stripe event export and its subscriptions to DIR (no database)",
        [o](const CommandContext &ctx) { return runDemo(ctx, *o); }, commandGroups::kWebhooks);
    option(app, "subscriptions", o->demo.subscriptions, "N", "subscriptions (default 60)")
        ->transform(wholeNumber("--subscriptions", 6, 5000));
    option(app, "months", o->demo.months, "M", "months of history (default 6)")
        ->transform(wholeNumber("--months", 2, 36));
    option(app, "seed", o->demo.seed, "S", "random seed (default 1)")
        ->transform(wholeNumber("--seed", 0, 1LL << 62));
    option(app, "now", o->now, "RFC3339", "the history's present (default: now)")
        ->check(rfc3339("--now"));
    flag(app, "if-empty", o->ifEmpty, "only into a database without subscriptions");
    option(app, "replay-set", o->replaySet, "DIR", "write the replay set to DIR instead");
    option(app, "statements", o->statements, "DIR",
        "also write stripe-main's statements to DIR, one file per month of paid invoices "
        "(stripe-main-YYYY-MM.json), for 'renewalctl statement import'; a few of the latest "
        "renewals in them were never delivered");
    db(app);
    json(app);
}

} // namespace rd::cli
