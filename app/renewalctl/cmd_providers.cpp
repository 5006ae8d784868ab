#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "app/renewalctl/usage_error.h"
#include "domain/core/errors.h"
#include "domain/store/access_verdicts.h"
#include "domain/store/overdue_watch.h"
#include "domain/store/webhook_ingestor.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>

namespace rd::cli {
namespace {

struct ProvidersOptions
{
    std::string key;
    ProviderKind kind = ProviderKind::Stripe; // --kind is required
    std::string name;
    long long graceHours = 0;
    int graceDays = -1; // --grace-days is required
    bool blockWhenProviderGivesUp = false;
    bool keepUntilPeriodEnd = false;
};

int runAdd(const CommandContext &ctx, const ProvidersOptions &o)
{
    auto conn = ctx.connect();
    const auto result = registerBillingProvider(*conn, o.key, o.kind, o.name);
    const std::string word = result == RegisterOutcome::Created ? "created" : "exists";
    if (ctx.json())
        ctx.out << nlohmann::json {{"result", word}, {"providerKey", o.key}}.dump() << "\n";
    else
        ctx.out << "provider " << o.key << ": "
                << (result == RegisterOutcome::Created ? "created"
                                                       : "already registered, unchanged")
                << "\n";
    return ExitOk;
}

int runList(const CommandContext &ctx)
{
    auto conn = ctx.connect();
    const auto providers = listBillingProviders(*conn);
    if (ctx.json()) {
        for (const auto &p : providers)
            ctx.out << nlohmann::json {{"providerKey", p.key}, {"kind", toString(p.kind)},
                {"displayName", p.displayName}, {"createdAt", p.createdAt}}
                           .dump()
                    << "\n";
    } else {
        for (const auto &p : providers)
            ctx.out << std::left << std::setw(24) << p.key << std::setw(14) << toString(p.kind)
                    << p.displayName << "\n";
    }
    return ExitOk;
}

int runSetGrace(const CommandContext &ctx, const ProvidersOptions &o)
{
    auto conn = ctx.connect();
    setOverdueGrace(*conn, o.key, std::chrono::hours(o.graceHours));
    ctx.out << "provider " << o.key << ": overdue " << o.graceHours
            << " hours after a period end without its renewal\n";
    return ExitOk;
}

int runSetAccess(const CommandContext &ctx, const ProvidersOptions &o)
{
    if (o.blockWhenProviderGivesUp && o.keepUntilPeriodEnd)
        throw UsageError("--block-when-provider-gives-up and --keep-until-period-end say "
                         "opposite things: give one");
    auto conn = ctx.connect();
    AccessPolicy policy = accessPolicy(*conn, o.key);
    policy.graceDays = o.graceDays;
    if (o.blockWhenProviderGivesUp)
        policy.keepUntilPeriodEnd = false;
    if (o.keepUntilPeriodEnd)
        policy.keepUntilPeriodEnd = true;
    setAccessPolicy(*conn, o.key, policy);
    const std::string givesUp = policy.keepUntilPeriodEnd
        ? "kept until the paid period's end and its grace"
        : "blocked at once";
    if (ctx.json())
        ctx.out << nlohmann::json {{"providerKey", o.key}, {"graceDays", policy.graceDays},
            {"whenProviderGivesUp", policy.keepUntilPeriodEnd ? "keep_until_period_end" : "block"}}
                       .dump()
                << "\n";
    else
        ctx.out << "provider " << o.key << ": access kept " << policy.graceDays
                << " days after a period end without its renewal; when the provider gives up, "
                << givesUp << "\n";
    return ExitOk;
}

} // namespace

void registerProvidersCommands(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<ProvidersOptions>();
    auto *group = tree.commandGroup(root, "providers",
        "add|list|set-grace|set-access: the registered billing providers",
        commandGroups::kWebhooks);
    auto *add = tree.command(*group, "add", "register a billing provider",
        [o](const CommandContext &ctx) { return runAdd(ctx, *o); });
    positional(add, "KEY", o->key, "the provider key (e.g. stripe-main)", true);
    option(add, "kind", o->kind, "KIND", "the provider's kind: " + kindChoices())
        ->required()
        ->transform(providerKindName("--kind"));
    option(add, "name", o->name, "NAME", "a display name");
    db(add);
    json(add);
    auto *list = tree.command(*group, "list", "the registered providers", runList);
    db(list);
    json(list);
    auto *grace = tree.command(*group, "set-grace",
        "how long after a period end a subscription without its renewal counts as overdue "
        "(the database owner's)",
        [o](const CommandContext &ctx) { return runSetGrace(ctx, *o); });
    positional(grace, "KEY", o->key, "the provider key", true);
    positional(grace, "HOURS", o->graceHours, "0 to 2160", true)
        ->transform(wholeNumber("HOURS", 0, kMaxOverdueGrace.count()));
    db(grace);
    auto *access = tree.command(*group, "set-access",
        "the provider's access policy (the database owner's): how many days access is kept "
        "after a period ends unpaid, and what happens when the provider gives up collecting",
        [o](const CommandContext &ctx) { return runSetAccess(ctx, *o); });
    option(access, "provider-key", o->key, "K", "the provider key")
        ->required()
        ->check(notEmpty("--provider-key"));
    option(access, "grace-days", o->graceDays, "N", "0 to 90")
        ->required()
        ->transform(wholeNumber("--grace-days", 0, kMaxAccessGraceDays));
    flag(access, "block-when-provider-gives-up", o->blockWhenProviderGivesUp,
        "block access as soon as the provider gives up collecting (the default)");
    flag(access, "keep-until-period-end", o->keepUntilPeriodEnd,
        "keep access until the paid period's end and the grace days even when the provider "
        "gave up");
    db(access);
    json(access);
}

} // namespace rd::cli
