#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/store/database_move.h"
#include "domain/store/database_target.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/migrator.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

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

} // namespace

int runDb(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals();
    if (pos.size() >= 2 && pos[1] == "backup")
        return runDbBackup(ctx);
    if (pos.size() >= 2 && pos[1] == "restore")
        return runDbRestore(ctx);
    if (pos.size() == 2 && pos[1] == "move")
        return runDbMove(ctx);
    if (pos.size() != 2)
        throw UsageError(
            "usage: renewalctl db start|stop|status|url|backup|restore|move [--data-dir DIR]");
    const auto dataDir = ctx.args.value("data-dir");
    EmbeddedCluster cluster(
        dataDir ? std::filesystem::path(*dataDir) : EmbeddedCluster::defaultRoot());
    const std::string &verb = pos[1];
    if (verb == "start") {
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
    if (verb == "stop") {
        cluster.stop();
        if (!ctx.json())
            ctx.out << "stopped: " << cluster.root().string() << "\n";
        return ExitOk;
    }
    if (verb == "status") {
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
    if (verb == "url") {
        ctx.out << cluster.connectionString() << "\n";
        return ExitOk;
    }
    throw UsageError(
        "unknown db command '" + verb + "' (start, stop, status, url, backup, restore or move)");
}

int runMigrate(const CommandContext &ctx)
{
    if (ctx.args.positionals().size() != 1)
        throw UsageError("usage: renewalctl migrate [--db CONNINFO]");
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

} // namespace rd::cli
