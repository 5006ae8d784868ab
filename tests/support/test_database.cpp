#include "tests/support/test_database.h"

#include "domain/store/case_actions.h"
#include "domain/store/database_target.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/migrator.h"
#include "domain/store/roles.h"
#include "domain/store/subscription_import.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <unistd.h>

namespace rdtest {
namespace {

std::string clusterDir()
{
    if (const char *dir = std::getenv("RD_TEST_CLUSTER_DIR"); dir && *dir)
        return dir;
    return "/tmp/rd-test-standalone-" + std::to_string(getuid());
}

} // namespace

std::string clusterConninfo(const std::string &database)
{
    static std::once_flag started;
    rd::EmbeddedCluster cluster(clusterDir());
    // Idempotent: under ctest the fixture already started it; a test run alone starts it.
    std::call_once(started, [&] { cluster.start(); });
    return cluster.connectionString(database);
}

TestDatabase::TestDatabase(const std::string &hint, bool migrated, const std::string &collation)
{
    static std::atomic<int> counter {0};
    m_name = "t_" + hint + "_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
    for (char &c : m_name) {
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    {
        pqxx::connection admin(clusterConninfo());
        pqxx::nontransaction tx(admin);
        tx.exec0("DROP DATABASE IF EXISTS " + tx.quote_name(m_name));
        tx.exec0("CREATE DATABASE " + tx.quote_name(m_name) + " TEMPLATE template0"
            + (collation.empty()
                    ? std::string()
                    : " LC_COLLATE " + tx.quote(collation) + " LC_CTYPE " + tx.quote(collation)));
    }
    m_conninfo = clusterConninfo(m_name);
    if (migrated) {
        pqxx::connection conn(m_conninfo);
        rd::migrate(conn, rd::loadMigrations(rd::defaultMigrationsDir()),
            rd::loadRepeatables(rd::defaultMigrationsDir()));
    }
}

TestDatabase::~TestDatabase()
{
    try {
        pqxx::connection admin(clusterConninfo());
        pqxx::nontransaction tx(admin);
        tx.exec0("DROP DATABASE IF EXISTS " + tx.quote_name(m_name) + " WITH (FORCE)");
    } catch (...) {
        // Leave it: the next run's fresh names never collide with it.
    }
}

std::unique_ptr<pqxx::connection> TestDatabase::connect() const
{
    return std::make_unique<pqxx::connection>(m_conninfo);
}

std::string renewalctlPath()
{
    return RD_RENEWALCTL_PATH;
}

std::string subscriptionLine(const std::string &providerKey, const std::string &subscriptionId,
    const std::string &status, const std::string &periodStart, const std::string &periodEnd,
    bool cancelAtPeriodEnd)
{
    return nlohmann::json {{"providerKey", providerKey}, {"providerSubscriptionId", subscriptionId},
        {"status", status}, {"currentPeriod", {{"start", periodStart}, {"end", periodEnd}}},
        {"cancelAtPeriodEnd", cancelAtPeriodEnd}, {"providerVersion", nullptr}}
        .dump();
}

void importSubscriptions(const std::string &conninfo, const std::string &jsonLines)
{
    pqxx::connection conn(conninfo);
    std::istringstream in(jsonLines);
    rd::importSubscriptions(conn, in, "test");
}

long long scalar(pqxx::connection &conn, const std::string &sql)
{
    pqxx::nontransaction tx(conn);
    return tx.exec1(sql)[0].as<long long>();
}

long long scalar(const TestDatabase &db, const std::string &sql)
{
    return scalar(*db.connect(), sql);
}

std::string text(const TestDatabase &db, const std::string &sql)
{
    auto conn = db.connect();
    pqxx::nontransaction tx(*conn);
    const auto f = tx.exec1(sql)[0];
    return f.is_null() ? std::string("<null>") : f.as<std::string>();
}

std::string loginAs(const TestDatabase &db, const std::string &who, const std::string &kind)
{
    const std::string login = db.name() + "_" + who;
    auto admin = db.connect();
    rd::grantRole(*admin, login, kind);
    return db.conninfo() + " user=" + login;
}

} // namespace rdtest
