#include "tests/support/desk_subscriptions.h"
#include "tests/support/test_database.h"
#include "ui/models/records.h"
#include "ui/widgets/subscriptionspage.h"
#include "ui/widgets/tableview.h"

#include <pqxx/pqxx>

#include <QItemSelectionModel>
#include <QtTest>

#include <memory>

/// The Subscriptions page when something else opens a subscription (Cases › Open subscription,
/// a search, a link): the list shows that subscription's row, never the one selected before.
class TestUiSubscriptionsPage : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::UiSubscriptionsDatabase> m_db;

    static QString keyAt(rd::ui::SubscriptionsPage &page, int row)
    {
        return page.model()->index(row, 0).data(int(rd::ui::Role::Key)).toString();
    }

private slots:
    void initTestCase()
    {
        m_db = std::make_unique<rdtest::UiSubscriptionsDatabase>("ui_subscriptionspage");
    }

    void cleanupTestCase() { m_db.reset(); }

    void openingASubscriptionMovesTheListToIt()
    {
        rd::ui::SubscriptionsPage page(m_db->pool());
        page.resize(1200, 700);
        page.show();
        QTRY_VERIFY(page.model()->loadedRows() > 10);
        auto *selection = page.table()->selectionModel();

        page.table()->setCurrentIndex(page.model()->index(2, 0));
        QTRY_COMPARE(page.currentSubscriptionId(), keyAt(page, 2));

        // Opened from elsewhere: the list follows to the subscription's row.
        const QString other = keyAt(page, 7);
        page.openSubscription(other);
        QCOMPARE(page.currentSubscriptionId(), other);
        QCOMPARE(selection->currentIndex().row(), 7);
        QVERIFY(selection->isRowSelected(7, QModelIndex()));
        QVERIFY(!selection->isRowSelected(2, QModelIndex()));

        // A subscription the list has not loaded: no row is selected, rather than a wrong one.
        std::string far;
        {
            auto conn = m_db->database().connect();
            pqxx::nontransaction tx(*conn);
            far = tx.exec1("SELECT id::text FROM subscriptions "
                           "ORDER BY provider_key DESC, provider_subscription_id DESC LIMIT 1")[0]
                      .as<std::string>();
        }
        const QString farId = QString::fromStdString(far);
        QCOMPARE(page.model()->rowOfKey(farId), -1);
        page.openSubscription(farId);
        QCOMPARE(page.currentSubscriptionId(), farId);
        QVERIFY(!selection->currentIndex().isValid());
        QVERIFY(!selection->hasSelection());
    }
};

QTEST_MAIN(TestUiSubscriptionsPage)
#include "tst_ui_subscriptionspage.moc"
