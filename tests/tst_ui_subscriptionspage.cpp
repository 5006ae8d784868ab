#include "tests/support/desk_subscriptions.h"
#include "tests/support/test_database.h"
#include "ui/models/overduewatch.h"
#include "ui/models/records.h"
#include "ui/widgets/subscriptionspage.h"
#include "ui/widgets/tableview.h"

#include <pqxx/pqxx>

#include <QCheckBox>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

#include <memory>

/// The Subscriptions page when something else opens a subscription (Cases › Open subscription,
/// a search, a link): the list shows that subscription's row, never the one selected before.
class TestUiSubscriptionsPage : public QObject, private rdtest::UiSubscriptionsSuite
{
    Q_OBJECT

private:
    static QString keyAt(rd::ui::SubscriptionsPage &page, int row)
    {
        return page.model()->index(row, 0).data(int(rd::ui::Role::Key)).toString();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"renewal-desk-tests"_qs);
        rd::ui::setOverdueGraceHoursSetting(std::nullopt);
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

    /// The Overview's Overdue tile opens the list with the Overdue filter alone; the grace box
    /// is the desk's setting, kept for the next start and used by the list.
    void overdueFilterAndTheDesksGrace()
    {
        const QString overdue = u"status = 'active' AND NOT cancel_at_period_end AND "
                                "current_period_end < now() - interval '%1 hours'"_qs;
        const QString byKey = u"provider_key, provider_subscription_id"_qs;
        {
            auto conn = m_db->database().connect();
            // Most of the fixture's periods ended in 2025: some end later, inside a grace.
            pqxx::nontransaction(*conn).exec0(
                "UPDATE subscriptions SET current_period_end = now() - interval '10 hours', "
                "current_period_start = now() - interval '40 days' "
                "WHERE status = 'active' AND provider_subscription_id LIKE '%7'");
        }
        const QStringList with24 = m_db->expected(overdue.arg(24), byKey);
        const QStringList with0 = m_db->expected(overdue.arg(0), byKey);
        QVERIFY(!with24.isEmpty() && with0.size() > with24.size());

        rd::ui::SubscriptionsPage page(m_db->pool());
        page.resize(1200, 700);
        page.show();
        auto *status = page.findChild<QComboBox *>(u"status-filter"_qs);
        status->setCurrentIndex(status->findData(u"past_due"_qs));
        page.showOverdue();
        QVERIFY(page.overdueFilter()->isChecked());
        QCOMPARE(status->currentIndex(), 0);
        QVERIFY(page.model()->filter().overdueOnly);
        QVERIFY(page.model()->filter().status.isEmpty());
        QVERIFY(rdtest::loadAll(*page.model()));
        QCOMPARE(rdtest::loadedKeys(*page.model()), with24);

        page.graceBox()->setCurrentIndex(page.graceBox()->findData(0));
        QCOMPARE(QSettings().value(u"overdue/graceHours"_qs).toInt(), 0);
        QCOMPARE(page.model()->filter().overdueGraceHours, std::optional<int>(0));
        QVERIFY(rdtest::loadAll(*page.model()));
        QCOMPARE(rdtest::loadedKeys(*page.model()), with0);

        // The next page (the next start) judges by the same grace.
        {
            rd::ui::SubscriptionsPage again(m_db->pool());
            QCOMPARE(again.graceBox()->currentData().toInt(), 0);
            QCOMPARE(again.model()->filter().overdueGraceHours, std::optional<int>(0));
        }
        page.graceBox()->setCurrentIndex(0); // each provider's
        QVERIFY(!QSettings().contains(u"overdue/graceHours"_qs));
        QCOMPARE(page.model()->filter().overdueGraceHours, std::nullopt);
        page.overdueFilter()->setChecked(false);
        QVERIFY(!page.model()->filter().overdueOnly);
    }
};

QTEST_MAIN(TestUiSubscriptionsPage)
#include "tst_ui_subscriptionspage.moc"
