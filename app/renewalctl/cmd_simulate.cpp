#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/core/receiver_secrets.h"
#include "domain/demo/demo_history.h"
#include "domain/receiver/provider_simulator.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <ostream>

namespace rd::cli {

namespace {

/// --provider KEY:KIND, repeated; default: the demo's providers that the secrets file holds.
std::vector<std::pair<std::string, ProviderKind>> chosenProviders(
    const CommandContext &ctx, const ReceiverSecrets *secrets)
{
    std::vector<std::pair<std::string, ProviderKind>> providers;
    for (const std::string &spec : ctx.args.values("provider")) {
        const auto colon = spec.rfind(':');
        const auto kind = colon == std::string::npos
            ? std::nullopt
            : providerKindFromString(spec.substr(colon + 1));
        if (colon == 0 || !kind)
            throw UsageError("--provider must be KEY:KIND with KIND one of " +
                [] {
                    std::string s;
                    for (const auto &n : providerKindNames())
                        s += (s.empty() ? "" : ", ") + n;
                    return s;
                }()
                + ", not '" + spec + "'");
        providers.emplace_back(spec.substr(0, colon), *kind);
    }
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

} // namespace

// A provider simulator: the payloads the demo makes, signed as each provider signs them and
// posted to a receiver at a chosen pace, with the providers' retry behaviour. It never talks
// to the database; --write-subscriptions writes the subscriptions its renewals are for.
int runSimulate(const CommandContext &ctx)
{
    if (ctx.args.positionals().size() != 1)
        throw UsageError("usage: renewalctl simulate --target http://HOST:PORT --secrets FILE "
                         "[--provider KEY:KIND]... [--rate N] [--duration S] [--count N] "
                         "[--seed S] [--live] | --write-subscriptions FILE [--live]");
    DemoOptions options;
    options.subscriptions = static_cast<int>(ctx.args.integer("subscriptions", 30, 1, 100000));
    options.months = static_cast<int>(ctx.args.integer("months", 3, 2, 36));
    options.seed = static_cast<std::uint64_t>(ctx.args.integer("seed", 1, 0, 1LL << 62));
    options.now = presentOf(ctx);
    options.live = ctx.args.flag("live");

    if (const auto path = ctx.args.value("write-subscriptions")) {
        // The seeding step: only the subscriptions, for `renewalctl subscriptions import`.
        const auto providers = chosenProviders(ctx, nullptr);
        const SimulationSet set = buildSimulationSet(providers, options);
        std::ofstream f(*path, std::ios::binary | std::ios::trunc);
        f << set.subscriptionLines;
        if (!f.flush())
            throw InputError(*path, "cannot write the file");
        std::string providerArgs;
        if (!ctx.args.values("provider").empty()) {
            for (const auto &spec : ctx.args.values("provider"))
                providerArgs += " --provider " + spec;
        }
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

    const SimulatorTarget target = parseSimulatorTarget(ctx.args.requireValue("target"));
    const ReceiverSecrets secrets = loadReceiverSecrets(ctx.args.requireValue("secrets"));
    const auto providers = chosenProviders(ctx, &secrets);
    for (const auto &[key, kind] : providers) {
        if (secrets.count(key) == 0)
            throw UsageError("the secrets file has no entry for provider key '" + key + "'");
        const auto &c = secrets.at(key);
        if (kind == ProviderKind::Chargebee ? c.basicAuth.empty() : c.secrets.empty())
            throw UsageError("the secrets file's entry for '" + key + "' has no "
                + (kind == ProviderKind::Chargebee ? "basicAuth" : "secrets") + " for a "
                + toString(kind) + " provider");
    }

    SimulatorOptions sim;
    sim.rate = ctx.args.number("rate", 20, 0.01, 100000);
    if (ctx.args.value("duration"))
        sim.duration = std::chrono::milliseconds(
            static_cast<long long>(ctx.args.number("duration", 0, 0.001, 31.0e6) * 1000));
    if (ctx.args.value("count"))
        sim.count = static_cast<std::size_t>(ctx.args.integer("count", 0, 0, 1LL << 40));
    sim.maxAttempts = static_cast<int>(ctx.args.integer("max-attempts", 6, 1, 100));
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

} // namespace rd::cli
