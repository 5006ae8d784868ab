// renewalctl inbox purge|erase|retention|removals: delivery bodies that forget personal data
// (migration 0037). The database decides who may: the configured retention is any viewer's to
// enforce, an age of one's choosing and an erasure are an operator's, the setting the owner's.
#include "app/renewalctl/command_context.h"
#include "domain/core/operator_note.h"
#include "domain/store/action_refused.h"
#include "domain/store/database_errors.h"
#include "domain/store/inbox_retention.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <cstdlib>
#include <ostream>

namespace rd::cli {
namespace {

std::string daysText(int days)
{
    return std::to_string(days) + (days == 1 ? " day" : " days");
}

int runPurge(const CommandContext &ctx, pqxx::connection &conn)
{
    PurgeOptions options;
    if (ctx.args.value("older-than"))
        options.olderThanDays = static_cast<int>(ctx.args.integer("older-than", 0, 0, 36500));
    options.dryRun = ctx.args.flag("dry-run");
    options.batch = static_cast<int>(ctx.args.integer("batch", 5000, 1, 100000));
    const auto report = purgeInboxBodies(conn, options);
    if (ctx.json())
        ctx.out << report.toJson().dump() << "\n";
    else
        ctx.out << report.text();
    return ExitOk;
}

int runErase(const CommandContext &ctx, pqxx::connection &conn)
{
    const std::string subscription = ctx.args.requireValue("subscription");
    const std::string request = ctx.args.value("request").value_or("");
    if (!hasVisibleText(request))
        throw UsageError("option --request is required: the request the erasure serves (a "
                         "ticket or reference, not the person's name)");
    try {
        const auto report
            = eraseInboxBodies(conn, ctx.args.value("provider-key"), subscription, request);
        if (ctx.json())
            ctx.out << report.toJson().dump() << "\n";
        else
            ctx.out << report.text();
        return ExitOk;
    } catch (const DatabaseFailure &e) {
        if (e.sqlstate() != kInsufficientPrivilege)
            throw;
        return reportRefusal(ctx, "operator_only",
            "erasing delivery bodies is an operator's act (renewal_operator); nothing was erased");
    }
}

void printRetention(const CommandContext &ctx, const InboxRetention &r)
{
    const char *env = std::getenv("RENEWAL_DESK_RETENTION_DAYS");
    if (ctx.json()) {
        ctx.out << nlohmann::json {{"retentionDays",
                                       r.days ? nlohmann::json(*r.days) : nlohmann::json(nullptr)},
            {"setBy", r.setBy}, {"setAt", r.setAt}}
                       .dump()
                << "\n";
        return;
    }
    if (r.days)
        ctx.out << "delivery bodies are kept " << daysText(*r.days) << " (set by " << r.setBy
                << " at " << r.setAt << "); renewalctl fold removes older ones\n";
    else
        ctx.out << "no retention is configured in the database: bodies are kept"
                << (env && *env ? std::string(" unless the fold's RENEWAL_DESK_RETENTION_DAYS (")
                               + env + ") applies"
                                : std::string())
                << "\n";
}

int runRetention(const CommandContext &ctx, pqxx::connection &conn)
{
    const bool off = ctx.args.flag("off");
    const bool days = ctx.args.value("days").has_value();
    if (off && days)
        throw UsageError("give --days N or --off, not both");
    if (!off && !days) {
        printRetention(ctx, readInboxRetention(conn));
        return ExitOk;
    }
    try {
        const std::optional<int> value = off
            ? std::nullopt
            : std::optional<int>(static_cast<int>(ctx.args.integer("days", 0, 0, 36500)));
        printRetention(ctx, setInboxRetention(conn, value));
        return ExitOk;
    } catch (const DatabaseFailure &e) {
        if (e.sqlstate() != kInsufficientPrivilege)
            throw;
        return reportRefusal(ctx, "owner_only",
            "the retention is set by the database's owner (the role that migrates it)");
    }
}

int runRemovals(const CommandContext &ctx, pqxx::connection &conn)
{
    const auto list
        = listInboxRemovals(conn, static_cast<int>(ctx.args.integer("limit", 50, 1, 100000)));
    if (ctx.json()) {
        ctx.out << list.dump() << "\n";
        return ExitOk;
    }
    if (list.empty())
        ctx.out << "no delivery bodies were removed\n";
    for (const auto &r : list) {
        ctx.out << "removal " << r.value("id", 0LL) << "  " << r.value("removedAt", "") << "  "
                << r.value("kind", "") << " by " << r.value("removedBy", "") << ": "
                << r.value("bodies", 0LL) << " bodies";
        if (r.contains("firstInboxId"))
            ctx.out << " (deliveries " << r.value("firstInboxId", 0LL) << " to "
                    << r.value("lastInboxId", 0LL) << ", received "
                    << r.value("firstReceivedAt", "") << " to " << r.value("lastReceivedAt", "")
                    << ")";
        if (r.value("kind", "") == "retention")
            ctx.out << "; " << (r.value("configured", false) ? "retention " : "older than ")
                    << daysText(r.value("retentionDays", 0));
        else
            ctx.out << "; subscription " << r.value("providerSubscriptionId", "")
                    << (r.contains("providerKey") ? " of " + r.value("providerKey", "") : "")
                    << "; request: " << r.value("request", "");
        ctx.out << "\n";
    }
    return ExitOk;
}

} // namespace

int purgeForFold(const CommandContext &ctx, pqxx::connection &conn, nlohmann::json &report)
{
    PurgeOptions options;
    if (!readInboxRetention(conn).days) {
        options.olderThanDays
            = retentionDaysFromEnvironment(std::getenv("RENEWAL_DESK_RETENTION_DAYS"));
        if (!options.olderThanDays)
            return ExitOk; // no retention: bodies are kept
    }
    try {
        const auto purged = purgeInboxBodies(conn, options);
        report = purged.toJson();
        ctx.out << "retention: " << purged.text();
        return ExitOk;
    } catch (const ActionRefused &e) {
        const std::string message = e.refusal() == Refusal::PurgeNeedsOperator
            ? "RENEWAL_DESK_RETENTION_DAYS names an age, which only an operator may choose: "
              "have the owner set it in the database once (renewalctl inbox retention --days "
                + std::to_string(*options.olderThanDays) + "), which the fold then enforces"
            : std::string(e.what());
        report = {{"result", "refused"}, {"error", e.code()}, {"message", message}};
        ctx.err << "renewalctl: refused (" << e.code() << "): " << message << "\n";
        return ExitRefused;
    }
}

int runInbox(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals();
    if (pos.size() < 2)
        throw UsageError("usage: renewalctl inbox purge|erase|retention|removals ...");
    const std::string &verb = pos[1];
    auto conn = ctx.connect();
    try {
        if (verb == "purge")
            return runPurge(ctx, *conn);
        if (verb == "erase")
            return runErase(ctx, *conn);
        if (verb == "retention")
            return runRetention(ctx, *conn);
        if (verb == "removals")
            return runRemovals(ctx, *conn);
    } catch (const ActionRefused &e) {
        return reportRefusal(ctx, e.code(), e.what());
    }
    throw UsageError("unknown inbox command '" + verb + "'");
}

} // namespace rd::cli
