// renewalctl db backup / db restore: the CLI half of #29's backups (domain/store/database_backup.h
// does the work; the desk calls the same functions).
#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/errors.h"
#include "domain/store/audit_verification.h"
#include "domain/store/database_backup.h"
#include "domain/store/database_target.h"
#include "domain/store/embedded_cluster.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace rd::cli {
namespace {

// Ctrl+C or a service stop while a backup runs: cancel it (pg_dump's process group is killed
// and the partial file removed) instead of dying and leaving pg_dump and FILE.partial behind.
std::atomic<bool> g_cancel {false};

extern "C" void onSignal(int)
{
    g_cancel.store(true);
}

class CancelOnSignals
{
public:
    CancelOnSignals()
    {
        g_cancel.store(false);
        struct sigaction sa
        {
        };
        sa.sa_handler = onSignal;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGINT, &sa, &m_int);
        ::sigaction(SIGTERM, &sa, &m_term);
    }
    ~CancelOnSignals()
    {
        ::sigaction(SIGINT, &m_int, nullptr);
        ::sigaction(SIGTERM, &m_term, nullptr);
    }
    CancelOnSignals(const CancelOnSignals &) = delete;
    CancelOnSignals &operator=(const CancelOnSignals &) = delete;

private:
    struct sigaction m_int
    {
    };
    struct sigaction m_term
    {
    };
};

std::string megabytes(long long bytes)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << double(bytes) / 1e6 << " MB";
    return s.str();
}

/// Progress on stderr, rewritten in place, only on a terminal (a timer's log gets the result).
class ByteProgress
{
public:
    ByteProgress(std::ostream &err, bool enabled)
        : m_err(err), m_enabled(enabled && ::isatty(STDERR_FILENO) == 1)
    { }
    void operator()(const BackupProgress &p)
    {
        if (!m_enabled)
            return;
        const auto now = std::chrono::steady_clock::now();
        if (p.phase == m_phase && now - m_last < std::chrono::milliseconds(500))
            return;
        m_last = now;
        m_phase = p.phase;
        std::string line = p.phase + ": " + megabytes(p.bytes);
        if (p.phase == "verify")
            line = "verify: " + std::to_string(p.bytes) + " audit rows";
        else if (p.expectedBytes > 0)
            line += " (database or file: " + megabytes(p.expectedBytes) + ")";
        m_err << "\r" << line << "          " << std::flush;
        m_printed = true;
    }
    void finish()
    {
        if (m_printed)
            m_err << "\n";
        m_printed = false;
    }

private:
    std::ostream &m_err;
    bool m_enabled;
    std::string m_phase;
    std::chrono::steady_clock::time_point m_last {};
    bool m_printed = false;
};

nlohmann::json manifestSummary(const BackupManifest &m)
{
    return {{"program", m.program}, {"schemaVersion", m.schemaVersion}, {"takenAt", m.takenAt},
        {"source", m.source}, {"counts", m.counts}, {"anchorDigest", m.anchorDigest},
        {"anchorHeads", m.anchorHeads}, {"dumpSha256", m.dumpSha256}, {"dumpBytes", m.dumpBytes}};
}

/// The chains' breaks a manifest records, for --json: each named, with its broken state.
nlohmann::json breaksJson(const std::vector<ChainBreak> &breaks)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto &b : breaks)
        list.push_back({{"chain", b.chain}, {"chainId", b.chainId}, {"rowId", b.rowId},
            {"seq", b.seq}, {"problem", b.problem}, {"provider", b.provider},
            {"subscription", b.subscription}, {"rowHash", b.rowHash},
            {"contentHash", b.contentHash}, {"described", describeChainBreak(b)}});
    return list;
}

/// How many breaks, said whole ("1 break", "1000+ breaks").
std::string breakCount(std::size_t n, bool more)
{
    return std::to_string(n) + (more ? "+" : "") + (n == 1 && !more ? " break" : " breaks");
}

/// At most this many breaks are listed on a terminal; --json and the manifest have them all.
constexpr std::size_t kBreaksListed = 20;

void printCounts(std::ostream &out, const std::map<std::string, long long> &counts)
{
    std::size_t width = 0;
    for (const auto &[table, n] : counts)
        width = std::max(width, table.size());
    for (const auto &[table, n] : counts)
        out << "  " << std::left << std::setw(int(width)) << table << "  " << n << "\n";
}

struct BackupCommandOptions
{
    std::optional<std::string> to;
    bool noProgress = false;
};

struct RestoreCommandOptions
{
    std::string file;
    std::optional<std::string> db; // the target: --db or --data-dir
    std::optional<std::string> dataDir;
    bool force = false;
    std::optional<std::string> digest; // 64 hexadecimal digits, lower-cased
    bool noProgress = false;
};

int runDbBackup(const CommandContext &ctx, const BackupCommandOptions &o)
{
    const auto conninfo = ctx.conninfo();
    std::optional<std::filesystem::path> to;
    if (o.to)
        to = *o.to;
    CancelOnSignals signals;
    ByteProgress progress(ctx.err, !o.noProgress);
    BackupOptions options;
    options.onProgress = [&](const BackupProgress &p) { progress(p); };
    options.cancel = &g_cancel;
    BackupResult result;
    try {
        result = backupDatabase(conninfo, to, options);
    } catch (const BackupCanceled &) {
        progress.finish();
        ctx.err << "renewalctl: backup canceled; no file was left\n";
        return ExitTempFail;
    } catch (const BackupToolFailed &e) {
        progress.finish();
        ctx.err << "renewalctl: " << e.what() << "\n";
        return ExitUnavailable;
    }
    progress.finish();
    const auto &chains = result.manifest;
    if (!chains.chainsIntact()) {
        // First, on stderr, before the summary: a nightly script's log shows it, and the exit
        // code (3) lets the script notice. The file is written and restores, breaks and all.
        ctx.err << "renewalctl: warning: the database's audit chains are broken ("
                << breakCount(chains.chainBreaks.size(), chains.moreChainBreaks)
                << "): the backup was written, and its manifest records the breaks; a restore "
                   "of it accepts exactly these and no other\n";
        for (std::size_t i = 0; i < chains.chainBreaks.size() && i < kBreaksListed; ++i)
            ctx.err << "renewalctl: warning: taken with a chain broken: "
                    << describeChainBreak(chains.chainBreaks[i]) << "\n";
        if (chains.chainBreaks.size() > kBreaksListed || chains.moreChainBreaks)
            ctx.err << "renewalctl: warning: and more breaks (the manifest lists "
                    << chains.chainBreaks.size() << "; renewalctl audit verify lists them)\n";
    }
    if (ctx.json()) {
        auto j = manifestSummary(result.manifest);
        j["chains"] = {{"rows", chains.auditRows}, {"chains", chains.auditChains},
            {"intact", chains.chainsIntact()}, {"moreBreaks", chains.moreChainBreaks},
            {"breaks", breaksJson(chains.chainBreaks)}};
        j["file"] = result.file.string();
        j["fileBytes"] = result.fileBytes;
        j["fileSha256"] = result.fileSha256;
        j["recorded"] = result.recorded;
        if (!result.recorded)
            j["notRecorded"] = result.notRecorded;
        ctx.out << j.dump() << "\n";
    } else {
        const auto &m = result.manifest;
        ctx.out << "backup: " << result.file.string() << " (" << megabytes(result.fileBytes)
                << ")\n"
                << "taken at " << m.takenAt << " from " << m.source << ", schema "
                << m.schemaVersion << ", by " << m.program << "\n"
                << "rows in the snapshot:\n";
        printCounts(ctx.out, m.counts);
        ctx.out << "audit anchor: " << m.anchorHeads << " chain heads, digest " << m.anchorDigest
                << "\n"
                << "audit chains: " << m.auditRows << " rows in " << m.auditChains << " chains, "
                << (m.chainsIntact()
                           ? std::string("intact")
                           : "BROKEN, " + breakCount(m.chainBreaks.size(), m.moreChainBreaks)
                               + " (recorded in the manifest: the backup was taken with them)")
                << "\n"
                << "file sha256: " << result.fileSha256
                << " (keep it apart from the file: db restore --digest refuses any other file)\n";
        if (result.recorded)
            ctx.out << "recorded in the backup log\n";
    }
    if (!result.recorded)
        ctx.err << "renewalctl: warning: not recorded in the backup log: " << result.notRecorded
                << "\n";
    // 3, as a command that did its work and found something to look at (`apply`'s
    // rejections): not 0, which a nightly job would take for a clean backup, and not 65,
    // which says no file was written.
    return chains.chainsIntact() ? ExitOk : ExitRejected;
}

int runDbRestore(const CommandContext &ctx, const RestoreCommandOptions &o)
{
    const auto &db = o.db;
    const auto &dataDir = o.dataDir;
    if (!db && !dataDir) // both: the parser refuses (--db excludes --data-dir)
        throw UsageError("db restore needs its target: --db CONNINFO (an empty database) or "
                         "--data-dir DIR (a new embedded cluster there), one of them");
    std::string target, targetName;
    const auto openTarget = [&] {
        if (db) {
            target = *db;
            targetName = "the database given with --db";
        } else {
            // A new (or empty) directory: a cluster of its own, started, with its renewal_desk
            // database. Not migrated: the restore brings the schema. Made only once the file
            // has been checked: a damaged file leaves the directory as it was.
            EmbeddedCluster cluster(*dataDir);
            cluster.start();
            target = cluster.connectionString();
            targetName = "the embedded cluster in " + cluster.root().string();
        }
        return target;
    };
    CancelOnSignals signals;
    ByteProgress progress(ctx.err, !o.noProgress);
    RestoreOptions options;
    options.force = o.force;
    options.expectedFileSha256 = o.digest;
    options.onProgress = [&](const BackupProgress &p) { progress(p); };
    options.cancel = &g_cancel;
    RestoreReport report;
    try {
        report = restoreDatabase(o.file, openTarget, options);
    } catch (const BackupCanceled &) {
        progress.finish();
        ctx.err << "renewalctl: restore canceled; its transaction was rolled back\n";
        return ExitTempFail;
    } catch (const TargetNotEmpty &e) {
        progress.finish();
        return reportRefusal(ctx, "target_not_empty", e.what());
    } catch (const BackupToolFailed &e) {
        progress.finish();
        ctx.err << "renewalctl: " << e.what() << "\n";
        return ExitUnavailable;
    }
    progress.finish();

    std::vector<std::string> differs;
    for (const auto &d : report.countDifferences)
        differs.push_back(d.table + ": expected " + std::to_string(d.expected) + " rows, found "
            + (d.found < 0 ? std::string("no such table") : std::to_string(d.found)));
    for (const auto &b : report.anchor.mismatches)
        differs.push_back("anchor: " + describeChainBreak(b));
    if (report.anchor.mismatchCount > static_cast<long long>(report.anchor.mismatches.size()))
        differs.push_back(
            "anchor: " + std::to_string(report.anchor.mismatchCount) + " heads differ in all");
    for (const auto &b : report.unrecordedBreaks)
        differs.push_back("chain: " + describeChainBreak(b));
    for (const auto &b : report.recordedBreaksNotFound)
        differs.push_back("chain: the backup recorded a break this copy does not have as "
                          "recorded (the file was altered): "
            + describeChainBreak(b));
    if (report.verification.moreBreaks != report.manifest.moreChainBreaks)
        differs.push_back(report.verification.moreBreaks
                ? "chains: more breaks than listed"
                : "chains: the backup recorded more breaks than this copy has");
    for (const auto &d : report.rules.differences)
        differs.push_back("schema: " + describeSchemaRuleDifference(d));

    if (ctx.json()) {
        nlohmann::json counts = nlohmann::json::object();
        for (const auto &[table, expected] : report.manifest.counts) {
            const auto it = report.counts.find(table);
            counts[table] = {{"expected", expected},
                {"found",
                    it == report.counts.end() ? nlohmann::json(nullptr)
                                              : nlohmann::json(it->second)}};
        }
        ctx.out << nlohmann::json {{"file", o.file}, {"fileSha256", report.fileSha256},
            {"target", targetName}, {"verified", report.verified()}, {"replaced", report.replaced},
            {"manifest", manifestSummary(report.manifest)}, {"counts", counts},
            {"anchor",
                {{"heads", report.anchor.heads}, {"digest", report.anchor.digest},
                    {"matches", report.anchor.matches()},
                    {"mismatches", report.anchor.mismatchCount}}},
            {"chains",
                {{"rows", report.verification.rows}, {"chains", report.verification.chains},
                    {"intact", report.verification.intact()},
                    {"breaks", report.verification.breaks.size()},
                    {"recordedBreaks", report.manifest.chainBreaks.size()},
                    {"asRecorded", report.chainsAsRecorded()},
                    {"brokenAsRecorded", report.brokenAsRecorded()}}},
            {"rules",
                {{"compared", report.rules.compared},
                    {"notCompared",
                        report.rules.compared ? nlohmann::json(nullptr)
                                              : nlohmann::json(report.rules.notCompared)},
                    {"rules", report.rules.rules},
                    {"differences", report.rules.differences.size()}}},
            {"rolesCreated", report.rolesCreated}, {"migrationsApplied", report.migrationsApplied},
            {"differences", differs}}
                       .dump()
                << "\n";
    } else {
        ctx.out << "restored: " << o.file << " into " << targetName
                << (report.replaced ? " (its schema public was replaced)" : "") << "\n"
                << "backup taken at " << report.manifest.takenAt << " from "
                << report.manifest.source << ", schema " << report.manifest.schemaVersion << "\n";
        for (const auto &role : report.rolesCreated)
            ctx.out << "created group role " << role << "\n";
        ctx.out << "rows (expected / found):\n";
        std::size_t width = 0;
        for (const auto &[table, n] : report.manifest.counts)
            width = std::max(width, table.size());
        for (const auto &[table, expected] : report.manifest.counts) {
            const auto it = report.counts.find(table);
            ctx.out << "  " << std::left << std::setw(int(width)) << table << "  " << expected
                    << " / "
                    << (it == report.counts.end() ? std::string("missing")
                                                  : std::to_string(it->second))
                    << (it != report.counts.end() && it->second == expected ? "" : "  DIFFERS")
                    << "\n";
        }
        ctx.out << "audit anchor: " << report.anchor.heads << " heads, digest "
                << report.anchor.digest
                << (report.anchor.matches()
                           ? ", every head in place"
                           : ", " + std::to_string(report.anchor.mismatchCount) + " heads differ")
                << "\n"
                << "audit chains: " << report.verification.rows << " rows in "
                << report.verification.chains << " chains, "
                << (report.verification.intact() ? std::string("intact")
                                                 : breakCount(report.verification.breaks.size(),
                                                     report.verification.moreBreaks))
                << (report.brokenAsRecorded()
                           ? ", exactly the ones the backup recorded (it was taken with them)"
                           : "")
                << "\n";
        for (const auto &name : report.migrationsApplied)
            ctx.out << "migrated: " << name << "\n";
        if (report.rules.compared)
            ctx.out << "schema rules: " << report.rules.rules
                    << " privileges, definitions and constraints compared with the migrations', "
                    << (report.rules.differences.empty()
                               ? std::string("all alike")
                               : std::to_string(report.rules.differences.size()) + " differ")
                    << "\n";
        else if (!report.rules.notCompared.empty())
            ctx.out << "schema rules: not compared: " << report.rules.notCompared << "\n";
        ctx.out << (report.brokenAsRecorded()
                ? "verified: the restored database is the backup's, its broken chains "
                  "included\n"
                : report.verified() ? "verified: the restored database is the backup's\n"
                                    : "NOT VERIFIED: the restored database differs from the "
                                      "backup's manifest\n");
    }
    if (report.brokenAsRecorded()) {
        const auto &breaks = report.verification.breaks;
        ctx.err << "renewalctl: warning: the backup was taken with its audit chains broken ("
                << breakCount(breaks.size(), report.verification.moreBreaks)
                << "), and the restored copy has exactly those: find out why before relying on "
                   "it (renewalctl audit verify names them)\n";
        for (std::size_t i = 0; i < breaks.size() && i < kBreaksListed; ++i)
            ctx.err << "renewalctl: warning: broken as recorded: " << describeChainBreak(breaks[i])
                    << "\n";
        return ExitRejected; // restored and verified, with something to look at
    }
    if (!report.verified()) {
        for (const auto &d : differs)
            ctx.err << "renewalctl: differs: " << d << "\n";
        if (report.rules.differences.empty())
            ctx.err << "renewalctl: the restore did not verify; the restored copy is left as it "
                       "is (not migrated) for inspection\n";
        else
            ctx.err << "renewalctl: the restore did not verify: its schema's rules are not the "
                       "migrations'; do not use the restored copy (it was migrated, and is left "
                       "for inspection)\n";
        return ExitDataError;
    }
    return ExitOk;
}

} // namespace

void registerDbBackupCommands(CommandTree &tree, CLI::App &dbGroup)
{
    auto b = std::make_shared<BackupCommandOptions>();
    auto *backup = tree.command(dbGroup, "backup",
        "write a backup that proves itself: pg_dump, the counts and the audit anchor of one "
        "snapshot, in one file (default: renewal-desk-YYYYMMDD-HHMMSS.backup in the data "
        "directory's backups/); exit 3 when the audit chains are broken (the file is written "
        "and records the breaks)",
        [b](const CommandContext &ctx) { return runDbBackup(ctx, *b); });
    option(backup, "to", b->to, "FILE",
        "the file to write (never replaced); a directory, or a path ending in '/', gets the "
        "default name inside it (a missing last directory is made, mode 0700)");
    flag(backup, "no-progress", b->noProgress, "no progress on stderr");
    db(backup);
    json(backup);

    auto r = std::make_shared<RestoreCommandOptions>();
    auto *restore = tree.command(dbGroup, "restore",
        "restore a backup into an empty database or a new embedded cluster, then verify it "
        "against its manifest (counts, audit anchor, chains; exit 65 naming what differs) and "
        "migrate it (exit 3: verified, with the chains broken exactly as the backup recorded); "
        "refused (exit 4) over a database that holds data, unless --force",
        [r](const CommandContext &ctx) { return runDbRestore(ctx, *r); });
    positional(restore, "FILE", r->file, "the backup file", true);
    auto *target = option(
        restore, "db", r->db, "CONNINFO", "the target database (must be empty unless --force)");
    option(restore, "data-dir", r->dataDir, "DIR",
        "or: a new embedded cluster in DIR (created and started), restored into its "
        "renewal_desk database")
        ->excludes(target);
    flag(restore, "force", r->force,
        "restore over a database that holds data: its schema public is dropped with everything "
        "in it");
    option(restore, "digest", r->digest, "HEX",
        "the file's SHA-256 published when the backup was taken (db backup's 'file sha256'): "
        "any other file is refused")
        ->transform(hexDigest("--digest", "the file sha256 'db backup' printed"));
    flag(restore, "no-progress", r->noProgress, "no progress on stderr");
    json(restore);
}

} // namespace rd::cli
