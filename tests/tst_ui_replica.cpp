#include "tests/support/fixture_files.h"
#include "tests/support/process_runner.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"
#include "ui/models/liveupdates.h"
#include "ui/models/pagedtablemodel.h"
#include "ui/models/subscriptionsmodel.h"
#include "ui/widgets/casespage.h"
#include "ui/widgets/inboxpage.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/subscriptiondetailwidget.h"
#include "ui/widgets/subscriptionspage.h"
#include "ui/widgets/tableview.h"

#include "domain/store/embedded_cluster.h"
#include "domain/store/migrator.h"
#include "domain/store/process.h"
#include "domain/store/provider_registry.h"

#include <pqxx/pqxx>

#include <QAbstractItemModelTester>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <memory>
#include <unistd.h>

namespace fs = std::filesystem;

/// The desk on a read replica (#15): a real primary and a real streaming standby made from it
/// with `pg_basebackup -R`, each on its own socket in a temporary directory. On the standby the
/// desk says it is a read-only replica, every action is disabled with the reason in its
/// tooltip, and what the primary commits (a renewal, a delivery, a redelivery, a case closed)
/// shows up without anybody refreshing: NOTIFY never reaches a standby, so it polls.
class TestUiReplica : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<rd::EmbeddedCluster> m_primary;
    std::unique_ptr<rd::EmbeddedCluster> m_standby;
    std::string m_primaryDb;
    std::string m_standbyDb;
    qint64 m_caseId = 0;

    static std::string scalarText(const std::string &conninfo, const std::string &sql)
    {
        pqxx::connection conn(conninfo);
        pqxx::nontransaction tx(conn);
        const auto f = tx.exec1(sql)[0];
        return f.is_null() ? std::string("<null>") : f.as<std::string>();
    }

    rdtest::RunResult onPrimary(const QStringList &args, const std::string &input = {})
    {
        return rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(m_primaryDb, args), QByteArray::fromStdString(input));
    }

    /// Waits until the standby has replayed everything the primary wrote so far.
    bool standbyCaughtUp()
    {
        const std::string lsn = scalarText(m_primaryDb, "SELECT pg_current_wal_lsn()::text");
        return QTest::qWaitFor(
            [&] {
                return scalarText(
                           m_standbyDb, "SELECT pg_last_wal_replay_lsn() >= '" + lsn + "'::pg_lsn")
                    == "t";
            },
            20000);
    }

    static QList<QPushButton *> actionButtons(rd::ui::CasesPage *page)
    {
        QList<QPushButton *> buttons;
        for (QPushButton *b : page->findChildren<QPushButton *>()) {
            if (b->text() != u"Open subscription")
                buttons << b;
        }
        return buttons;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // Short paths (a socket path has at most 107 bytes), traversable by the account the
        // servers run as when the test runs as root.
        m_dir = std::make_unique<QTemporaryDir>(u"/tmp/rd-replica-XXXXXX"_qs);
        QVERIFY(m_dir->isValid());
        fs::permissions(m_dir->path().toStdString(),
            fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec,
            fs::perm_options::replace);
        const fs::path root = m_dir->path().toStdString();

        m_primary = std::make_unique<rd::EmbeddedCluster>(root / "primary");
        m_primary->start();
        m_primaryDb = m_primary->connectionString();
        {
            pqxx::connection conn(m_primaryDb);
            rd::migrate(conn, rd::loadMigrations(rd::defaultMigrationsDir()),
                rd::loadRepeatables(rd::defaultMigrationsDir()));
            rd::registerBillingProvider(conn, "stripe-main", rd::ProviderKind::Stripe, "Stripe");
        }
        rdtest::importSubscriptions(m_primaryDb,
            rdtest::subscriptionLine(
                "stripe-main", "sub_1", "active", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z")
                + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_2", "active", "2026-01-01T00:00:00Z",
                    "2026-02-01T00:00:00Z")
                + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_inbox", "active",
                    "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z"));
        // An open case (a gap of 29 days), so that the case actions are there to be disabled.
        auto gap = rdtest::februaryRenewal("sub_2", "evt_gap", "in_gap");
        gap.period = {
            *rd::parseRfc3339("2026-03-02T00:00:00Z"), *rd::parseRfc3339("2026-04-02T00:00:00Z")};
        QCOMPARE(onPrimary({u"apply"_qs}, rd::toJson(gap).dump() + "\n").exitCode, 3);
        m_caseId = std::stoll(scalarText(m_primaryDb, "SELECT max(id) FROM reconciliation_cases"));

        // The standby: a base backup of the primary, streaming from it (-R writes
        // primary_conninfo and standby.signal), on a socket of its own.
        const fs::path standbyRoot = root / "standby";
        fs::create_directories(standbyRoot);
        const auto account = m_primary->serverAccount();
        if (account)
            QCOMPARE(::chown(standbyRoot.c_str(), account->uid, account->gid), 0);
        const fs::path bin = rd::findPostgresBinDir();
        const auto backup = rd::runProcess(
            {(bin / "pg_basebackup").string(), "--pgdata=" + (standbyRoot / "data").string(),
                "--write-recovery-conf", "--wal-method=stream", "--checkpoint=fast",
                "--host=" + m_primary->socketDir().string(), "--username=postgres",
                "--no-password"},
            account);
        QVERIFY2(backup.exitCode == 0, backup.output.c_str());
        {
            const fs::path conf = standbyRoot / "data" / "postgresql.conf";
            std::ofstream out(conf, std::ios::app);
            out << "\n# The standby's own socket.\nunix_socket_directories = '"
                << (standbyRoot / "socket").string() << "'\nhot_standby = on\n";
            QVERIFY(bool(out));
        }
        m_standby = std::make_unique<rd::EmbeddedCluster>(standbyRoot);
        m_standby->start();
        m_standbyDb = m_standby->connectionString();
        QVERIFY(standbyCaughtUp());
    }

    void cleanupTestCase()
    {
        // Both clusters go, whatever happened above; the directory goes with QTemporaryDir.
        if (m_standby)
            m_standby->stop();
        if (m_primary)
            m_primary->stop();
        m_standby.reset();
        m_primary.reset();
        m_dir.reset();
    }

    /// The standby is one: in recovery, refusing writes, streaming from the primary.
    void theStandbyIsAStreamingHotStandby()
    {
        QCOMPARE(scalarText(m_standbyDb, "SELECT pg_is_in_recovery()"), std::string("t"));
        QCOMPARE(scalarText(m_primaryDb, "SELECT pg_is_in_recovery()"), std::string("f"));
        QCOMPARE(scalarText(m_primaryDb,
                     "SELECT count(*) FROM pg_stat_replication "
                     "WHERE state = 'streaming'"),
            std::string("1"));
        QCOMPARE(scalarText(m_standbyDb, "SELECT count(*) FROM subscriptions"), std::string("3"));
        pqxx::connection conn(m_standbyDb);
        pqxx::nontransaction tx(conn);
        try {
            tx.exec0("DELETE FROM billing_providers");
            QFAIL("a standby accepted a write");
        } catch (const pqxx::sql_error &e) {
            QCOMPARE(std::string(e.sqlstate()), std::string("25006")); // read-only transaction
        }
    }

    /// The same desk on the primary and on the standby: on the standby the banner, the
    /// indicator, the title and the role say "read-only replica", and every case action is
    /// disabled with the reason as its tooltip; on the primary none of it.
    void theDeskOnTheStandbyIsReadOnly_data()
    {
        QTest::addColumn<bool>("standby");
        QTest::newRow("primary") << false;
        QTest::newRow("standby") << true;
    }

    void theDeskOnTheStandbyIsReadOnly()
    {
        QFETCH(bool, standby);
        rd::ui::MainWindow window(
            QString::fromStdString(standby ? m_standbyDb : m_primaryDb), u"test"_qs);
        window.resize(1280, 820);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.liveUpdates()->isConnected(); }, 15000));
        QCOMPARE(window.liveUpdates()->isStandby(), standby);
        QCOMPARE(window.isOnReplica(), standby);
        QCOMPARE(window.replicaBanner()->isVisible(), standby);
        auto *live = window.liveIndicator();
        QCOMPARE(live->text().contains(u"replica"_qs), standby);
        QCOMPARE(live->toolTip().contains(u"Replica: a read-only hot standby"_qs), standby);
        QCOMPARE(window.windowTitle().contains(u"read-only replica"_qs), standby);
        if (standby)
            QVERIFY(window.replicaBanner()->text().contains(
                u"Read-only replica — actions disabled"_qs));

        window.showPage(window.casesPage());
        auto *cases = window.casesPage();
        QVERIFY(QTest::qWaitFor([&] { return cases->currentCase() == m_caseId; }, 15000));
        QVERIFY(QTest::qWaitFor([&] { return cases->isOnReplica() == standby; }, 15000));
        const auto buttons = actionButtons(cases);
        QVERIFY(buttons.size() >= 3);
        // On the standby every action is disabled and says why. On the primary the case's own
        // actions and a note are enabled; release and the bulk actions also wait for a claim or
        // a selection, so they are not counted there.
        const QStringList caseOwn = {u"Re-apply…"_qs, u"Dismiss…"_qs,
            u"Attach provider snapshot…"_qs, u"Claim"_qs, u"Add note…"_qs};
        int counted = 0;
        for (QPushButton *b : buttons) {
            QCOMPARE(b->toolTip().contains(u"Read-only replica"_qs), standby);
            if (standby) {
                QVERIFY2(!b->isEnabled(), qPrintable(b->text()));
            } else if (caseOwn.contains(b->text())) {
                QVERIFY2(b->isEnabled(), qPrintable(b->text()));
                ++counted;
            }
        }
        if (!standby)
            QCOMPARE(counted, int(caseOwn.size()));
        QCOMPARE(cases->canOperate(), !standby);
        if (standby)
            QCOMPARE(cases->openSnapshotDialog(), nullptr);
    }

    /// What the primary commits reaches the standby's desk by itself: a renewal (the list's
    /// row and the open detail), a delivery and its redelivery (the Inbox page, shown), and a
    /// case dismissed (the Cases page and its count).
    void changesOnThePrimaryShowOnTheStandby()
    {
        rd::ui::MainWindow window(QString::fromStdString(m_standbyDb), u"standby"_qs);
        window.resize(1280, 820);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.liveUpdates()->isConnected(); }, 15000));
        QVERIFY(window.isOnReplica());
        auto *page = window.subscriptionsPage();
        auto *model = page->model();
        QAbstractItemModelTester tester(
            model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(QTest::qWaitFor([&] { return model->loadedRows() == 3; }, 15000));
        const QString sub1 = QString::fromStdString(scalarText(
            m_standbyDb, "SELECT id FROM subscriptions WHERE provider_subscription_id = 'sub_1'"));
        page->openSubscription(sub1);
        auto *periods = page->detail()->billingPeriodsView();
        QVERIFY(QTest::qWaitFor([&] { return page->currentSubscriptionId() == sub1; }, 15000));
        QTest::qWait(500);
        QCOMPARE(periods->model()->rowCount(), 0);
        // The list's row: its last renewal (key and paid date) as the standby holds it.
        const auto lastRenewal = [&] {
            const int r = model->rowOfKey(sub1);
            return r < 0
                ? QString()
                : model->row(r)[rd::ui::SubscriptionsModel::LastRenewalKey].toString() + u" "_qs
                    + model->index(r, rd::ui::SubscriptionsModel::LastRenewalColumn)
                          .data()
                          .toString();
        };
        QCOMPARE(lastRenewal(), u" "_qs);

        // A renewal committed on the primary by another program.
        const auto r = onPrimary({u"apply"_qs},
            rd::toJson(rdtest::februaryRenewal("sub_1", "evt_replica", "in_replica")).dump()
                + "\n");
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(QTest::qWaitFor([&] { return periods->model()->rowCount() == 1; }, 20000));
        // The key, and its paid date in the column.
        QVERIFY(QTest::qWaitFor(
            [&] {
                return lastRenewal().startsWith(u"in_replica "_qs)
                    && lastRenewal().contains(u"Feb 2026"_qs);
            },
            20000));
        // What the list shows is what the standby holds.
        QCOMPARE(scalarText(m_standbyDb,
                     "SELECT provider_renewal_key FROM subscription_billing_periods b JOIN "
                     "subscriptions s ON s.id = b.subscription_id WHERE "
                     "s.provider_subscription_id = 'sub_1'"),
            std::string("in_replica"));

        // A delivery, then the same delivery again (only its row's count changes: no new id).
        window.showPage(window.inboxPage());
        auto *inbox = window.inboxPage();
        QVERIFY(QTest::qWaitFor([&] { return !inbox->model()->isLoading(); }, 15000));
        QCOMPARE(inbox->model()->loadedRows(), 0);
        const std::string body = rdtest::stripeRenewalOf("inbox");
        QCOMPARE(
            onPrimary({u"ingest"_qs, u"--provider-key"_qs, u"stripe-main"_qs}, body).exitCode, 0);
        QVERIFY(QTest::qWaitFor([&] { return inbox->model()->loadedRows() == 1; }, 20000));
        const auto deliveries
            = [&] { return inbox->model()->row(0)[rd::ui::InboxPage::Deliveries].toLongLong(); };
        QCOMPARE(deliveries(), 1);
        QCOMPARE(
            onPrimary({u"ingest"_qs, u"--provider-key"_qs, u"stripe-main"_qs}, body).exitCode, 0);
        QVERIFY(QTest::qWaitFor(
            [&] { return inbox->model()->rowCount() == 1 && deliveries() == 2; }, 20000));

        // A case dismissed on the primary leaves the standby's queue.
        window.showPage(window.casesPage());
        QVERIFY(QTest::qWaitFor([&] { return window.casesPage()->openCount() == 1; }, 15000));
        const auto d = onPrimary({u"cases"_qs, u"dismiss"_qs, QString::number(m_caseId),
            u"--reason"_qs, u"duplicate_charge"_qs, u"--comment"_qs, u"refunded"_qs});
        QVERIFY2(d.exitCode == 0, d.err.constData());
        QVERIFY(QTest::qWaitFor([&] { return window.casesPage()->openCount() == 0; }, 20000));
        QVERIFY(QTest::qWaitFor(
            [&] { return window.casesPage()->titleText().contains(u"dismissed"_qs); }, 20000));
    }
};

QTEST_MAIN(TestUiReplica)
#include "tst_ui_replica.moc"
