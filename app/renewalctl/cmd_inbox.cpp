// renewalctl inbox purge|erase|retention|removals: delivery bodies that forget personal data
// (migration 0037). The database decides who may: the configured retention is any viewer's to
// enforce, an age of one's choosing and an erasure are an operator's, the setting the owner's.
#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/operator_note.h"
#include "domain/store/action_refused.h"
#include "domain/store/database_errors.h"
#include "domain/store/inbox_retention.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <ostream>

namespace rd::cli {
namespace {

std::string daysText(int days)
{
    return std::to_string(days) + (days == 1 ? " day" : " days");
}

struct EraseOptions
{
    std::string subscription;
    std::string email;
    std::optional<std::string> providerKey;
    std::string request;
};

struct RetentionOptions
{
    std::optional<int> days;
    bool off = false;
};

int runPurge(const CommandContext &ctx, DbRef conn, const PurgeOptions &options)
{
    const auto report = purgeInboxBodies(conn, options);
    if (ctx.json())
        ctx.out << report.toJson().dump() << "\n";
    else
        ctx.out << report.text();
    return ExitOk;
}

int runErase(const CommandContext &ctx, DbRef conn, const EraseOptions &o)
{
    try {
        if (o.subscription.empty() == o.email.empty())
            throw UsageError("inbox erase needs --subscription ID or --email ADDRESS (one of "
                             "them): whose deliveries to erase");
        if (!o.email.empty() && o.providerKey)
            throw UsageError("--provider-key goes with --subscription: an erasure by --email "
                             "covers every provider");
        const auto report = o.email.empty()
            ? eraseInboxBodies(conn, o.providerKey, o.subscription, o.request)
            : eraseCustomerEmail(conn, o.email, o.request);
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

int runRetention(const CommandContext &ctx, DbRef conn, const RetentionOptions &o)
{
    if (!o.off && !o.days) { // both: the parser refuses (--days excludes --off)
        printRetention(ctx, readInboxRetention(conn));
        return ExitOk;
    }
    try {
        printRetention(ctx, setInboxRetention(conn, o.off ? std::nullopt : o.days));
        return ExitOk;
    } catch (const DatabaseFailure &e) {
        if (e.sqlstate() != kInsufficientPrivilege)
            throw;
        return reportRefusal(ctx, "owner_only",
            "the retention is set by the database's owner (the role that migrates it)");
    }
}

int runRemovals(const CommandContext &ctx, DbRef conn, int limit)
{
    const auto list = listInboxRemovals(conn, limit);
    if (ctx.json()) {
        ctx.out << list.dump() << "\n";
        return ExitOk;
    }
    if (list.empty())
        ctx.out << "no delivery bodies were removed\n";
    for (const auto &r : list) {
        ctx.out << "removal " << r.value("id", 0LL) << "  " << r.value("removedAt", "") << "  "
                << r.value("kind", "") << " by " << r.value("removedBy", "") << ": "
                << r.value("bodies", 0LL) << (r.value("bodies", 0LL) == 1 ? " body" : " bodies");
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

int purgeForFold(const CommandContext &ctx, DbRef conn, nlohmann::json &report)
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

namespace {

/// Runs `verb` on a connection; what the database refuses is reported as a refusal (exit 4).
template<typename Verb>
CommandRunner connected(Verb verb)
{
    return [verb](const CommandContext &ctx) {
        auto conn = ctx.connect();
        try {
            return verb(ctx, *conn);
        } catch (const ActionRefused &e) {
            return reportRefusal(ctx, e.code(), e.what());
        }
    };
}

} // namespace

void registerInboxCommands(CommandTree &tree, CLI::App &root)
{
    // Retention and erasure of delivery bodies (migration 0037).
    auto *group = tree.commandGroup(root, "inbox",
        "purge|erase|retention|removals: delivery bodies that forget personal data",
        commandGroups::kWebhooks);

    auto purgeOptions = std::make_shared<PurgeOptions>();
    auto *purge = tree.command(*group, "purge",
        "remove the raw bodies of processed deliveries older than the configured retention "
        "(a delivery whose case is open keeps its body); recorded, idempotent",
        connected([purgeOptions](const CommandContext &ctx, DbRef conn) {
            return runPurge(ctx, conn, *purgeOptions);
        }));
    option(purge, "older-than", purgeOptions->olderThanDays, "DAYS",
        "instead of the configured retention: bodies older than DAYS (0: every processed "
        "delivery); an operator's act")
        ->transform(wholeNumber("--older-than", 0, 36500));
    flag(purge, "dry-run", purgeOptions->dryRun, "count what would go, remove nothing");
    option(purge, "batch", purgeOptions->batch, "N", "deliveries per transaction (default 5000)")
        ->transform(wholeNumber("--batch", 1, 100000));
    db(purge);
    json(purge);

    auto eraseOptions = std::make_shared<EraseOptions>();
    auto *erase = tree.command(*group, "erase",
        "a data-subject request: remove the raw bodies of one subscription's deliveries, or of "
        "every delivery of a customer's e-mail address and the address's hashes, whatever their "
        "age (operators only)",
        connected([eraseOptions](const CommandContext &ctx, DbRef conn) {
            return runErase(ctx, conn, *eraseOptions);
        }));
    auto *bySubscription = option(
        erase, "subscription", eraseOptions->subscription, "ID", "the provider's subscription id")
                               ->check(notEmpty("--subscription"));
    option(erase, "email", eraseOptions->email, "ADDRESS",
        "instead: the customer's e-mail address; its keyed hashes go too, so Find anything no "
        "longer finds it")
        ->check(notEmpty("--email"))
        ->excludes(bySubscription);
    option(erase, "provider-key", eraseOptions->providerKey, "KEY",
        "only this provider's deliveries (default: every one)");
    option(erase, "request", eraseOptions->request, "TEXT",
        "the request served (a ticket or reference); required")
        ->required()
        ->check(visibleText("--request must say the request the erasure serves (a ticket or "
                            "reference, not the person's name)"));
    db(erase);
    json(erase);

    auto retentionOptions = std::make_shared<RetentionOptions>();
    auto *retention = tree.command(*group, "retention",
        "show the retention of delivery bodies, or set it (the database owner)",
        connected([retentionOptions](const CommandContext &ctx, DbRef conn) {
            return runRetention(ctx, conn, *retentionOptions);
        }));
    auto *days
        = option(retention, "days", retentionOptions->days, "N", "keep bodies N days (0 to 36500)")
              ->transform(wholeNumber("--days", 0, 36500));
    flag(retention, "off", retentionOptions->off, "no retention: keep bodies")->excludes(days);
    db(retention);
    json(retention);

    auto limit = std::make_shared<int>(50);
    auto *removals = tree.command(*group, "removals", "list the recorded removals, newest first",
        connected([limit](const CommandContext &ctx, DbRef conn) {
            return runRemovals(ctx, conn, *limit);
        }));
    option(removals, "limit", *limit, "N", "at most N records (default 50)")
        ->transform(wholeNumber("--limit", 1, 100000));
    db(removals);
    json(removals);
}

} // namespace rd::cli
