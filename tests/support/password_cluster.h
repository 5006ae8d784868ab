#pragma once

#include <filesystem>
#include <string>

namespace rdtest {

/// A second PostgreSQL cluster, as a real server is set up: every connection authenticates
/// with a password (pg_hba.conf: `local all all scram-sha-256`, no trust, no peer), its
/// superuser's password set at initdb with --pwfile. It listens on a Unix socket in a
/// temporary directory of its own, on no TCP port. Started by the constructor, stopped and
/// removed by the destructor. As root the server runs as `postgres` (or `nobody`), as
/// EmbeddedCluster's does.
class PasswordCluster
{
public:
    explicit PasswordCluster(
        std::string superuser = "rd_admin", std::string superuserPassword = "admin-Secret-7f3a");
    ~PasswordCluster();
    PasswordCluster(const PasswordCluster &) = delete;
    PasswordCluster &operator=(const PasswordCluster &) = delete;

    const std::filesystem::path &root() const { return m_root; }
    std::filesystem::path socketDir() const { return m_root / "socket"; }
    const std::string &superuser() const { return m_superuser; }

    const std::string &superuserPassword() const { return m_password; }

    /// host=<socket dir> port=5432 dbname=`database` user=`user`, and password=`password`
    /// unless it is empty (then libpq looks in PGPASSWORD or PGPASSFILE).
    std::string conninfo(const std::string &database, const std::string &user,
        const std::string &password = {}) const;
    /// `database` as the superuser, with its password.
    std::string adminConninfo(const std::string &database = "postgres") const;

    /// Runs SQL as the superuser in `database`, outside a transaction.
    void exec(const std::string &sql, const std::string &database = "postgres") const;
    /// The single integer `sql` selects, as the superuser.
    long long scalar(const std::string &sql, const std::string &database = "postgres") const;

private:
    std::filesystem::path m_root;
    std::string m_superuser;
    std::string m_password;
};

} // namespace rdtest
