#include "domain/core/errors.h"
#include "domain/store/database_move.h"
#include "domain/store/database_target.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/postgres_tools.h"
#include "tests/support/password_cluster.h"
#include "tests/support/process_runner.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QtTest>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

using rdtest::ctl;
using rdtest::runProgram;

namespace {

// The login the moves use: no superuser, as on a managed server, but CREATEROLE (it creates
// the desk's group roles) and the owner of the databases it moves into.
const std::string kMover = "rd_mover";
const std::string kMoverPassword = "mover-Pw-5e1d9c";
const std::string kWrongPassword = "wrong-Pw-0b7a4e";

/// The tables whose rows a move must carry, counted the same way on both sides.
const char *const kTables[] = {"subscriptions", "subscription_billing_periods",
    "subscription_transition_audits", "subscription_outbox", "reconciliation_cases",
    "reconciliation_case_history", "webhook_inbox", "billing_providers"};

std::map<std::string, long long> countsOf(const std::string &conninfo)
{
    pqxx::connection conn(conninfo);
    pqxx::read_transaction tx(conn);
    std::map<std::string, long long> counts;
    for (const char *table : kTables)
        counts[table]
            = tx.exec1("SELECT count(*) FROM public." + tx.quote_name(table))[0].as<long long>();
    return counts;
}

std::string readFile(const fs::path &file)
{
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

QByteArray line(const nlohmann::json &j)
{
    return QByteArray::fromStdString(j.dump() + "\n");
}

} // namespace

/// `renewalctl db move`: the embedded database (demo data) copied to a second cluster that asks
/// every connection for a password, as a server does; verified, roles checked, and the desk's
/// and renewalctl's default switched to it by the data directory's marker.
class TestDbMove : public QObject
{
    Q_OBJECT

private:
    fs::path m_dataDir;
    fs::path m_passFile;
    std::unique_ptr<rdtest::PasswordCluster> m_server;

    /// renewalctl's environment: this data directory, no PG* server, passwords from our
    /// pgpass file only.
    QProcessEnvironment env(bool withPassFile = true) const
    {
        auto e = QProcessEnvironment::systemEnvironment();
        for (const char *var :
            {"PGHOST", "PGHOSTADDR", "PGDATABASE", "PGSERVICE", "PGPORT", "PGUSER", "PGPASSWORD"})
            e.remove(QString::fromLatin1(var));
        e.insert("RENEWAL_DESK_DATA_DIR", QString::fromStdString(m_dataDir.string()));
        e.insert("PGPASSFILE",
            QString::fromStdString(withPassFile ? m_passFile.string() : "/nonexistent"));
        return e;
    }

    rdtest::RunResult ctlRun(
        const QStringList &args, const QByteArray &input = {}, bool withPassFile = true) const
    {
        return runProgram(ctl(), args, input, env(withPassFile), 300000);
    }

    std::string embedded() const { return rd::EmbeddedCluster(m_dataDir).connectionString(); }

    /// A database on the server owned by the mover, empty.
    std::string serverDatabase(rdtest::PasswordCluster &server, const std::string &name) const
    {
        server.exec("CREATE DATABASE " + name + " OWNER " + kMover);
        return server.conninfo(name, kMover, kMoverPassword);
    }

    bool marked() const { return fs::exists(rd::movedToMarker(m_dataDir)); }

    std::size_t backups() const
    {
        std::error_code ec;
        std::size_t n = 0;
        for (auto it = fs::directory_iterator(m_dataDir / "backups", ec);
             !ec && it != fs::directory_iterator(); ++it)
            ++n;
        return n;
    }

private slots:
    void initTestCase()
    {
        char tmpl[] = "/tmp/rd-move-XXXXXX";
        QVERIFY(mkdtemp(tmpl));
        m_dataDir = tmpl;
        const auto demo = ctlRun({"demo", "--subscriptions", "12", "--months", "3", "--seed", "29",
            "--now", "2026-11-15T12:00:00Z"});
        QVERIFY2(demo.exitCode == 0, demo.err.constData());
        const auto counts = countsOf(embedded());
        // Demo data as the desk shows it: renewals applied, cases opened, audits written.
        QVERIFY(counts.at("subscription_billing_periods") > 0);
        QVERIFY(counts.at("reconciliation_cases") > 0);
        QVERIFY(counts.at("subscription_transition_audits") > 0);

        m_server = std::make_unique<rdtest::PasswordCluster>();
        m_server->exec(
            "CREATE ROLE " + kMover + " LOGIN CREATEROLE PASSWORD '" + kMoverPassword + "'");
        m_passFile = m_dataDir.parent_path() / (m_dataDir.filename().string() + ".pgpass");
        {
            std::ofstream out(m_passFile);
            out << m_server->socketDir().string() << ":5432:*:" << kMover << ":" << kMoverPassword
                << "\n";
        }
        fs::permissions(
            m_passFile, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
    }

    void cleanupTestCase()
    {
        m_server.reset();
        try {
            rd::EmbeddedCluster(m_dataDir).stop();
        } catch (...) { }
        std::error_code ec;
        fs::remove_all(m_dataDir, ec);
        fs::remove(m_passFile, ec);
    }

    void theServerAsksForAPassword()
    {
        // The test is only worth its name if the server refuses a connection without one.
        QVERIFY_EXCEPTION_THROWN(
            pqxx::connection(m_server->conninfo("postgres", m_server->superuser())),
            pqxx::broken_connection);
        QVERIFY_EXCEPTION_THROWN(
            pqxx::connection(m_server->conninfo("postgres", m_server->superuser(), kWrongPassword)),
            pqxx::broken_connection);
        pqxx::connection ok(m_server->adminConninfo());
        QVERIFY(ok.is_open());
    }

    void refusedWhenTheServerRefuses_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("wrong password")
            << QString::fromStdString(m_server->conninfo("postgres", kMover, kWrongPassword)) << 69
            << "password authentication failed";
        QTest::newRow("unreadable connection string") << QString::fromStdString(
            "host=" + m_server->socketDir().string() + " password=" + kWrongPassword + " dbname")
                                                      << 65 << "libpq cannot read it";
    }

    void refusedWhenTheServerRefuses()
    {
        QFETCH(QString, target);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const auto r = ctlRun({"db", "move", "--to", target}, {}, false);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        // Never a password, whatever libpq said.
        QVERIFY(!r.out.contains(QByteArray::fromStdString(kWrongPassword)));
        QVERIFY(!r.err.contains(QByteArray::fromStdString(kWrongPassword)));
        QVERIFY(!marked());
        QCOMPARE(backups(), std::size_t(0));
    }

    void refusedWhenTheTargetIsNotEmpty_data()
    {
        QTest::addColumn<QString>("database");
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QString>("message");
        QTest::newRow("another application's table") << "busy_other"
                                                     << "CREATE TABLE public.invoices (id int)"
                                                     << "is not empty: it holds 1 table";
        QTest::newRow("a Renewal Desk database")
            << "busy_desk"
            << "CREATE TABLE public.schema_migrations (version text, name text, checksum text);"
               "INSERT INTO public.schema_migrations VALUES ('0036', 'x', 'y')"
            << "already holds a Renewal Desk database (newest migration 0036)";
    }

    void refusedWhenTheTargetIsNotEmpty()
    {
        QFETCH(QString, database);
        QFETCH(QString, setup);
        QFETCH(QString, message);
        const auto target = serverDatabase(*m_server, database.toStdString());
        {
            pqxx::connection conn(target);
            pqxx::nontransaction tx(conn);
            tx.exec(setup.toStdString());
        }
        const auto r = ctlRun({"db", "move", "--to", QString::fromStdString(target)});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(r.err.contains("nothing was copied or switched"));
        QVERIFY(!r.err.contains(QByteArray::fromStdString(kMoverPassword)));
        QVERIFY(!marked());
        QCOMPARE(backups(), std::size_t(0));
        // What was there is as it was.
        QCOMPARE(m_server->scalar("SELECT count(*) FROM pg_catalog.pg_tables "
                                  "WHERE schemaname = 'public'",
                     database.toStdString()),
            1LL);
    }

    void refusedNamingTheRolesTheLoginMayNotCreate()
    {
        // A fresh server (roles are cluster-wide) where the login lacks CREATEROLE.
        rdtest::PasswordCluster bare;
        bare.exec("CREATE ROLE rd_clerk LOGIN PASSWORD 'clerk-Pw-33aa71'");
        bare.exec("CREATE DATABASE desk OWNER rd_clerk");
        const auto r = ctlRun({"db", "move", "--to",
            QString::fromStdString(bare.conninfo("desk", "rd_clerk", "clerk-Pw-33aa71"))});
        QCOMPARE(r.exitCode, 4);
        for (const char *role :
            {"renewal_viewer", "renewal_operator", "renewal_ingest", "renewal_payload_reader"})
            QVERIFY2(r.err.contains(role), r.err.constData());
        QVERIFY(r.err.contains("CREATEROLE"));
        QVERIFY(!r.err.contains("clerk-Pw-33aa71"));
        QVERIFY(!marked());
        QCOMPARE(backups(), std::size_t(0));
        QCOMPARE(bare.scalar("SELECT count(*) FROM pg_catalog.pg_roles "
                             "WHERE rolname LIKE 'renewal\\_%'"),
            0LL);
        QCOMPARE(bare.scalar("SELECT count(*) FROM pg_catalog.pg_tables "
                             "WHERE schemaname = 'public'",
                     "desk"),
            0LL);

        // `roles check` says the same, and the server's administrator fixes it with --create.
        const auto check = ctlRun({"roles", "check", "--db",
            QString::fromStdString(bare.conninfo("desk", "rd_clerk", "clerk-Pw-33aa71"))});
        QCOMPARE(check.exitCode, 4);
        QVERIFY(check.out.contains("missing role renewal_payload_reader"));
        QVERIFY(check.err.contains("may not create roles"));
        const auto created = ctlRun({"roles", "check", "--create", "--json", "--db",
            QString::fromStdString(bare.adminConninfo("desk"))});
        QVERIFY2(created.exitCode == 0, created.err.constData());
        const auto json = nlohmann::json::parse(created.out.toStdString());
        QCOMPARE(json["created"].size(), std::size_t(7)); // four roles, three grants
        QCOMPARE(bare.scalar("SELECT count(*) FROM pg_catalog.pg_auth_members m "
                             "JOIN pg_catalog.pg_roles r ON r.oid = m.roleid "
                             "WHERE r.rolname LIKE 'renewal\\_%'"),
            3LL);
    }

    /// The schema's functions set renewal_desk.core_counts: on PostgreSQL 15 a login that is
    /// no superuser must be granted that, or pg_restore fails half-way. Checked before the copy.
    void refusedWhenTheLoginMayNotSetTheSchemasParameters()
    {
        const auto target = serverDatabase(*m_server, "desk_params");
        const auto r = ctlRun({"db", "move", "--to", QString::fromStdString(target)});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("GRANT SET ON PARAMETER renewal_desk.core_counts TO rd_mover"),
            r.err.constData());
        QVERIFY(!marked());
        QCOMPARE(backups(), std::size_t(0));
        // As the server's administrator would, for the moves below.
        m_server->exec("GRANT SET ON PARAMETER renewal_desk.core_counts TO " + kMover);
    }

    /// A renewal applied to the embedded database while the copy is restored would be lost by
    /// the switch: the move sees the embedded audit heads changed, and switches nothing.
    void writesDuringTheMoveSwitchNothing()
    {
        const auto target = serverDatabase(*m_server, "desk_raced");
        const auto before = backups();
        rd::MoveOptions options;
        options.dataDir = m_dataDir;
        options.target = target;
        bool wrote = false;
        options.onStep = [&](const std::string &step) {
            if (step.rfind("restoring", 0) != 0)
                return;
            const auto db = QString::fromStdString(embedded());
            wrote
                = ctlRun({"subscriptions", "import", "--db", db},
                      line({{"providerKey", "stripe-main"},
                          {"providerSubscriptionId", "sub_during_move"}, {"status", "active"},
                          {"currentPeriod",
                              {{"start", "2026-10-01T00:00:00Z"}, {"end", "2026-11-01T00:00:00Z"}}},
                          {"cancelAtPeriodEnd", false}, {"providerVersion", nullptr}}))
                        .exitCode
                    == 0
                && ctlRun({"apply", "--db", db},
                       line({{"providerKey", "stripe-main"}, {"providerEventId", "evt_during"},
                           {"providerSubscriptionId", "sub_during_move"},
                           {"providerRenewalKey", "in_during"}, {"providerVersion", nullptr},
                           {"period",
                               {{"start", "2026-11-01T00:00:00Z"},
                                   {"end", "2026-12-01T00:00:00Z"}}},
                           {"paidAmountMinor", 1999}, {"currency", "USD"},
                           {"paidAt", "2026-11-01T00:05:00Z"}}))
                        .exitCode
                    == 0;
        };
        rd::MoveReport report;
        try {
            report = rd::moveDatabase(options);
        } catch (const std::exception &e) {
            QFAIL(e.what());
        }
        QVERIFY(wrote);
        QVERIFY(report.restore.verified()); // the copy is sound, as of the backup
        // The mover may not create databases, as on many a managed server: the rules are not
        // compared, and the report says why.
        QVERIFY(!report.restore.rules.compared);
        QVERIFY(report.restore.rules.noCreateDb);
        QVERIFY2(report.restore.rules.notCompared.find("CREATEDB") != std::string::npos,
            report.restore.rules.notCompared.c_str());
        QVERIFY(report.embeddedChanged);
        QVERIFY(!report.verified());
        QVERIFY(!report.switched);
        QVERIFY(!marked());
        QCOMPARE(backups(), before + 1); // the backup is kept all the same
        // The server holds the copy as of the backup: without the renewal written meanwhile.
        QCOMPARE(countsOf(target).at("subscription_billing_periods") + 1,
            countsOf(embedded()).at("subscription_billing_periods"));
    }

    void movesVerifiesAndSwitches()
    {
        const auto backupsBefore = backups();
        const auto before = countsOf(embedded());
        // Stopped, as after a reboot: the move starts it for the backup and stops it again.
        rd::EmbeddedCluster(m_dataDir).stop();
        const auto target = serverDatabase(*m_server, "renewal_desk");
        const auto r = ctlRun({"db", "move", "--to", QString::fromStdString(target)});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        QVERIFY(r.out.contains("moved: the embedded database in"));
        QVERIFY(!r.out.contains(QByteArray::fromStdString(kMoverPassword)));
        QVERIFY(!r.err.contains(QByteArray::fromStdString(kMoverPassword)));
        QVERIFY2(!r.err.contains("warning"), r.err.constData()); // the pgpass file serves

        // The same rows on the server, and every chain verifies there.
        QCOMPARE(countsOf(target), before);
        const auto verify = ctlRun({"audit", "verify", "--db", QString::fromStdString(target)});
        QVERIFY2(verify.exitCode == 0, (verify.out + verify.err).constData());
        QVERIFY(verify.out.contains("intact"));
        // The desk's group roles and their grants are there (`roles check` as the server sees it).
        const auto roles = ctlRun({"roles", "check", "--db", QString::fromStdString(target)});
        QVERIFY2(roles.exitCode == 0, (roles.out + roles.err).constData());
        QCOMPARE(m_server->scalar("SELECT count(*) FROM pg_catalog.pg_roles WHERE rolname IN "
                                  "('renewal_viewer', 'renewal_operator', 'renewal_ingest', "
                                  "'renewal_payload_reader')"),
            4LL);

        // The backup is kept where the output says, and the marker names the server, never
        // its password.
        QCOMPARE(backups(), backupsBefore + 1);
        QVERIFY(marked());
        const auto marker = readFile(rd::movedToMarker(m_dataDir));
        QVERIFY(marker.find(kMoverPassword) == std::string::npos);
        const auto moved = rd::readMovedTo(m_dataDir);
        QVERIFY(moved);
        QVERIFY(moved->conninfo.find("user=" + kMover) != std::string::npos);
        QVERIFY(fs::exists(moved->backupFile));
        QVERIFY(r.out.contains(QByteArray::fromStdString(moved->backupFile)));

        // The embedded cluster: as it was (stopped), its data intact.
        QCOMPARE(rd::EmbeddedCluster(m_dataDir).state(), rd::EmbeddedCluster::State::Stopped);
        QVERIFY(r.out.contains("the embedded cluster is left stopped"));
        const auto status = ctlRun({"db", "status"});
        QVERIFY2(status.out.contains("moved to server"), status.out.constData());
        rd::EmbeddedCluster(m_dataDir).start();
        QCOMPARE(countsOf(embedded()), before);
        const auto verifyEmbedded
            = ctlRun({"audit", "verify", "--db", QString::fromStdString(embedded())});
        QCOMPARE(verifyEmbedded.exitCode, 0);

        // renewalctl without --db now talks to the server: a new subscription and its renewal
        // land there, not in the embedded cluster.
        const auto imported = ctlRun({"subscriptions", "import"},
            line({{"providerKey", "stripe-main"}, {"providerSubscriptionId", "sub_after_move"},
                {"status", "active"},
                {"currentPeriod",
                    {{"start", "2026-10-01T00:00:00Z"}, {"end", "2026-11-01T00:00:00Z"}}},
                {"cancelAtPeriodEnd", false}, {"providerVersion", nullptr}}));
        QVERIFY2(imported.exitCode == 0, imported.err.constData());
        const auto applied = ctlRun({"apply"},
            line({{"providerKey", "stripe-main"}, {"providerEventId", "evt_after_move"},
                {"providerSubscriptionId", "sub_after_move"},
                {"providerRenewalKey", "in_after_move"}, {"providerVersion", nullptr},
                {"period", {{"start", "2026-11-01T00:00:00Z"}, {"end", "2026-12-01T00:00:00Z"}}},
                {"paidAmountMinor", 1999}, {"currency", "USD"},
                {"paidAt", "2026-11-01T00:05:00Z"}}));
        QVERIFY2(applied.exitCode == 0, (applied.out + applied.err).constData());
        QVERIFY(applied.out.contains("\"applied\""));
        auto after = countsOf(target);
        QCOMPARE(after.at("subscriptions"), before.at("subscriptions") + 1);
        QCOMPARE(after.at("subscription_billing_periods"),
            before.at("subscription_billing_periods") + 1);
        QCOMPARE(countsOf(embedded()), before);

        // Without the password where libpq looks, renewalctl says so and does not fall back to
        // the embedded copy.
        const auto noPassword = ctlRun({"subscriptions", "overdue"}, {}, false);
        QCOMPARE(noPassword.exitCode, 69);
        QVERIFY(noPassword.err.contains("password"));

        // A second move is refused while the first stands.
        const auto again = ctlRun({"db", "move", "--to", QString::fromStdString(target)});
        QCOMPARE(again.exitCode, 4);
        QVERIFY(again.err.contains("--undo"));
    }

    void undoGoesBackToTheEmbeddedCluster()
    {
        const auto r = ctlRun({"db", "move", "--undo"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(!marked());
        QVERIFY(r.out.contains("embedded cluster"));
        // renewalctl without --db reads the embedded cluster again: no sub_after_move there.
        const auto overdue = ctlRun({"subscriptions", "overdue", "--json"}, {}, false);
        QVERIFY(overdue.exitCode == 0 || overdue.exitCode == 3);
        QVERIFY(!overdue.out.contains("sub_after_move"));
        const auto status = ctlRun({"db", "status"});
        QVERIFY(!status.out.contains("moved to server"));
    }

    /// The desk's way in: with no saved connection it asks resolveDatabase, which honours the
    /// marker and names the server; a damaged marker stops it rather than fall back.
    void resolveDatabaseHonoursTheMarker()
    {
        char tmpl[] = "/tmp/rd-move-marker-XXXXXX";
        QVERIFY(mkdtemp(tmpl));
        const fs::path dir = tmpl;
        const char *saved = std::getenv("RENEWAL_DESK_DATA_DIR");
        const std::string previous = saved ? saved : "";
        ::setenv("RENEWAL_DESK_DATA_DIR", dir.c_str(), 1);
        for (const char *var : {"PGHOST", "PGHOSTADDR", "PGDATABASE", "PGSERVICE", "PGPORT"})
            ::unsetenv(var);
        {
            std::ofstream(rd::movedToMarker(dir)) << nlohmann::json {
                {"conninfo", "host=db.example port=5432 dbname=rd user=fin"},
                {"server", "host=db.example port=5432 dbname=rd user=fin"},
                {"movedAt", "2026-12-02T14:00:00Z"},
                {"backupFile", "/x.backup"}}.dump();
        }
        const auto target = rd::resolveDatabase(std::nullopt, false);
        QVERIFY(!target.embedded);
        QCOMPARE(target.conninfo, std::string("host=db.example port=5432 dbname=rd user=fin"));
        QVERIFY2(target.description.find("moved to server host=db.example") != std::string::npos,
            target.description.c_str());
        // --db still wins.
        QCOMPARE(rd::resolveDatabase(std::string("dbname=other"), false).conninfo,
            std::string("dbname=other"));
        std::ofstream(rd::movedToMarker(dir), std::ios::trunc) << "{not json";
        QVERIFY_EXCEPTION_THROWN(rd::resolveDatabase(std::nullopt, false), rd::DatabaseUnavailable);
        fs::remove(rd::movedToMarker(dir));
        QVERIFY(rd::resolveDatabase(std::nullopt, false).embedded);
        if (saved)
            ::setenv("RENEWAL_DESK_DATA_DIR", previous.c_str(), 1);
        else
            ::unsetenv("RENEWAL_DESK_DATA_DIR");
        std::error_code ec;
        fs::remove_all(dir, ec);
    }

    // A password is taken out of every message that quotes it, also when the mask put in its
    // place contains it ("pass" in "(password)"): the search goes on after the mask.
    void scrubbedOfTakesOutEveryOccurrence_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("secret");
        QTest::addColumn<QString>("mask");
        QTest::addColumn<QString>("expected");
        QTest::newRow("twice") << "a s3cret b s3cret"
                               << "s3cret"
                               << "***"
                               << "a *** b ***";
        QTest::newRow("mask holds it") << "pass: pass"
                                       << "pass"
                                       << "(password)"
                                       << "(password): (password)";
        QTest::newRow("one letter in the mask") << "a-a"
                                                << "a"
                                                << "***a***"
                                                << "***a***-***a***";
        QTest::newRow("no secret") << "text"
                                   << ""
                                   << "***"
                                   << "text";
        QTest::newRow("not there") << "text"
                                   << "zz"
                                   << "***"
                                   << "text";
    }
    void scrubbedOfTakesOutEveryOccurrence()
    {
        QFETCH(QString, text);
        QFETCH(QString, secret);
        QFETCH(QString, mask);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(
                     rd::scrubbedOf(text.toStdString(), secret.toStdString(), mask.toStdString())),
            expected);
    }

    void conninfoWithoutPasswordDropsItAndOnlyIt_data()
    {
        QTest::addColumn<QString>("conninfo");
        QTest::addColumn<QString>("expected");
        QTest::newRow("key/value") << "host=db.example password=s3cret dbname=rd user=fin"
                                   << "user=fin dbname=rd host=db.example"; // libpq's order
        QTest::newRow("URI") << "postgresql://fin:s3cret@db.example:5433/rd"
                             << "user=fin dbname=rd host=db.example port=5433";
        QTest::newRow("quoted value") << "host='/tmp/a dir' password='a b'"
                                      << "host='/tmp/a dir'";
    }

    void conninfoWithoutPasswordDropsItAndOnlyIt()
    {
        QFETCH(QString, conninfo);
        QFETCH(QString, expected);
        QCOMPARE(
            QString::fromStdString(rd::conninfoWithoutPassword(conninfo.toStdString())), expected);
    }
};

QTEST_GUILESS_MAIN(TestDbMove)
#include "tst_db_move.moc"
