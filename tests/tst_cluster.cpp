#include "domain/core/errors.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/prepared_database.h"

#include <pqxx/pqxx>

#include <QtTest>

#include <csignal>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

/// The embedded cluster's life cycle, on a cluster of its own in a temporary directory.
class TestCluster : public QObject
{
    Q_OBJECT

private:
    fs::path m_root;

    long postmasterPid() const
    {
        std::ifstream in(m_root / "data" / "postmaster.pid");
        long pid = 0;
        in >> pid;
        return pid;
    }

    static int selectOne(const std::string &conninfo)
    {
        pqxx::connection conn(conninfo);
        pqxx::nontransaction tx(conn);
        return tx.exec1("SELECT 1")[0].as<int>();
    }

private slots:
    void initTestCase()
    {
        char tmpl[] = "/tmp/rd-cluster-XXXXXX";
        QVERIFY(mkdtemp(tmpl));
        m_root = tmpl;
    }

    void cleanupTestCase()
    {
        rd::EmbeddedCluster(m_root).stop();
        std::error_code ec;
        fs::remove_all(m_root, ec);
    }

    void startsOnASocketOnly()
    {
        rd::EmbeddedCluster cluster(m_root);
        QCOMPARE(cluster.state(), rd::EmbeddedCluster::State::NotInitialized);
        cluster.start();
        QCOMPARE(cluster.state(), rd::EmbeddedCluster::State::Running);
        QCOMPARE(selectOne(cluster.connectionString()), 1);

        pqxx::connection conn(cluster.connectionString());
        pqxx::nontransaction tx(conn);
        QCOMPARE(tx.exec1("SHOW listen_addresses")[0].as<std::string>(), std::string());
        QVERIFY(fs::exists(cluster.socketDir() / ".s.PGSQL.5432"));
        if (geteuid() == 0) {
            // PostgreSQL refuses root: the server must run as an unprivileged account.
            QVERIFY(cluster.serverAccount());
            struct stat st
            {
            };
            QCOMPARE(::stat(cluster.dataDir().c_str(), &st), 0);
            QVERIFY(st.st_uid != 0);
        }
    }

    void secondStartIsANoOp()
    {
        rd::EmbeddedCluster cluster(m_root);
        const long pid = postmasterPid();
        QVERIFY(pid > 0);
        cluster.start();
        QCOMPARE(postmasterPid(), pid);
    }

    void recoversFromACrash()
    {
        rd::EmbeddedCluster cluster(m_root);
        const long pid = postmasterPid();
        QVERIFY(pid > 0);
        // A crash: the postmaster dies without cleaning up its pid file.
        QCOMPARE(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
        for (int i = 0; i < 100 && ::kill(static_cast<pid_t>(pid), 0) == 0; ++i)
            QTest::qWait(50);
        QVERIFY(fs::exists(cluster.dataDir() / "postmaster.pid"));
        QCOMPARE(cluster.state(), rd::EmbeddedCluster::State::Stopped);
        cluster.start();
        QCOMPARE(cluster.state(), rd::EmbeddedCluster::State::Running);
        QVERIFY(postmasterPid() != pid);
        QCOMPARE(selectOne(cluster.connectionString()), 1);
    }

    void stalePidFileOfAnotherProcess()
    {
        rd::EmbeddedCluster cluster(m_root);
        cluster.stop();
        QCOMPARE(cluster.state(), rd::EmbeddedCluster::State::Stopped);
        // A pid file naming a live process that is not postgres (ours), as after a reboot.
        {
            std::ofstream pidFile(cluster.dataDir() / "postmaster.pid");
            pidFile << getpid() << "\n" << cluster.dataDir().string() << "\n";
        }
        QCOMPARE(cluster.state(), rd::EmbeddedCluster::State::Stopped);
        cluster.start();
        QCOMPARE(cluster.state(), rd::EmbeddedCluster::State::Running);
    }

    void stopTwiceIsANoOp()
    {
        rd::EmbeddedCluster cluster(m_root);
        cluster.stop();
        QCOMPARE(cluster.state(), rd::EmbeddedCluster::State::Stopped);
        cluster.stop();
        QCOMPARE(cluster.state(), rd::EmbeddedCluster::State::Stopped);
    }

    void unreachableDirectoryIsAClearError()
    {
        if (geteuid() != 0)
            QSKIP("only root can make a directory the server account cannot traverse");
        char tmpl[] = "/tmp/rd-private-XXXXXX";
        QVERIFY(mkdtemp(tmpl)); // mode 0700, owned by root
        const fs::path root = fs::path(tmpl) / "cluster";
        try {
            rd::EmbeddedCluster(root).start();
            QFAIL("expected DatabaseUnavailable");
        } catch (const rd::DatabaseUnavailable &e) {
            QVERIFY2(std::string(e.what()).find("cannot reach") != std::string::npos, e.what());
        }
        std::error_code ec;
        fs::remove_all(tmpl, ec);
    }

    // #42, item 11: the desk's first run on the embedded database (prepareDatabase with no
    // conninfo) makes the person's login, an owning operator, and opens the database as them,
    // not as postgres; a name that records no person is refused with what to do instead.
    void theDeskOpensTheEmbeddedDatabaseAsItsPerson()
    {
        char tmpl[] = "/tmp/rd-person-XXXXXX";
        QVERIFY(mkdtemp(tmpl));
        const fs::path root = tmpl;
        qputenv("RENEWAL_DESK_DATA_DIR", tmpl);
        qputenv("RENEWAL_DESK_PERSON", "erin");
        const auto prepared = rd::prepareDatabase("");
        QVERIFY(prepared.embedded);
        QVERIFY2(
            prepared.conninfo.find("user='erin'") != std::string::npos, prepared.conninfo.c_str());
        {
            pqxx::connection conn(prepared.conninfo);
            pqxx::nontransaction tx(conn);
            const auto me = tx.exec1("SELECT session_user::text, "
                                     "pg_has_role('renewal_operator', 'MEMBER'), "
                                     "has_table_privilege('database_backups', 'INSERT')");
            QCOMPARE(me[0].as<std::string>(), std::string("erin"));
            QVERIFY(me[1].as<bool>());
            QVERIFY(me[2].as<bool>()); // backups record themselves as the person
        }
        // Again: the login is there already, nothing changes.
        QCOMPARE(rd::prepareDatabase("").conninfo, prepared.conninfo);

        qputenv("RENEWAL_DESK_PERSON", "renewal_viewer");
        try {
            rd::prepareDatabase("");
            QFAIL("a group role's name was taken for a person");
        } catch (const rd::SetupError &e) {
            QVERIFY2(
                std::string(e.what()).find("RENEWAL_DESK_PERSON") != std::string::npos, e.what());
        }
        qunsetenv("RENEWAL_DESK_PERSON");
        qunsetenv("RENEWAL_DESK_DATA_DIR");
        rd::EmbeddedCluster(root).stop();
        std::error_code ec;
        fs::remove_all(root, ec);
    }
};

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
