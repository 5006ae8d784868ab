#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"

#include "domain/store/ledger_export.h"
#include "domain/store/migrator.h"

#include <pqxx/pqxx>

#include <QtTest>

#include <atomic>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using rdtest::scalar;

namespace {

/// A totals function over [from, to) and the plain GROUP BY over billing periods it stands
/// for, by the UTC day of `column`, as the rows that differ between them (none when they agree).
std::string differencesOf(const std::string &function, const std::string &column,
    const std::string &from, const std::string &to)
{
    const std::string day = "(" + column + " AT TIME ZONE 'UTC')::date";
    const std::string plain = "SELECT " + day
        + " AS day, provider_key, currency, "
          "recorded_by, count(*)::bigint AS renewals, sum(paid_amount_minor) AS amount_minor "
          "FROM subscription_billing_periods WHERE "
        + day + " >= '" + from + "'::date AND " + day + " < '" + to + "'::date GROUP BY 1, 2, 3, 4";
    const std::string totals = "SELECT * FROM " + function + "('" + from + "', '" + to + "')";
    return "SELECT count(*) FROM ((" + plain + " EXCEPT ALL " + totals + ") UNION ALL (" + totals
        + " EXCEPT ALL " + plain + ")) d";
}

/// By the day paid: renewal_totals (0016).
std::string differences(const std::string &from = "-infinity", const std::string &to = "infinity")
{
    return differencesOf("renewal_totals", "paid_at", from, to);
}

/// By the day the period starts: renewal_period_start_totals (0020).
std::string startDifferences(
    const std::string &from = "-infinity", const std::string &to = "infinity")
{
    return differencesOf("renewal_period_start_totals", "period_start", from, to);
}

/// Both bases agree with the billing periods, over all time and over the given ranges.
bool bothAgree(
    pqxx::connection &c, std::initializer_list<std::pair<const char *, const char *>> ranges = {})
{
    if (scalar(c, differences()) != 0 || scalar(c, startDifferences()) != 0)
        return false;
    for (const auto &[from, to] : ranges) {
        if (scalar(c, differences(from, to)) != 0 || scalar(c, startDifferences(from, to)) != 0)
            return false;
    }
    return true;
}

/// Inserts `n` billing periods for subscription `sub` (created when missing), in one statement:
/// monthly periods from `firstMonth` months after January 2026, paid `paidOffset` after their
/// start, in the given provider, currency and recorded_by.
void insertPeriods(pqxx::transaction_base &tx, const std::string &sub, const std::string &provider,
    const std::string &currency, const std::string &recordedBy, int firstMonth, int n,
    const std::string &paidOffset = "3 minutes")
{
    tx.exec_params("INSERT INTO subscriptions (provider_key, provider_subscription_id, status) "
                   "VALUES ($1, $2, 'active') ON CONFLICT DO NOTHING",
        provider, sub);
    tx.exec_params(
        "INSERT INTO subscription_billing_periods (subscription_id, provider_key, "
        "provider_renewal_key, provider_event_id, period_start, period_end, paid_amount_minor, "
        "currency, paid_at, recorded_by) "
        "SELECT s.id, s.provider_key, 'in_' || $2 || '_' || k, 'evt_' || $2 || '_' || k, "
        "timestamptz '2026-01-01 00:00Z' + k * interval '1 month', "
        "timestamptz '2026-01-01 00:00Z' + (k + 1) * interval '1 month', 1000 + k * 7, $3, "
        "timestamptz '2026-01-01 00:00Z' + k * interval '1 month' + CAST($6 AS interval), $4 "
        "FROM subscriptions s CROSS JOIN generate_series($5::int, $5::int + $7::int - 1) k "
        "WHERE s.provider_key = $1 AND s.provider_subscription_id = $2",
        provider, sub, currency, recordedBy, firstMonth, paidOffset, n);
}

} // namespace

/// The ledger's totals (migrations 0016, 0020): renewal_totals (by day paid) and
/// renewal_period_start_totals (by day the period starts) equal a plain GROUP BY over the
/// billing periods whether or not the deltas were folded, under concurrent renewals and folds;
/// the backfill counts what was there before; a viewer may read and fold but not write.
class TestLedgerTotals : public QObject
{
    Q_OBJECT

private slots:
    void totalsEqualAPlainGroupBy()
    {
        rdtest::TestDatabase db("ledgertotals_plain");
        auto conn = db.connect();
        {
            pqxx::work tx(*conn);
            insertPeriods(tx, "sub_a", "stripe-main", "USD", "webhook", 0, 12);
            insertPeriods(tx, "sub_b", "paddle-eu", "EUR", "operator", 0, 6);
            // Paid a second before midnight UTC: counted on the day before the period starts.
            insertPeriods(tx, "sub_c", "stripe-main", "JPY", "snapshot", 2, 5, "-1 second");
            tx.commit();
        }
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM renewal_total_deltas") > 0, true);
        QCOMPARE(scalar(*conn, differences()), 0LL);
        QCOMPARE(scalar(*conn, differences("2026-03-01", "2026-06-01")), 0LL);
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM renewal_totals('2026-02-28', '2026-03-01') "
                     "WHERE currency = 'JPY'"),
            1LL);
        // By period start the same JPY renewal counts on March 1st, in the next month.
        QCOMPARE(scalar(*conn, startDifferences()), 0LL);
        QCOMPARE(scalar(*conn, startDifferences("2026-03-01", "2026-06-01")), 0LL);
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM renewal_period_start_totals('2026-02-28', "
                     "'2026-03-01') WHERE currency = 'JPY'"),
            0LL);
        QCOMPARE(scalar(*conn,
                     "SELECT renewals FROM renewal_period_start_totals('2026-03-01', "
                     "'2026-03-02') WHERE currency = 'JPY'"),
            1LL);

        QVERIFY(scalar(*conn, "SELECT fold_renewal_totals()") > 0);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM renewal_total_deltas"), 0LL);
        QVERIFY(bothAgree(*conn, {{"2026-03-01", "2026-06-01"}}));
        // Folded totals plus new deltas for the same keys; and periods paid 40 days after
        // they start, in another month (and, for the last, another year).
        {
            pqxx::work tx(*conn);
            insertPeriods(tx, "sub_d", "stripe-main", "USD", "webhook", 0, 12);
            insertPeriods(tx, "sub_late", "paddle-eu", "EUR", "snapshot", 9, 3, "40 days");
            tx.commit();
        }
        QVERIFY(bothAgree(*conn,
            {{"2026-01-01", "2026-02-01"}, {"2026-11-01", "2026-12-01"},
                {"2026-12-01", "2027-01-01"}, {"2027-01-01", "2027-02-01"}}));
        QCOMPARE(scalar(*conn,
                     "SELECT sum(renewals) FROM renewal_period_start_totals('2026-12-01', "
                     "'2027-01-01') WHERE currency = 'EUR'"),
            1LL);
        QCOMPARE(scalar(*conn,
                     "SELECT sum(renewals) FROM renewal_totals('2026-12-01', "
                     "'2027-01-01') WHERE currency = 'EUR'"),
            1LL); // the one starting on November 1st
        scalar(*conn, "SELECT fold_renewal_totals()");
        QVERIFY(bothAgree(*conn,
            {{"2026-01-01", "2026-02-01"}, {"2026-12-01", "2027-01-01"},
                {"2027-01-01", "2027-02-01"}}));
        // A renewal rolled back leaves no delta.
        {
            pqxx::work tx(*conn);
            insertPeriods(tx, "sub_e", "stripe-main", "GBP", "import", 0, 3);
        }
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM renewal_totals('-infinity', 'infinity') "
                     "WHERE currency = 'GBP'"),
            0LL);
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM renewal_period_start_totals('-infinity', "
                     "'infinity') WHERE currency = 'GBP'"),
            0LL);
    }

    // A renewal appends one delta row, whose paid day and period-start day differ here: the
    // renewal path inserts, and updates no counter row (0016's promise, kept by 0020).
    void oneRenewalAppendsOneDeltaRow()
    {
        rdtest::TestDatabase db("ledgertotals_one_delta");
        auto conn = db.connect();
        {
            pqxx::work tx(*conn);
            insertPeriods(tx, "sub_a", "stripe-main", "USD", "webhook", 1, 1, "-1 second");
            tx.commit();
        }
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM renewal_total_deltas WHERE day = '2026-01-31' "
                     "AND period_start_day = '2026-02-01' AND renewals = 1"),
            1LL);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM renewal_total_deltas"), 1LL);
        QCOMPARE(scalar(*conn, "SELECT fold_renewal_totals()"), 1LL);
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM renewal_period_start_totals WHERE day = "
                     "'2026-02-01' AND renewals = 1 AND amount_minor = 1007"),
            1LL);
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM renewal_daily_totals WHERE day = '2026-01-31' "
                     "AND renewals = 1 AND amount_minor = 1007"),
            1LL);
    }

    // Every writer of billing periods is counted once (0023): the renewal core appends its own
    // delta row and the periods' trigger stands aside for it; every other writer is counted by
    // the trigger, whatever the session says in renewal_desk.core_counts.
    void everyWriterIsCountedOnce_data()
    {
        QTest::addColumn<QString>("statements"); // "; "-separated, as the owner
        QTest::addColumn<int>("periods");
        const QString february
            = "SELECT result FROM apply_successful_renewal('stripe-main', 'evt_feb', 'sub_1', "
              "'in_feb', NULL, '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z', 1999, 'USD', "
              "'2026-01-31T23:59:59Z', 'webhook', 'stripe-main')";
        QTest::newRow("the core") << february << 1;
        QTest::newRow("the core, the session saying off")
            << "SET renewal_desk.core_counts = 'off'; " + february << 1;
        QTest::newRow("the core, the session saying on")
            << "SET renewal_desk.core_counts = 'on'; " + february << 1;
        QTest::newRow("an operator's renewal through the core")
            << QString(february).replace("'webhook', 'stripe-main'", "'operator', 'alice'") << 1;
        // The waiting March renewal is applied by the same call, in the core's loop.
        QTest::newRow("the core healing a waiting renewal")
            << "SELECT record_reconciliation_case('{\"providerKey\":\"stripe-main\","
               "\"providerEventId\":\"evt_march\",\"providerSubscriptionId\":\"sub_1\","
               "\"providerRenewalKey\":\"in_march\",\"providerVersion\":null,\"period\":"
               "{\"start\":\"2026-03-01T00:00:00Z\",\"end\":\"2026-04-01T00:00:00Z\"},"
               "\"paidAmountMinor\":2999,\"currency\":\"USD\",\"paidAt\":"
               "\"2026-03-01T00:00:05Z\"}'::jsonb, 'renewal_period_is_not_contiguous', "
               "'{}'::jsonb); "
                + february
            << 2;
        const QString snapshot = QString::fromStdString(
            rdtest::februarySnapshotClaimingCoreCounts("2026-01-31T23:59:59Z"));
        QTest::newRow("a snapshot's renewal, the session saying on") << snapshot << 1;
        QTest::newRow("the owner's own insert")
            << "INSERT INTO subscription_billing_periods "
               "(subscription_id, provider_key, provider_renewal_key, provider_event_id, "
               "period_start, period_end, paid_amount_minor, currency, paid_at, recorded_by) "
               "SELECT id, provider_key, 'in_x', 'evt_x', '2026-05-01Z', '2026-06-01Z', 5, "
               "'USD', '2026-05-01Z', 'import' FROM subscriptions"
            << 1;
    }

    void everyWriterIsCountedOnce()
    {
        QFETCH(QString, statements);
        QFETCH(int, periods);
        rdtest::TestDatabase db("ledgertotals_writers");
        rdtest::importSubscriptions(
            db.conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
        auto conn = db.connect();
        {
            pqxx::nontransaction tx(*conn);
            for (const QString &statement : statements.split("; "))
                tx.exec(statement.toStdString());
        }
        QCOMPARE(
            scalar(*conn, "SELECT count(*) FROM subscription_billing_periods"), qint64(periods));
        // One delta row a period: the core's own, or the trigger's, never both.
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM renewal_total_deltas"), qint64(periods));
        QVERIFY(bothAgree(*conn, {{"2026-01-31", "2026-02-01"}, {"2026-02-01", "2026-03-01"}}));
        QCOMPARE(scalar(*conn, "SELECT fold_renewal_totals()"), qint64(periods));
        QVERIFY(bothAgree(*conn));
    }

    // Billing periods are facts: nothing, not even their owner, updates or deletes them, so
    // that the totals never drift from them.
    void billingPeriodsAreInsertOnly_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::newRow("update") << "UPDATE subscription_billing_periods SET paid_amount_minor = 1";
        QTest::newRow("delete") << "DELETE FROM subscription_billing_periods";
    }

    void billingPeriodsAreInsertOnly()
    {
        QFETCH(QString, sql);
        rdtest::TestDatabase db("ledgertotals_insert_only");
        auto conn = db.connect();
        {
            pqxx::work tx(*conn);
            insertPeriods(tx, "sub_a", "stripe-main", "USD", "webhook", 0, 2);
            tx.commit();
        }
        pqxx::work tx(*conn);
        try {
            tx.exec0(sql.toStdString());
            QFAIL("billing periods changed");
        } catch (const pqxx::sql_error &e) {
            QCOMPARE(QString::fromStdString(e.sqlstate()), QStringLiteral("RD004"));
        }
    }

    void viewerReadsAndFoldsButCannotWrite_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::newRow("insert a delta")
            << "INSERT INTO renewal_total_deltas VALUES ('2026-01-01', 'stripe-main', 'USD', "
               "'webhook', 1000, 1000)";
        QTest::newRow("insert a total")
            << "INSERT INTO renewal_daily_totals VALUES ('2026-01-01', 'x', 'USD', "
               "'webhook', 1000, 1000)";
        QTest::newRow("update totals") << "UPDATE renewal_daily_totals SET renewals = 0";
        QTest::newRow("delete deltas") << "DELETE FROM renewal_total_deltas";
        QTest::newRow("truncate totals") << "TRUNCATE renewal_daily_totals";
        QTest::newRow("insert a period-start total")
            << "INSERT INTO renewal_period_start_totals VALUES ('2026-01-01', 'x', 'USD', "
               "'webhook', 1000, 1000)";
        QTest::newRow("update period-start totals")
            << "UPDATE renewal_period_start_totals SET renewals = 0";
        QTest::newRow("call the trigger function") << "SELECT rd_billing_period_to_delta()";
    }

    /// `renewalctl ledger export --totals` (#28, items 9 and 10): the range's total per
    /// currency spans providers and months and equals a plain GROUP BY currency; every line
    /// says its basis and range.
    void exportedCurrencyTotalsSpanProviders_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to"); // included
        QTest::newRow("the year") << "2026-01-01"
                                  << "2026-12-31";
        QTest::newRow("a quarter") << "2026-03-01"
                                   << "2026-05-31";
        QTest::newRow("one day, the JPY paid before midnight") << "2026-02-28"
                                                               << "2026-02-28";
        QTest::newRow("nothing paid") << "2030-01-01"
                                      << "2030-01-31";
    }
    void exportedCurrencyTotalsSpanProviders()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        rdtest::TestDatabase db("ledgertotals_currency");
        auto conn = db.connect();
        {
            pqxx::work tx(*conn);
            insertPeriods(tx, "sub_a", "stripe-main", "USD", "webhook", 0, 12);
            insertPeriods(tx, "sub_b", "paddle-eu", "USD", "operator", 1, 6);
            insertPeriods(tx, "sub_c", "paddle-eu", "EUR", "webhook", 0, 9);
            insertPeriods(tx, "sub_d", "stripe-main", "JPY", "snapshot", 2, 5, "-1 second");
            tx.commit();
        }
        std::ostringstream out;
        rd::exportLedgerTotals(*conn, from.toStdString(), to.toStdString(), out);
        QStringList currencies;
        const QStringList lines
            = QString::fromStdString(out.str()).split(u'\n', Qt::SkipEmptyParts);
        for (const QString &line : lines.mid(1)) {
            const QStringList f = line.split(u',');
            QCOMPARE(f.size(), 19);
            QCOMPARE(f.mid(7, 6),
                QStringList({u"paid_at"_qs, from, to, u"all"_qs, u"all"_qs, u"all"_qs}));
            // No money back here: none refunded or disputed, the net the amount.
            QCOMPARE(f[14], u"0"_qs);
            QCOMPARE(f[16], u"0"_qs);
            QCOMPARE(f[17], f[5]);
            QCOMPARE(f[18], f[6]);
            if (f[0] == u"currency")
                currencies << QStringList {f[3], f[4], f[6]}.join(u'|');
        }
        const std::string expected = rdtest::text(db,
            "SELECT coalesce(string_agg(concat_ws('|', currency, n, amount), ',' ORDER BY "
            "currency), '') FROM (SELECT currency, count(*) AS n, sum(paid_amount_minor) AS "
            "amount FROM subscription_billing_periods WHERE (paid_at AT TIME ZONE 'UTC')::date "
            "BETWEEN '"
                + from.toStdString() + "' AND '" + to.toStdString() + "' GROUP BY currency) x");
        QCOMPARE(currencies.join(u','), QString::fromStdString(expected));
        if (from == u"2026-01-01")
            QVERIFY(currencies.size() == 3); // USD over two providers is one line
    }

    void viewerReadsAndFoldsButCannotWrite()
    {
        QFETCH(QString, sql);
        rdtest::TestDatabase db("ledgertotals_viewer");
        {
            auto conn = db.connect();
            pqxx::work tx(*conn);
            insertPeriods(tx, "sub_a", "stripe-main", "USD", "webhook", 0, 4);
            tx.commit();
        }
        pqxx::connection viewer(rdtest::loginAs(db, "viewer", "viewer"));
        QCOMPARE(scalar(viewer,
                     "SELECT sum(renewals) FROM renewal_totals('2026-01-01', "
                     "'2027-01-01')"),
            4LL);
        QCOMPARE(scalar(viewer,
                     "SELECT sum(renewals) FROM renewal_period_start_totals('2026-01-01', "
                     "'2027-01-01')"),
            4LL);
        QCOMPARE(scalar(viewer, "SELECT fold_renewal_totals()"), 4LL); // four days
        QCOMPARE(scalar(viewer, "SELECT count(*) FROM renewal_total_deltas"), 0LL);
        QCOMPARE(scalar(viewer, "SELECT sum(renewals) FROM renewal_period_start_totals"), 4LL);
        {
            pqxx::work tx(viewer);
            QVERIFY_THROWS_EXCEPTION(pqxx::sql_error, tx.exec0(sql.toStdString()));
        }
        auto conn = db.connect();
        QVERIFY(bothAgree(*conn));
    }

    // Renewals committed from several connections at once while others fold: every period is
    // counted once, whether it was folded, is still a delta, or was rolled back (never).
    void concurrentRenewalsAndFolds()
    {
        rdtest::TestDatabase db("ledgertotals_concurrent");
        constexpr int kWriters = 4;
        constexpr int kTransactions = 40;
        std::atomic<bool> writing {true};
        std::atomic<int> folds {0};
        std::atomic<int> failures {0};
        std::vector<std::thread> writers;
        for (int w = 0; w < kWriters; ++w) {
            writers.emplace_back([&, w] {
                try {
                    pqxx::connection c(db.conninfo());
                    const char *currencies[] = {"USD", "EUR", "JPY"};
                    const char *recorders[] = {"webhook", "operator", "snapshot", "import"};
                    for (int t = 0; t < kTransactions; ++t) {
                        pqxx::work tx(c);
                        // Some paid a second before the day the period starts (in the
                        // month before, for each of them), some weeks after.
                        const char *paid[] = {"3 minutes", "-1 second", "20 days"};
                        insertPeriods(tx, "sub_" + std::to_string(w) + "_" + std::to_string(t),
                            w % 2 ? "paddle-eu" : "stripe-main", currencies[t % 3],
                            recorders[(t + w) % 4], t % 12, 1 + t % 3, paid[(t + w) % 3]);
                        if (t % 7 == 6)
                            tx.abort(); // rolled back: must leave nothing
                        else
                            tx.commit();
                    }
                } catch (const std::exception &e) {
                    qWarning("writer: %s", e.what());
                    ++failures;
                }
            });
        }
        std::vector<std::thread> folders;
        for (int f = 0; f < 2; ++f) {
            folders.emplace_back([&] {
                try {
                    pqxx::connection c(db.conninfo());
                    while (writing) {
                        scalar(c, "SELECT fold_renewal_totals()");
                        ++folds;
                        // A reader between folds sees totals that match its snapshot, in
                        // both bases (each read is one statement, one snapshot).
                        if (scalar(c, differences()) != 0 || scalar(c, startDifferences()) != 0
                            || scalar(c, startDifferences("2026-03-01", "2026-04-01")) != 0)
                            ++failures;
                    }
                } catch (const std::exception &e) {
                    qWarning("folder: %s", e.what());
                    ++failures;
                }
            });
        }
        for (auto &t : writers)
            t.join();
        writing = false;
        for (auto &t : folders)
            t.join();
        QCOMPARE(failures.load(), 0);
        QVERIFY(folds.load() > 0);
        auto conn = db.connect();
        QVERIFY(scalar(*conn, "SELECT count(*) FROM subscription_billing_periods") > 100);
        QVERIFY(scalar(*conn,
                    "SELECT count(*) FROM subscription_billing_periods WHERE "
                    "(paid_at AT TIME ZONE 'UTC')::date <> (period_start AT TIME ZONE 'UTC')::date")
            > 20);
        QVERIFY(bothAgree(*conn, {{"2026-02-01", "2026-03-01"}, {"2026-12-01", "2027-01-01"}}));
        scalar(*conn, "SELECT fold_renewal_totals()");
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM renewal_total_deltas"), 0LL);
        QVERIFY(bothAgree(*conn, {{"2026-02-01", "2026-03-01"}, {"2026-12-01", "2027-01-01"}}));
    }

    // A database that had renewals before migration 0016 gets their totals with it.
    void migrationBackfillsExistingPeriods()
    {
        rdtest::TestDatabase db("ledgertotals_backfill", false);
        auto conn = db.connect();
        auto files = rd::loadMigrations(rd::defaultMigrationsDir());
        std::vector<rd::MigrationFile> before;
        for (const auto &f : files) {
            if (f.version < 16)
                before.push_back(f);
        }
        rd::migrate(*conn, before);
        {
            pqxx::work tx(*conn);
            insertPeriods(tx, "sub_old", "stripe-main", "USD", "webhook", 0, 12);
            insertPeriods(tx, "sub_eu", "paddle-eu", "EUR", "snapshot", 3, 4);
            tx.commit();
        }
        rd::migrate(*conn, files);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM renewal_total_deltas"), 0LL);
        QCOMPARE(scalar(*conn, "SELECT sum(renewals) FROM renewal_daily_totals"), 16LL);
        QCOMPARE(scalar(*conn, differences()), 0LL);
        QCOMPARE(scalar(*conn, startDifferences()), 0LL);
    }

    // A database at 0019 with renewals folded and renewals still deltas (which do not know
    // their period-start day) gets both bases right with 0020.
    void periodStartMigrationBackfillsFoldedAndUnfolded()
    {
        rdtest::TestDatabase db("ledgertotals_backfill_start", false);
        auto conn = db.connect();
        auto files = rd::loadMigrations(rd::defaultMigrationsDir());
        std::vector<rd::MigrationFile> before;
        for (const auto &f : files) {
            if (f.version < 20)
                before.push_back(f);
        }
        QVERIFY(before.size() < files.size());
        rd::migrate(*conn, before);
        {
            pqxx::work tx(*conn);
            insertPeriods(tx, "sub_old", "stripe-main", "USD", "webhook", 0, 12, "-1 second");
            tx.commit();
        }
        scalar(*conn, "SELECT fold_renewal_totals()");
        {
            pqxx::work tx(*conn);
            insertPeriods(tx, "sub_eu", "paddle-eu", "EUR", "snapshot", 3, 4, "35 days");
            insertPeriods(tx, "sub_more", "stripe-main", "USD", "webhook", 0, 3);
            tx.commit();
        }
        QVERIFY(scalar(*conn, "SELECT count(*) FROM renewal_total_deltas") > 0);
        rd::migrate(*conn, files);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM renewal_total_deltas"), 0LL);
        QCOMPARE(scalar(*conn, "SELECT sum(renewals) FROM renewal_period_start_totals"), 19LL);
        QVERIFY(bothAgree(*conn, {{"2026-01-01", "2026-02-01"}, {"2026-05-01", "2026-06-01"}}));
        // And new renewals after it, in both.
        {
            pqxx::work tx(*conn);
            insertPeriods(tx, "sub_new", "paddle-eu", "EUR", "webhook", 5, 2, "-1 second");
            tx.commit();
        }
        QVERIFY(bothAgree(*conn, {{"2026-05-01", "2026-06-01"}, {"2026-06-01", "2026-07-01"}}));
    }
};

QTEST_GUILESS_MAIN(TestLedgerTotals)
#include "tst_ledgertotals.moc"
