#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/errors.h"
#include "domain/store/overdue_watch.h"
#include "domain/store/subscription_import.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>
#include <unistd.h>

namespace rd::cli {
namespace {

// "3d 4h", "5h 12m", "40m": how long ago a period ended, for people.
std::string forPeople(std::chrono::seconds d)
{
    const long long minutes = d.count() / 60;
    const long long days = minutes / (24 * 60), hours = minutes / 60 % 24, rest = minutes % 60;
    if (days > 0)
        return std::to_string(days) + "d " + std::to_string(hours) + "h";
    if (hours > 0)
        return std::to_string(hours) + "h " + std::to_string(rest) + "m";
    return std::to_string(rest) + "m";
}

struct OverdueOptions
{
    std::optional<long long> graceHours;
    std::optional<std::string> providerKey;
};

int listOverdue(const CommandContext &ctx, const OverdueOptions &o)
{
    std::optional<std::chrono::seconds> grace;
    if (o.graceHours)
        grace = std::chrono::hours(*o.graceHours);
    auto conn = ctx.connect();
    const auto overdue = overdueSubscriptions(*conn, grace, o.providerKey);
    if (ctx.json()) {
        for (const auto &s : overdue)
            ctx.out << nlohmann::json {{"providerKey", s.providerKey},
                {"subscriptionId", s.providerSubscriptionId}, {"id", s.subscriptionId},
                {"currentPeriodEnd", s.currentPeriodEnd},
                {"overdueForSeconds", s.overdueFor.count()}, {"graceSeconds", s.grace.count()},
                {"nextStep", overdueNextStep(s.providerKey, s.currentPeriodEnd)}}
                           .dump()
                    << "\n";
    } else if (overdue.empty()) {
        ctx.out << "no overdue subscriptions\n";
    } else {
        ctx.out << std::left << std::setw(16) << "PROVIDER" << std::setw(28) << "SUBSCRIPTION"
                << std::setw(30) << "PERIOD ENDED" << std::setw(11) << "ENDED AGO"
                << "NEXT STEP\n";
        for (const auto &s : overdue)
            ctx.out << std::setw(16) << s.providerKey << std::setw(28) << s.providerSubscriptionId
                    << std::setw(30) << s.currentPeriodEnd << std::setw(11)
                    << forPeople(s.overdueFor) << "import or fetch a statement, or "
                    << "attach a snapshot\n";
        ctx.out << overdue.size() << " overdue\n";
    }
    return overdue.empty() ? ExitOk : ExitRejected;
}

int runImport(const CommandContext &ctx, const std::string &file)
{
    InputFile input(file, ctx.in);
    auto conn = ctx.connect();
    const auto report
        = importSubscriptions(*conn, input.stream(), "uid:" + std::to_string(getuid()));
    if (ctx.json()) {
        ctx.out << nlohmann::json {{"lines", report.lines}, {"created", report.created},
            {"existing", report.existing}}
                       .dump()
                << "\n";
    } else {
        for (const auto &key : report.existing)
            ctx.out << "exists, not changed: " << key << "\n";
        ctx.out << report.created << " created, " << report.existing.size() << " already existed\n";
    }
    return ExitOk;
}

} // namespace

void registerSubscriptionsCommands(CommandTree &tree, CLI::App &root)
{
    auto *group = tree.commandGroup(root, "subscriptions",
        "import|overdue: create subscriptions from JSON lines; list the overdue ones",
        commandGroups::kRenewals);
    auto file = std::make_shared<std::string>();
    auto *app = tree.command(*group, "import", "create subscriptions from JSON lines (one a line)",
        [file](const CommandContext &ctx) { return runImport(ctx, *file); });
    inputFile(app, *file, "the subscriptions, one JSON object a line");
    db(app);
    json(app);
    auto o = std::make_shared<OverdueOptions>();
    auto *overdue = tree.command(*group, "overdue",
        "the active subscriptions whose period ended more than a grace ago with no renewal "
        "recorded since, not set to cancel at period end: the payment failed at the provider "
        "or its renewal never reached us (exit 3 when there are any, 0 when none)",
        [o](const CommandContext &ctx) { return listOverdue(ctx, *o); });
    option(overdue, "grace", o->graceHours, "HOURS",
        "the grace for every provider, 0 to 2160 (default: each provider's own, 24 unless "
        "set with 'providers set-grace')")
        ->transform(wholeNumber("--grace", 0, kMaxOverdueGrace.count()));
    option(overdue, "provider-key", o->providerKey, "KEY", "only this provider's subscriptions");
    db(overdue);
    json(overdue);
}

} // namespace rd::cli
