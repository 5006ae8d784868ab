#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/errors.h"
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

} // namespace

void registerProvidersCommands(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<ProvidersOptions>();
    auto *group = tree.commandGroup(root, "providers",
        "add|list|set-grace: the registered billing providers", commandGroups::kWebhooks);
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
}

} // namespace rd::cli
