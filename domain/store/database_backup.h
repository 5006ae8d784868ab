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
    /// SHA-256 (hex) and size of the pg_dump archive the file carries.
    std::string dumpSha256;
    long long dumpBytes = 0;
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

struct BackupResult
{
    std::filesystem::path file;
    long long fileBytes = 0;
    BackupManifest manifest;
};

/// `<embedded data directory>/backups`.
std::filesystem::path defaultBackupDirectory();
/// "renewal-desk-YYYYMMDD-HHMMSS.backup" for the current UTC time.
std::string defaultBackupFileName();

/// Writes a consistent backup of the database `conninfo` names to `to` (default:
/// defaultBackupDirectory() / defaultBackupFileName()): the dump, the anchor and the counts all
/// from one snapshot. Written to a temporary name and renamed when complete. Records the backup
/// in the database's backup log (migration 0036) after it is complete.
BackupResult backupDatabase(const std::string &conninfo,
    const std::optional<std::filesystem::path> &to, const BackupOptions &options = {});

/// Reads a backup file's manifest and checks the file's form and the dump's digest; throws
/// InputError naming what is wrong with the file.
BackupManifest readBackupManifest(const std::filesystem::path &file);

struct RestoreOptions
{
    /// Restore over a database that already holds Renewal Desk data (its schema is dropped).
    bool force = false;
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

struct RestoreReport
{
    BackupManifest manifest;
    std::map<std::string, long long> counts; ///< what the restored database holds
    std::vector<CountDifference> countDifferences;
    AuditAnchorCheck anchor; ///< the manifest's anchor checked against the restored database
    AuditVerification verification; ///< every chain of the restored database
    bool verified() const
    {
        return countDifferences.empty() && anchor.matches() && verification.intact();
    }
};

/// Restores `file` into the database `targetConninfo` names, which must hold no Renewal Desk
/// data unless options.force; then verifies it against the manifest (counts, anchor, chains).
/// Throws InputError for a file that is not a sound backup, and a typed error when the target
/// is not empty.
RestoreReport restoreDatabase(const std::filesystem::path &file, const std::string &targetConninfo,
    const RestoreOptions &options = {});

} // namespace rd
