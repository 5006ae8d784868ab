#include "tests/support/password_cluster.h"

#include "domain/store/embedded_cluster.h"
#include "domain/store/process.h"

#include <pqxx/pqxx>

#include <fstream>
#include <optional>
#include <stdexcept>
#include <unistd.h>

namespace fs = std::filesystem;

namespace rdtest {
namespace {

std::optional<rd::RunAs> serverAccount()
{
    if (::geteuid() != 0)
        return std::nullopt;
    // PostgreSQL refuses root: as EmbeddedCluster does, run it as postgres (or nobody).
    if (auto account = rd::lookupAccount("postgres"))
        return account;
    return rd::lookupAccount("nobody");
}

void giveTo(const fs::path &p, const std::optional<rd::RunAs> &account)
{
    if (account && ::chown(p.c_str(), account->uid, account->gid) != 0)
        throw std::runtime_error("cannot chown " + p.string());
}

void run(const std::vector<std::string> &argv, const std::optional<rd::RunAs> &account)
{
    const auto r = rd::runProcess(argv, account);
    if (r.exitCode != 0)
        throw std::runtime_error(argv.front() + " failed: " + r.output);
}

} // namespace

PasswordCluster::PasswordCluster(std::string superuser, std::string superuserPassword)
    : m_superuser(std::move(superuser)), m_password(std::move(superuserPassword))
{
    char tmpl[] = "/tmp/rd-pwcluster-XXXXXX";
    if (!::mkdtemp(tmpl))
        throw std::runtime_error("cannot create a temporary directory");
    m_root = tmpl;
    const auto account = serverAccount();
    const auto bin = rd::findPostgresBinDir();
    fs::permissions(m_root, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec,
        fs::perm_options::replace);
    const auto data = m_root / "data";
    fs::create_directories(data);
    fs::permissions(data, fs::perms::owner_all, fs::perm_options::replace);
    giveTo(data, account);
    // Any local account may reach the socket, as on a server: the password is what guards it.
    fs::create_directories(socketDir());
    fs::permissions(socketDir(), fs::perms::all, fs::perm_options::replace);
    const auto log = m_root / "server.log";
    std::ofstream(log).flush();
    giveTo(log, account);

    const auto pwfile = m_root / "pwfile";
    {
        std::ofstream out(pwfile);
        out << m_password << "\n";
    }
    fs::permissions(
        pwfile, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
    giveTo(pwfile, account);
    run({(bin / "initdb").string(), "--pgdata=" + data.string(), "--username=" + m_superuser,
            "--pwfile=" + pwfile.string(), "--auth=scram-sha-256", "--encoding=UTF8", "--locale=C",
            "--no-instructions"},
        account);
    fs::remove(pwfile);
    {
        // Passwords only: no trust, no peer, for any database, user or socket.
        std::ofstream hba(data / "pg_hba.conf", std::ios::trunc);
        hba << "# Renewal Desk tests: a server that asks every connection for its password\n"
            << "local all all scram-sha-256\n";
        std::ofstream conf(data / "postgresql.conf", std::ios::app);
        conf << "\nlisten_addresses = ''\n"
             << "unix_socket_directories = '" << socketDir().string() << "'\n"
             << "unix_socket_permissions = 0777\n"
             << "password_encryption = 'scram-sha-256'\n"
             << "max_connections = 40\n";
    }
    run({(bin / "pg_ctl").string(), "--pgdata=" + data.string(), "--log=" + log.string(), "--wait",
            "--timeout=60", "--silent", "start"},
        account);
}

PasswordCluster::~PasswordCluster()
{
    try {
        run({(rd::findPostgresBinDir() / "pg_ctl").string(),
                "--pgdata=" + (m_root / "data").string(), "--wait", "--timeout=60", "--silent",
                "--mode=fast", "stop"},
            serverAccount());
    } catch (...) {
        // Left running in /tmp: the directory name says what it is.
        return;
    }
    std::error_code ec;
    fs::remove_all(m_root, ec);
}

std::string PasswordCluster::conninfo(
    const std::string &database, const std::string &user, const std::string &password) const
{
    std::string s
        = "host=" + socketDir().string() + " port=5432 dbname=" + database + " user=" + user;
    if (!password.empty())
        s += " password=" + password;
    return s;
}

std::string PasswordCluster::adminConninfo(const std::string &database) const
{
    return conninfo(database, m_superuser, m_password);
}

void PasswordCluster::exec(const std::string &sql, const std::string &database) const
{
    pqxx::connection conn(adminConninfo(database));
    pqxx::nontransaction tx(conn);
    tx.exec0(sql);
}

long long PasswordCluster::scalar(const std::string &sql, const std::string &database) const
{
    pqxx::connection conn(adminConninfo(database));
    pqxx::nontransaction tx(conn);
    return tx.exec1(sql)[0].as<long long>();
}

} // namespace rdtest
