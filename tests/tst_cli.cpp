#include "tests/support/process_runner.h"
#include "tests/support/test_database.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QElapsedTimer>
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

    void applyReportsEachLineAndStopsAtBadInput()
    {
        rdtest::TestDatabase db("cli_apply");
        rdtest::importSubscriptions(
            db.conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
        QByteArray input
            = eventLine("evt_1", "in_1", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z")
            + eventLine("evt_2", "in_1", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z")
            + QByteArray(R"({"providerKey":"stripe-main","currency":"dollars"})") + "\n"
            + eventLine("evt_3", "in_2", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z");
        const auto r = runProgram(ctl(), withDb(db, {"apply"}), input);
        QCOMPARE(r.exitCode, 65);
        QVERIFY2(r.err.contains("line 3: providerEventId: missing"), r.err.constData());
        const auto lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QCOMPARE(nlohmann::json::parse(lines[0].toStdString())["result"], "applied");
        QCOMPARE(nlohmann::json::parse(lines[1].toStdString())["result"], "duplicate");
        // Earlier lines stay applied; nothing after the bad line ran.
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 1LL);
    }

    // The audit's finding 6: a valid RFC 3339 timestamp whose UTC instant PostgreSQL cannot
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
        QVERIFY(r.out.isEmpty());
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 0LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM reconciliation_cases"), 0LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_outbox"), 0LL);
        QCOMPARE(scalar(db, "SELECT max(revision) FROM subscriptions"), 1LL);
    }

    // The first and last storable instants go through PostgreSQL and come back unchanged.
    void applyStoresTheExtremeInstantsExactly()
    {
        rdtest::TestDatabase db("cli_apply_extremes");
        rdtest::importSubscriptions(db.conninfo(),
            rdtest::subscriptionLine(
                "stripe-main", "sub_1", "active", "0001-01-01T00:00:00Z", "2026-02-01T00:00:00Z"));
        auto event = nlohmann::json::parse(
            eventLine("evt_1", "in_1", "2026-02-01T00:00:00Z", "9999-12-31T23:59:59.999999Z")
                .toStdString());
        event["paidAt"] = "0000-12-31T23:00:00-01:00"; // 0001-01-01T00:00:00Z
        const auto r = runProgram(
            ctl(), withDb(db, {"apply"}), QByteArray::fromStdString(event.dump() + "\n"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(nlohmann::json::parse(r.out.toStdString())["result"], "applied");
        auto conn = db.connect();
        pqxx::read_transaction tx(*conn);
        const auto row = tx.exec1("SELECT rd_rfc3339(b.paid_at), rd_rfc3339(s.current_period_end) "
                                  "FROM subscription_billing_periods b JOIN subscriptions s ON "
                                  "s.id = b.subscription_id");
        QCOMPARE(row[0].as<std::string>(), std::string("0001-01-01T00:00:00.000000Z"));
        QCOMPARE(row[1].as<std::string>(), std::string("9999-12-31T23:59:59.999999Z"));
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
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
