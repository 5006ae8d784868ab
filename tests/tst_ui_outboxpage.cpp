#include "tests/support/desk_subscriptions.h"
#include "tests/support/process_runner.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"
#include "ui/models/databasepool.h"
#include "ui/models/pagedtablemodel.h"
#include "ui/widgets/outboxpage.h"

#include "domain/core/renewal_event.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

#include <memory>

/// The outbox page over an empty database: its lazy list loads, and is empty. Shown, it follows
/// the outbox as other processes write and publish intents, without a refresh.
class TestUiOutboxPage : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::unique_ptr<rd::ui::DatabasePool> m_pool;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<rdtest::TestDatabase>("ui_outboxpage");
        m_pool = std::make_unique<rd::ui::DatabasePool>(QString::fromStdString(m_db->conninfo()));
    }

    void cleanupTestCase()
    {
        m_pool.reset();
        m_db.reset();
    }

    void listsTheOutboxLazily()
    {
        rd::ui::OutboxPage outbox(m_pool.get());
        QAbstractItemModelTester tester(
            outbox.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(rdtest::loadAll(*outbox.model()));
        QCOMPARE(outbox.model()->loadedRows(), 0); // nothing renewed in this database
    }

    /// #13 item 3: a renewal applied by `renewalctl apply` writes an intent, and
    /// `renewalctl outbox publish` publishes it, both in other processes; the shown page's
    /// counts and list follow, with no refresh call.
    void followsTheOutboxWrittenAndPublishedElsewhere()
    {
        rdtest::TestDatabase db("ui_outboxpage_follows");
        const QString conninfo = QString::fromStdString(db.conninfo());
        rdtest::importSubscriptions(db.conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_1") + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_2"));
        rd::ui::DatabasePool pool(conninfo);
        rd::ui::OutboxPage outbox(&pool);
        auto *summary = outbox.findChild<QLabel *>(u"outbox-summary"_qs);
        QVERIFY(summary);
        outbox.show();
        QVERIFY(
            QTest::qWaitFor([&] { return summary->text().startsWith(u"0 pending"_qs); }, 10000));
        QVERIFY(rdtest::loadAll(*outbox.model()));
        QCOMPARE(outbox.model()->loadedRows(), 0);

        const auto applied = rdtest::runProgram(rdtest::ctl(), {u"apply"_qs, u"--db"_qs, conninfo},
            QByteArray::fromStdString(rd::toJson(rdtest::februaryRenewal("sub_1")).dump() + "\n"));
        QCOMPARE(applied.exitCode, 0);
        QVERIFY2(
            QTest::qWaitFor([&] { return summary->text().startsWith(u"1 pending"_qs); }, 10000),
            qPrintable(summary->text()));
        QVERIFY(QTest::qWaitFor([&] { return outbox.model()->loadedRows() == 1; }, 10000));

        const auto published = rdtest::runProgram(rdtest::ctl(),
            {u"outbox"_qs, u"publish"_qs, u"--jsonl"_qs, u"/dev/null"_qs, u"--db"_qs, conninfo},
            {});
        QCOMPARE(published.exitCode, 0);
        QVERIFY2(
            QTest::qWaitFor([&] { return summary->text().startsWith(u"0 pending"_qs); }, 10000),
            qPrintable(summary->text()));
        // "Not yet delivered": the published intent leaves the list.
        QVERIFY(QTest::qWaitFor([&] { return outbox.model()->rowCount() == 0; }, 10000));
    }

    /// #28 item 11: a growing pending count says whether anyone publishes. Before any
    /// publisher: "no publisher has run yet"; while `renewalctl outbox publish --follow` is
    /// connected: "publisher running"; after it stopped: "no publisher has run for 0 min".
    void saysWhetherAPublisherRuns()
    {
        rdtest::TestDatabase db("ui_outboxpage_publisher");
        const QString conninfo = QString::fromStdString(db.conninfo());
        rdtest::importSubscriptions(
            db.conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
        const auto applied = rdtest::runProgram(rdtest::ctl(), {u"apply"_qs, u"--db"_qs, conninfo},
            QByteArray::fromStdString(rd::toJson(rdtest::februaryRenewal("sub_1")).dump() + "\n"));
        QCOMPARE(applied.exitCode, 0);
        rd::ui::DatabasePool pool(conninfo);
        rd::ui::OutboxPage outbox(&pool);
        auto *summary = outbox.findChild<QLabel *>(u"outbox-summary"_qs);
        outbox.show();
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         return summary->text().startsWith(u"1 pending"_qs)
                             && summary->text().contains(u"no publisher has run yet"_qs);
                     },
                     10000),
            qPrintable(summary->text()));
        QVERIFY(summary->toolTip().contains(u"renewalctl outbox publish"_qs));

        QProcess publisher;
        publisher.start(rdtest::ctl(),
            {u"outbox"_qs, u"publish"_qs, u"--follow"_qs, u"--jsonl"_qs, u"/dev/null"_qs,
                u"--db"_qs, conninfo});
        QVERIFY(publisher.waitForStarted());
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         return summary->text().startsWith(u"0 pending"_qs)
                             && summary->text().contains(u"publisher running"_qs);
                     },
                     15000),
            qPrintable(summary->text()));
        publisher.terminate();
        QVERIFY(publisher.waitForFinished(10000));
        QVERIFY2(QTest::qWaitFor(
                     [&] { return summary->text().contains(u"no publisher has run for 0 min"_qs); },
                     15000),
            qPrintable(summary->text()));
    }
};

QTEST_MAIN(TestUiOutboxPage)
#include "tst_ui_outboxpage.moc"
