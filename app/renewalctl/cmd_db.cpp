#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "domain/core/errors.h"
#include "domain/store/database_move.h"
#include "domain/store/database_target.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/migrator.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace rd::cli {
namespace {

std::string stateName(EmbeddedCluster::State s)
{
    switch (s) {
    case EmbeddedCluster::State::NotInitialized:
        return "not_initialized";
    case EmbeddedCluster::State::Stopped:
        return "stopped";
    case EmbeddedCluster::State::Running:
        return "running";
    }
    return "stopped";
}

int dbStart(const CommandContext &ctx, EmbeddedCluster &cluster)
{
    const bool wasRunning = cluster.state() == EmbeddedCluster::State::Running;
    cluster.start();
    if (ctx.json())
        ctx.out << nlohmann::json {{"state", "running"}, {"alreadyRunning", wasRunning},
            {"dataDir", cluster.root().string()}, {"url", cluster.connectionString()}}
                       .dump()
                << "\n";
    else
        ctx.out << (wasRunning ? "already running: " : "started: ") << cluster.root().string()
                << "\n";
    return ExitOk;
}

int dbStop(const CommandContext &ctx, EmbeddedCluster &cluster)
{
    cluster.stop();
    if (!ctx.json())
        ctx.out << "stopped: " << cluster.root().string() << "\n";
    return ExitOk;
}

int dbStatus(const CommandContext &ctx, EmbeddedCluster &cluster)
{
    const auto state = cluster.state();
    // After `db move` the cluster is kept, but the desk and renewalctl use the server.
    const auto moved = readMovedTo(cluster.root());
    if (ctx.json()) {
        nlohmann::json out {{"state", stateName(state)}, {"dataDir", cluster.root().string()}};
        if (moved)
            out["movedTo"] = {{"server", moved->server}, {"movedAt", moved->movedAt},
                {"backupFile", moved->backupFile}};
        ctx.out << out.dump() << "\n";
    } else {
        ctx.out << stateName(state) << ": " << cluster.root().string() << "\n";
        if (moved)
            ctx.out << "moved to server " << moved->server << " on " << moved->movedAt
                    << " (backup " << moved->backupFile
                    << "): the desk and renewalctl use the server; this cluster keeps the "
                       "data as of the move (renewalctl db move --undo to go back)\n";
    }
    // Like pg_ctl status: 0 when running, 3 when not.
    return state == EmbeddedCluster::State::Running ? ExitOk : ExitRejected;
}

int dbUrl(const CommandContext &ctx, EmbeddedCluster &cluster)
{
    ctx.out << cluster.connectionString() << "\n";
    return ExitOk;
}

int runMigrate(const CommandContext &ctx)
{
    const auto target = resolveDatabase(ctx.args.value("db"));
    const auto report = migrateDatabase(target.conninfo);
    if (ctx.json()) {
        ctx.out << nlohmann::json {{"applied", report.applied},
            {"alreadyApplied", report.alreadyApplied}, {"reapplied", report.reapplied}}
                       .dump()
                << "\n";
    } else {
        for (const auto &name : report.applied)
            ctx.out << "applied " << name << "\n";
        ctx.out << report.applied.size() << " applied, " << report.alreadyApplied
                << " already applied, " << report.reapplied.size()
                << " function and view definitions re-applied\n";
    }
    return ExitOk;
}

} // namespace

void registerDbClusterCommands(CommandTree &tree, CLI::App &dbGroup)
{
    using Verb = int (*)(const CommandContext &, EmbeddedCluster &);
    struct Declared
    {
        const char *name;
        const char *description;
        Verb run;
    };
    for (const auto &[name, description, run] : {
             Declared {"start", "start the cluster", dbStart},
             Declared {"stop", "stop the cluster", dbStop},
             Declared {"status", "say whether it runs (exit 0 when running, 3 when not)", dbStatus},
             Declared {"url", "print its connection string", dbUrl},
         }) {
        auto dataDir = std::make_shared<std::optional<std::string>>();
        auto *app = tree.command(
            dbGroup, name, description, [dataDir, run = run](const CommandContext &ctx) {
                EmbeddedCluster cluster(
                    *dataDir ? std::filesystem::path(**dataDir) : EmbeddedCluster::defaultRoot());
                return run(ctx, cluster);
            });
        option(
            app, "data-dir", *dataDir, "DIR", "the cluster's directory (default: the user's own)");
        if (run != dbUrl)
            json(app);
    }
}

void registerMigrateCommand(CommandTree &tree, CLI::App &root)
{
    auto *app = tree.command(
        root, "migrate", "apply pending migrations", runMigrate, commandGroups::kDatabase);
    db(app);
    json(app);
}

} // namespace rd::cli
