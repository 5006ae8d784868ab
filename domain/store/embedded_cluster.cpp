#include "domain/store/embedded_cluster.h"

#include "domain/core/errors.h"
#include "domain/store/postgres_tools.h"

#include <pqxx/pqxx>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace rd {
namespace {

constexpr const char *kSuperuser = "postgres";
constexpr const char *kDatabase = "renewal_desk";

/// Holds an exclusive flock on a file for the lifetime of the object.
class FileLock
{
public:
    explicit FileLock(const fs::path &path)
    {
        m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (m_fd < 0)
            throw DatabaseUnavailable(
                "cannot open lock file " + path.string() + ": " + std::strerror(errno));
        while (::flock(m_fd, LOCK_EX) != 0) {
            if (errno != EINTR)
                throw DatabaseUnavailable(
                    "cannot lock " + path.string() + ": " + std::strerror(errno));
        }
    }
    ~FileLock() { ::close(m_fd); }
    FileLock(const FileLock &) = delete;
    FileLock &operator=(const FileLock &) = delete;

private:
    int m_fd = -1;
};

std::string tail(const fs::path &file, std::size_t maxLines = 15)
{
    std::ifstream in(file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    std::string out;
    for (std::size_t i = lines.size() > maxLines ? lines.size() - maxLines : 0; i < lines.size();
         ++i)
        out += "  " + lines[i] + "\n";
    return out;
}

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

void chownIfNeeded(const fs::path &p, const std::optional<RunAs> &account)
{
    if (account && ::chown(p.c_str(), account->uid, account->gid) != 0)
        throw DatabaseUnavailable("cannot give " + p.string() + " to account " + account->name
            + ": " + std::strerror(errno));
}

// The root as an absolute path: the socket directory in it is the connection's host, and libpq
// takes a host that does not start with '/' for a host name ("reltest/socket" is looked up in
// DNS), while the server resolves its own relative paths from data/ (#39, item 13).
fs::path absoluteRoot(fs::path root)
{
    std::error_code ec;
    auto absolute = fs::absolute(root, ec);
    return ec ? root : absolute.lexically_normal();
}

} // namespace

fs::path findPostgresBinDir()
{
    if (const char *env = std::getenv("RENEWAL_DESK_PG_BINDIR"); env && *env)
        return env;
    std::error_code ec;
    fs::path best;
    int bestMajor = -1;
    for (const auto &entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
        const auto name = entry.path().filename().string();
        char *end = nullptr;
        const long major = std::strtol(name.c_str(), &end, 10);
        if (end && *end == '\0' && major > bestMajor
            && fs::exists(entry.path() / "bin" / "pg_ctl", ec)) {
            bestMajor = static_cast<int>(major);
            best = entry.path() / "bin";
        }
    }
    if (!best.empty())
        return best;
    if (const char *path = std::getenv("PATH")) {
        std::stringstream ss(path);
        for (std::string dir; std::getline(ss, dir, ':');) {
            if (!dir.empty() && fs::exists(fs::path(dir) / "pg_ctl", ec)
                && fs::exists(fs::path(dir) / "initdb", ec))
                return dir;
        }
    }
    throw DatabaseUnavailable("no PostgreSQL server binaries found (install Debian's "
                              "'postgresql' package, or set RENEWAL_DESK_PG_BINDIR)");
}

EmbeddedCluster::EmbeddedCluster(fs::path root) : m_root(absoluteRoot(std::move(root)))
{
    if (::geteuid() == 0) {
        m_account = lookupAccount("postgres");
        if (!m_account)
            m_account = lookupAccount("nobody");
        if (!m_account)
            throw DatabaseUnavailable("running as root, but neither a 'postgres' nor a 'nobody' "
                                      "account exists to run the database server as");
    }
}

fs::path EmbeddedCluster::defaultRoot()
{
    if (const char *env = std::getenv("RENEWAL_DESK_DATA_DIR"); env && *env)
        return env;
    if (::geteuid() == 0)
        return "/var/lib/renewal-desk";
    if (const char *xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        return fs::path(xdg) / "renewal-desk";
    if (const char *home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".local" / "share" / "renewal-desk";
    throw DatabaseUnavailable("cannot find a data directory: set HOME, XDG_DATA_HOME or "
                              "RENEWAL_DESK_DATA_DIR");
}

std::string EmbeddedCluster::binary(const char *name) const
{
    return (m_binDir / name).string();
}

ProcessResult EmbeddedCluster::runAsServer(const std::vector<std::string> &argv) const
{
    return runProcess(argv, m_account);
}

EmbeddedCluster::State EmbeddedCluster::state() const
{
    std::error_code ec;
    if (!fs::exists(dataDir() / "PG_VERSION", ec))
        return State::NotInitialized;
    const auto pidFile = dataDir() / "postmaster.pid";
    std::ifstream in(pidFile);
    long pid = 0;
    if (!(in >> pid) || pid <= 0)
        return State::Stopped;
    // The pid may belong to an unrelated process after a crash and a reboot: only a live
    // postgres process counts as our server.
    std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    std::getline(comm, name);
    return name == "postgres" ? State::Running : State::Stopped;
}

void EmbeddedCluster::removeStalePidFile() const
{
    std::error_code ec;
    const auto pidFile = dataDir() / "postmaster.pid";
    if (fs::exists(pidFile, ec) && state() == State::Stopped)
        fs::remove(pidFile, ec);
}

void EmbeddedCluster::initialize()
{
    fs::create_directories(dataDir());
    fs::permissions(dataDir(), fs::perms::owner_all, fs::perm_options::replace);
    chownIfNeeded(dataDir(), m_account);
    if (m_account && !accountCanTraverse(*m_account, dataDir().string()))
        throw DatabaseUnavailable("the database server account '" + m_account->name
            + "' cannot reach " + dataDir().string()
            + " (a parent directory is private); choose a directory it "
              "can traverse, for example under /var/lib or /tmp");

    const auto r = runAsServer({binary("initdb"), "--pgdata=" + dataDir().string(),
        "--username=" + std::string(kSuperuser), "--auth=trust", "--encoding=UTF8", "--locale=C",
        "--no-instructions"});
    if (r.exitCode != 0)
        throw DatabaseUnavailable(
            "initdb failed for " + dataDir().string() + ":\n" + trimmed(r.output));

    // The socket directory is private to the cluster's owner (trust auth is safe only so).
    std::ofstream conf(dataDir() / "postgresql.conf", std::ios::app);
    conf << "\n# Renewal Desk embedded cluster: socket only, no TCP.\n"
         << "listen_addresses = ''\n"
         << "unix_socket_directories = '" << socketDir().string() << "'\n"
         << "unix_socket_permissions = 0700\n"
         << "max_connections = 100\n";
    if (!conf)
        throw DatabaseUnavailable("cannot write " + (dataDir() / "postgresql.conf").string());
}

void EmbeddedCluster::start()
{
    m_binDir = findPostgresBinDir();
    std::error_code ec;
    fs::create_directories(m_root, ec);
    if (ec)
        throw DatabaseUnavailable("cannot create " + m_root.string() + ": " + ec.message());
    if (m_account) {
        // The server account must be able to traverse the root to reach data/ and socket/.
        fs::permissions(m_root,
            fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec,
            fs::perm_options::replace, ec);
    }
    FileLock lock(m_root / "lock");

    if (state() == State::NotInitialized)
        initialize();
    if (state() == State::Running)
        return;
    removeStalePidFile();

    fs::create_directories(socketDir());
    fs::permissions(socketDir(), fs::perms::owner_all, fs::perm_options::replace);
    chownIfNeeded(socketDir(), m_account);
    if (!fs::exists(logFile(), ec))
        std::ofstream(logFile()).flush();
    chownIfNeeded(logFile(), m_account);

    const auto r = runAsServer({binary("pg_ctl"), "--pgdata=" + dataDir().string(),
        "--log=" + logFile().string(), "--wait", "--timeout=60", "--silent", "start"});
    if (r.exitCode != 0 || state() != State::Running)
        throw DatabaseUnavailable("the embedded PostgreSQL server in " + m_root.string()
            + " did not start:\n" + trimmed(r.output) + "\n" + tail(logFile()));

    // Create the application database on first start.
    for (int attempt = 0;; ++attempt) {
        try {
            pqxx::connection conn(connectionString("postgres"));
            pqxx::nontransaction tx(conn);
            if (tx.exec_params("SELECT 1 FROM pg_database WHERE datname = $1", kDatabase).empty())
                tx.exec0(std::string("CREATE DATABASE ") + kDatabase);
            break;
        } catch (const pqxx::broken_connection &) {
            // pg_ctl --wait returns once the server accepts connections, but a fresh cluster
            // can still report "starting up" for a moment.
            if (attempt >= 50)
                throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        } catch (const pqxx::sql_error &e) {
            // Another process created it between our check and CREATE DATABASE.
            if (std::string(e.sqlstate()) != "42P04")
                throw;
            break;
        }
    }
}

void EmbeddedCluster::stop()
{
    std::error_code ec;
    if (!fs::exists(m_root, ec))
        return;
    m_binDir = findPostgresBinDir();
    FileLock lock(m_root / "lock");
    if (state() != State::Running) {
        removeStalePidFile();
        return;
    }
    const auto r = runAsServer({binary("pg_ctl"), "--pgdata=" + dataDir().string(), "--wait",
        "--timeout=60", "--silent", "--mode=fast", "stop"});
    if (r.exitCode != 0)
        throw DatabaseUnavailable(
            "the embedded PostgreSQL server did not stop:\n" + trimmed(r.output));
}

std::string EmbeddedCluster::connectionString(const std::string &database) const
{
    // Key/value form; values quoted so that paths with spaces work.
    return "host=" + conninfoValue(socketDir().string())
        + " port=5432 dbname=" + conninfoValue(database) + " user=" + kSuperuser;
}

} // namespace rd
