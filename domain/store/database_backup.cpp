// Backups that prove themselves (#29).
//
// Why pg_dump and not pg_basebackup: a backup here must restore into an empty database on any
// server (the day the embedded cluster moves to a real one, `db move` is backup + restore), be
// one snapshot whose counts and audit anchor can be taken in the very same snapshot, and work
// the same for the embedded cluster and a server where we own a database but not the cluster.
// pg_dump -Fc --snapshot does all of that: it is logical (a cluster-independent archive of one
// database), it reads the snapshot a REPEATABLE READ transaction of ours exported, and it needs
// only the database owner's rights. pg_basebackup copies a whole cluster's files (every
// database, of one major version and architecture), needs a replication connection and role,
// and gives no transaction in which to take the anchor; it is the tool of point-in-time
// recovery with WAL archiving, which the operations guide names and we do not build.
//
// The file: see backup_file.h. The counts and the anchor are taken first, in the exporting
// transaction, which stays open until pg_dump has finished (an exported snapshot lives only
// as long as its transaction).
#include "domain/store/database_backup.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/audit_chains.h"
#include "domain/store/backup_file.h"
#include "domain/store/database_target.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/internal/audit_chains_tx.h"
#include "domain/store/internal/pqxx_session.h"
#include "domain/store/internal/schema_rules.h"
#include "domain/store/migrator.h"
#include "domain/store/postgres_tools.h"
#include "domain/store/private_files.h"
#include "domain/store/roles.h"
#include "domain/store/tool_run.h"
#include "rd_version.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace rd {
namespace {

constexpr std::size_t kReadChunk = 1 << 20;

void progress(const std::function<void(const BackupProgress &)> &f, const char *phase,
    long long bytes, long long expected)
{
    if (f)
        f(BackupProgress {phase, bytes, expected});
}

void checkCancel(const std::atomic<bool> *cancel)
{
    if (cancel && cancel->load())
        throw BackupCanceled();
}

std::string lastLines(std::string text, std::size_t maxLines = 8)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    std::size_t at = text.size();
    for (std::size_t n = 0; n < maxLines && at != std::string::npos && at > 0; ++n)
        at = text.rfind('\n', at - 1);
    return at == std::string::npos || at == 0 ? text : text.substr(at + 1);
}

/// Rows of every table of schema public (but the extensions'), in `tx`'s snapshot. Every
/// table, not a chosen few: a restore that lost any table's rows shows up.
std::map<std::string, long long> countTables(pqxx::transaction_base &tx)
{
    std::map<std::string, long long> counts;
    const auto tables = tx.exec(
        "SELECT c.relname FROM pg_catalog.pg_class c "
        "WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') "
        "AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d WHERE d.classid = "
        "'pg_catalog.pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e') ORDER BY 1");
    for (const auto &row : tables) {
        const auto name = row[0].as<std::string>();
        counts[name]
            = tx.exec1("SELECT count(*) FROM public." + tx.quote_name(name))[0].as<long long>();
    }
    return counts;
}

std::string newestSchemaVersion(pqxx::transaction_base &tx)
{
    if (tx.exec1("SELECT pg_catalog.to_regclass('public.schema_migrations') IS NULL")[0].as<bool>())
        throw SetupError("the database holds no Renewal Desk schema (no schema_migrations): "
                         "nothing to back up");
    const auto r
        = tx.exec("SELECT name FROM public.schema_migrations ORDER BY version DESC LIMIT 1");
    if (r.empty())
        throw SetupError("the database's schema_migrations is empty: nothing to back up");
    return r[0][0].as<std::string>();
}

int migrationNumber(const std::string &name)
{
    return std::atoi(name.c_str());
}

/// `dir`/renewal-desk-YYYYMMDD-HHMMSS.backup, or with "-2", "-3", ... before ".backup" when a
/// backup of the same second is there already (a move right after a backup, two timers): a
/// name of our choosing never collides; a name the user gave is never changed (the writer
/// refuses to replace it).
fs::path freshDefaultName(const fs::path &dir)
{
    const std::string name = defaultBackupFileName();
    const std::string stem = name.substr(0, name.size() - std::string(".backup").size());
    std::error_code ec;
    for (int n = 1; n < 1000; ++n) {
        const fs::path candidate
            = dir / (n == 1 ? name : stem + "-" + std::to_string(n) + ".backup");
        if (!fs::exists(candidate, ec) && !fs::exists(candidate.string() + ".partial", ec))
            return candidate;
    }
    return dir / name; // the writer then names the collision
}

/// What is missing of the directory `dir` (which is not one): "/a/b does not exist" for the
/// first part of it that does not, or "/a is a file, not a directory".
std::string missingPart(const fs::path &dir)
{
    std::error_code ec;
    fs::path missing = dir;
    for (fs::path up = dir.parent_path(); !up.empty() && !fs::exists(up, ec);
         up = up.parent_path()) {
        missing = up;
        if (up == up.parent_path())
            break;
    }
    if (fs::exists(missing, ec) && !fs::is_directory(missing, ec))
        return missing.string() + " is a file, not a directory";
    // The deepest part that exists, when that is a file: "/a/f/b" where /a/f is a file.
    if (const auto parent = missing.parent_path();
        !parent.empty() && fs::exists(parent, ec) && !fs::is_directory(parent, ec))
        return parent.string() + " is a file, not a directory";
    return "no such directory: " + missing.string() + " does not exist";
}

/// `--to DIR/` of a directory that does not exist (#42, item 12): made, private like the
/// default place, when its parent is a directory (a dated folder of backups, a new disk's
/// folder); otherwise refused naming the part that is missing, and nothing is made (a typo in
/// a parent would otherwise grow a tree of folders in the wrong place).
void makeBackupDirectory(const std::string &given)
{
    fs::path dir(given);
    while (!dir.empty() && !dir.has_filename() && dir != dir.root_path())
        dir = dir.parent_path(); // "a/b/" and "a/b//": a/b
    std::error_code ec;
    const fs::path parent = dir.parent_path().empty() ? fs::path(".") : dir.parent_path();
    if (fs::exists(dir, ec) || !fs::is_directory(parent, ec))
        throw InputError(given,
            missingPart(dir)
                + " (nothing was created: only the last directory of the path is made)");
    createPrivateDirectory(dir);
}

fs::path backupPath(const std::optional<fs::path> &to)
{
    if (!to) {
        const auto dir = defaultBackupDirectory();
        std::error_code ec;
        if (!fs::exists(dir, ec)) {
            // Private: a backup holds every table, raw bodies included.
            createPrivateDirectory(dir);
        }
        return freshDefaultName(dir);
    }
    std::error_code ec;
    const std::string s = to->string();
    if ((!s.empty() && s.back() == '/') || fs::is_directory(*to, ec)) {
        if (!fs::is_directory(*to, ec))
            makeBackupDirectory(s);
        return freshDefaultName(*to);
    }
    if (const auto dir = to->parent_path(); !dir.empty() && !fs::is_directory(dir, ec))
        throw InputError(s, "cannot write the file here: " + missingPart(dir));
    return *to;
}

/// Verifies every chain in `snapshot` (exported by the backup's transaction), over a connection
/// of its own, into the manifest.
void verifySnapshotChains(const std::string &conninfo, const std::string &snapshot,
    BackupManifest &manifest, const BackupOptions &options)
{
    auto conn = connectTo(conninfo);
    AuditVerifyOptions verify;
    verify.snapshot = snapshot;
    verify.cancel = options.cancel;
    verify.onProgress = [&](const AuditVerifyProgress &p) {
        progress(options.onProgress, "chains", p.rows, p.expectedRows);
    };
    AuditVerification v;
    try {
        v = verifyAuditChainsStreamed(*conn, verify);
    } catch (const AuditVerificationCanceled &) {
        throw BackupCanceled();
    }
    manifest.chainsVerified = true;
    manifest.auditRows = v.rows;
    manifest.auditChains = v.chains;
    manifest.chainBreaks = std::move(v.breaks);
    manifest.moreChainBreaks = v.moreBreaks;
}

/// A break's identity: where it is, what is wrong, and the broken state (its hashes). The
/// names of whose chain it is are left out: they are read from the subscriptions, not hashed.
std::string breakIdentity(const ChainBreak &b)
{
    return b.chain + '\x1f' + b.chainId + '\x1f' + std::to_string(b.rowId) + '\x1f'
        + std::to_string(b.seq) + '\x1f' + b.problem + '\x1f' + b.rowHash + '\x1f' + b.contentHash
        + '\x1f' + b.previousRowHash;
}

/// The restored chains' breaks against the manifest's: the ones it does not record, and the
/// recorded ones not found as recorded.
void compareBreaks(RestoreReport &report)
{
    std::multiset<std::string> recorded, found;
    for (const auto &b : report.manifest.chainBreaks)
        recorded.insert(breakIdentity(b));
    for (const auto &b : report.verification.breaks)
        found.insert(breakIdentity(b));
    for (const auto &b : report.verification.breaks)
        if (const auto it = recorded.find(breakIdentity(b)); it != recorded.end())
            recorded.erase(it);
        else
            report.unrecordedBreaks.push_back(b);
    for (const auto &b : report.manifest.chainBreaks)
        if (const auto it = found.find(breakIdentity(b)); it != found.end())
            found.erase(it);
        else
            report.recordedBreaksNotFound.push_back(b);
}

/// The backup log's row: after the file is complete, so the log never names a backup that
/// does not exist. The manifest is logged without the anchor document (its digest is there;
/// the document may be hundreds of MB).
void recordBackup(pqxx::connection &conn, BackupResult &result)
{
    try {
        pqxx::work tx(conn);
        tx.exec_params("INSERT INTO public.database_backups (taken_at, file_name, file_bytes, "
                       "schema_version, anchor_digest, file_sha256, manifest) "
                       "VALUES ($1::timestamptz, $2, $3, $4, $5, $6, $7::jsonb)",
            result.manifest.takenAt, result.file.string(), result.fileBytes,
            result.manifest.schemaVersion, result.manifest.anchorDigest, result.fileSha256, [&] {
                auto m = result.manifest;
                m.anchor.clear();
                auto j = nlohmann::json::parse(manifestJson(m, true));
                j.erase("anchor");
                return j.dump();
            }());
        tx.commit();
        result.recorded = true;
    } catch (const pqxx::insufficient_privilege &) {
        result.notRecorded = "the role " + std::string(conn.username())
            + " may not write the backup log (public.database_backups): the desk will not "
              "show this backup's age; take backups as the database's owner";
    } catch (const pqxx::undefined_table &) {
        result.notRecorded = "the database has no backup log yet (migration 0036 not applied): "
                             "the desk will not show this backup's age";
    } catch (const pqxx::sql_error &e) {
        result.notRecorded = std::string("the backup log refused the row: ") + e.what();
    }
}

/// A backup file read whole and found sound: its manifest, and the SHA-256 of all its bytes.
struct CheckedFile
{
    BackupManifest manifest;
    std::string fileSha256;
};

/// Reads the whole file: its header, and the dump against its digest and size.
CheckedFile readChecked(const fs::path &file, const RestoreOptions *options)
{
    BackupFileReader reader(file);
    Sha256 sha;
    std::string buffer(kReadChunk, '\0');
    long long bytes = 0;
    const long long expected = reader.manifest().dumpBytes;
    for (std::size_t n; (n = reader.read(buffer.data(), buffer.size())) > 0;) {
        sha.update(std::string_view(buffer.data(), n));
        bytes += static_cast<long long>(n);
        if (options) {
            checkCancel(options->cancel);
            progress(options->onProgress, "check", bytes, expected);
        }
    }
    if (bytes < expected)
        throw InputError(file.string(),
            "truncated: the dump has " + std::to_string(bytes) + " of its "
                + std::to_string(expected) + " bytes");
    if (!reader.endsAfterDump())
        throw InputError(file.string(), "bytes after the dump: not a backup as it was written");
    if (sha.hexDigest() != reader.manifest().dumpSha256)
        throw InputError(file.string(),
            "the dump's SHA-256 does not match the manifest's (digest mismatch): the file was "
            "damaged or altered");
    return {reader.manifest(), reader.fileSha256()};
}

/// What schema public holds that a restore would collide with; "" when nothing.
std::string whatTargetHolds(pqxx::connection &conn)
{
    pqxx::read_transaction tx(conn);
    if (tx.exec1("SELECT pg_catalog.to_regnamespace('public') IS NULL")[0].as<bool>())
        return {};
    const auto r = tx.exec1(
        "SELECT (SELECT count(*) FROM pg_catalog.pg_class c "
        "         WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN "
        "               ('r', 'p', 'v', 'm', 'S', 'f', 'c') "
        "           AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d WHERE d.classid = "
        "               'pg_catalog.pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')),"
        "       (SELECT count(*) FROM pg_catalog.pg_proc p "
        "         WHERE p.pronamespace = 'public'::regnamespace "
        "           AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d WHERE d.classid = "
        "               'pg_catalog.pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')),"
        "       (SELECT count(*) FROM pg_catalog.pg_type t "
        "         WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('d', 'e', 'r', "
        "'m') "
        "           AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d WHERE d.classid = "
        "               'pg_catalog.pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e')),"
        "       pg_catalog.to_regclass('public.schema_migrations') IS NOT NULL");
    const auto relations = r[0].as<long long>(), functions = r[1].as<long long>(),
               types = r[2].as<long long>();
    if (r[3].as<bool>()) {
        const auto v
            = tx.exec("SELECT name FROM public.schema_migrations ORDER BY version DESC LIMIT 1");
        return "Renewal Desk data (schema "
            + (v.empty() ? std::string("with no migration recorded") : v[0][0].as<std::string>())
            + ")";
    }
    if (relations + functions + types == 0)
        return {};
    return std::to_string(relations) + " relations, " + std::to_string(functions)
        + " functions and " + std::to_string(types) + " types in schema public";
}

/// --force: schema public dropped with everything in it and made again as PostgreSQL 15
/// creates it (owned by pg_database_owner, USAGE for PUBLIC). The database's other schemas
/// are not ours and are left alone. Waits at most 10 s for sessions using the old objects.
void replacePublicSchema(pqxx::connection &conn)
{
    pqxx::work tx(conn);
    tx.exec0("SET LOCAL lock_timeout = '10s'");
    try {
        tx.exec0("DROP SCHEMA IF EXISTS public CASCADE");
    } catch (const pqxx::sql_error &e) {
        if (std::string(e.sqlstate()) == "55P03")
            throw TargetNotEmpty("the target database is in use (a desk or a service holds its "
                                 "tables): stop them and restore again");
        throw;
    }
    tx.exec0(conn.server_version() >= 140000
            ? "CREATE SCHEMA public AUTHORIZATION pg_database_owner"
            : "CREATE SCHEMA public");
    tx.exec0("GRANT USAGE ON SCHEMA public TO PUBLIC");
    tx.exec0("COMMENT ON SCHEMA public IS 'standard public schema'");
    tx.commit();
}

/// The four group roles and their memberships, created when missing (roles.h, as `renewalctl
/// roles check --create` and `db move` do); returns the roles it made. RolesMissing names what the
/// login could not make.
std::vector<std::string> ensureRestoreRoles(pqxx::connection &conn)
{
    std::vector<std::string> made; // roles and the grants between them
    const GroupRoleCheck check = ensureGroupRoles(conn, &made);
    if (check.complete()) {
        std::vector<std::string> roles;
        for (const auto &name : made)
            if (std::find(groupRoleNames().begin(), groupRoleNames().end(), name)
                != groupRoleNames().end())
                roles.push_back(name);
        return roles;
    }
    auto namesOf = [](const std::vector<std::string> &items) {
        std::string s;
        for (const auto &item : items)
            s += (s.empty() ? "" : ", ") + item;
        return s;
    };
    if (check.missingRoles.empty())
        throw RolesMissing("the desk's group roles lack the grants " + namesOf(check.missingGrants)
            + " and the login " + check.login
            + " may not grant them: grant them as a role administrator, then restore again");
    throw RolesMissing("the target server has no role " + namesOf(check.missingRoles)
        + " and the login " + check.login
        + " may not create roles: create them as a role administrator (CREATE ROLE name NOLOGIN "
          "for each), or restore as a login with CREATEROLE");
}

/// What migrations 0007 and 0027 set outside the objects a dump carries: a database's ACL is
/// in a pg_dump only with --create (which a restore into an existing database cannot use),
/// and the default privileges of the migrating role name that role, which the target may not
/// have (so they are left out of the restore and set again for the restoring login).
///
/// Applied after pg_restore: the restored objects carry the dump's own ACLs, and the
/// extension's functions (pg_trgm, created by the restore) keep PUBLIC's EXECUTE as in the
/// source, where the extension predates the default privileges of migration 0027.
void applyDatabaseLevelSettings(pqxx::connection &conn)
{
    pqxx::work tx(conn);
    tx.exec0("REVOKE TEMPORARY ON DATABASE " + tx.quote_name(conn.dbname()) + " FROM PUBLIC");
    tx.exec0("ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC");
    tx.exec0("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
    tx.exec0("GRANT USAGE ON SCHEMA public TO renewal_viewer");
    tx.commit();
}

/// pg_restore's table of contents without the entries a restore into another database must
/// not replay: default privileges "FOR ROLE <the dumping login>" (set again for the restoring
/// login instead) and the extension's comment (owned by whoever installed the extension).
std::string restoreList(const std::string &toc)
{
    std::istringstream in(toc);
    std::string out;
    for (std::string line; std::getline(in, line);) {
        if (line.find(" DEFAULT ACL ") != std::string::npos
            || line.find(" COMMENT - EXTENSION ") != std::string::npos)
            out += ";" + line + "\n";
        else
            out += line + "\n";
    }
    return out;
}

/// A file for pg_restore -L, removed with the object.
class TemporaryFile
{
public:
    explicit TemporaryFile(const std::string &content)
    {
        const char *tmp = std::getenv("TMPDIR");
        std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/renewal-desk-restore-XXXXXX";
        const int fd = ::mkstemp(path.data());
        if (fd < 0)
            throw std::runtime_error(
                std::string("cannot create a temporary file: ") + std::strerror(errno));
        m_path = path;
        const bool ok
            = ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size());
        ::close(fd);
        if (!ok)
            throw std::runtime_error("cannot write " + m_path);
    }
    ~TemporaryFile() { ::unlink(m_path.c_str()); }
    TemporaryFile(const TemporaryFile &) = delete;
    TemporaryFile &operator=(const TemporaryFile &) = delete;
    const std::string &path() const { return m_path; }

private:
    std::string m_path;
};

/// Runs pg_restore with `extra` arguments, the file's dump on its standard input.
ToolResult runRestoreTool(const std::string &program, const ToolConnection &target,
    const fs::path &file, std::vector<std::string> extra, const RestoreOptions &options,
    const char *phase)
{
    BackupFileReader reader(file);
    const long long expected = reader.manifest().dumpBytes;
    long long fed = 0;
    ToolRun run;
    run.argv = {program};
    run.argv.insert(run.argv.end(), extra.begin(), extra.end());
    run.environment = target.environment();
    run.input = [&](char *buffer, std::size_t max) {
        const auto n = reader.read(buffer, max);
        fed += static_cast<long long>(n);
        return n;
    };
    run.cancel = options.cancel;
    run.onTick = [&] { progress(options.onProgress, phase, fed, expected); };
    return runTool(run);
}

[[noreturn]] void toolFailed(
    const std::string &tool, const ToolConnection &conn, const ToolResult &r)
{
    throw BackupToolFailed(tool + " failed (exit " + std::to_string(r.exitCode)
        + "): " + conn.scrubbed(lastLines(r.errors.empty() ? r.output : r.errors)));
}

} // namespace

fs::path defaultBackupDirectory()
{
    return EmbeddedCluster::defaultRoot() / "backups";
}

std::string defaultBackupFileName()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc {};
    ::gmtime_r(&now, &utc);
    char name[64];
    std::strftime(name, sizeof name, "renewal-desk-%Y%m%d-%H%M%S.backup", &utc);
    return name;
}

BackupResult backupDatabase(
    const std::string &conninfo, const std::optional<fs::path> &to, const BackupOptions &options)
{
    const ToolConnection tool = toolConnection(conninfo);
    auto conn = connectTo(conninfo);
    BackupResult result;
    result.file = backupPath(to);
    progress(options.onProgress, "snapshot", 0, 0);

    BackupManifest manifest;
    manifest.program = std::string("renewal-desk ") + RD_VERSION;
    manifest.source = tool.description;
    long long expectedBytes = 0;
    std::optional<BackupFileWriter> writer;
    {
        // The one snapshot: exported for pg_dump, and read here for the counts and the anchor.
        pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::read_only> tx(*conn);
        const auto r = tx.exec1("SELECT pg_catalog.pg_export_snapshot(), "
                                "pg_catalog.to_char(pg_catalog.statement_timestamp() AT TIME "
                                "ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), "
                                "pg_catalog.pg_database_size(pg_catalog.current_database())");
        const auto snapshot = r[0].as<std::string>();
        manifest.takenAt = r[1].as<std::string>();
        expectedBytes = r[2].as<long long>();
        manifest.schemaVersion = newestSchemaVersion(tx);
        checkCancel(options.cancel);
        progress(options.onProgress, "counts", 0, expectedBytes);
        try {
            manifest.counts = countTables(tx);
        } catch (const pqxx::insufficient_privilege &e) {
            // A login that may not read every table (a viewer: the inbox's bodies, the e-mail
            // key) cannot take a backup; said as pg_dump's own refusal would be.
            throw BackupToolFailed(e.what());
        }
        checkCancel(options.cancel);
        progress(options.onProgress, "anchor", 0, expectedBytes);
        std::ostringstream anchor;
        manifest.anchorHeads
            = exportAuditAnchor(tx, anchor, AnchorLayout::Compact, &manifest.anchorDigest);
        manifest.anchor = anchor.str();
        checkCancel(options.cancel);
        // The chains verified in the very snapshot pg_dump reads (#42, item 6: a backup of a
        // database with a broken chain was written silently, then no restore of it verified):
        // recorded in the manifest, broken or not, before the file is begun.
        progress(options.onProgress, "chains", 0, 0);
        verifySnapshotChains(conninfo, snapshot, manifest, options);

        writer.emplace(result.file, manifest);
        ToolRun run;
        run.argv = {postgresTool("pg_dump", conn->server_version()), "--format=custom",
            "--no-password", "--snapshot=" + snapshot};
        if (!tool.conninfo.empty())
            run.argv.push_back("--dbname=" + tool.conninfo);
        run.environment = tool.environment();
        run.output = [&](std::string_view bytes) { writer->append(bytes); };
        run.onTick
            = [&] { progress(options.onProgress, "dump", writer->dumpBytes(), expectedBytes); };
        run.cancel = options.cancel;
        progress(options.onProgress, "dump", 0, expectedBytes);
        ToolResult dumped;
        try {
            dumped = runTool(run);
        } catch (const BackupToolFailed &) {
            throw;
        } catch (const InputError &) {
            throw;
        } catch (const std::runtime_error &e) {
            throw BackupToolFailed(tool.scrubbed(e.what()));
        }
        if (dumped.canceled)
            throw BackupCanceled(); // the writer removes the partial file
        if (dumped.exitCode != 0)
            toolFailed("pg_dump", tool, dumped);
        result.manifest = writer->commit(&result.fileBytes);
        tx.commit();
    }
    // Read back whole, as a restore will: the file on disk is proven sound, and its SHA-256
    // is the digest to keep apart from it (db restore --digest).
    progress(options.onProgress, "check", 0, 0);
    result.fileSha256 = readChecked(result.file, nullptr).fileSha256;
    recordBackup(*conn, result);
    progress(options.onProgress, "done", result.manifest.dumpBytes, expectedBytes);
    return result;
}

BackupManifest readBackupManifest(const fs::path &file, std::string *fileSha256)
{
    auto checked = readChecked(file, nullptr);
    if (fileSha256)
        *fileSha256 = checked.fileSha256;
    return std::move(checked.manifest);
}

RestoreReport restoreDatabase(
    const fs::path &file, const std::string &targetConninfo, const RestoreOptions &options)
{
    return restoreDatabase(
        file, [&] { return targetConninfo; }, options);
}

RestoreReport restoreDatabase(const fs::path &file, const std::function<std::string()> &openTarget,
    const RestoreOptions &options)
{
    RestoreReport report;
    progress(options.onProgress, "check", 0, 0);
    // The whole file is read and its digest checked before the target is touched.
    auto checked = readChecked(file, &options);
    report.manifest = std::move(checked.manifest);
    report.fileSha256 = checked.fileSha256;
    const auto &manifest = report.manifest;
    if (options.expectedFileSha256 && *options.expectedFileSha256 != report.fileSha256) {
        // The anchor's digest covers the audit heads only: a file re-forged around them
        // (amounts, grants) keeps it. Only the whole file's digest tells that file apart.
        if (*options.expectedFileSha256 == manifest.anchorDigest)
            throw InputError(file.string(),
                "the digest given is the audit anchor's, which covers the audit chains' heads "
                "only, not the file: give the file's SHA-256 that db backup printed "
                "(fileSha256, the backup log's file_sha256, or sha256sum of the file when it "
                "was taken)");
        throw InputError(file.string(),
            "the file's SHA-256 " + report.fileSha256 + " is not the one given ("
                + printableAscii(*options.expectedFileSha256)
                + "): the file is not the backup that digest was published for");
    }

    // A backup of a newer schema than this program's is refused: the program could neither
    // verify it (functions it does not know) nor run against it. An older one is restored as
    // it was, verified as it was, and only then migrated.
    const auto migrations = loadMigrations(defaultMigrationsDir());
    const int backupVersion = migrationNumber(manifest.schemaVersion);
    if (migrations.empty() || backupVersion > migrations.back().version)
        throw SetupError("the backup's schema (" + manifest.schemaVersion
            + ") is newer than this program's ("
            + (migrations.empty() ? std::string("none") : migrations.back().name)
            + "): restore it with the program that wrote it (" + manifest.program
            + ") or a newer one");
    for (const auto &m : migrations)
        if (m.version == backupVersion && m.name != manifest.schemaVersion)
            throw SetupError("the backup's schema (" + manifest.schemaVersion
                + ") is not this program's migration " + m.name
                + ": it was written by another line of Renewal Desk");

    // Only now is there a target: a new embedded cluster is not made for a file refused above.
    checkCancel(options.cancel);
    const std::string targetConninfo = openTarget();
    const ToolConnection tool = toolConnection(targetConninfo);
    auto conn = connectTo(targetConninfo);
    checkCancel(options.cancel);
    if (const auto holds = whatTargetHolds(*conn); !holds.empty()) {
        if (!options.force)
            throw TargetNotEmpty("the target database already holds " + holds
                + ": a restore replaces nothing unless forced (--force drops schema public "
                  "and everything in it)");
        replacePublicSchema(*conn);
        report.replaced = true;
    }
    report.rolesCreated = ensureRestoreRoles(*conn);

    // The login's default privileges as PostgreSQL starts them, for the restore: a database
    // restored into before (--force) still has 0027's, which would leave the extension's
    // functions without PUBLIC's EXECUTE; applyDatabaseLevelSettings sets them again after.
    {
        pqxx::work tx(*conn);
        tx.exec0("ALTER DEFAULT PRIVILEGES GRANT EXECUTE ON FUNCTIONS TO PUBLIC");
        tx.commit();
    }
    const auto program = postgresTool("pg_restore", conn->server_version());
    const auto wrapFailure = [&](auto &&f) {
        try {
            return f();
        } catch (const std::runtime_error &e) {
            if (dynamic_cast<const BackupCanceled *>(&e) || dynamic_cast<const InputError *>(&e))
                throw;
            throw BackupToolFailed(tool.scrubbed(e.what()));
        }
    };
    const auto listed = wrapFailure(
        [&] { return runRestoreTool(program, tool, file, {"--list"}, options, "restore"); });
    if (listed.canceled)
        throw BackupCanceled();
    if (listed.exitCode != 0)
        toolFailed("pg_restore", tool, listed);
    const TemporaryFile list(restoreList(listed.output));

    // One transaction: a restore that fails or is canceled leaves nothing behind. No owners:
    // every object is the restoring login's, as if it had run the migrations (SECURITY DEFINER
    // functions then run as it; restore as the role that owns the database, which is the
    // role that migrates it). The dump's GRANTs to the group roles are restored as they were.
    std::vector<std::string> args {"--no-owner", "--single-transaction", "--exit-on-error",
        "--no-password", "--use-list=" + list.path()};
    if (!tool.conninfo.empty())
        args.push_back("--dbname=" + tool.conninfo);
    else
        args.push_back("--dbname=" + std::string(conn->dbname()));
    const auto restored = wrapFailure(
        [&] { return runRestoreTool(program, tool, file, args, options, "restore"); });
    if (restored.canceled)
        throw BackupCanceled();
    if (restored.exitCode != 0)
        toolFailed("pg_restore", tool, restored);
    applyDatabaseLevelSettings(*conn);

    // Verification: the restored database against the manifest, as it was restored.
    progress(options.onProgress, "verify", 0, 0);
    {
        pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::read_only> tx(*conn);
        report.counts = countTables(tx);
    }
    for (const auto &[table, expected] : manifest.counts) {
        const auto it = report.counts.find(table);
        const long long found = it == report.counts.end() ? -1 : it->second;
        if (found != expected)
            report.countDifferences.push_back({table, expected, found});
    }
    for (const auto &[table, found] : report.counts)
        if (!manifest.counts.count(table) && found != 0)
            report.countDifferences.push_back({table, 0, found});
    {
        std::istringstream anchor(manifest.anchor);
        try {
            report.anchor = checkAuditAnchor(*conn, anchor);
        } catch (const InputError &e) {
            throw e.locatedAt("the backup's anchor");
        }
    }
    AuditVerifyOptions verify;
    verify.cancel = options.cancel;
    verify.onProgress = [&](const AuditVerifyProgress &p) {
        progress(options.onProgress, "verify", p.rows, p.expectedRows);
    };
    try {
        report.verification = verifyAuditChainsStreamed(*conn, verify);
    } catch (const AuditVerificationCanceled &) {
        throw BackupCanceled();
    }
    compareBreaks(report);

    if (report.verified()) {
        progress(options.onProgress, "migrate", 0, 0);
        report.migrationsApplied
            = migrate(*conn, migrations, loadRepeatables(defaultMigrationsDir())).applied;
        checkCancel(options.cancel);
        progress(options.onProgress, "rules", 0, 0);
        report.rules
            = compareSchemaRulesWithMigrations(*conn, targetConninfo, defaultMigrationsDir());
    }
    progress(options.onProgress, "done", manifest.dumpBytes, manifest.dumpBytes);
    return report;
}

} // namespace rd
