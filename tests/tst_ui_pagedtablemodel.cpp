#include "tests/support/desk_subscriptions.h"
#include "ui/models/databasepool.h"
#include "ui/models/subscriptionsmodel.h"
#include "ui/widgets/tableview.h"

#include <pqxx/pqxx>

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QtTest>

using rd::ui::SubscriptionOrder;
using rd::ui::SubscriptionsModel;
using rdtest::kSubscriptions;
using rdtest::loadAll;
using rdtest::loadedKeys;

Q_DECLARE_METATYPE(SubscriptionOrder)

/// The lazy paged table (through the subscriptions list, its busiest user) against 3,000
/// subscriptions: stale pages dropped, refresh in place, bounded memory, whole-list export.
class TestUiPagedTableModel : public QObject, private rdtest::UiSubscriptionsSuite
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_db = std::make_unique<rdtest::UiSubscriptionsDatabase>("ui_pagedtablemodel");
    }

    void cleanupTestCase() { m_db.reset(); }

    void staleGenerationIsDropped()
    {
        SubscriptionsModel model(pool());
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Three filters in a row without waiting: only the last one's pages may land.
        model.setFilter({u"paddle-eu"_qs, QString(), false, QString()});
        model.setFilter({u"stripe-main"_qs, QString(), false, QString()});
        model.setFilter({u"stripe-us"_qs, u"canceled"_qs, false, QString()});
        QVERIFY(loadAll(model));
        QCOMPARE(loadedKeys(model),
            expected(u"provider_key = 'stripe-us' AND status = 'canceled'"_qs,
                u"provider_key, provider_subscription_id"_qs));
    }

    void refreshKeepsRowsInPlace()
    {
        SubscriptionsModel model(pool());
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&model, &rd::ui::PagedTableModel::pageLoaded);
        QVERIFY(loaded.wait(10000));
        model.fetchMore({});
        QVERIFY(loaded.wait(10000));
        const int rows = model.loadedRows();
        const QString key = model.index(250, 0).data(int(rd::ui::Role::Key)).toString();
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.refresh();
        QVERIFY(loaded.wait(10000));
        QCOMPARE(reset.size(), 0);
        QCOMPARE(model.loadedRows(), rows);
        QCOMPARE(model.index(250, 0).data(int(rd::ui::Role::Key)).toString(), key);
        QCOMPARE(model.rowOfKey(key), 250);
    }

    /// Every row of a list far longer than the memory bound, read through the view's path
    /// (data() on each row), in the order SQL gives; never more slots in memory than the bound.
    void evictedPagesComeBackInOrder_data()
    {
        QTest::addColumn<SubscriptionOrder>("order");
        QTest::addColumn<bool>("descending");
        QTest::addColumn<QString>("orderBy");
        QTest::newRow("by key") << SubscriptionOrder::ProviderAndId << false
                                << u"provider_key, provider_subscription_id"_qs;
        QTest::newRow("by period end desc (nulls first)")
            << SubscriptionOrder::PeriodEnd << true
            << u"current_period_end DESC NULLS FIRST, provider_key DESC, "
               "provider_subscription_id DESC"_qs;
    }

    void evictedPagesComeBackInOrder()
    {
        QFETCH(SubscriptionOrder, order);
        QFETCH(bool, descending);
        QFETCH(QString, orderBy);

        SubscriptionsModel model(pool());
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPageSize(70); // 3,000 rows: 43 slots, the last one short
        model.setResidentPageLimit(4);
        model.setOrder(order, descending ? Qt::DescendingOrder : Qt::AscendingOrder);
        model.setFilter({u"x"_qs, {}, false, {}});
        model.setFilter({}); // a reset, so that the page size applies to every slot
        QVERIFY(loadAll(model));
        QCOMPARE(model.loadedRows(), kSubscriptions);
        QCOMPARE(model.residentPages(), 4);
        // (The tester keeps touching row 0, so that slot stays: it is the most recently used.)
        QVERIFY(!model.isResident(1000));
        QVERIFY(model.isResident(kSubscriptions - 1));
        QVERIFY(model.index(1000, 0).data(int(rd::ui::Role::Placeholder)).toBool());

        QSignalSpy restored(&model, &rd::ui::PagedTableModel::rowsRestored);
        QStringList keys;
        for (int r = 0; r < model.loadedRows(); ++r) {
            const QModelIndex provider = model.index(r, SubscriptionsModel::ProviderColumn);
            if (provider.data(int(rd::ui::Role::Placeholder)).toBool()) {
                // As a view does, which asks again on every paint: with the tester holding
                // row 0 and the short last slot kept, a slot read again may be evicted
                // again before it is looked at.
                QVERIFY(QTest::qWaitFor(
                    [&] { return !provider.data(int(rd::ui::Role::Placeholder)).toBool(); },
                    10000));
            }
            QVERIFY(model.residentPages() <= 4);
            keys << provider.data().toString() + u'/'
                    + model.index(r, SubscriptionsModel::SubscriptionColumn).data().toString();
        }
        QVERIFY(restored.size() >= 40);
        QCOMPARE(keys, expected(u"true"_qs, orderBy));
    }

    /// Export writes the whole list in order, also the rows scrolled out of memory and the
    /// rows not reached yet.
    void exportWritesTheWholeList()
    {
        SubscriptionsModel model(pool());
        model.setPageSize(100);
        model.setResidentPageLimit(3);
        model.setFilter({u"x"_qs, {}, false, {}});
        model.setFilter({});
        QVERIFY(loadAll(model));
        QVERIFY(model.residentPages() < 30);
        rd::ui::TableView view;
        view.setModel(&model);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"subscriptions.csv"_qs);
        QString error;
        QVERIFY2(view.exportCsv(path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), kSubscriptions + 1);
        QVERIFY(lines.first().startsWith(u"Provider,Subscription,Internal id,Status"_qs));
        QStringList keys;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QStringList fields = lines[i].split(u',');
            keys << fields[0] + u'/' + fields[1];
        }
        QCOMPARE(keys, expected(u"true"_qs, u"provider_key, provider_subscription_id"_qs));

        // A list that has not been scrolled at all exports whole too.
        SubscriptionsModel fresh(pool());
        QSignalSpy loaded(&fresh, &rd::ui::PagedTableModel::pageLoaded);
        QVERIFY(loaded.wait(10000));
        QFuture<qint64> written = fresh.exportCsv(path);
        written.waitForFinished();
        QCOMPARE(written.result(), qint64(kSubscriptions));
    }

    /// A refresh of a list longer than kRefreshLimit reads the slots in memory again where
    /// they are: a change shows, the rows stay where they were, nothing is reset.
    void refreshOfALongListRereadsSlotsInPlace()
    {
        SubscriptionsModel model(pool());
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPageSize(100);
        model.setResidentPageLimit(5);
        model.setFilter({u"x"_qs, {}, false, {}});
        model.setFilter({});
        QVERIFY(loadAll(model));
        QVERIFY(model.loadedRows() > rd::ui::PagedTableModel::kRefreshLimit);
        const int target = kSubscriptions - 150; // in a resident slot
        QVERIFY(model.isResident(target));
        const QString key = model.index(target, 0).data(int(rd::ui::Role::Key)).toString();
        {
            auto conn = m_db->database().connect();
            pqxx::work tx(*conn);
            tx.exec0("UPDATE subscriptions SET cancel_at_period_end = NOT cancel_at_period_end "
                     "WHERE id = "
                + tx.quote(key.toStdString()));
            tx.commit();
        }
        const QVariant before
            = model.index(target, SubscriptionsModel::CancelColumn).data(int(rd::ui::Role::Raw));
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy restored(&model, &rd::ui::PagedTableModel::rowsRestored);
        model.refresh();
        QVERIFY(QTest::qWaitFor([&] { return restored.size() >= 5; }, 10000));
        QCOMPARE(reset.size(), 0);
        QCOMPARE(model.loadedRows(), kSubscriptions);
        QCOMPARE(model.index(target, 0).data(int(rd::ui::Role::Key)).toString(), key);
        QCOMPARE(model.index(target, SubscriptionsModel::CancelColumn).data(int(rd::ui::Role::Raw)),
            QVariant(!before.toBool()));
    }

    /// After Ctrl+G the list starts at a position; scrolling up pages backwards from it (the
    /// keyset read the other way) until the beginning of the order, with evicted slots before
    /// the position read again backwards too.
    void pagesBackwardsFromAPosition_data()
    {
        QTest::addColumn<SubscriptionOrder>("order");
        QTest::addColumn<bool>("descending");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("orderBy");
        QTest::newRow("provider/id: a provider")
            << SubscriptionOrder::ProviderAndId << false << u"stripe-main"_qs
            << u"provider_key, provider_subscription_id"_qs;
        QTest::newRow("provider/id descending")
            << SubscriptionOrder::ProviderAndId << true << u"paddle-eu"_qs
            << u"provider_key DESC, provider_subscription_id DESC"_qs;
        QTest::newRow("status") << SubscriptionOrder::Status << false << u"past_due"_qs
                                << u"status, provider_key, provider_subscription_id"_qs;
        QTest::newRow("period end descending (back into the NULL ends)")
            << SubscriptionOrder::PeriodEnd << true << QString()
            << u"current_period_end DESC NULLS FIRST, provider_key DESC, "
               "provider_subscription_id DESC"_qs;
        QTest::newRow("period end ascending")
            << SubscriptionOrder::PeriodEnd << false << QString()
            << u"current_period_end NULLS LAST, provider_key, provider_subscription_id"_qs;
    }

    void pagesBackwardsFromAPosition()
    {
        QFETCH(SubscriptionOrder, order);
        QFETCH(bool, descending);
        QFETCH(QString, typed);
        QFETCH(QString, orderBy);
        const QStringList all = expected(u"true"_qs, orderBy);
        if (typed.isEmpty()) {
            // A period end in the middle of the list.
            auto conn = m_db->database().connect();
            pqxx::read_transaction tx(*conn);
            typed = QString::fromStdString(
                tx.exec1("SELECT rd_rfc3339(current_period_end) FROM subscriptions "
                         "WHERE current_period_end IS NOT NULL ORDER BY current_period_end "
                         "OFFSET 1400 LIMIT 1")[0]
                    .as<std::string>());
        }
        SubscriptionsModel model(pool());
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPageSize(70);
        model.setResidentPageLimit(6);
        model.setOrder(order, descending ? Qt::DescendingOrder : Qt::AscendingOrder);
        QString error;
        const auto position = SubscriptionsModel::parsePosition(order, typed, &error);
        QVERIFY2(position, qPrintable(error));
        model.setStartPosition(*position);
        QVERIFY(loadAll(model));
        const int fromPosition = model.loadedRows();
        QVERIFY(fromPosition > 0 && fromPosition < kSubscriptions - 70);
        QVERIFY(!model.isAtTop());
        auto keyAt = [&](int r) {
            return model.index(r, SubscriptionsModel::ProviderColumn).data().toString() + u'/'
                + model.index(r, SubscriptionsModel::SubscriptionColumn).data().toString();
        };
        QVERIFY(QTest::qWaitFor([&] { return model.isResident(0); }, 10000));
        const QString firstKey = keyAt(0);

        // Through a view, the way a person scrolls up: Up on the first row.
        rd::ui::TableView view;
        view.setModel(&model);
        view.resize(800, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setCurrentIndex(model.index(0, 0));
        QVERIFY(QTest::qWaitFor([&] { return model.canFetchBefore(); }, 10000));
        QSignalSpy prepended(&model, &rd::ui::PagedTableModel::rowsPrepended);
        QTest::keyClick(&view, Qt::Key_Up);
        QVERIFY(prepended.wait(10000));
        QCOMPARE(prepended.first().first().toInt(), 70);
        // The row that was first is still the current one, 70 rows down.
        QCOMPARE(view.currentIndex().row(), 70);
        QCOMPARE(keyAt(70), firstKey);

        // On to the beginning of the order.
        for (int guard = 0; guard < 100 && !model.isAtTop(); ++guard) {
            QVERIFY(
                QTest::qWaitFor([&] { return model.canFetchBefore() || model.isAtTop(); }, 10000));
            if (model.isAtTop())
                break;
            model.fetchBefore();
            QVERIFY(QTest::qWaitFor([&] { return !model.isLoadingBefore(); }, 10000));
        }
        QVERIFY(model.isAtTop());
        QCOMPARE(model.loadedRows(), kSubscriptions);
        QVERIFY(model.residentPages() <= 6);
        // Every row in order, the evicted ones read again where they are.
        QStringList keys;
        for (int r = 0; r < model.loadedRows(); ++r) {
            const QModelIndex provider = model.index(r, SubscriptionsModel::ProviderColumn);
            if (provider.data(int(rd::ui::Role::Placeholder)).toBool())
                QVERIFY(QTest::qWaitFor(
                    [&] { return !provider.data(int(rd::ui::Role::Placeholder)).toBool(); },
                    10000));
            keys << provider.data().toString() + u'/'
                    + model.index(r, SubscriptionsModel::SubscriptionColumn).data().toString();
        }
        QCOMPARE(keys, all);
        QCOMPARE(model.rowOfKey(model.index(0, 0).data(int(rd::ui::Role::Key)).toString()), 0);

        // A refresh keeps the rows before the position where they are.
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy restored(&model, &rd::ui::PagedTableModel::rowsRestored);
        model.refresh();
        QVERIFY(QTest::qWaitFor([&] { return restored.size() >= 3; }, 10000));
        QCOMPARE(reset.size(), 0);
        QCOMPARE(model.loadedRows(), kSubscriptions);
    }
};

QTEST_MAIN(TestUiPagedTableModel)
#include "tst_ui_pagedtablemodel.moc"
