#include "domain/core/errors.h"
#include "domain/store/migrator.h"
#include "tests/support/process_runner.h"
#include "tests/support/test_database.h"

#include <pqxx/pqxx>

#include <QtTest>

#include <chrono>
#include <fstream>
#include <future>
#include <latch>
#include <map>
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

    // `pg_dump --schema-only` of `db` without what differs between two equal schemas (the
    // comments naming the server's version, psql's per-dump \restrict key).
    static QStringList schemaDump(const rdtest::TestDatabase &db)
    {
        const auto run = rdtest::runProgram(u"pg_dump"_qs,
            {u"--schema-only"_qs, u"--no-owner"_qs, u"--dbname"_qs,
                QString::fromStdString(db.conninfo())});
        if (run.exitCode != 0)
            qFatal("pg_dump failed: %s", run.err.constData());
        QStringList lines;
        for (const auto &line : QString::fromUtf8(run.out).split(u'\n'))
            if (!line.startsWith(u"--"_qs) && !line.startsWith(u"\\restrict"_qs)
                && !line.startsWith(u"\\unrestrict"_qs) && !line.isEmpty())
                lines << line;
        return lines;
    }

    // The first line where the two dumps part, for a failure message that shows it.
    static QByteArray firstDifference(const QStringList &a, const QStringList &b)
    {
        for (qsizetype i = 0; i < std::max(a.size(), b.size()); ++i) {
            const QString left = i < a.size() ? a[i] : u"<end>"_qs;
            const QString right = i < b.size() ? b[i] : u"<end>"_qs;
            if (left != right)
                return QStringLiteral("line %1: \"%2\" vs \"%3\"")
                    .arg(i + 1)
                    .arg(left, right)
                    .toUtf8();
        }
        return {};
    }

    static std::vector<rd::MigrationFile> upTo(int version)
    {
        auto files = rd::loadMigrations(rd::defaultMigrationsDir());
        std::erase_if(files, [version](const auto &f) { return f.version > version; });
        return files;
    }

private slots:
    // A database the numbered files migrated (every program before the repeatable layout) is
    // upgraded by today's migrator to exactly the schema a fresh one gets.
    void olderDatabasesUpgradeToTheFreshSchema_data()
    {
        QTest::addColumn<int>("version");
        QTest::newRow("0026") << 26;
        QTest::newRow("newest numbered")
            << rd::loadMigrations(rd::defaultMigrationsDir()).back().version;
    }
    void olderDatabasesUpgradeToTheFreshSchema()
    {
        QFETCH(int, version);
        const auto dir = rd::defaultMigrationsDir();
        const auto repeatables = rd::loadRepeatables(dir);
        QVERIFY(repeatables.size() > 50);
        rdtest::TestDatabase fresh("upgrade_fresh");
        rdtest::TestDatabase old("upgrade_old", false);
        auto conn = old.connect();
        rd::migrate(*conn, upTo(version)); // the numbered files alone, as the old migrator ran
        QCOMPARE(
            count(*conn, "SELECT count(*) FROM pg_tables WHERE tablename = 'schema_repeatables'"),
            0LL);
        const auto report = rd::migrate(*conn, rd::loadMigrations(dir), repeatables);
        QCOMPARE(report.reapplied.size(), repeatables.size());
        const auto upgraded = schemaDump(old);
        const auto expected = schemaDump(fresh);
        QVERIFY2(upgraded == expected, firstDifference(upgraded, expected).constData());
        QCOMPARE(rd::migrate(*conn, rd::loadMigrations(dir), repeatables).reapplied.size(),
            std::size_t(0));
    }

    // A changed definition is applied again, and no other; applying it records its checksum.
    void aChangedDefinitionAloneIsReapplied()
    {
        rdtest::TestDatabase db("repeatable_changed");
        auto conn = db.connect();
        const auto dir = rd::defaultMigrationsDir();
        auto repeatables = rd::loadRepeatables(dir);
        const auto changed = std::find_if(repeatables.begin(), repeatables.end(),
            [](const auto &r) { return r.name == "functions/rd_sha256_hex.sql"; });
        QVERIFY(changed != repeatables.end());
        changed->sql += "\nCOMMENT ON FUNCTION public.rd_sha256_hex(text) IS 'changed';\n";
        const auto report = rd::migrate(*conn, rd::loadMigrations(dir), repeatables);
        QVERIFY(report.applied.empty());
        QCOMPARE(report.reapplied, std::vector<std::string> {changed->name});
        QCOMPARE(
            rdtest::text(db, "SELECT obj_description('public.rd_sha256_hex(text)'::regprocedure)"),
            std::string("changed"));
        QCOMPARE(rd::migrate(*conn, rd::loadMigrations(dir), repeatables).reapplied.size(),
            std::size_t(0));
    }

    // A versioned file that drops a function (a signature change, a DROP ... CASCADE) gets it
    // back from its definition, whose own file did not change, in the same transaction.
    void aVersionedDropIsFollowedByTheDefinitions()
    {
        rdtest::TestDatabase db("repeatable_dropped");
        auto conn = db.connect();
        const auto dir = rd::defaultMigrationsDir();
        auto files = rd::loadMigrations(dir);
        const std::string grants
            = "SELECT string_agg(proname || ' ' || proacl::text, '; ' ORDER BY proname) "
              "FROM pg_proc WHERE proname IN ('audit_chain_breaks', 'apply_successful_renewal')";
        const std::string before = rdtest::text(db, grants);
        files.push_back({9999, "9999_drop.sql",
            "DROP FUNCTION public.audit_chain_breaks(); DROP FUNCTION "
            "public.apply_successful_renewal(text,text,text,text,text,timestamptz,timestamptz,"
            "bigint,text,timestamptz,text,text,uuid) CASCADE;"});
        const auto report = rd::migrate(*conn, files, rd::loadRepeatables(dir));
        QCOMPARE(report.applied, std::vector<std::string> {"9999_drop.sql"});
        QCOMPARE(
            count(*conn, "SELECT count(*) FROM pg_proc WHERE proname = 'audit_chain_breaks'"), 1LL);
        // Their files grant before they define, and found nothing to grant on: the migrator
        // defined them, then ran the files whole. Their grants are the ones they had, and the
        // core's argument arrays are stored as they were, uncompressed.
        QCOMPARE(rdtest::text(db, grants), before);
        QCOMPARE(rdtest::text(db,
                     "SELECT concat_ws(',', pg_column_compression(proargnames), "
                     "pg_column_compression(proallargtypes), pg_column_compression(proargmodes)) "
                     "FROM pg_proc WHERE oid = 'public.apply_successful_renewal'::regproc"),
            std::string());
    }

    // A definition the list does not name would never be applied: refused.
    void anUnlistedDefinitionIsRefused()
    {
        char tmpl[] = "/tmp/rd-repeatables-XXXXXX";
        QVERIFY(mkdtemp(tmpl));
        fs::create_directory(fs::path(tmpl) / "functions");
        std::ofstream(fs::path(tmpl) / "functions" / "a.sql") << "SELECT 1;";
        std::ofstream(fs::path(tmpl) / "functions" / "b.sql") << "SELECT 1;";
        std::ofstream(fs::path(tmpl) / "repeatables.txt") << "functions/a.sql\n";
        QVERIFY_THROWS_EXCEPTION(rd::SetupError, rd::loadRepeatables(tmpl));
        std::ofstream(fs::path(tmpl) / "repeatables.txt") << "functions/a.sql\nfunctions/b.sql\n";
        QCOMPARE(rd::loadRepeatables(tmpl).size(), std::size_t(2));
        std::ofstream(fs::path(tmpl) / "repeatables.txt") << "functions/a.sql\nfunctions/c.sql\n";
        QVERIFY_THROWS_EXCEPTION(rd::SetupError, rd::loadRepeatables(tmpl));
        fs::remove_all(tmpl);
    }

    // The checksums are computed by the program; databases migrated before recorded the
    // server's encode(sha256(file), 'hex'), and must keep matching.
    void checksumsAreTheServersDigest()
    {
        rdtest::TestDatabase db("checksums");
        auto conn = db.connect();
        const auto dir = rd::defaultMigrationsDir();
        pqxx::work tx(*conn);
        const auto same = [&tx](const std::string &table, const std::string &key,
                              const std::string &value, const std::string &sql) {
            return tx
                .exec_params1("SELECT checksum = encode(sha256($2::bytea), 'hex') FROM public."
                        + table + " WHERE " + key + "::text = $1",
                    value, pqxx::binarystring(sql.data(), sql.size()))[0]
                .as<bool>();
        };
        for (const auto &f : rd::loadMigrations(dir))
            QVERIFY2(same("schema_migrations", "version", std::to_string(f.version), f.sql),
                f.name.c_str());
        for (const auto &r : rd::loadRepeatables(dir))
            QVERIFY2(same("schema_repeatables", "name", r.name, r.sql), r.name.c_str());
    }

    // No function's pg_proc row has its argument arrays compressed (the OUT parameters' types
    // and modes are read at every call): a GRANT or REVOKE after a definition, or a body that
    // compresses to a little under the 2,000 bytes a row keeps, left them compressed, and
    // every call decompressed them again (+1 % of a renewal's instructions for
    // apply_successful_renewal; docs/migrations.md, "Why grants first"). One query over the
    // schema, so that a failure names every such function.
    //
    // The one exception, rd_apply_case_event: its body is a BEGIN ATOMIC parse tree, in which
    // PostgreSQL keeps no comment, compressed to 1,936 bytes; it stays in the row, and the
    // row, still over 2 KB, gets proallargtypes compressed too. Neither growing the tree past
    // 2,000 bytes (SQL that does nothing) nor shrinking the row under 2 KB (a third of the
    // call moved elsewhere) is worth it for a function that runs on an operator's re-apply,
    // attach or re-anchor, never on a renewal's or a delivery's path.
    void noFunctionsArgumentArraysAreCompressed()
    {
        rdtest::TestDatabase db("proc_storage");
        QCOMPARE(rdtest::text(db,
                     "SELECT coalesce(string_agg(p.oid::regprocedure::text || ' ' || c.compressed, "
                     "'; ' ORDER BY p.oid::regprocedure::text), '') "
                     "FROM pg_proc p, LATERAL (SELECT concat_ws(',', "
                     "  'proargnames=' || pg_column_compression(p.proargnames), "
                     "  'proallargtypes=' || pg_column_compression(p.proallargtypes), "
                     "  'proargmodes=' || pg_column_compression(p.proargmodes), "
                     "  'proargdefaults=' || pg_column_compression(p.proargdefaults)) "
                     "  AS compressed) c "
                     "WHERE p.pronamespace = 'public'::regnamespace AND c.compressed <> '' "
                     "AND p.oid <> 'public.rd_apply_case_event(jsonb,text,text)'::regprocedure"),
            std::string());
    }

    // The order of repeatables.txt is the order of creation (docs/migrations.md, rule 1): a
    // function whose SQL body uses another (PostgreSQL records it in pg_depend when it checks
    // the body) comes after it. Only a DROP ... CASCADE of the one it uses shows a wrong order
    // otherwise: every function exists before its file runs.
    void theListPutsEachDefinitionAfterWhatItUses()
    {
        std::map<std::string, std::size_t> position;
        for (const auto &r : rd::loadRepeatables(rd::defaultMigrationsDir()))
            position.emplace(fs::path(r.name).stem().string(), position.size());
        rdtest::TestDatabase db("repeatables_order");
        auto conn = db.connect();
        pqxx::read_transaction tx(*conn);
        const auto uses = tx.exec(
            "SELECT DISTINCT p.proname, r.proname FROM pg_depend d "
            "JOIN pg_proc p ON p.oid = d.objid JOIN pg_proc r ON r.oid = d.refobjid "
            "WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_proc'::regclass "
            "AND p.pronamespace = 'public'::regnamespace "
            "AND r.pronamespace = 'public'::regnamespace AND d.objid <> d.refobjid");
        QVERIFY(!uses.empty());
        for (const auto &row : uses) {
            const auto user = row[0].as<std::string>(), used = row[1].as<std::string>();
            QVERIFY2(position.count(user) && position.count(used), (user + ", " + used).c_str());
            QVERIFY2(position.at(used) < position.at(user),
                (user + " is listed before " + used + ", which its body uses").c_str());
        }
    }

    // Every definition file grants before it defines (docs/migrations.md, "Grants first"):
    // then CREATE OR REPLACE is the last write of the pg_proc row, and the toaster sees the
    // body uncompressed. Checked on the files, since a small function's row fits uncompressed
    // either way and the query above cannot tell.
    void everyFunctionFileGrantsFirst()
    {
        int files = 0;
        for (const auto &r : rd::loadRepeatables(rd::defaultMigrationsDir())) {
            if (!r.name.starts_with("functions/"))
                continue;
            ++files;
            const auto atLineStart = [&r](const std::string &word) {
                const auto at = r.sql.find("\n" + word);
                return r.sql.starts_with(word) ? 0 : at;
            };
            const auto grant = std::min(atLineStart("REVOKE "), atLineStart("GRANT "));
            const auto create = atLineStart("CREATE OR REPLACE FUNCTION ");
            QVERIFY2(create != std::string::npos, r.name.c_str());
            QVERIFY2(grant < create, r.name.c_str());
            QVERIFY2(r.sql.find("\nREVOKE ", create) == std::string::npos
                    && r.sql.find("\nGRANT ", create) == std::string::npos,
                r.name.c_str());
        }
        QVERIFY(files > 0);
    }

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
        const auto repeatables = rd::loadRepeatables(rd::defaultMigrationsDir());
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
                    applied[static_cast<std::size_t>(i)]
                        = rd::migrate(*conn, files, repeatables).applied.size();
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
        // Every file applied exactly once across all runners, the definitions with the last.
        QCOMPARE(total, files.size());
        auto conn = db.connect();
        QCOMPARE(count(*conn, "SELECT count(*) FROM schema_repeatables"),
            static_cast<long long>(repeatables.size()));
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
