#include "domain/core/errors.h"
#include "domain/store/embedded_cluster.h"

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
};

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
