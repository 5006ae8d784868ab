#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/store/overdue_watch.h"
#include "domain/store/subscription_import.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

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

int listOverdue(const CommandContext &ctx)
{
    std::optional<std::chrono::seconds> grace;
    if (ctx.args.value("grace"))
        grace = std::chrono::hours(ctx.args.integer("grace", 0, 0, kMaxOverdueGrace.count()));
    auto conn = ctx.connect();
    const auto overdue = overdueSubscriptions(*conn, grace, ctx.args.value("provider-key"));
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

} // namespace

int runSubscriptions(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals();
    if (pos.size() == 2 && pos[1] == "overdue")
        return listOverdue(ctx);
    if (pos.size() < 2 || pos[1] != "import")
        throw UsageError("usage: renewalctl subscriptions import [FILE|-]"
                         " | subscriptions overdue [--grace HOURS] [--provider-key KEY] [--json]");
    InputFile input(ctx.args.inputPath(2), ctx.in);
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

} // namespace rd::cli
