// Backups that prove themselves (#29): a backup is one snapshot (taken while writers deliver),
// restores into an empty database or a new embedded cluster and verifies there; a restore is
// refused over data; a damaged or re-forged file does not pass. Against the run's real
// cluster, and a second embedded cluster of the test's own.
#include "domain/core/errors.h"
#include "domain/store/audit_chains.h"
#include "domain/store/backup_file.h"
#include "domain/store/database_backup.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/migrator.h"
#include "domain/store/webhook_ingestor.h"
#include "tests/support/fixture_files.h"
#include "tests/support/process_runner.h"
#include "tests/support/test_database.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QtTest>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using rdtest::scalar;

namespace {

constexpr int kWriters = 8;
constexpr int kPerWriter = 250;

std::string subscriptionTag(int writer, int i)
{
    return "w" + std::to_string(writer) + "_" + std::to_string(i);
}

void registerStripe(const std::string &conninfo)
{
    pqxx::connection conn(conninfo);
    pqxx::nontransaction tx(conn);
    tx.exec("SELECT register_billing_provider('stripe-main', 'stripe', NULL)");
}

/// Subscriptions sub_<tag> renewing from December 2025 into January, `tags` of them.
void importFor(const std::string &conninfo, const std::vector<std::string> &tags)
{
    std::string lines;
    for (const auto &t : tags)
        lines += rdtest::subscriptionLine("stripe-main", "sub_" + t, "active",
                     "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z")
            + "\n";
    rdtest::importSubscriptions(conninfo, lines);
}

/// A small source database: `n` subscriptions, each renewed once through ingestion.
void fillSmall(const rdtest::TestDatabase &db, int n = 12)
{
    registerStripe(db.conninfo());
    std::vector<std::string> tags;
    for (int i = 0; i < n; ++i)
        tags.push_back("s" + std::to_string(i));
    importFor(db.conninfo(), tags);
    rd::WebhookIngestor ingestor(db.conninfo());
    for (const auto &t : tags)
        QCOMPARE(std::string(rd::toString(
                     ingestor.ingest("stripe-main", rdtest::stripeRenewalOf(t)).outcome)),
            std::string("applied"));
}

std::string readAll(const fs::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void writeAll(const fs::path &p, const std::string &bytes)
{
    std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

/// Where the dump starts in a backup file: after the magic, manifest and DUMP lines.
std::size_t dumpOffset(const std::string &file)
{
    const auto dumpLine = file.find("\nDUMP sha256=");
    return file.find('\n', dumpLine + 1) + 1;
}

std::string dumpOf(const fs::path &p)
{
    rd::BackupFileReader reader(p);
    std::string dump(static_cast<std::size_t>(reader.manifest().dumpBytes), '\0');
    if (reader.read(dump.data(), dump.size()) != dump.size())
        throw std::runtime_error("cannot read the dump of " + p.string());
    return dump;
}

std::string differences(const rd::RestoreReport &r)
{
    std::string s;
    for (const auto &d : r.countDifferences)
        s += d.table + " " + std::to_string(d.expected) + "/" + std::to_string(d.found) + "; ";
    for (const auto &b : r.anchor.mismatches)
        s += "anchor: " + b.problem + "; ";
    for (const auto &b : r.verification.breaks)
        s += "chain: " + b.problem + "; ";
    for (const auto &d : r.rules.differences)
        s += "schema: " + rd::describeSchemaRuleDifference(d) + "; ";
    return s;
}

/// A temporary directory the server's account can traverse (for a cluster of the test's own).
struct TempDir
{
    fs::path path;
    TempDir()
    {
        char tmpl[] = "/tmp/rd-backup-XXXXXX";
        if (!::mkdtemp(tmpl))
            throw std::runtime_error("mkdtemp");
        path = tmpl;
        fs::permissions(path, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec,
            fs::perm_options::replace);
    }
    ~TempDir()
    {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

/// An embedded cluster in a directory of its own, stopped on destruction.
struct OwnCluster
{
    TempDir dir;
    rd::EmbeddedCluster cluster {dir.path / "cluster"};
    OwnCluster() { cluster.start(); }
    ~OwnCluster()
    {
        try {
            cluster.stop();
        } catch (...) { }
    }
    std::string conninfo() const { return cluster.connectionString(); }
};

long long count(const std::string &conninfo, const std::string &sql)
{
    pqxx::connection conn(conninfo);
    return scalar(conn, sql);
}

/// A file re-forged consistently: `sql` run on the source after `original` was taken (the
/// backup log emptied again, as the original snapshot had it), the altered database's dump
/// with the digest of that dump, under the original's manifest. The file's own checks pass.
fs::path forgeBackup(const rdtest::TestDatabase &source, const rd::BackupManifest &original,
    const fs::path &dir, const std::vector<std::string> &sql)
{
    {
        pqxx::connection conn(source.conninfo());
        pqxx::nontransaction tx(conn);
        for (const auto &statement : sql)
            tx.exec0(statement);
        tx.exec0("DELETE FROM database_backups");
    }
    const auto altered = rd::backupDatabase(source.conninfo(), dir / "altered.backup");
    const auto forged = dir / "forged.backup";
    fs::remove(forged);
    rd::writeBackupFile(forged, original, dumpOf(altered.file));
    fs::remove(altered.file);
    return forged;
}

/// A break's identity as the restore compares it (where, what, the broken state's hashes).
std::string identities(const std::vector<rd::ChainBreak> &breaks)
{
    std::string s;
    for (const auto &b : breaks)
        s += b.chain + " " + b.chainId + " row " + std::to_string(b.rowId) + " seq "
            + std::to_string(b.seq) + ": " + b.problem + " [" + b.rowHash + " " + b.contentHash
            + " " + b.previousRowHash + "]\n";
    return s;
}

/// The owner breaks a chain as tst_auditverify does, with the insert-only guards off: the
/// first renewal's audit row rewritten, its stored hash kept. Returns the row's id.
std::string breakOneChain(const rdtest::TestDatabase &db)
{
    pqxx::connection conn(db.conninfo());
    pqxx::work tx(conn);
    tx.exec0("SET LOCAL session_replication_role = replica");
    const auto id = tx.exec1("UPDATE subscription_transition_audits SET actor_id = 'forged' "
                             "WHERE id = (SELECT min(id) FROM subscription_transition_audits "
                             "WHERE transition = 'subscription_renewed') RETURNING id")[0]
                        .as<std::string>();
    tx.commit();
    return id;
}

} // namespace

class TestBackup : public QObject
{
    Q_OBJECT

private slots:
    // Eight writers deliver renewals, each through its own connection, before, during and after
    // the backup's snapshot. The backup holds exactly the renewals committed before its
    // snapshot, whole: restored into a new embedded cluster, every renewal there has its billing
    // period, its audit row and its outbox intent, the counts are the manifest's, the anchor
    // taken in that snapshot matches and every chain verifies.
    void backupWhileEightWritersDeliver()
    {
        rdtest::TestDatabase db("backup_writers");
        registerStripe(db.conninfo());
        std::vector<std::string> tags;
        for (int w = 0; w < kWriters; ++w)
            for (int i = 0; i < kPerWriter; ++i)
                tags.push_back(subscriptionTag(w, i));
        importFor(db.conninfo(), tags);

        std::atomic<bool> stop {false};
        std::atomic<int> failures {0};
        std::vector<std::thread> writers;
        for (int w = 0; w < kWriters; ++w)
            writers.emplace_back([&, w] {
                try {
                    rd::WebhookIngestor ingestor(db.conninfo());
                    for (int i = 0; i < kPerWriter && !stop.load(); ++i)
                        if (ingestor
                                .ingest(
                                    "stripe-main", rdtest::stripeRenewalOf(subscriptionTag(w, i)))
                                .outcome
                            != rd::IngestOutcome::Applied)
                            ++failures;
                } catch (...) {
                    ++failures;
                }
            });
        auto periods
            = [&] { return scalar(db, "SELECT count(*) FROM subscription_billing_periods"); };
        const auto waitFor = [&](long long n) {
            for (int k = 0; k < 600 && periods() < n; ++k)
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
        };
        waitFor(80);
        const long long before = periods();
        // One more commit after `before` was read, so that the snapshot (taken after it) holds
        // more than `before` whatever the machine's load: writers on both sides of it.
        waitFor(before + 1);
        TempDir dir;
        rd::BackupResult backup;
        try {
            backup = rd::backupDatabase(db.conninfo(), dir.path / "b.backup");
        } catch (...) {
            stop = true;
            for (auto &t : writers)
                t.join();
            throw;
        }
        const long long inBackup = backup.manifest.counts.at("subscription_billing_periods");
        waitFor(inBackup + 80);
        stop = true;
        for (auto &t : writers)
            t.join();
        QCOMPARE(failures.load(), 0);
        const long long after = periods();
        qInfo("billing periods: %lld before the backup, %lld in it, %lld after", before, inBackup,
            after);
        // Writers committed on both sides of the snapshot.
        QVERIFY2(before < inBackup && inBackup < after,
            (std::to_string(before) + " / " + std::to_string(inBackup) + " / "
                + std::to_string(after))
                .c_str());
        QVERIFY(backup.recorded);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM database_backups WHERE anchor_digest = '"
                         + backup.manifest.anchorDigest + "'"),
            1LL);

        OwnCluster target;
        const auto report = rd::restoreDatabase(backup.file, target.conninfo());
        QVERIFY2(report.verified(), differences(report).c_str());
        QCOMPARE(report.counts.at("subscription_billing_periods"), inBackup);
        const auto t = target.conninfo();
        QCOMPARE(count(t,
                     "SELECT count(*) FROM subscription_transition_audits "
                     "WHERE transition = 'subscription_renewed'"),
            inBackup);
        QCOMPARE(count(t, "SELECT count(*) FROM subscription_outbox"), inBackup);
        QCOMPARE(
            count(t, "SELECT count(*) FROM webhook_inbox WHERE outcome = 'applied'"), inBackup);
        // Every renewal whole: no period without its audit and intent.
        QCOMPARE(count(t,
                     "SELECT count(*) FROM subscription_billing_periods p WHERE NOT EXISTS "
                     "(SELECT 1 FROM subscription_transition_audits a WHERE "
                     "a.billing_period_id = p.id) OR NOT EXISTS (SELECT 1 FROM "
                     "subscription_outbox o WHERE o.billing_period_id = p.id)"),
            0LL);
        QVERIFY(report.anchor.matches());
        QCOMPARE(report.anchor.heads, backup.manifest.anchorHeads);
        QVERIFY(report.verification.intact());
        QVERIFY(report.verification.rows > inBackup);
        QCOMPARE(report.rolesCreated.size(), std::size_t(4));
        // What the migrations set outside the dumped objects is set again in the new cluster.
        QCOMPARE(count(t,
                     "SELECT count(*) FROM pg_roles WHERE rolname IN ('renewal_viewer', "
                     "'renewal_operator', 'renewal_ingest', 'renewal_payload_reader')"),
            4LL);
        QCOMPARE(count(t,
                     "SELECT (has_database_privilege('renewal_viewer', current_database(), "
                     "'TEMP'))::int"),
            0LL);
        QCOMPARE(count(t,
                     "SELECT pg_has_role('renewal_operator', 'renewal_payload_reader', "
                     "'MEMBER')::int + pg_has_role('renewal_ingest', 'renewal_viewer', "
                     "'MEMBER')::int"),
            2LL);
        QCOMPARE(count(t,
                     "SELECT has_function_privilege('renewal_viewer', "
                     "'public.audit_chain_heads()', 'EXECUTE')::int"),
            1LL);
        QCOMPARE(count(t,
                     "SELECT has_column_privilege('renewal_viewer', 'public.webhook_inbox', "
                     "'raw_body', 'SELECT')::int"),
            0LL);
        QCOMPARE(count(t,
                     "SELECT count(*) FROM pg_default_acl WHERE defaclobjtype = 'f' AND "
                     "defaclrole = current_user::regrole AND NOT "
                     "aclcontains(defaclacl, makeaclitem(0, current_user::regrole, "
                     "'EXECUTE', false))"),
            1LL);
    }

    void restoreRefusedOverData_data()
    {
        QTest::addColumn<QString>("holding");
        QTest::newRow("Renewal Desk data") << "renewal_desk";
        QTest::newRow("another application's table") << "other";
    }

    // A target that holds anything in schema public is left exactly as it was; --force then
    // replaces it with the backup's database.
    void restoreRefusedOverData()
    {
        QFETCH(QString, holding);
        rdtest::TestDatabase source("backup_refused_src");
        fillSmall(source);
        TempDir dir;
        const auto backup = rd::backupDatabase(source.conninfo(), dir.path / "b.backup");

        const bool ours = holding == "renewal_desk";
        rdtest::TestDatabase target("backup_refused_dst", ours);
        if (ours) {
            registerStripe(target.conninfo());
            importFor(target.conninfo(), {"kept"});
        } else {
            pqxx::connection conn(target.conninfo());
            pqxx::nontransaction tx(conn);
            tx.exec0(
                "CREATE TABLE public.other_app (x int); INSERT INTO public.other_app VALUES (7)");
        }
        const std::string state = ours
            ? "SELECT (SELECT count(*) FROM subscriptions) * 1000 + (SELECT count(*) FROM "
              "subscription_transition_audits) * 10 + (SELECT count(*) FROM schema_migrations)"
            : "SELECT sum(x) FROM other_app";
        const long long stateBefore = scalar(target, state);
        try {
            rd::restoreDatabase(backup.file, target.conninfo());
            QFAIL("restored over a database that holds data");
        } catch (const rd::TargetNotEmpty &e) {
            QVERIFY2(
                QString(e.what()).contains(ours ? "Renewal Desk data" : "1 relations"), e.what());
        }
        QCOMPARE(scalar(target, state), stateBefore);

        rd::RestoreOptions force;
        force.force = true;
        const auto report = rd::restoreDatabase(backup.file, target.conninfo(), force);
        QVERIFY2(report.verified(), differences(report).c_str());
        QVERIFY(report.replaced);
        QCOMPARE(scalar(target, "SELECT count(*) FROM subscriptions"),
            backup.manifest.counts.at("subscriptions"));
        QCOMPARE(
            scalar(target, "SELECT count(*) FROM pg_tables WHERE tablename = 'other_app'"), 0LL);
        QCOMPARE(scalar(target,
                     "SELECT count(*) FROM subscriptions WHERE "
                     "provider_subscription_id = 'sub_kept'"),
            0LL);
    }

    void damagedFileRefused_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("named");
        QTest::newRow("a byte of the dump flipped") << "flip"
                                                    << "digest mismatch";
        QTest::newRow("cut short") << "truncate"
                                   << "truncated";
        QTest::newRow("bytes appended") << "append"
                                        << "bytes after the dump";
        QTest::newRow("not a backup") << "magic"
                                      << "not a Renewal Desk backup";
        QTest::newRow("manifest damaged") << "manifest"
                                          << "manifest";
        QTest::newRow("digest line damaged") << "dumpline"
                                             << "DUMP line";
        // #39, 8: junk after the magic line is refused within its first 64 KiB, and a manifest
        // line is bounded by the anchor heads it names, not read whole.
        QTest::newRow("junk after the magic line") << "junk"
                                                   << "is not a manifest";
        QTest::newRow("a manifest longer than its anchor") << "long"
                                                           << "KiB bound (set by its anchorHeads)";
    }

    // What is wrong with a file is named, by readBackupManifest and by a restore, which refuses
    // it before it touches the target.
    void damagedFileRefused()
    {
        QFETCH(QString, damage);
        QFETCH(QString, named);
        rdtest::TestDatabase source("backup_damaged_src");
        fillSmall(source, 3);
        TempDir dir;
        const auto backup = rd::backupDatabase(source.conninfo(), dir.path / "b.backup");
        std::string bytes = readAll(backup.file);
        const auto at = dumpOffset(bytes);
        if (damage == "flip")
            bytes[at + (bytes.size() - at) / 2] ^= 0x20;
        else if (damage == "truncate")
            bytes.resize(bytes.size() - 100);
        else if (damage == "append")
            bytes += "x";
        else if (damage == "magic")
            bytes[0] = 'X';
        else if (damage == "manifest")
            bytes[bytes.find("\"schemaVersion\"")] = '#';
        else if (damage == "junk")
            bytes = bytes.substr(0, bytes.find('\n') + 1) + std::string(8 << 20, 'x');
        else if (damage == "long")
            bytes.insert(bytes.find("\"anchor\":\"") + 10, std::string(2 << 20, 'A'));
        else
            bytes[bytes.find("DUMP sha256=") + 14] = 'z';
        const auto damaged = dir.path / "damaged.backup";
        writeAll(damaged, bytes);
        try {
            rd::readBackupManifest(damaged);
            QFAIL("a damaged file was read as a backup");
        } catch (const rd::InputError &e) {
            QVERIFY2(QString(e.what()).contains(named), e.what());
        }
        rdtest::TestDatabase target("backup_damaged_dst", false);
        try {
            rd::restoreDatabase(damaged, target.conninfo());
            QFAIL("a damaged file was restored");
        } catch (const rd::InputError &e) {
            QVERIFY2(QString(e.what()).contains(named), e.what());
        }
        QCOMPARE(scalar(target,
                     "SELECT count(*) FROM pg_class WHERE relnamespace = "
                     "'public'::regnamespace"),
            0LL);
        // #39, 8: nor is a new embedded cluster made for it (one was initialised, started and
        // left running before the refusal).
        const auto fresh = dir.path / "fresh";
        const auto cli = rdtest::runProgram(rdtest::ctl(),
            {"db", "restore", QString::fromStdString(damaged.string()), "--data-dir",
                QString::fromStdString(fresh.string()), "--no-progress"});
        QVERIFY2(cli.exitCode == 65 && cli.err.contains(named.toUtf8()), cli.err.constData());
        QVERIFY(!fs::exists(fresh));
        // The sound file is read whole.
        QCOMPARE(rd::readBackupManifest(backup.file).dumpSha256, backup.manifest.dumpSha256);
    }

    void reforgedBackupDoesNotVerify_data()
    {
        QTest::addColumn<QString>("forgery");
        QTest::addColumn<QString>("expected");
        // The owner rewrites a renewal's audit row with the triggers off: its hash no longer
        // matches its content, so its chain breaks (the stored hash, which the anchor names,
        // is unchanged).
        QTest::newRow("audit row rewritten")
            << "UPDATE subscription_transition_audits SET actor_id = 'forged' WHERE id = (SELECT "
               "max(id) FROM subscription_transition_audits WHERE transition = "
               "'subscription_renewed')"
            << "chain";
        // ... and its hash recomputed too (the newest row: nothing links to it): every chain
        // holds, but the anchor taken before finds the head's hash changed.
        QTest::newRow("audit row rewritten, hash recomputed")
            << "UPDATE subscription_transition_audits a SET actor_id = 'forged' WHERE id = "
               "(SELECT max(id) FROM subscription_transition_audits); "
               "UPDATE subscription_transition_audits a SET row_hash = "
               "rd_sha256_hex(rd_audit_canonical(a)) WHERE id = (SELECT max(id) FROM "
               "subscription_transition_audits)"
            << "anchor";
        // The audit's case (#39, item 3): one billing period's amount changed, every audit row
        // as it was. The billing period no longer matches the amount its hashed audit row
        // recorded: a break, named.
        QTest::newRow("billing period's amount changed")
            << "UPDATE subscription_billing_periods SET paid_amount_minor = 1 WHERE id = (SELECT "
               "billing_period_id FROM subscription_transition_audits WHERE transition = "
               "'subscription_renewed' ORDER BY id DESC LIMIT 1)"
            << "chain";
        // The newest audit row of a chain removed: the chain itself still links, the anchor
        // finds its head gone and the counts differ.
        QTest::newRow("audit row removed")
            << "DELETE FROM subscription_outbox WHERE billing_period_id = (SELECT "
               "billing_period_id FROM subscription_transition_audits WHERE id = (SELECT max(id) "
               "FROM subscription_transition_audits)); DELETE FROM subscription_transition_audits "
               "WHERE id = (SELECT max(id) FROM subscription_transition_audits)"
            << "anchor,counts,chain";
    }

    // A file re-forged consistently (the altered database's dump, with the digest of that dump,
    // under the manifest of the backup taken before the alteration) passes the file's own
    // checks, but the restore does not verify, and says what differs.
    void reforgedBackupDoesNotVerify()
    {
        QFETCH(QString, forgery);
        QFETCH(QString, expected);
        rdtest::TestDatabase source("backup_forged_src");
        fillSmall(source, 6);
        TempDir dir;
        const auto original = rd::backupDatabase(source.conninfo(), dir.path / "a.backup");
        // With the triggers off, as the owner may.
        const auto forged = forgeBackup(source, original.manifest, dir.path,
            {"SET session_replication_role = replica", forgery.toStdString()});
        QCOMPARE(rd::readBackupManifest(forged).anchorDigest, original.manifest.anchorDigest);

        rdtest::TestDatabase target("backup_forged_dst", false);
        const auto report = rd::restoreDatabase(forged, target.conninfo());
        QVERIFY(!report.verified());
        QCOMPARE(report.anchor.matches(), !expected.contains("anchor"));
        QCOMPARE(report.verification.intact(), !expected.contains("chain"));
        QCOMPARE(report.countDifferences.empty(), !expected.contains("counts"));
        if (expected.contains("counts")) {
            QCOMPARE(report.countDifferences.size(), std::size_t(2));
            for (const auto &d : report.countDifferences) {
                QVERIFY2(
                    d.table == "subscription_transition_audits" || d.table == "subscription_outbox",
                    d.table.c_str());
                QCOMPARE(d.found, d.expected - 1);
            }
        }
        // Not verified: not migrated either (left as restored, for inspection).
        QVERIFY(report.migrationsApplied.empty());
    }

    void reforgedRulesDoNotVerify_data()
    {
        QTest::addColumn<QString>("forgery");
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("restored");
        // The audit's case (#39, item 3): the viewer given the raw bodies.
        QTest::newRow("a viewer granted raw bodies")
            << "GRANT SELECT (raw_body) ON webhook_inbox TO renewal_viewer"
            << "column webhook_inbox.raw_body"
            << "renewal_viewer=r/";
        // A definer function any login may call.
        QTest::newRow("a definer function granted to PUBLIC")
            << "DO $$ DECLARE f regprocedure; BEGIN SELECT p.oid INTO f FROM pg_proc p WHERE "
               "p.proname = 'ingest_delivery' LIMIT 1; EXECUTE format('GRANT EXECUTE ON "
               "FUNCTION %s TO PUBLIC', f); END $$"
            << "privileges of function ingest_delivery("
            << "=X/";
        // A definer function whose search_path an attacker's schema could come first in.
        QTest::newRow("a definer function's search_path")
            << "DO $$ DECLARE f regprocedure; BEGIN SELECT p.oid INTO f FROM pg_proc p WHERE "
               "p.proname = 'ingest_delivery' LIMIT 1; EXECUTE format('ALTER FUNCTION %s SET "
               "search_path = public', f); END $$"
            << "definition of function ingest_delivery("
            << "SET search_path TO 'public'";
        // The rule exactly-once rests on: one billing period per renewal key.
        QTest::newRow("a uniqueness dropped")
            << "DO $$ DECLARE c name; BEGIN SELECT conname INTO c FROM pg_constraint WHERE "
               "conrelid = 'subscription_billing_periods'::regclass AND contype = 'u' ORDER BY "
               "conname LIMIT 1; EXECUTE format('ALTER TABLE subscription_billing_periods DROP "
               "CONSTRAINT %I CASCADE', c); END $$"
            << "constraint "
            << "";
        // A domain's bound dropped: named by its domain (a domain's constraint is not a
        // table's).
        QTest::newRow("a domain's bound dropped")
            << "ALTER DOMAIN rd_amount_minor DROP CONSTRAINT rd_amount_minor_bounded"
            << "constraint rd_amount_minor_bounded on rd_amount_minor"
            << "";
        // A trigger of the forger's own.
        QTest::newRow("a trigger added")
            << "CREATE FUNCTION forged_tap() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
               "RETURN NEW; END $$; CREATE TRIGGER forged_tap BEFORE INSERT ON "
               "subscription_outbox FOR EACH ROW EXECUTE FUNCTION forged_tap()"
            << "trigger forged_tap on subscription_outbox"
            << "forged_tap()";
    }

    // A file re-forged with rules of its own (the rows, the anchor and the chains all as the
    // backup's, so those verify): the restored schema's privileges, definitions, constraints
    // and triggers are compared with what the migrations make, and each forgery is named. The
    // same file without the forgery verifies, rules compared, none differing (every other
    // restore of this suite says the same through verified()).
    void reforgedRulesDoNotVerify()
    {
        QFETCH(QString, forgery);
        QFETCH(QString, rule);
        QFETCH(QString, restored);
        rdtest::TestDatabase source("backup_rules_src");
        fillSmall(source, 4);
        TempDir dir;
        const auto original = rd::backupDatabase(source.conninfo(), dir.path / "a.backup");
        const auto forged
            = forgeBackup(source, original.manifest, dir.path, {forgery.toStdString()});

        rdtest::TestDatabase target("backup_rules_dst", false);
        // The original's file digest, kept apart, refuses the forged file before the target
        // is touched: it covers every byte, the manifest's anchor digest only the audit heads.
        QCOMPARE(rd::readBackupManifest(forged).anchorDigest, original.manifest.anchorDigest);
        rd::RestoreOptions kept;
        kept.expectedFileSha256 = original.fileSha256;
        try {
            rd::restoreDatabase(forged, target.conninfo(), kept);
            QFAIL("a re-forged file was restored under the original's file digest");
        } catch (const rd::InputError &e) {
            QVERIFY2(QString(e.what()).contains("is not the one given"), e.what());
        }
        const auto report = rd::restoreDatabase(forged, target.conninfo());
        QVERIFY2(report.countDifferences.empty() && report.anchor.matches()
                && report.verification.intact(),
            differences(report).c_str());
        QVERIFY(report.rules.compared);
        QVERIFY(!report.verified());
        bool named = false;
        for (const auto &d : report.rules.differences)
            named = named
                || (QString::fromStdString(d.rule).startsWith(rule)
                    && QString::fromStdString(d.restored).contains(restored));
        QVERIFY2(named, differences(report).c_str());
        // No scratch database is left behind.
        QCOMPARE(count(target.conninfo(),
                     "SELECT count(*) FROM pg_database WHERE datname LIKE 'rd_restore_check_%'"),
            0LL);
    }

    // The backup as it was taken restores with every rule the migrations' (under its file
    // digest, kept apart): the comparison finds no difference where there is none.
    void soundBackupRulesAlike()
    {
        rdtest::TestDatabase source("backup_rules_sound");
        fillSmall(source, 4);
        TempDir dir;
        const auto original = rd::backupDatabase(source.conninfo(), dir.path / "a.backup");
        rdtest::TestDatabase clean("backup_rules_clean", false);
        rd::RestoreOptions kept;
        kept.expectedFileSha256 = original.fileSha256;
        const auto sound = rd::restoreDatabase(original.file, clean.conninfo(), kept);
        QVERIFY2(sound.verified(), differences(sound).c_str());
        QVERIFY(sound.rules.compared);
        QVERIFY(sound.rules.rules > 500);
    }

    // An older backup is restored as it was, verified, then migrated; one of a schema newer
    // than the program's is refused before the target is touched.
    void olderBackupMigratedNewerRefused()
    {
        rdtest::TestDatabase source("backup_older_src", false);
        auto files = rd::loadMigrations(rd::defaultMigrationsDir());
        const auto newest = files.back().name;
        files.pop_back();
        {
            pqxx::connection conn(source.conninfo());
            rd::migrate(conn, files);
        }
        TempDir dir;
        const auto backup = rd::backupDatabase(source.conninfo(), dir.path / "old.backup");
        QCOMPARE(backup.manifest.schemaVersion, files.back().name);
        if (files.back().version < 36) {
            // No backup log in that schema: the backup is complete, and says it is not logged.
            QVERIFY(!backup.recorded);
            QVERIFY2(backup.notRecorded.find("backup log") != std::string::npos,
                backup.notRecorded.c_str());
        }
        rdtest::TestDatabase target("backup_older_dst", false);
        const auto report = rd::restoreDatabase(backup.file, target.conninfo());
        QVERIFY2(report.verified(), differences(report).c_str());
        QCOMPARE(report.migrationsApplied, std::vector<std::string> {newest});

        auto manifest = backup.manifest;
        manifest.schemaVersion = "9999_from_the_future.sql";
        const auto future = dir.path / "future.backup";
        rd::writeBackupFile(future, manifest, dumpOf(backup.file));
        rdtest::TestDatabase empty("backup_future_dst", false);
        try {
            rd::restoreDatabase(future, empty.conninfo());
            QFAIL("a backup newer than the program was restored");
        } catch (const rd::SetupError &e) {
            QVERIFY2(QString(e.what()).contains("newer than this program"), e.what());
        }
    }

    // Canceled while pg_dump writes: no file, no partial file, no log row.
    void canceledBackupLeavesNothing()
    {
        rdtest::TestDatabase source("backup_cancel");
        fillSmall(source, 3);
        TempDir dir;
        std::atomic<bool> cancel {false};
        rd::BackupOptions options;
        options.cancel = &cancel;
        options.onProgress = [&](const rd::BackupProgress &p) {
            if (p.phase == "dump")
                cancel = true;
        };
        QVERIFY_THROWS_EXCEPTION(rd::BackupCanceled,
            rd::backupDatabase(source.conninfo(), dir.path / "c.backup", options));
        QVERIFY(fs::is_empty(dir.path));
        QCOMPARE(scalar(source, "SELECT count(*) FROM database_backups"), 0LL);
    }

    // Backups into one directory within the same second (db move right after a backup, two
    // timers): each gets a file of its own; a name the caller chose is still never replaced.
    // A file of this second's default name is put there first, so the backup meets the
    // collision unless the clock turns the second in between.
    void backupsOfOneSecondKeepTheirFiles()
    {
        rdtest::TestDatabase source("backup_same_second");
        fillSmall(source, 2);
        TempDir dir;
        std::set<fs::path> files, placed;
        for (int i = 0; i < 3; ++i) {
            // This second's name is taken: by a file put there now, or by the backup before
            // (the clock turned the second since the last one was put there).
            const fs::path taken = dir.path / rd::defaultBackupFileName();
            if (!fs::exists(taken)) {
                std::ofstream(taken) << "someone else's file";
                placed.insert(taken);
            }
            const fs::path file = rd::backupDatabase(source.conninfo(), dir.path).file;
            QVERIFY2(file != taken, file.c_str());
            QCOMPARE(file.parent_path(), dir.path);
            QVERIFY(file.filename().string().starts_with("renewal-desk-"));
            QVERIFY(file.filename().string().ends_with(".backup"));
            files.insert(file);
        }
        QVERIFY(!placed.empty());
        for (const auto &p : placed) {
            std::ifstream in(p);
            const std::string kept((std::istreambuf_iterator<char>(in)), {});
            QCOMPARE(kept, std::string("someone else's file"));
        }
        QCOMPARE(files.size(), std::size_t(3));
        QCOMPARE(scalar(source, "SELECT count(*) FROM database_backups"), 3LL);
        QVERIFY_THROWS_EXCEPTION(
            rd::InputError, rd::backupDatabase(source.conninfo(), *files.begin()));
    }

    // #42, item 6: a database whose audit chain is broken is backed up all the same, and the
    // file records the break with its broken state; the restore of that file verifies, with
    // exactly that break; a file whose manifest hides the break, or whose audits were altered
    // further, does not.
    void brokenChainIsRecordedAndRestoredAsRecorded()
    {
        rdtest::TestDatabase source("backup_broken_src");
        fillSmall(source, 5);
        const std::string row = breakOneChain(source);
        TempDir dir;
        const auto backup = rd::backupDatabase(source.conninfo(), dir.path / "broken.backup");
        const auto &m = backup.manifest;
        QVERIFY(m.chainsVerified);
        QVERIFY(!m.chainsIntact());
        QCOMPARE(m.chainBreaks.size(), std::size_t(1));
        const auto &recorded = m.chainBreaks.front();
        QCOMPARE(std::to_string(recorded.rowId), row);
        QCOMPARE(recorded.problem, std::string(rd::chain_problem::kAltered));
        {
            pqxx::connection conn(source.conninfo());
            pqxx::nontransaction q(conn);
            QCOMPARE(recorded.rowHash,
                q.exec1("SELECT row_hash FROM subscription_transition_audits WHERE id = " + row)[0]
                    .as<std::string>());
        }
        QVERIFY(recorded.contentHash.size() == 64 && recorded.contentHash != recorded.rowHash);
        QVERIFY(!recorded.previousRowHash.empty());
        QCOMPARE(m.auditRows,
            count(source.conninfo(), "SELECT count(*) FROM subscription_transition_audits")
                + count(source.conninfo(), "SELECT count(*) FROM reconciliation_case_history"));
        // On disk, read back as written (the backup log keeps it too).
        QCOMPARE(
            identities(rd::readBackupManifest(backup.file).chainBreaks), identities(m.chainBreaks));
        QVERIFY(rd::readBackupManifest(backup.file).chainsVerified);
        QCOMPARE(count(source.conninfo(),
                     "SELECT count(*) FROM database_backups WHERE jsonb_array_length(manifest -> "
                     "'chains' -> 'breaks') = 1"),
            1LL);

        // Restored: verified, broken exactly as recorded, and the copy's own verification
        // finds that break and no other.
        {
            rdtest::TestDatabase target("backup_broken_dst", false);
            const auto report = rd::restoreDatabase(backup.file, target.conninfo());
            QVERIFY2(report.verified(), differences(report).c_str());
            QVERIFY(report.brokenAsRecorded());
            QVERIFY(report.chainsAsRecorded());
            QCOMPARE(identities(report.verification.breaks), identities(m.chainBreaks));
            pqxx::connection conn(target.conninfo());
            QCOMPARE(identities(rd::verifyAuditChainsStreamed(conn, {}).breaks),
                identities(m.chainBreaks));
        }

        // The same file with its manifest claiming no break (or written before breaks were
        // recorded): refused, the break named.
        for (const bool older : {false, true}) {
            auto claimed = rd::readBackupManifest(backup.file);
            claimed.chainBreaks.clear();
            claimed.chainsVerified = !older;
            const auto edited = dir.path / (older ? "older.backup" : "claimed.backup");
            rd::writeBackupFile(edited, claimed, dumpOf(backup.file));
            rdtest::TestDatabase target("backup_broken_claimed", false);
            const auto report = rd::restoreDatabase(edited, target.conninfo());
            QVERIFY(!report.verified());
            QCOMPARE(identities(report.unrecordedBreaks), identities(m.chainBreaks));
            QVERIFY(report.recordedBreaksNotFound.empty());
            QVERIFY(report.migrationsApplied.empty());
        }

        // The audits altered further after the backup, re-forged under its manifest: the broken
        // row altered again, or the row before it rewritten with its hash recomputed (the chain
        // then breaks at the same row, for the same reason, but not in the same state).
        const std::vector<std::string> further {
            "UPDATE subscription_transition_audits SET actor_id = 'forged again' WHERE id = " + row,
            "UPDATE subscription_transition_audits a SET comment = 'forged' WHERE id = (SELECT "
            "p.id FROM subscription_transition_audits p, subscription_transition_audits b WHERE "
            "b.id = "
                + row
                + " AND p.subscription_id = b.subscription_id AND p.chain_seq = b.chain_seq - 1); "
                  "UPDATE subscription_transition_audits a SET row_hash = "
                  "rd_sha256_hex(rd_audit_canonical(a)) WHERE comment = 'forged'"};
        for (const auto &alteration : further) {
            const auto forged = forgeBackup(
                source, m, dir.path, {"SET session_replication_role = replica", alteration});
            rdtest::TestDatabase target("backup_broken_further", false);
            const auto report = rd::restoreDatabase(forged, target.conninfo());
            QVERIFY2(!report.verified(), alteration.c_str());
            QCOMPARE(identities(report.recordedBreaksNotFound), identities(m.chainBreaks));
            QVERIFY(!report.unrecordedBreaks.empty());
            QVERIFY(report.migrationsApplied.empty());
        }
    }

    // The CLI says it: db backup of broken chains writes the file, warns first on stderr and
    // exits 3; db restore of it verifies, warns and exits 3; a file that hides the break, 65.
    void brokenChainCommandLine()
    {
        rdtest::TestDatabase source("backup_broken_cli_src");
        fillSmall(source, 3);
        const std::string row = breakOneChain(source);
        TempDir dir;
        const auto backed = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(source,
                {"db", "backup", "--to", QString::fromStdString(dir.path.string() + "/"), "--json",
                    "--no-progress"}));
        QVERIFY2(backed.exitCode == 3, backed.err.constData());
        QVERIFY2(backed.err.startsWith("renewalctl: warning: the database's audit chains are "
                                       "broken (1 break): the backup was written"),
            backed.err.constData());
        QVERIFY2(backed.err.contains(QByteArray::fromStdString("taken with a chain broken: "))
                && backed.err.contains(
                    QByteArray::fromStdString("audit row " + row + " at position ")),
            backed.err.constData());
        const auto j = nlohmann::json::parse(backed.out.toStdString());
        QVERIFY(!j.at("chains").at("intact").get<bool>());
        QCOMPARE(
            std::to_string(j.at("chains").at("breaks").at(0).at("rowId").get<long long>()), row);
        const QString file = QString::fromStdString(j.at("file").get<std::string>());
        QVERIFY(QFileInfo::exists(file));
        // In words too.
        const auto text = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(source,
                {"db", "backup", "--to", QString::fromStdString((dir.path / "t.backup").string()),
                    "--no-progress"}));
        QCOMPARE(text.exitCode, 3);
        QVERIFY2(text.out.contains("audit chains: ") && text.out.contains("BROKEN, 1 break"),
            text.out.constData());

        rdtest::TestDatabase target("backup_broken_cli_dst", false);
        const QString dst = QString::fromStdString(target.conninfo());
        const auto restored = rdtest::runProgram(
            rdtest::ctl(), {"db", "restore", file, "--db", dst, "--no-progress"});
        QVERIFY2(restored.exitCode == 3, (restored.out + restored.err).constData());
        QVERIFY2(restored.out.contains("1 break, exactly the ones the backup recorded")
                && restored.out.contains(
                    "verified: the restored database is the backup's, its broken chains included"),
            restored.out.constData());
        QVERIFY2(restored.err.contains("renewalctl: warning: the backup was taken with its audit "
                                       "chains broken (1 break)"),
            restored.err.constData());

        auto claimed = rd::readBackupManifest(file.toStdString());
        claimed.chainBreaks.clear();
        const auto edited = dir.path / "claimed.backup";
        rd::writeBackupFile(edited, claimed, dumpOf(file.toStdString()));
        const auto refused = rdtest::runProgram(rdtest::ctl(),
            {"db", "restore", QString::fromStdString(edited.string()), "--db", dst, "--force",
                "--no-progress"});
        QCOMPARE(refused.exitCode, 65);
        QVERIFY2(refused.out.contains("NOT VERIFIED"), refused.out.constData());
        QVERIFY2(refused.err.contains(QByteArray::fromStdString("differs: chain: "))
                && refused.err.contains(QByteArray::fromStdString("audit row " + row)),
            refused.err.constData());
    }

    // #42, item 12: --to DIR/ of a directory that does not exist is made (0700) when its parent
    // is a directory; with a parent missing too, it is refused naming the missing part, and
    // nothing is made.
    void backupToMissingDirectory()
    {
        rdtest::TestDatabase source("backup_missing_dir");
        fillSmall(source, 1);
        TempDir dir;
        const auto leaf = dir.path / "nightly";
        const auto made = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(source,
                {"db", "backup", "--to", QString::fromStdString(leaf.string() + "/"), "--json",
                    "--no-progress"}));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        QVERIFY(fs::is_directory(leaf));
        QCOMPARE(fs::status(leaf).permissions() & fs::perms::all, fs::perms::owner_all);
        const auto file
            = nlohmann::json::parse(made.out.toStdString()).at("file").get<std::string>();
        QCOMPARE(fs::path(file).parent_path(), leaf);

        const auto deep = dir.path / "missing" / "nightly";
        const auto refused = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(source,
                {"db", "backup", "--to", QString::fromStdString(deep.string() + "/"),
                    "--no-progress"}));
        QCOMPARE(refused.exitCode, 65);
        QVERIFY2(refused.err.contains(QByteArray::fromStdString(
                     "no such directory: " + (dir.path / "missing").string() + " does not exist")),
            refused.err.constData());
        QVERIFY(!fs::exists(dir.path / "missing"));
        // A file's name in a directory that does not exist: the missing part named, too.
        const auto named = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(source,
                {"db", "backup", "--to",
                    QString::fromStdString((dir.path / "missing" / "a.backup").string()),
                    "--no-progress"}));
        QCOMPARE(named.exitCode, 65);
        QVERIFY2(named.err.contains(QByteArray::fromStdString(
                     "no such directory: " + (dir.path / "missing").string() + " does not exist")),
            named.err.constData());
        // A part of the path that is a file.
        writeAll(dir.path / "plain", "x");
        const auto underFile = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(source,
                {"db", "backup", "--to",
                    QString::fromStdString((dir.path / "plain" / "sub").string() + "/"),
                    "--no-progress"}));
        QCOMPARE(underFile.exitCode, 65);
        QVERIFY2(underFile.err.contains(QByteArray::fromStdString(
                     (dir.path / "plain").string() + " is a file, not a directory")),
            underFile.err.constData());
    }

    // renewalctl db backup / db restore, end to end: exit codes and what they say.
    void commandLine()
    {
        rdtest::TestDatabase source("backup_cli_src");
        fillSmall(source, 4);
        TempDir dir;
        const auto backed = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(source,
                {"db", "backup", "--to", QString::fromStdString(dir.path.string() + "/"),
                    "--json"}));
        QVERIFY2(backed.exitCode == 0, backed.err.constData());
        const auto j = nlohmann::json::parse(backed.out.toStdString());
        const std::string file = j.at("file").get<std::string>();
        QVERIFY2(QString::fromStdString(fs::path(file).filename().string())
                     .contains(QRegularExpression("^renewal-desk-\\d{8}-\\d{6}\\.backup$")),
            file.c_str());
        QCOMPARE(j.at("counts").at("subscription_billing_periods").get<long long>(), 4LL);
        QVERIFY(j.at("recorded").get<bool>());
        // The digest to keep is the whole file's: sha256sum's, and the backup log's.
        const std::string digest = j.at("fileSha256").get<std::string>();
        const std::string anchorDigest = j.at("anchorDigest").get<std::string>();
        {
            const auto sum = rdtest::runProgram(u"sha256sum"_qs, {QString::fromStdString(file)});
            QVERIFY2(
                sum.out.startsWith(QByteArray::fromStdString(digest + " ")), sum.out.constData());
        }
        QCOMPARE(scalar(source, "SELECT count(*) FROM database_backups"), 1LL);
        QCOMPARE(scalar(source,
                     "SELECT count(*) FROM database_backups WHERE file_sha256 = '" + digest + "'"),
            1LL);
        // Never over an existing file.
        const auto again = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(source, {"db", "backup", "--to", QString::fromStdString(file)}));
        QCOMPARE(again.exitCode, 65);
        QVERIFY2(again.err.contains("exists already"), again.err.constData());

        rdtest::TestDatabase target("backup_cli_dst", false);
        const QString dst = QString::fromStdString(target.conninfo());
        const QString f = QString::fromStdString(file);
        const auto restored = rdtest::runProgram(rdtest::ctl(),
            {"db", "restore", f, "--db", dst, "--digest", QString::fromStdString(digest)});
        QVERIFY2(restored.exitCode == 0, restored.err.constData());
        QVERIFY2(restored.out.contains("verified: the restored database is the backup's"),
            restored.out.constData());
        QVERIFY2(restored.out.contains("every head in place"), restored.out.constData());
        QVERIFY2(restored.out.contains(" privileges, definitions and constraints compared with "
                                       "the migrations', all alike"),
            restored.out.constData());

        const auto refused = rdtest::runProgram(rdtest::ctl(), {"db", "restore", f, "--db", dst});
        QCOMPARE(refused.exitCode, 4);
        QVERIFY2(refused.err.contains("refused (target_not_empty)"), refused.err.constData());

        const auto forced = rdtest::runProgram(
            rdtest::ctl(), {"db", "restore", f, "--db", dst, "--force", "--json"});
        QVERIFY2(forced.exitCode == 0, forced.err.constData());
        const auto fj = nlohmann::json::parse(forced.out.toStdString());
        QVERIFY(fj.at("verified").get<bool>());
        QVERIFY(fj.at("replaced").get<bool>());
        QCOMPARE(fj.at("counts").at("subscription_outbox").at("found").get<long long>(), 4LL);

        // A digest published for another backup; the anchor's digest, which does not cover
        // the file (#39, item 3: a file re-forged around the audit heads keeps it); a damaged
        // file.
        const auto otherDigest = rdtest::runProgram(rdtest::ctl(),
            {"db", "restore", f, "--db", dst, "--force", "--digest", QString(64, 'a')});
        QCOMPARE(otherDigest.exitCode, 65);
        QVERIFY2(otherDigest.err.contains("is not the one given"), otherDigest.err.constData());
        const auto anchorGiven = rdtest::runProgram(rdtest::ctl(),
            {"db", "restore", f, "--db", dst, "--force", "--digest",
                QString::fromStdString(anchorDigest)});
        QCOMPARE(anchorGiven.exitCode, 65);
        QVERIFY2(anchorGiven.err.contains("the digest given is the audit anchor's"),
            anchorGiven.err.constData());
        std::string bytes = readAll(file);
        bytes[bytes.size() - 10] ^= 0x01;
        const auto damaged = dir.path / "damaged.backup";
        writeAll(damaged, bytes);
        const auto bad = rdtest::runProgram(rdtest::ctl(),
            {"db", "restore", QString::fromStdString(damaged.string()), "--db", dst, "--force"});
        QCOMPARE(bad.exitCode, 65);
        QVERIFY2(bad.err.contains("digest mismatch"), bad.err.constData());

        // A file forged with a grant only (rows, anchor and chains as the backup's): exit 65,
        // the rule named, and the copy said to be migrated but not for use.
        {
            const auto forgedPath = forgeBackup(source, rd::readBackupManifest(file), dir.path,
                {"GRANT SELECT (raw_body) ON webhook_inbox TO renewal_viewer"});
            const auto forged = rdtest::runProgram(rdtest::ctl(),
                {"db", "restore", QString::fromStdString(forgedPath.string()), "--db", dst,
                    "--force"});
            QCOMPARE(forged.exitCode, 65);
            QVERIFY2(forged.out.contains("NOT VERIFIED") && forged.out.contains("1 differ"),
                forged.out.constData());
            QVERIFY2(forged.err.contains("differs: schema: column webhook_inbox.raw_body: restored")
                    && forged.err.contains("renewal_viewer=r/")
                    && forged.err.contains("do not use the restored copy"),
                forged.err.constData());
            pqxx::connection conn(source.conninfo());
            pqxx::nontransaction tx(conn);
            tx.exec0("REVOKE SELECT (raw_body) ON webhook_inbox FROM renewal_viewer");
        }

        // A forged file: restored, not verified, exit 65 naming what differs.
        const auto forgedPath = forgeBackup(source, rd::readBackupManifest(file), dir.path,
            {"SET session_replication_role = replica",
                "UPDATE subscription_transition_audits SET comment = 'forged' WHERE id = "
                "(SELECT max(id) FROM subscription_transition_audits)",
                "DELETE FROM subscription_outbox WHERE id = (SELECT id FROM "
                "subscription_outbox LIMIT 1)"});
        const auto forged = rdtest::runProgram(rdtest::ctl(),
            {"db", "restore", QString::fromStdString(forgedPath.string()), "--db", dst, "--force"});
        QCOMPARE(forged.exitCode, 65);
        QVERIFY2(forged.out.contains("NOT VERIFIED"), forged.out.constData());
        QVERIFY2(forged.err.contains("differs: chain: ") && forged.err.contains("altered")
                && forged.err.contains("differs: subscription_outbox: expected 4 rows, found 3"),
            forged.err.constData());

        // The target must be named, once.
        const auto noTarget = rdtest::runProgram(rdtest::ctl(), {"db", "restore", f});
        QCOMPARE(noTarget.exitCode, 64);
        QVERIFY2(noTarget.err.contains("needs its target"), noTarget.err.constData());
        const auto notAFile = rdtest::runProgram(rdtest::ctl(),
            {"db", "restore", QString::fromStdString(dir.path.string()), "--db", dst});
        QCOMPARE(notAFile.exitCode, 65);
        QVERIFY2(notAFile.err.contains("is a directory"), notAFile.err.constData());

        // A viewer may not back up (pg_dump reads the raw bodies): refused by the database,
        // no file left behind, and no password in what is said.
        const auto viewer = rdtest::loginAs(source, "backup_viewer", "viewer");
        const auto denied = rdtest::runProgram(rdtest::ctl(),
            {"db", "backup", "--db", QString::fromStdString(viewer + " password=s3cret-pw"), "--to",
                QString::fromStdString((dir.path / "viewer.backup").string())});
        QCOMPARE(denied.exitCode, 69);
        QVERIFY2(denied.err.contains("permission denied"), denied.err.constData());
        QVERIFY(!denied.err.contains("s3cret-pw"));
        QVERIFY(!fs::exists(dir.path / "viewer.backup"));
        QVERIFY(!fs::exists(dir.path / "viewer.backup.partial"));
    }
};

QTEST_GUILESS_MAIN(TestBackup)
#include "tst_backup.moc"
