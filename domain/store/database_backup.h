#pragma once

#include "domain/store/audit_verification.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rd {

/// What a backup file says about itself. Written beside the dump, in the same file, and read
/// back by a restore, which compares the restored database against it.
struct BackupManifest
{
    int format = 1;
    std::string program; ///< "renewal-desk 1.2.3": the program that wrote it
    std::string schemaVersion; ///< the newest migration applied in the snapshot ("0036_...")
    std::string takenAt; ///< RFC 3339, UTC: when the snapshot was taken
    std::string source; ///< where it came from, for people; never a password
    /// Rows per table in the snapshot (billing periods, audits, outbox intents, cases, ...).
    std::map<std::string, long long> counts;
    /// The audit anchor (exportAuditAnchor's document) taken in the same snapshot, and its digest.
    std::string anchor;
    std::string anchorDigest;
    long long anchorHeads = 0;
    /// SHA-256 (hex) and size of the pg_dump archive the file carries (the DUMP line's).
    std::string dumpSha256;
    long long dumpBytes = 0;
    /// The audit chains as verified in the same snapshot (#42, item 6). A database whose chains
    /// are broken is backed up all the same (an older backup may be all there is otherwise),
    /// and its manifest records each break with its broken state (ChainBreak::rowHash, ...);
    /// a restore accepts those very breaks and no other. chainsVerified is false for a file
    /// written before: its restore requires intact chains, as it always did.
    bool chainsVerified = false;
    long long auditRows = 0;
    long long auditChains = 0;
    std::vector<ChainBreak> chainBreaks; ///< at most AuditVerifyOptions::maxBreaks of them
    bool moreChainBreaks = false;
    bool chainsIntact() const { return chainBreaks.empty() && !moreChainBreaks; }
};

/// Where a backup or a restore is, for a progress bar.
struct BackupProgress
{
    std::string phase; ///< "snapshot", "dump", "restore", "verify", ...
    long long bytes = 0; ///< archive bytes written or read so far
    long long expectedBytes = 0; ///< 0 when unknown (the database's size is a guide, not a promise)
};

struct BackupOptions
{
    std::function<void(const BackupProgress &)> onProgress;
    /// Checked while working: set, the backup stops with BackupCanceled and leaves no file.
    const std::atomic<bool> *cancel = nullptr;
};

class BackupCanceled : public std::runtime_error
{
public:
    BackupCanceled() : std::runtime_error("backup or restore canceled") { }
};

/// pg_dump or pg_restore failed (or could not be run): what() carries its own words, without
/// any password.
class BackupToolFailed : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct BackupResult
{
    std::filesystem::path file;
    long long fileBytes = 0;
    /// SHA-256 (hex) of the whole file, read back once written: the digest to keep apart from
    /// it, which `db restore --digest` and the desk's restore compare (the manifest checks the
    /// file against itself only).
    std::string fileSha256;
    BackupManifest manifest;
    /// Whether the backup log (public.database_backups) has its row. A backup whose row could
    /// not be written (a role that may not write the log, a database older than migration
    /// 0036) is still complete and sound: notRecorded says why the desk will not show it.
    bool recorded = false;
    std::string notRecorded;
};

/// `<embedded data directory>/backups` (EmbeddedCluster::defaultRoot()).
std::filesystem::path defaultBackupDirectory();
/// "renewal-desk-YYYYMMDD-HHMMSS.backup" for the current UTC time.
std::string defaultBackupFileName();

/// Writes a consistent backup of the database `conninfo` names to `to` (default:
/// defaultBackupDirectory() / defaultBackupFileName(); an existing directory, or a path ending
/// in '/', gets defaultBackupFileName() inside it; such a directory that does not exist is made,
/// mode 0700, when its parent is a directory, and otherwise refused naming the part of the path
/// that is missing): the dump, the anchor, the counts and the chains' verification all from one
/// snapshot. Chains that do not verify do not stop it: the manifest records their breaks
/// (BackupManifest::chainBreaks), and the caller says so. Written to a temporary name and renamed
/// when complete; never replaces a file (InputError). Records the backup in the database's backup
/// log (migration 0036) after it is complete (BackupResult::recorded). Throws BackupCanceled,
/// BackupToolFailed (pg_dump's words), SetupError (not a Renewal Desk database),
/// DatabaseUnavailable.
BackupResult backupDatabase(const std::string &conninfo,
    const std::optional<std::filesystem::path> &to, const BackupOptions &options = {});

/// Reads a backup file's manifest and checks the file's form and the dump's digest; throws
/// InputError naming what is wrong with the file. `fileSha256`, when given, receives the
/// SHA-256 of the whole file.
BackupManifest readBackupManifest(
    const std::filesystem::path &file, std::string *fileSha256 = nullptr);

struct RestoreOptions
{
    /// Restore over a database that already holds Renewal Desk data (its schema is dropped).
    bool force = false;
    /// The file's SHA-256 published when the backup was taken (BackupResult::fileSha256: the
    /// backup log's file_sha256, the one `db backup` printed), lower-case hex: any other file
    /// is refused (InputError) before the target is touched, and so is the anchor's digest
    /// given instead (it covers the audit heads, not the file). The manifest checks the file
    /// against itself; only a digest kept elsewhere tells a re-forged file.
    std::optional<std::string> expectedFileSha256;
    std::function<void(const BackupProgress &)> onProgress;
    const std::atomic<bool> *cancel = nullptr;
};

/// One table whose restored count is not the manifest's.
struct CountDifference
{
    std::string table;
    long long expected = 0;
    long long found = 0;
};

/// One rule of schema public (a privilege, a function's or view's definition, a column, a
/// constraint, an index, a trigger, ...) where the restored database and this program's
/// migrations disagree.
struct SchemaRuleDifference
{
    std::string rule; ///< "privileges of function rd_x(text)", "column webhook_inbox.raw_body"
    std::string restored; ///< as restored (one line, cut); "" when the restored database lacks it
    std::string expected; ///< as the migrations make it; "" when they make no such rule
};

/// The restored schema's rules against the migrations' (#39, item 3: a re-forged dump carried
/// a GRANT of raw bodies to the viewer role, and the counts, anchor and chains could not see
/// it). Compared in a scratch database the restoring login makes and drops on the target's
/// server; a login without CREATEDB is told so (compared false, notCompared the reason).
struct SchemaRulesCheck
{
    bool compared = false;
    /// Why not, for people (the login's name in it); noCreateDb is the one reason there is.
    std::string notCompared;
    bool noCreateDb = false;
    long long rules = 0; ///< how many rules the migrations make
    std::vector<SchemaRuleDifference> differences;
};

/// One difference in words: "privileges of function rd_x(text): restored '...', the
/// migrations make '...'" (or "only in the restored database", "missing from it").
std::string describeSchemaRuleDifference(const SchemaRuleDifference &d);

struct RestoreReport
{
    BackupManifest manifest;
    std::string fileSha256; ///< of the whole file restored
    /// The target held data and options.force replaced it.
    bool replaced = false;
    /// Group roles the restore created on the target's server (they were missing).
    std::vector<std::string> rolesCreated;
    /// Migrations applied after the restore verified (a backup of an older schema); none when
    /// it did not verify (the restored copy is left as the backup had it, for inspection).
    std::vector<std::string> migrationsApplied;
    std::map<std::string, long long> counts; ///< what the restored database holds
    std::vector<CountDifference> countDifferences;
    AuditAnchorCheck anchor; ///< the manifest's anchor checked against the restored database
    AuditVerification verification; ///< every chain of the restored database
    /// The restored chains' breaks against the manifest's (#42, item 6): breaks found that the
    /// backup did not record, and recorded ones not found as recorded (the same chain, row,
    /// position, problem and hashes). Both empty: the chains are exactly the backup's.
    std::vector<ChainBreak> unrecordedBreaks;
    std::vector<ChainBreak> recordedBreaksNotFound;
    /// Compared once the rest verified and the copy was migrated to this program's schema
    /// (so both sides are the same migrations'); a difference makes the restore unverified.
    SchemaRulesCheck rules;
    bool chainsAsRecorded() const
    {
        return unrecordedBreaks.empty() && recordedBreaksNotFound.empty()
            && verification.moreBreaks == manifest.moreChainBreaks;
    }
    bool verified() const
    {
        return countDifferences.empty() && anchor.matches() && chainsAsRecorded()
            && rules.differences.empty();
    }
    /// Verified, with chains that were already broken when the backup was taken (exactly as
    /// its manifest records): a restore to accept, and to say loudly.
    bool brokenAsRecorded() const { return verified() && !verification.intact(); }
};

/// Restores `file` into the database `targetConninfo` names, which must hold nothing in schema
/// public unless options.force; then verifies it against the manifest (counts, anchor, chains:
/// of a backup taken with broken chains, exactly the breaks its manifest records, see
/// RestoreReport::brokenAsRecorded) and, when it verifies, migrates it to this program's
/// schema and compares its rules (privileges, definitions, constraints) with the migrations'
/// (RestoreReport::rules). Throws
/// InputError for a file that is not a sound backup (checked before the target is touched),
/// TargetNotEmpty (nothing changed), SetupError for a backup newer than this program, RolesMissing
/// when the group roles are missing and the login may not create them, BackupToolFailed
/// (pg_restore's words; its single transaction left the target as it was, or empty after a force),
/// BackupCanceled. A restore that does not verify is returned, not thrown: see
/// RestoreReport::verified().
RestoreReport restoreDatabase(const std::filesystem::path &file, const std::string &targetConninfo,
    const RestoreOptions &options = {});
/// As above, with the target opened by `openTarget` (its connection string) only once the file
/// has been read whole and found sound, of a schema this program restores, with the digest
/// asked for: a damaged file never makes a target (#39, item 8: `db restore --data-dir` had
/// initialised and started a cluster before refusing one, and left it running).
RestoreReport restoreDatabase(const std::filesystem::path &file,
    const std::function<std::string()> &openTarget, const RestoreOptions &options = {});

} // namespace rd
