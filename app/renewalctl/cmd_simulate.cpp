#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/receiver_secrets.h"
#include "domain/core/webhook_signature.h"
#include "domain/demo/demo_history.h"
#include "domain/receiver/provider_simulator.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <ostream>

namespace rd::cli {

namespace {

struct SimulateOptions
{
    DemoOptions demo; // --subscriptions, --months, --seed and --live
    SimulatorOptions simulator; // --rate, --count and --max-attempts, else its defaults
    std::optional<double> durationSeconds;
    std::optional<std::string> now;
    std::optional<std::string> target;
    std::optional<std::string> secrets;
    std::vector<std::string> providers; // KEY:KIND, checked as they were parsed
    std::optional<std::string> writeSubscriptions;
};

/// KEY:KIND split at its last colon; nullopt unless KEY is there and KIND is a kind's name.
std::optional<std::pair<std::string, ProviderKind>> providerSpec(const std::string &spec)
{
    const auto colon = spec.rfind(':');
    if (colon == std::string::npos || colon == 0)
        return std::nullopt;
    const auto kind = providerKindFromString(spec.substr(colon + 1));
    if (!kind)
        return std::nullopt;
    return std::pair {spec.substr(0, colon), *kind};
}

/// --provider KEY:KIND, repeated; default: the demo's providers that the secrets file holds.
std::vector<std::pair<std::string, ProviderKind>> chosenProviders(
    const SimulateOptions &o, const ReceiverSecrets *secrets)
{
    std::vector<std::pair<std::string, ProviderKind>> providers;
    for (const std::string &spec : o.providers)
        providers.push_back(*providerSpec(spec));
    if (!providers.empty())
        return providers;
    for (const auto &p : demoProviders()) {
        if (!secrets || secrets->count(p.first) > 0)
            providers.push_back(p);
    }
    if (providers.empty())
        throw UsageError("the secrets file holds none of the demo's provider keys (stripe-main, "
                         "paddle-eu, chargebee-us, recurly-main, lemon-shop): name the providers "
                         "to post for with --provider KEY:KIND");
    return providers;
}

// A provider simulator: the payloads the demo makes, signed as each provider signs them and
// posted to a receiver at a chosen pace, with the providers' retry behaviour. It never talks
// to the database; --write-subscriptions writes the subscriptions its renewals are for.
int runSimulate(const CommandContext &ctx, const SimulateOptions &o)
{
    DemoOptions options = o.demo;
    options.now = presentOf(o.now);

    if (const auto &path = o.writeSubscriptions) {
        // The seeding step: only the subscriptions, for `renewalctl subscriptions import`.
        const auto providers = chosenProviders(o, nullptr);
        const SimulationSet set = buildSimulationSet(providers, options);
        std::ofstream f(*path, std::ios::binary | std::ios::trunc);
        f << set.subscriptionLines;
        if (!f.flush())
            throw InputError(*path, "cannot write the file");
        std::string providerArgs;
        for (const auto &spec : o.providers)
            providerArgs += " --provider " + spec;
        const std::string same = " --seed " + std::to_string(options.seed) + " --subscriptions "
            + std::to_string(options.subscriptions) + " --months " + std::to_string(options.months)
            + " --now " + formatRfc3339(options.now) + (options.live ? " --live" : "")
            + providerArgs;
        ctx.out << "simulate: " << options.subscriptions << " subscriptions in " << *path << " ("
                << set.payloads.size() << " deliveries to post for them)\n"
                << "next: renewalctl subscriptions import " << *path << "\n"
                << "then: renewalctl simulate --target http://HOST:PORT --secrets FILE" << same
                << "\n";
        return ExitOk;
    }

    if (!o.target || o.target->empty())
        throw UsageError("option --target is required (or --write-subscriptions FILE)");
    if (!o.secrets || o.secrets->empty())
        throw UsageError("option --secrets is required (or --write-subscriptions FILE)");
    const SimulatorTarget target = parseSimulatorTarget(*o.target);
    const ReceiverSecrets secrets = loadReceiverSecrets(*o.secrets);
    const auto providers = chosenProviders(o, &secrets);
    for (const auto &[key, kind] : providers) {
        if (secrets.count(key) == 0)
            throw UsageError("the secrets file has no entry for provider key '" + key + "'");
        const auto &c = secrets.at(key);
        const bool basic = signsWithBasicAuth(kind);
        if (basic ? c.basicAuth.empty() : c.secrets.empty())
            throw UsageError("the secrets file's entry for '" + key + "' has no "
                + (basic ? "basicAuth" : "secrets") + " for a " + toString(kind) + " provider");
    }

    SimulatorOptions sim = o.simulator;
    if (o.durationSeconds)
        sim.duration = std::chrono::milliseconds(static_cast<long long>(*o.durationSeconds * 1000));
    sim.jitterSeed = options.seed;

    const SimulationSet set = buildSimulationSet(providers, options);
    std::vector<SimulatorDelivery> deliveries;
    deliveries.reserve(set.payloads.size());
    for (const auto &p : set.payloads)
        deliveries.push_back({p.providerKey, p.kind, p.body, p.scenario});

    const SimulatorSummary summary = runProviderSimulation(target, secrets, deliveries, sim,
        [&](const std::string &line) { ctx.err << line << "\n"
                                               << std::flush; });
    ctx.out << summary.toJson().dump() << "\n";
    return summary.gaveUp + summary.unfinished > 0 ? ExitTempFail : ExitOk;
}

} // namespace

void registerSimulateCommand(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<SimulateOptions>();
    o->demo.subscriptions = 30; // the simulator's defaults, not the demo's
    o->demo.months = 3;
    auto *app = tree.command(
        root, "simulate",
        "a provider simulator: the demo's kinds of payloads, signed as each provider signs "
        "them, POSTed to a receiver at --rate per second with the providers' retries; "
        "prints a JSON summary line (no database)",
        [o](const CommandContext &ctx) { return runSimulate(ctx, *o); }, commandGroups::kWebhooks);
    app->footer(R"(Every non-2xx answer and broken connection is retried with capped exponential
backoff and jitter, each attempt signed anew; exit 75 when deliveries were given up
or left unfinished.
The simulator never opens the database. For its renewals to apply, the receiver's
database must know the providers and the subscriptions:
  1. renewalctl demo        (registers the demo's providers stripe-main, paddle-eu,
                             chargebee-us, recurly-main and lemon-shop)
  2. renewalctl simulate --write-subscriptions subs.jsonl [--seed S ...]
  3. renewalctl subscriptions import subs.jsonl
  4. renewalctl simulate --target http://HOST:PORT --secrets FILE with the same
     --seed, --subscriptions, --months, --now and --provider (step 2 prints it)
Other provider keys: register them (renewalctl providers add) and name them with
--provider KEY:KIND. Lemon Squeezy renewals carry no period: they need a snapshot.
--live (in steps 2 and 4) pays today's renewals now: the desk's "Renewals today"
moves while it runs; use --rate 1 for a presenter.)");
    option(app, "target", o->target, "URL", "the receiver: http://HOST:PORT");
    option(app, "secrets", o->secrets, "FILE",
        "the receiver's secrets file (mode 600): each provider key's secrets or basicAuth");
    repeatedOption(app, "provider", o->providers, "KEY:KIND",
        "post for this provider key of this kind (" + kindChoices()
            + "); repeatable; default: the demo's providers the secrets file holds")
        ->check(CLI::Validator(
            [](std::string &spec) {
                if (!providerSpec(spec))
                    throw UsageError("--provider must be KEY:KIND with KIND one of " + kindChoices()
                        + ", not '" + printableAscii(spec) + "'");
                return std::string();
            },
            std::string()));
    option(app, "rate", o->simulator.rate, "N", "new deliveries per second (default 20)")
        ->transform(decimalNumber("--rate", 0.01, 100000));
    option(app, "duration", o->durationSeconds, "S",
        "stop after S seconds (unfinished retries are counted)")
        ->transform(decimalNumber("--duration", 0.001, 31.0e6));
    option(app, "count", o->simulator.count, "N",
        "deliveries to make (default: the generated set once; more goes through it again, "
        "as redeliveries)")
        ->transform(wholeNumber("--count", 0, 1LL << 40));
    option(app, "max-attempts", o->simulator.maxAttempts, "N",
        "give a delivery up after N failed attempts (default 6)")
        ->transform(wholeNumber("--max-attempts", 1, 100));
    option(
        app, "seed", o->demo.seed, "S", "random seed of the subscriptions and payloads (default 1)")
        ->transform(wholeNumber("--seed", 0, 1LL << 62));
    option(app, "subscriptions", o->demo.subscriptions, "N", "subscriptions to renew (default 30)")
        ->transform(wholeNumber("--subscriptions", 1, 100000));
    option(app, "months", o->demo.months, "M", "months of renewals (default 3)")
        ->transform(wholeNumber("--months", 2, 36));
    option(app, "now", o->now, "RFC3339", "the simulation's present (default: now)")
        ->check(rfc3339("--now"));
    flag(app, "live", o->demo.live,
        "the live demo: every subscription's period starts today and only today's renewals "
        "are posted, paid now (give it to --write-subscriptions as well)");
    option(app, "write-subscriptions", o->writeSubscriptions, "FILE",
        "only write the subscriptions for 'renewalctl subscriptions import' and say what to "
        "run next");
}

} // namespace rd::cli
