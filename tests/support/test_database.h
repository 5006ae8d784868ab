#pragma once

#include <pqxx/connection>

#include <memory>
#include <string>

namespace rdtest {

/// The PostgreSQL server this test run uses: the cluster started by the ctest fixture
/// (RD_TEST_CLUSTER_DIR), or, when a test binary runs on its own, a cluster it starts itself
/// in a temporary directory. Never a mock, never skipped.
std::string clusterConninfo(const std::string &database = "postgres");

/// A fresh database for one test, migrated to the current schema, dropped afterwards.
class TestDatabase
{
public:
    /// `collation`, when given, is the new database's LC_COLLATE and LC_CTYPE ("C.UTF-8": what
    /// a packaged or managed server usually has); else the cluster's (C).
    explicit TestDatabase(
        const std::string &hint, bool migrated = true, const std::string &collation = {});
    ~TestDatabase();
    TestDatabase(const TestDatabase &) = delete;
    TestDatabase &operator=(const TestDatabase &) = delete;

    const std::string &name() const { return m_name; }
    const std::string &conninfo() const { return m_conninfo; }
    std::unique_ptr<pqxx::connection> connect() const;

private:
    std::string m_name;
    std::string m_conninfo;
};

/// The single integer `sql` selects (a count, usually), outside any transaction.
long long scalar(pqxx::connection &conn, const std::string &sql);
long long scalar(const TestDatabase &db, const std::string &sql);
/// The single value `sql` selects, as text ("<null>" for NULL), outside any transaction.
std::string text(const TestDatabase &db, const std::string &sql);

/// The conninfo of a login role of `db`'s own (roles are cluster-wide: named after the
/// database) that is a member of renewal_<kind> (viewer, operator, ingest).
std::string loginAs(const TestDatabase &db, const std::string &who, const std::string &kind);

/// Path of the renewalctl executable under test.
std::string renewalctlPath();

/// A subscription import line with sensible defaults.
std::string subscriptionLine(const std::string &providerKey, const std::string &subscriptionId,
    const std::string &status = "active", const std::string &periodStart = "2026-01-01T00:00:00Z",
    const std::string &periodEnd = "2026-02-01T00:00:00Z", bool cancelAtPeriodEnd = false);

/// Imports the given JSON lines into `conninfo`'s database.
void importSubscriptions(const std::string &conninfo, const std::string &jsonLines);

} // namespace rdtest
