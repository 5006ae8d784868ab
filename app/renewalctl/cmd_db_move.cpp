#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "domain/core/errors.h"
#include "domain/store/database_move.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/roles.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace rd::cli {
namespace {

struct MoveCommandOptions
{
    std::optional<std::string> to;
    std::optional<std::string> dataDir;
    bool undo = false;
};

std::string commaJoined(const std::vector<std::string> &items)
{
    std::string s;
    for (const auto &item : items)
        s += (s.empty() ? "" : ", ") + item;
    return s;
}

nlohmann::json toJson(const MovedTo &m)
{
    return {{"conninfo", m.conninfo}, {"server", m.server}, {"movedAt", m.movedAt},
        {"backupFile", m.backupFile}, {"schemaVersion", m.schemaVersion}};
}

int undo(const CommandContext &ctx, const std::filesystem::path &dataDir)
{
    const auto moved = undoMove(dataDir);
    if (ctx.json()) {
        nlohmann::json out {
            {"result", moved ? "undone" : "not_moved"}, {"dataDir", dataDir.string()}};
        if (moved)
            out["movedTo"] = toJson(*moved);
        ctx.out << out.dump() << "\n";
    } else if (!moved) {
        ctx.out << "not moved: " << dataDir.string()
                << " has no marker; the embedded cluster is the default already\n";
    } else {
        ctx.out << "the desk and renewalctl use the embedded cluster in " << dataDir.string()
                << " again, with its data as of the move"
                << (moved->movedAt.empty() ? "" : " (" + moved->movedAt + ")")
                << "; what was written on the server since is not in it\n";
    }
    return ExitOk;
}

/// What does not verify, one line each, for people.
std::vector<std::string> differences(const MoveReport &r)
{
    std::vector<std::string> lines;
    for (const auto &d : r.restore.countDifferences)
        lines.push_back(d.table + ": " + std::to_string(d.expected) + " rows in the backup, "
            + std::to_string(d.found) + " on the server");
    if (!r.restore.anchor.matches())
        lines.push_back("audit anchor: " + std::to_string(r.restore.anchor.mismatchCount)
            + " of the backup's " + std::to_string(r.restore.anchor.heads)
            + " chain heads differ on the server");
    for (const auto &b : r.restore.verification.breaks)
        lines.push_back("audit chain broken on the server: " + describeChainBreak(b));
    for (const auto &d : r.restore.rules.differences)
        lines.push_back("schema rule on the server: " + describeSchemaRuleDifference(d));
    for (const auto &p : r.roleProblems)
        lines.push_back("group roles: the server lacks " + p);
    if (r.embeddedChanged)
        lines.push_back("the embedded database was written during the move (its audit heads "
                        "changed after the backup): close the desk and stop renewalctl serve, "
                        "then move again");
    return lines;
}

nlohmann::json reportJson(const MoveReport &r)
{
    nlohmann::json counts = nlohmann::json::object();
    for (const auto &[table, n] : r.restore.counts)
        counts[table] = n;
    nlohmann::json out {{"result", r.switched ? "moved" : "not_verified"}, {"server", r.server},
        {"backupFile", r.backupFile.string()}, {"backupBytes", r.backupBytes}, {"counts", counts},
        {"anchorHeads", r.restore.anchor.heads}, {"anchorMatches", r.restore.anchor.matches()},
        {"chainsIntact", r.restore.verification.intact()},
        {"auditRows", r.restore.verification.rows}, {"rolesCreated", r.rolesCreated},
        {"differences", differences(r)}, {"switched", r.switched}};
    if (r.movedTo)
        out["movedTo"] = toJson(*r.movedTo);
    if (r.switched)
        out["savedConnectionConnects"] = r.savedConnectionConnects;
    return out;
}

void printMoved(const CommandContext &ctx, const std::filesystem::path &dataDir,
    const MoveReport &r, bool wasRunning)
{
    ctx.out << "moved: the embedded database in " << dataDir.string() << " is now on " << r.server
            << "\n";
    ctx.out << "  backup kept: " << r.backupFile.string() << " (" << r.backupBytes << " bytes)\n";
    ctx.out << "  verified: " << r.restore.counts.size()
            << " tables' counts as in the backup, the audit anchor's " << r.restore.anchor.heads
            << " chain heads match, " << r.restore.verification.rows << " audit rows in "
            << r.restore.verification.chains << " chains intact\n";
    ctx.out << "  group roles: "
            << (r.rolesCreated.empty() ? std::string("all present on the server")
                                       : "created on the server: " + commaJoined(r.rolesCreated))
            << " (give people theirs: renewalctl roles grant LOGIN viewer|operator ... --db)\n";
    ctx.out << "  the desk (unless it has a connection of its own saved) and renewalctl "
               "(without --db) now use the server; the switch is "
            << movedToMarker(dataDir).string() << "\n";
    ctx.out << "  the embedded cluster is left " << (wasRunning ? "running" : "stopped")
            << ", its data as of the move; remove " << dataDir.string()
            << "/data when you no longer need it (keep the backup)\n";
    ctx.out << "  to go back: renewalctl db move --undo\n";
    if (!r.savedConnectionConnects)
        ctx.err << "renewalctl: warning: the saved connection (" << r.server
                << ", no password) does not connect yet: " << r.savedConnectionError
                << "; put the password in ~/.pgpass (host:port:database:user:password, mode "
                   "0600) or PGPASSWORD\n";
}

int runDbMove(const CommandContext &ctx, const MoveCommandOptions &o)
{
    const auto dataDir
        = o.dataDir ? std::filesystem::path(*o.dataDir) : EmbeddedCluster::defaultRoot();
    const auto &to = o.to;
    if (o.undo) // with no --to: the parser refuses them together
        return undo(ctx, dataDir);
    if (!to || to->empty())
        throw UsageError("db move: --to CONNINFO is required (the server's empty database)");
    const bool wasRunning = EmbeddedCluster(dataDir).state() == EmbeddedCluster::State::Running;

    MoveOptions options;
    options.dataDir = dataDir;
    options.target = *to;
    std::string lastStep;
    options.onStep = [&](const std::string &what) {
        lastStep = what;
        ctx.err << "... " << what << "\n";
    };
    MoveReport report;
    try {
        report = moveDatabase(options);
    } catch (const MoveRefused &e) {
        if (ctx.json())
            ctx.out << nlohmann::json {{"result", "refused"}, {"message", e.what()}}.dump() << "\n";
        ctx.err << "renewalctl: db move refused: " << e.what() << "\n";
        return ExitRefused;
    } catch (...) {
        // The error itself is reported as every command's is; say first what it left.
        if (!lastStep.empty())
            ctx.err << "renewalctl: db move stopped while " << lastStep
                    << "; nothing was switched (the desk and renewalctl still use the embedded "
                       "cluster)\n";
        throw;
    }
    if (ctx.json())
        ctx.out << reportJson(report).dump() << "\n";
    if (!report.switched) {
        ctx.err << "renewalctl: the copy on " << report.server
                << " does not verify; nothing was switched (the desk and renewalctl still use "
                   "the embedded cluster):\n";
        for (const auto &line : differences(report))
            ctx.err << "  " << line << "\n";
        ctx.err << "  the copy is left on the server for inspection: empty that database before "
                   "moving again; the backup is "
                << report.backupFile.string() << "\n";
        return ExitDataError;
    }
    if (!ctx.json())
        printMoved(ctx, dataDir, report, wasRunning);
    else if (!report.savedConnectionConnects)
        ctx.err << "renewalctl: warning: the saved connection does not connect yet: "
                << report.savedConnectionError << "\n";
    return ExitOk;
}

int runRolesCheck(const CommandContext &ctx, bool create)
{
    auto conn = ctx.connect();
    std::vector<std::string> created;
    const auto check = create ? ensureGroupRoles(*conn, &created) : checkGroupRoles(*conn);
    if (ctx.json()) {
        ctx.out << nlohmann::json {{"complete", check.complete()},
            {"missingRoles", check.missingRoles}, {"missingGrants", check.missingGrants},
            {"created", created}, {"login", check.login}, {"mayCreateRoles", check.mayCreateRoles}}
                       .dump()
                << "\n";
    } else {
        for (const auto &c : created)
            ctx.out << "created " << c << "\n";
        for (const auto &r : check.missingRoles)
            ctx.out << "missing role " << r << "\n";
        for (const auto &g : check.missingGrants)
            ctx.out << "missing grant of " << g << "\n";
        if (check.complete())
            ctx.out << "the group roles and their grants are all there\n";
        else
            ctx.err << "renewalctl: group roles missing"
                    << (check.mayCreateRoles ? std::string(": run renewalctl roles check --create")
                                             : ": the login " + check.login
                                   + " may not create roles (no CREATEROLE): ask the server's "
                                     "administrator")
                    << "\n";
    }
    return check.complete() ? ExitOk : ExitRefused;
}

} // namespace

void registerDbMoveCommand(CommandTree &tree, CLI::App &dbGroup)
{
    auto o = std::make_shared<MoveCommandOptions>();
    auto *move = tree.command(dbGroup, "move",
        "copy the embedded database into an empty database on a PostgreSQL server (backup, "
        "restore, verify, group roles), then switch the desk and renewalctl to it; the "
        "embedded cluster is left as it is",
        [o](const CommandContext &ctx) { return runDbMove(ctx, *o); });
    auto *to = option(move, "to", o->to, "CONNINFO",
        "the server's database: a libpq connection string (its password, if any, is used "
        "and never saved: keep it in ~/.pgpass)");
    option(move, "data-dir", o->dataDir, "DIR",
        "the embedded cluster's directory (default: the user's own)");
    flag(move, "undo", o->undo, "go back: use the embedded cluster again (its data as of the move)")
        ->excludes(to);
    json(move);
}

void registerRolesCheckCommand(CommandTree &tree, CLI::App &rolesGroup)
{
    auto create = std::make_shared<bool>(false);
    auto *check = tree.command(rolesGroup, "check",
        "check that the desk's group roles and the grants between them exist on the server "
        "(exit 0 when they do, 4 when some are missing)",
        [create](const CommandContext &ctx) { return runRolesCheck(ctx, *create); });
    flag(check, "create", *create, "create what is missing (needs CREATEROLE)");
    db(check);
    json(check);
}

} // namespace rd::cli
