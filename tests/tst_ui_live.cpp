#include "tests/support/process_runner.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"
#include "ui/models/ledgermodel.h"
#include "ui/models/ledgertotals.h"
#include "ui/models/liveupdates.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/casespage.h"
#include "ui/widgets/ledgerpage.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/newrowsbar.h"
#include "ui/widgets/outboxpage.h"
#include "ui/widgets/subscriptionspage.h"
#include "ui/widgets/tableview.h"

#include "domain/core/renewal_event.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/migrator.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <filesystem>
#include <unistd.h>

#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

/// Live updates: a renewal applied by a separate `renewalctl apply` process reaches an open
/// desk through NOTIFY, and the list refreshes in place.
class TestUiLive : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

    rdtest::RunResult apply(const rd::SuccessfulRenewalEvent &event)
    {
        return rdtest::runProgram(rdtest::ctl(),
            {u"apply"_qs, u"--db"_qs, QString::fromStdString(m_db->conninfo())},
            QByteArray::fromStdString(rd::toJson(event).dump() + "\n"));
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_db = std::make_unique<rdtest::TestDatabase>(QTest::currentTestFunction());
        rdtest::importSubscriptions(m_db->conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_0") + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_1") + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_2"));
    }

    void cleanup() { m_db.reset(); }

    /// #13 items 3 and 7: "● live" says which views follow changes: all of them, the Inbox too.
    void liveIndicatorSaysWhichViewsFollow()
    {
        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.liveUpdates()->isConnected(); }, 10000));
        auto *live = window.findChild<QLabel *>(u"live-indicator"_qs);
        QVERIFY(live);
        QVERIFY(live->text().contains(u"live"_qs));
        QVERIFY2(live->toolTip().contains(
                     u"Overview, Subscriptions, Ledger, Cases, Inbox and Outbox follow"_qs),
            qPrintable(live->toolTip()));
        QVERIFY2(!live->toolTip().contains(u"does not"_qs), qPrintable(live->toolTip()));
    }

    /// Help › About (#14): the desk's version (project() in CMakeLists.txt), the Qt it runs on,
    /// and the server's version and newest migration as the database itself states them.
    void aboutNamesTheVersions()
    {
        auto conn = m_db->connect();
        pqxx::nontransaction tx(*conn);
        const auto server = tx.exec1("SHOW server_version")[0].as<std::string>();
        const auto newest
            = tx.exec1("SELECT version::text || ' (' || name || ')' FROM schema_migrations "
                       "ORDER BY version DESC LIMIT 1")[0]
                  .as<std::string>();

        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        auto future = window.readDatabaseFacts();
        QVERIFY(QTest::qWaitFor([&] { return future.isFinished(); }, 10000));
        const auto facts = future.result();
        QCOMPARE(facts.serverVersion, QString::fromStdString(server));
        QCOMPARE(facts.schemaVersion, QString::fromStdString(newest));

        window.showAbout();
        auto *box = window.findChild<QMessageBox *>(u"about-box"_qs);
        QVERIFY(box);
        QTRY_VERIFY2(box->text().contains(QString::fromStdString(newest).toHtmlEscaped()),
            qPrintable(box->text()));
        QVERIFY(
            box->text().contains(u"Renewal Desk "_qs + QString::fromLatin1(RD_PROJECT_VERSION)));
        QVERIFY(box->text().contains(QString::fromLatin1(qVersion())));
        QVERIFY(box->text().contains(QString::fromStdString(server)));
        // A database without a migration history says so rather than guessing.
        QVERIFY(window.aboutText({u"15.0"_qs, {}}).contains(u"no migrations recorded"_qs));
    }

    void renewalFromAnotherProcessShowsUpInPlace()
    {
        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.show();
        auto *page = window.subscriptionsPage();
        auto *model = page->model();
        QVERIFY(QTest::qWaitFor([&] { return model->loadedRows() == 3; }, 10000));
        QVERIFY(QTest::qWaitFor([&] { return window.liveUpdates()->isConnected(); }, 10000));
        page->table()->selectRow(1);
        QCOMPARE(model->index(1, rd::ui::SubscriptionsModel::SubscriptionColumn).data().toString(),
            u"sub_1"_qs);
        const QModelIndex period = model->index(1, rd::ui::SubscriptionsModel::PeriodColumn);
        const QString before = period.data().toString();
        QSignalSpy changed(window.liveUpdates(), &rd::ui::LiveUpdates::subscriptionChanged);
        QSignalSpy reset(model, &QAbstractItemModel::modelReset);

        const auto r = apply(rdtest::februaryRenewal("sub_1"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY(changed.wait(10000));
        QVERIFY(QTest::qWaitFor(
            [&] {
                return model->index(1, rd::ui::SubscriptionsModel::PeriodColumn).data() != before;
            },
            10000));
        QVERIFY2(model->index(1, rd::ui::SubscriptionsModel::PeriodColumn)
                     .data()
                     .toString()
                     .startsWith(u"1 Feb → 1 Mar"_qs),
            qPrintable(
                model->index(1, rd::ui::SubscriptionsModel::PeriodColumn).data().toString()));
        // In place: no reset, the same row still selected.
        QCOMPARE(reset.size(), 0);
        QCOMPARE(page->table()->selectionModel()->selectedRows().value(0).row(), 1);
        QCOMPARE(page->currentSubscriptionId(),
            model->index(1, 0).data(int(rd::ui::Role::Key)).toString());
    }

    /// The Ledger follows renewals recorded elsewhere: in place while shown (its list and its
    /// totals), and on being shown again after one was recorded while it was hidden.
    void ledgerFollowsRenewalsRecordedElsewhere()
    {
        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.liveUpdates()->isConnected(); }, 10000));
        window.showPage(window.ledgerPage());
        auto *ledger = window.ledgerPage();
        rd::ui::LedgerFilter all;
        all.from = QDate(2000, 1, 1);
        all.to = QDate(2100, 1, 1);
        ledger->setFilter(all);
        auto *model = ledger->model();
        auto renewals = [&] {
            qint64 n = 0;
            for (const auto &t : ledger->totals().months)
                n += t.renewals;
            return n;
        };
        QVERIFY(QTest::qWaitFor([&] { return !model->isLoading(); }, 10000));
        QCOMPARE(model->loadedRows(), 0);

        QCOMPARE(apply(rdtest::februaryRenewal("sub_1", "evt_l1", "in_l1")).exitCode, 0);
        QVERIFY2(
            QTest::qWaitFor([&] { return model->loadedRows() == 1 && renewals() == 1; }, 15000),
            qPrintable(u"%1 rows, %2 renewals"_qs.arg(model->loadedRows()).arg(renewals())));

        window.showPage(window.subscriptionsPage());
        QSignalSpy changed(window.liveUpdates(), &rd::ui::LiveUpdates::subscriptionChanged);
        QCOMPARE(apply(rdtest::februaryRenewal("sub_2", "evt_l2", "in_l2")).exitCode, 0);
        QVERIFY(changed.size() > 0 || changed.wait(10000));
        QTest::qWait(500); // the list refresh's delay: the hidden Ledger is not read now
        QCOMPARE(model->loadedRows(), 1);
        window.showPage(window.ledgerPage());
        QVERIFY2(
            QTest::qWaitFor([&] { return model->loadedRows() == 2 && renewals() == 2; }, 15000),
            qPrintable(u"%1 rows, %2 renewals"_qs.arg(model->loadedRows()).arg(renewals())));
    }

    void rejectedRenewalRaisesTheCaseCount()
    {
        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        QVERIFY(QTest::qWaitFor([&] { return window.liveUpdates()->isConnected(); }, 10000));
        QCOMPARE(window.casesPage()->openCount(), 0);
        auto event = rdtest::februaryRenewal("sub_2");
        event.period.start = *rd::parseRfc3339("2026-03-02T00:00:00Z"); // a gap of 29 days
        event.period.end = *rd::parseRfc3339("2026-04-02T00:00:00Z");
        const auto r = apply(event);
        QCOMPARE(r.exitCode, 3); // rejected
        QVERIFY(QTest::qWaitFor([&] { return window.casesPage()->openCount() == 1; }, 10000));
        QCOMPARE(window.casesPage()->model()->rowCount(), 1);
    }

    /// #28 item 11: a case that arrives while the queue is at the top is shown at the top;
    /// cases that arrive while it is scrolled down are announced, "3 new", and Show selects the
    /// first of them. Another scope is another list, not arrivals.
    void newCasesAreShownOrAnnounced()
    {
        const auto addCases = [&](int from, int to, const char *seen) {
            auto conn = m_db->connect();
            pqxx::nontransaction(*conn).exec0(
                "INSERT INTO reconciliation_cases (provider_key, provider_subscription_id, "
                "provider_renewal_key, first_provider_event_id, last_provider_event_id, "
                "error_code, event, event_fingerprint, local_state, first_seen_at, last_seen_at) "
                "SELECT 'stripe-main', 'sub_case_' || i, 'in_case_' || i, 'evt_c' || i, "
                "'evt_c' || i, 'renewal_period_is_not_contiguous', '{}', md5(i::text), '{}', "
                + std::string(seen) + ", " + seen + " FROM generate_series(" + std::to_string(from)
                + ", " + std::to_string(to) + ") i");
        };
        addCases(1, 60, "now() - interval '1 day' - i * interval '1 minute'");
        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.resize(1024, 700);
        window.show();
        window.showPage(window.casesPage());
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(QTest::qWaitFor([&] { return window.liveUpdates()->isConnected(); }, 10000));
        auto *cases = window.casesPage();
        QVERIFY(QTest::qWaitFor([&] { return cases->model()->rowCount() == 60; }, 10000));
        auto *bar = cases->newRowsBar();
        QVERIFY(bar->isHidden());
        const auto topKey
            = [&] { return cases->model()->index(0, 0).data(int(rd::ui::Role::Key)).toString(); };

        // At the top: the newest shows first.
        addCases(61, 61, "now()");
        QVERIFY(QTest::qWaitFor([&] { return cases->model()->rowCount() == 61; }, 10000));
        const QString newest = topKey();
        QCOMPARE(QString::fromStdString(rdtest::text(*m_db,
                     "SELECT id FROM reconciliation_cases WHERE provider_subscription_id = "
                     "'sub_case_61'")),
            newest);
        QTest::qWait(50);
        QVERIFY(bar->isHidden());

        // Scrolled down: announced.
        cases->table()->scrollToBottom();
        QVERIFY(cases->table()->verticalScrollBar()->value() > 0);
        addCases(62, 64, "now()");
        QVERIFY(QTest::qWaitFor([&] { return cases->model()->rowCount() == 64; }, 10000));
        QVERIFY(QTest::qWaitFor([&] { return bar->isVisible(); }, 5000));
        QCOMPARE(bar->text(), u"3 new"_qs);
        const QString first = bar->newKeys().value(0);
        bar->showButton()->click();
        QVERIFY(bar->isHidden());
        QCOMPARE(cases->currentCase(), first.toLongLong());
        const QRect shown
            = cases->table()->visualRect(cases->model()->index(cases->model()->rowOfKey(first), 0));
        QVERIFY(cases->table()->viewport()->rect().intersects(shown));
    }

    /// View › Export current table as CSV writes the table that has focus (never a table on
    /// a hidden tab), named after it, in machine form: ISO 8601 UTC instants (µs when
    /// present), a period as start and end, an amount as a plain decimal in major units with
    /// its currency code and its minor units, ids whole.
    void exportWritesTheFocusedTableInMachineForm()
    {
        auto yen = rdtest::februaryRenewal("sub_0", "evt_0", "in_0");
        yen.paidAmountMinor = 1500;
        yen.currency = "JPY";
        QCOMPARE(apply(yen).exitCode, 0);
        auto dinar = rdtest::februaryRenewal("sub_1", "evt_1", "in_1");
        dinar.paidAmountMinor = 12500;
        dinar.currency = "KWD";
        QCOMPARE(apply(dinar).exitCode, 0);

        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.resize(1200, 800);
        window.show();
        window.showPage(window.subscriptionsPage()); // the desk opens on the Overview
        auto *page = window.subscriptionsPage();
        QVERIFY(QTest::qWaitFor([&] { return page->model()->loadedRows() == 3; }, 10000));
        page->table()->selectRow(0);
        QVERIFY(QTest::qWaitFor([&] { return !page->currentSubscriptionId().isEmpty(); }, 10000));
        auto *periods = window.findChild<rd::ui::TableView *>(u"billing-periods"_qs);
        QVERIFY(periods);
        QVERIFY(QTest::qWaitFor([&] { return periods->model()->rowCount() == 1; }, 10000));
        const QString uuid = page->model()->index(0, 0).data(int(rd::ui::Role::Key)).toString();
        QCOMPARE(uuid.size(), 36);

        const auto read = [](const QString &path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
        };
        QTemporaryDir dir;
        QVERIFY(dir.isValid());

        // The list has focus: the list is exported, not the detail's hidden Outbox tab.
        page->table()->setFocus();
        QCOMPARE(window.tableToExport(), page->table());
        QCOMPARE(window.tableToExport()->exportFileName(), u"subscriptions.csv"_qs);
        const QString list = dir.filePath(u"list.csv"_qs);
        QString error;
        QVERIFY2(window.tableToExport()->exportCsv(list, &error), qPrintable(error));
        const QStringList lines = read(list).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0],
            u"Provider,Subscription,Internal id,Status,Cancels at end,Current period start,"
            "Current period end,Last renewal,Last renewal key,Amount,Amount currency,Amount minor "
            "units,"
            "Open cases,Next step"_qs);
        // Their periods ended long ago with no renewal since: overdue, with the next step.
        const QString step = u",\"Import or fetch a statement, or attach a snapshot: stripe-main "
                             "has no renewal recorded for the period that ended "
                             "2026-03-01T00:00:00Z\""_qs;
        QCOMPARE(lines[1],
            u"stripe-main,sub_0,%1,active,false,2026-02-01T00:00:00Z,2026-03-01T00:00:00Z,"
            "2026-02-01T00:03:12.345678Z,in_0,1500,JPY,1500,0"_qs.arg(uuid)
                + step);
        QVERIFY2(lines[2].endsWith(u",active,false,2026-02-01T00:00:00Z,2026-03-01T00:00:00Z,"
                                   "2026-02-01T00:03:12.345678Z,in_1,12.500,KWD,"
                                   "12500,0"_qs
                     + step),
            qPrintable(lines[2]));
        QVERIFY2(lines[3].contains(u",2026-01-01T00:00:00Z,2026-02-01T00:00:00Z,,,,,,0,"_qs),
            qPrintable(lines[3]));
        // "Last renewal" shows when the latest period was paid, its renewal key in the tooltip.
        const QModelIndex last
            = page->model()->index(0, rd::ui::SubscriptionsModel::LastRenewalColumn);
        const QDateTime paidAt
            = QDateTime::fromString(u"2026-02-01T00:03:12.345678Z"_qs, Qt::ISODateWithMs);
        QCOMPARE(last.data().toString(),
            QLocale().toString(paidAt.toLocalTime().date(), u"d MMM yyyy"_qs));
        QVERIFY2(last.data(Qt::ToolTipRole).toString().contains(u"in_0"_qs),
            qPrintable(last.data(Qt::ToolTipRole).toString()));
        // Ctrl+C keeps what the screen shows.
        page->table()->selectRow(0);
        QVERIFY(page->table()->selectionAsText().contains(u"¥1,500"_qs));

        // The billing periods have focus: they are exported.
        periods->setFocus();
        QCOMPARE(window.tableToExport(), periods);
        QCOMPARE(periods->exportFileName(), u"billing-periods.csv"_qs);
        const QString billed = dir.filePath(u"periods.csv"_qs);
        QVERIFY2(window.tableToExport()->exportCsv(billed, &error), qPrintable(error));
        QCOMPARE(read(billed),
            u"Period start,Period end,Paid,Paid currency,Paid minor units,Renewal key,Paid at,"
            "Recorded by,Provider event,Money back,Money back minor units\n"
            "2026-02-01T00:00:00Z,2026-03-01T00:00:00Z,1500,JPY,1500,in_0,"
            "2026-02-01T00:03:12.345678Z,cli,evt_0,,\n"_qs);

        // Focus on no table: the current page's main list.
        window.findChild<QWidget *>(u"id-search"_qs)->setFocus();
        QCOMPARE(window.tableToExport(), page->table());
        window.showPage(window.outboxPage());
        QCOMPARE(window.tableToExport(), window.outboxPage()->table());
    }

    void layoutIsRemembered()
    {
        QSettings().clear();
        QList<int> sizes;
        {
            rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
            window.resize(1000, 700);
            window.show();
            auto *split = window.findChild<QSplitter *>(u"subscriptions-split"_qs);
            QVERIFY(split);
            split->setSizes({200, 450});
            sizes = split->sizes();
            window.close(); // saves the layout
        }
        QVERIFY(QSettings().contains(u"splitters/subscriptions-split"_qs));
        QVERIFY(QSettings().contains(u"tables/subscriptions"_qs));
        rd::ui::MainWindow again(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        again.resize(1000, 700);
        again.show();
        QCOMPARE(again.findChild<QSplitter *>(u"subscriptions-split"_qs)->sizes(), sizes);
        again.close();
        QSettings().clear();
    }

    void connectionLossShowsABannerAndRecovers()
    {
        // A server of its own, to stop and start without disturbing the other tests.
        const std::filesystem::path root = "/tmp/rd-ui-lost-" + std::to_string(getpid());
        rd::EmbeddedCluster cluster(root);
        cluster.start();
        const std::string conninfo = cluster.connectionString();
        {
            pqxx::connection conn(conninfo);
            rd::migrate(conn, rd::loadMigrations(rd::defaultMigrationsDir()),
                rd::loadRepeatables(rd::defaultMigrationsDir()));
        }
        rdtest::importSubscriptions(conninfo, rdtest::subscriptionLine("stripe-main", "sub_1"));
        {
            rd::ui::MainWindow window(QString::fromStdString(conninfo), u"own cluster"_qs);
            auto *banner = window.findChild<QLabel *>(u"connection-banner"_qs);
            QVERIFY(banner);
            QVERIFY(QTest::qWaitFor([&] { return window.liveUpdates()->isConnected(); }, 10000));
            QVERIFY(banner->isHidden());
            QVERIFY(QTest::qWaitFor(
                [&] { return window.subscriptionsPage()->model()->loadedRows() == 1; }, 10000));

            cluster.stop();
            QVERIFY(QTest::qWaitFor([&] { return !banner->isHidden(); }, 15000));
            QVERIFY(banner->text().contains(u"Reconnecting"_qs));

            QSignalSpy loaded(
                window.subscriptionsPage()->model(), &rd::ui::PagedTableModel::pageLoaded);
            QSignalSpy failed(
                window.subscriptionsPage()->model(), &rd::ui::PagedTableModel::loadFailed);
            cluster.start();
            QVERIFY(QTest::qWaitFor([&] { return window.liveUpdates()->isConnected(); }, 15000));
            QVERIFY(banner->isHidden());
            // The readers reconnect too: the list is re-read by the automatic refresh.
            QVERIFY(QTest::qWaitFor([&] { return !loaded.isEmpty(); }, 15000));
            QCOMPARE(failed.size(), 0);
            QCOMPARE(window.subscriptionsPage()->model()->loadedRows(), 1);
        }
        cluster.stop();
        std::error_code ec;
        std::filesystem::remove_all(root, ec);
    }
};

QTEST_MAIN(TestUiLive)
#include "tst_ui_live.moc"
