#include "domain/core/errors.h"
#include "domain/store/migrator.h"
#include "tests/support/test_database.h"

#include <pqxx/pqxx>

#include <QtTest>

#include <chrono>
#include <fstream>
#include <future>
#include <latch>
#include <thread>

namespace fs = std::filesystem;

class TestMigrator : public QObject
{
    Q_OBJECT

private:
    static long long count(pqxx::connection &conn, const std::string &sql)
    {
        pqxx::nontransaction tx(conn);
        return tx.exec1(sql)[0].as<long long>();
    }

private slots:
    void appliesOnceThenNothing()
    {
        rdtest::TestDatabase db("migrate_twice", false);
        auto conn = db.connect();
        const auto files = rd::loadMigrations(rd::defaultMigrationsDir());
        QVERIFY(files.size() >= 2);
        const auto first = rd::migrate(*conn, files);
        QCOMPARE(first.applied.size(), files.size());
        const auto second = rd::migrate(*conn, files);
        QCOMPARE(second.applied.size(), std::size_t(0));
        QCOMPARE(second.alreadyApplied, static_cast<int>(files.size()));
        QCOMPARE(count(*conn, "SELECT count(*) FROM schema_migrations"),
            static_cast<long long>(files.size()));
    }

    void changedFileIsRefused()
    {
        rdtest::TestDatabase db("migrate_changed");
        auto conn = db.connect();
        auto files = rd::loadMigrations(rd::defaultMigrationsDir());
        files.front().sql += "\n-- edited after the fact\n";
        try {
            rd::migrate(*conn, files);
            QFAIL("expected SetupError");
        } catch (const rd::SetupError &e) {
            const std::string what = e.what();
            QVERIFY2(what.find(files.front().name) != std::string::npos, e.what());
            QVERIFY2(what.find("changed") != std::string::npos, e.what());
        }
    }

    void newerDatabaseIsRefused()
    {
        rdtest::TestDatabase db("migrate_newer");
        auto conn = db.connect();
        auto files = rd::loadMigrations(rd::defaultMigrationsDir());
        files.pop_back();
        QVERIFY_THROWS_EXCEPTION(rd::SetupError, rd::migrate(*conn, files));
    }

    void failingMigrationLeavesNoTrace()
    {
        rdtest::TestDatabase db("migrate_failing", false);
        auto conn = db.connect();
        std::vector<rd::MigrationFile> files {{1, "0001_ok.sql", "CREATE TABLE a (x int);"},
            {2, "0002_broken.sql", "CREATE TABLE b (x int); SELECT no_such_function();"}};
        QVERIFY_THROWS_EXCEPTION(rd::SetupError, rd::migrate(*conn, files));
        QCOMPARE(count(*conn, "SELECT count(*) FROM schema_migrations"), 1LL);
        // Each file is its own transaction: 0002's table is gone with it.
        QCOMPARE(count(*conn, "SELECT count(*) FROM pg_tables WHERE tablename = 'b'"), 0LL);
        QCOMPARE(count(*conn, "SELECT count(*) FROM pg_tables WHERE tablename = 'a'"), 1LL);
    }

    void concurrentRunsAreSerialized()
    {
        rdtest::TestDatabase db("migrate_concurrent", false);
        const auto files = rd::loadMigrations(rd::defaultMigrationsDir());
        constexpr int runners = 4;
        std::latch ready(runners);
        std::vector<std::thread> threads;
        std::vector<std::size_t> applied(runners, 0);
        std::vector<std::string> errors(runners);
        for (int i = 0; i < runners; ++i) {
            threads.emplace_back([&, i] {
                try {
                    auto conn = db.connect(); // a connection per runner
                    ready.arrive_and_wait();
                    applied[static_cast<std::size_t>(i)] = rd::migrate(*conn, files).applied.size();
                } catch (const std::exception &e) {
                    errors[static_cast<std::size_t>(i)] = e.what();
                }
            });
        }
        for (auto &t : threads)
            t.join();
        std::size_t total = 0;
        for (int i = 0; i < runners; ++i) {
            QVERIFY2(errors[static_cast<std::size_t>(i)].empty(),
                errors[static_cast<std::size_t>(i)].c_str());
            total += applied[static_cast<std::size_t>(i)];
        }
        // Every file applied exactly once across all runners.
        QCOMPARE(total, files.size());
    }

    // What serializes migrators must be out of a weak role's reach: a viewer that takes every
    // lock it can (the advisory lock earlier migrators used, the migrations table itself) and
    // keeps its transaction open does not hold the upgrade back.
    void aWeakRoleCannotStallMigrations()
    {
        rdtest::TestDatabase db("migrate_weak_role");
        auto files = rd::loadMigrations(rd::defaultMigrationsDir());
        {
            auto admin = db.connect();
            pqxx::nontransaction tx(*admin);
            tx.exec_params0(
                "DELETE FROM schema_migrations WHERE version = $1", files.back().version);
        }
        files.back().sql = "CREATE TABLE migrated_past_the_viewer (x int);";
        files.back().name = "9999_probe.sql";
        files.back().version = 9999;

        pqxx::connection viewer(rdtest::loginAs(db, "migrate_viewer", "viewer"));
        {
            pqxx::nontransaction tx(viewer);
            tx.exec("SELECT pg_advisory_lock(7342100001)"); // held by the session from now on
        }
        try {
            pqxx::work tx(viewer);
            tx.exec("LOCK TABLE schema_migrations IN SHARE ROW EXCLUSIVE MODE");
            QFAIL("a viewer could lock the migrations table");
        } catch (const pqxx::insufficient_privilege &) { }

        auto run = std::async(std::launch::async, [&] {
            auto conn = db.connect();
            return rd::migrate(*conn, files);
        });
        QVERIFY2(run.wait_for(std::chrono::seconds(30)) == std::future_status::ready,
            "migrate waited on a lock the viewer holds");
        const auto report = run.get();
        QCOMPARE(report.applied.size(), std::size_t(1));
        auto conn = db.connect();
        QCOMPARE(count(*conn, "SELECT count(*) FROM schema_migrations WHERE version = 9999"), 1LL);
    }

    void badFileNamesAreRefused()
    {
        char tmpl[] = "/tmp/rd-migrations-XXXXXX";
        QVERIFY(mkdtemp(tmpl));
        std::ofstream(fs::path(tmpl) / "schema.sql") << "SELECT 1;";
        QVERIFY_THROWS_EXCEPTION(rd::SetupError, rd::loadMigrations(tmpl));
        fs::remove(fs::path(tmpl) / "schema.sql");
        std::ofstream(fs::path(tmpl) / "0001_a.sql") << "SELECT 1;";
        std::ofstream(fs::path(tmpl) / "001_b.sql") << "SELECT 1;";
        QVERIFY_THROWS_EXCEPTION(rd::SetupError, rd::loadMigrations(tmpl));
        fs::remove_all(tmpl);
    }
};

QTEST_GUILESS_MAIN(TestMigrator)
#include "tst_migrator.moc"
