#pragma once

#include "domain/store/database_backup.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rd {

/// Where the embedded database went: `<data dir>/moved-to.json`, written by `renewalctl db
/// move` once the copy on the server verified. While it is there, resolveDatabase() picks the
/// server where it would have picked the embedded cluster, so the desk (with no saved
/// connection) and renewalctl (without --db or PG*) both use the server. Deleting it (`db move
/// --undo`) makes the embedded cluster the default again. It never holds a password.
struct MovedTo
{
    std::string conninfo; ///< the server's connection string, without a password
    std::string server; ///< for people: "host=db.example port=5432 dbname=renewal_desk user=fin"
    std::string movedAt; ///< RFC 3339, UTC
    std::string backupFile; ///< the backup of the embedded database the server was restored from
    std::string schemaVersion;
};

/// `<data dir>/moved-to.json`.
std::filesystem::path movedToMarker(const std::filesystem::path &dataDir);
/// The marker of `dataDir`, std::nullopt when there is none. A marker that cannot be read is a
/// DatabaseUnavailable naming the file: falling back to the embedded copy, which no longer
/// receives the writes, would be worse than stopping.
std::optional<MovedTo> readMovedTo(const std::filesystem::path &dataDir);

/// `conninfo` (key=value or URI) as key=value pairs without its password. Throws InputError
/// with a fixed text (never libpq's, which may quote the password) when libpq cannot read it.
std::string conninfoWithoutPassword(const std::string &conninfo);

/// A move that was refused before anything was switched: the embedded database not there or
/// in use, the target not empty, roles missing that the login may not create.
class MoveRefused : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct MoveOptions
{
    std::filesystem::path dataDir; ///< the embedded cluster's directory
    std::string target; ///< the server's conninfo; its password is used, never kept or shown
    /// One line per step, for people ("backing up the embedded database", ...).
    std::function<void(const std::string &)> onStep;
    std::function<void(const BackupProgress &)> onProgress;
    const std::atomic<bool> *cancel = nullptr;
};

struct MoveReport
{
    std::string server; ///< the target, for people (no password)
    std::filesystem::path backupFile; ///< kept in `<data dir>/backups`
    long long backupBytes = 0;
    RestoreReport restore;
    /// Group roles and grants between them the move created on the server.
    std::vector<std::string> rolesCreated;
    /// Group roles or grants still missing on the server after the restore.
    std::vector<std::string> roleProblems;
    /// The embedded database's audit heads changed between the backup and the end of the
    /// restore: something wrote to it during the move, and the copy would lose that.
    bool embeddedChanged = false;
    /// The marker was written: the desk and renewalctl now use the server.
    bool switched = false;
    std::optional<MovedTo> movedTo;
    /// The saved connection (no password) connects now: the password is in ~/.pgpass or
    /// PGPASSWORD, or the server needs none. When false, the desk will not connect until it is.
    bool savedConnectionConnects = false;
    std::string savedConnectionError;
    /// Intact chains too: a restore accepts a backup's chains broken as it recorded them (#42,
    /// item 6), but a move switches the desk only to a copy whose chains hold.
    bool verified() const
    {
        return restore.verified() && restore.verification.intact() && roleProblems.empty()
            && !embeddedChanged;
    }
};

/// Moves the embedded database of `options.dataDir` to the server `options.target` names:
/// preflight (throws MoveRefused, or DatabaseUnavailable when the server cannot be reached),
/// backup to `<data dir>/backups`, group roles, restore, verification, and the marker once
/// everything verified. A copy that does not verify returns a report with switched == false.
/// The embedded cluster is left as it was (running or stopped) and its data untouched.
MoveReport moveDatabase(const MoveOptions &options);

/// Deletes the marker: both programs use the embedded cluster again (its data as of the move).
/// Returns what the marker said; std::nullopt when there was none.
std::optional<MovedTo> undoMove(const std::filesystem::path &dataDir);

} // namespace rd
