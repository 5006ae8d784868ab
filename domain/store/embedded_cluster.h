#pragma once

#include "domain/store/process.h"

#include <filesystem>
#include <optional>
#include <string>

namespace rd {

/// A private PostgreSQL cluster managed by Renewal Desk, created with the Debian `postgresql`
/// binaries. It listens on a Unix socket in its own directory and on no TCP port.
///
/// Layout under `root`: `data/` (PGDATA), `socket/` (the socket directory), `server.log`, and
/// `lock` (serializes start/stop between processes, e.g. the desk and renewalctl).
///
/// PostgreSQL refuses to run as root. When the caller is root, the server runs as an
/// unprivileged account (`postgres` when Debian's package created it, else `nobody`), which
/// then owns `data/` and `socket/`; root can still connect through the socket.
class EmbeddedCluster
{
public:
    enum class State { NotInitialized, Stopped, Running };

    /// `root` relative to the working directory is made absolute here (root() is absolute).
    explicit EmbeddedCluster(std::filesystem::path root);

    /// `$RENEWAL_DESK_DATA_DIR`, else `/var/lib/renewal-desk` for root (an account-owned
    /// service directory the server account can traverse, unlike /root), else
    /// `$XDG_DATA_HOME/renewal-desk` (default `~/.local/share/renewal-desk`).
    static std::filesystem::path defaultRoot();

    const std::filesystem::path &root() const { return m_root; }
    std::filesystem::path dataDir() const { return m_root / "data"; }
    std::filesystem::path socketDir() const { return m_root / "socket"; }
    std::filesystem::path logFile() const { return m_root / "server.log"; }

    State state() const;
    /// Creates the cluster if needed and starts it; a no-op when it already runs. Recovers a
    /// stale pid file left by a crash. Creates database `renewal_desk`. Throws
    /// DatabaseUnavailable with the server log's tail when the server cannot start.
    void start();
    /// Stops the server (fast shutdown); a no-op when it is not running.
    void stop();

    /// libpq key/value connection string for `database` over the socket.
    std::string connectionString(const std::string &database = "renewal_desk") const;

    /// The account the server runs as (std::nullopt: the calling user).
    const std::optional<RunAs> &serverAccount() const { return m_account; }

private:
    void initialize();
    void removeStalePidFile() const;
    std::string binary(const char *name) const;
    ProcessResult runAsServer(const std::vector<std::string> &argv) const;

    std::filesystem::path m_root;
    std::filesystem::path m_binDir;
    std::optional<RunAs> m_account;
};

/// Directory of the PostgreSQL server binaries: `$RENEWAL_DESK_PG_BINDIR`, else the newest
/// `/usr/lib/postgresql/<major>/bin` (Debian keeps initdb and pg_ctl off PATH), else the
/// directory of `pg_ctl` on PATH. Throws DatabaseUnavailable when none is installed.
std::filesystem::path findPostgresBinDir();

} // namespace rd
