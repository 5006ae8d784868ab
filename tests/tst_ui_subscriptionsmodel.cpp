#include "tests/support/desk_subscriptions.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/records.h"
#include "ui/models/subscriptionsmodel.h"

#include "domain/core/overdue.h"
#include "domain/core/timestamp.h"

#include <QAbstractItemModelTester>
#include <QtTest>

#include <pqxx/pqxx>

using rd::ui::SubscriptionOrder;
using rd::ui::SubscriptionsModel;
using rdtest::kSubscriptions;
using rdtest::loadAll;
using rdtest::loadedKeys;

Q_DECLARE_METATYPE(SubscriptionOrder)

/// The subscriptions list against a real database of 3,000 subscriptions: filters, orders,
/// positions, every row once and in the order SQL gives.
class TestUiSubscriptionsModel : public QObject, private rdtest::UiSubscriptionsSuite
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_db = std::make_unique<rdtest::UiSubscriptionsDatabase>("ui_subscriptionsmodel");
    }

    void cleanupTestCase() { m_db.reset(); }

    void pagesFiltersAndOrders_data()
    {
        QTest::addColumn<SubscriptionOrder>("order");
        QTest::addColumn<bool>("descending");
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("status");
        QTest::addColumn<bool>("openCases");
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("orderBy");

        const QString byKey = u"provider_key, provider_subscription_id"_qs;
        const QString byKeyDesc = u"provider_key DESC, provider_subscription_id DESC"_qs;
        QTest::newRow("all by key") << SubscriptionOrder::ProviderAndId << false << QString()
                                    << QString() << false << QString() << u"true"_qs << byKey;
        QTest::newRow("all by key desc")
            << SubscriptionOrder::ProviderAndId << true << QString() << QString() << false
            << QString() << u"true"_qs << byKeyDesc;
        QTest::newRow("by status")
            << SubscriptionOrder::Status << false << QString() << QString() << false << QString()
            << u"true"_qs << u"status, provider_key, provider_subscription_id"_qs;
        QTest::newRow("by status desc, one provider")
            << SubscriptionOrder::Status << true << u"stripe-us"_qs << QString() << false
            << QString() << u"provider_key = 'stripe-us'"_qs
            << u"status DESC, provider_key DESC, provider_subscription_id DESC"_qs;
        QTest::newRow("by period end (nulls last)")
            << SubscriptionOrder::PeriodEnd << false << QString() << QString() << false << QString()
            << u"true"_qs
            << u"current_period_end NULLS LAST, provider_key, provider_subscription_id"_qs;
        QTest::newRow("by period end desc (nulls first)")
            << SubscriptionOrder::PeriodEnd << true << QString() << QString() << false << QString()
            << u"true"_qs
            << u"current_period_end DESC NULLS FIRST, provider_key DESC, "
               "provider_subscription_id DESC"_qs;
        QTest::newRow("status filter by period end")
            << SubscriptionOrder::PeriodEnd << false << QString() << u"past_due"_qs << false
            << QString() << u"status = 'past_due'"_qs
            << u"current_period_end, provider_key, provider_subscription_id"_qs;
        QTest::newRow("open cases only") << SubscriptionOrder::ProviderAndId << false << QString()
                                         << QString() << true << QString()
                                         << u"id IN (SELECT subscription_id FROM "
                                            "reconciliation_cases WHERE status = 'open')"_qs
                                         << byKey;
        QTest::newRow("id prefix, every provider")
            << SubscriptionOrder::ProviderAndId << false << QString() << QString() << false
            << u"sub_1012"_qs << u"provider_subscription_id LIKE 'sub\\_1012%'"_qs << byKey;
        QTest::newRow("id prefix desc, every provider")
            << SubscriptionOrder::ProviderAndId << true << QString() << QString() << false
            << u"sub_10"_qs << u"provider_subscription_id LIKE 'sub\\_10%'"_qs << byKeyDesc;
        QTest::newRow("id prefix with LIKE characters")
            << SubscriptionOrder::ProviderAndId << false << QString() << QString() << false
            << u"sub%"_qs << u"false"_qs << byKey;
        QTest::newRow("id prefix and provider")
            << SubscriptionOrder::Status << false << u"paddle-eu"_qs << QString() << false
            << u"sub_101"_qs
            << u"provider_key = 'paddle-eu' AND provider_subscription_id LIKE 'sub\\_101%'"_qs
            << byKey; // an id search is listed by provider and id
    }

    void pagesFiltersAndOrders()
    {
        QFETCH(SubscriptionOrder, order);
        QFETCH(bool, descending);
        QFETCH(QString, provider);
        QFETCH(QString, status);
        QFETCH(bool, openCases);
        QFETCH(QString, prefix);
        QFETCH(QString, where);
        QFETCH(QString, orderBy);

        SubscriptionsModel model(pool());
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPageSize(173); // pages that do not divide the row count evenly
        model.setOrder(order, descending ? Qt::DescendingOrder : Qt::AscendingOrder);
        model.setFilter({provider, status, openCases, prefix});
        QVERIFY(loadAll(model));
        const QStringList want = expected(where, orderBy);
        QCOMPARE(model.loadedRows(), int(want.size()));
        QCOMPARE(loadedKeys(model), want);
    }

    void everyRowOnceWithDefaultPages()
    {
        SubscriptionsModel model(pool());
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(loadAll(model));
        QCOMPARE(model.loadedRows(), kSubscriptions);
        // The first page alone is a page, not the table.
        SubscriptionsModel fresh(pool());
        QSignalSpy loaded(&fresh, &rd::ui::PagedTableModel::pageLoaded);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(fresh.loadedRows(), fresh.pageSize());
        QVERIFY(!fresh.isComplete());
        QVERIFY(fresh.canFetchMore({}));
    }

    void columnsRenderMoneyAndCases()
    {
        SubscriptionsModel model(pool());
        model.setFilter({QString(), QString(), true, QString()});
        QVERIFY(loadAll(model));
        QVERIFY(model.loadedRows() > 0);
        const QModelIndex cases = model.index(0, SubscriptionsModel::OpenCasesColumn);
        QVERIFY(cases.data(int(rd::ui::Role::Raw)).toLongLong() >= 1);
        QCOMPARE(cases.data(Qt::TextAlignmentRole).value<Qt::Alignment>() & Qt::AlignRight,
            Qt::AlignRight);
        QCOMPARE(
            model.index(0, SubscriptionsModel::StatusColumn).data().toString(), u"past_due"_qs);
        QVERIFY(!model.index(0, SubscriptionsModel::PeriodColumn)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .isEmpty());
    }

    /// The Overdue filter (migration 0030) and the Next step column, on their own database:
    /// every edge of the classification, the desk's grace, and every order's pages.
    void overdueFilterAndNextStep()
    {
        rdtest::TestDatabase db("ui_subscriptions_overdue");
        {
            auto conn = db.connect();
            pqxx::nontransaction tx(*conn);
            tx.exec0("INSERT INTO billing_providers (provider_key, kind, display_name, "
                     "overdue_grace) VALUES ('stripe-main', 'stripe', 'S', '24 hours'), "
                     "('slow', 'paddle', 'P', '72 hours')");
            tx.exec0(
                "INSERT INTO subscriptions (provider_key, provider_subscription_id, status, "
                "current_period_start, current_period_end, cancel_at_period_end) "
                "SELECT k, id, st, now() - ago - interval '30 days', now() - ago, c FROM (VALUES "
                "('stripe-main', 'late', 'active', interval '3 days', false), "
                "('stripe-main', 'late_2', 'active', interval '4 days', false), "
                "('stripe-main', 'inside', 'active', interval '20 hours', false), "
                "('stripe-main', 'future', 'active', interval '-9 days', false), "
                "('stripe-main', 'leaving', 'active', interval '3 days', true), "
                "('stripe-main', 'gone', 'canceled', interval '3 days', false), "
                "('stripe-main', 'unpaid', 'past_due', interval '3 days', false), "
                "('slow', 'slow_inside', 'active', interval '48 hours', false), "
                "('slow', 'slow_late', 'active', interval '80 hours', false)) "
                "v(k, id, st, ago, c)");
        }
        rd::ui::DatabasePool dbPool(QString::fromStdString(db.conninfo()));
        SubscriptionsModel model(&dbPool);
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPageSize(1); // a keyset page per row: the filter's values in every part
        rd::ui::SubscriptionFilter f;
        f.overdueOnly = true;
        model.setFilter(f);
        QVERIFY(loadAll(model));
        QCOMPARE(loadedKeys(model),
            (QStringList {u"slow/slow_late"_qs, u"stripe-main/late"_qs, u"stripe-main/late_2"_qs}));
        for (const bool descending : {false, true}) {
            model.setOrder(SubscriptionOrder::PeriodEnd,
                descending ? Qt::DescendingOrder : Qt::AscendingOrder);
            QVERIFY(loadAll(model));
            QStringList byEnd {
                u"stripe-main/late_2"_qs, u"slow/slow_late"_qs, u"stripe-main/late"_qs};
            if (descending)
                std::reverse(byEnd.begin(), byEnd.end());
            QCOMPARE(loadedKeys(model), byEnd);
        }
        model.setOrder(SubscriptionOrder::Status, Qt::AscendingOrder);
        f.overdueGraceHours = 0; // the desk's grace, for every provider
        model.setFilter(f);
        QVERIFY(loadAll(model));
        QCOMPARE(loadedKeys(model),
            (QStringList {u"slow/slow_inside"_qs, u"slow/slow_late"_qs, u"stripe-main/inside"_qs,
                u"stripe-main/late"_qs, u"stripe-main/late_2"_qs}));

        // Unfiltered, the Next step says what to do on the overdue rows only.
        model.setOrder(SubscriptionOrder::ProviderAndId, Qt::AscendingOrder);
        model.setFilter({});
        QVERIFY(loadAll(model));
        QCOMPARE(model.loadedRows(), 9);
        QStringList withAStep;
        for (int row = 0; row < model.rowCount(); ++row) {
            const QString step
                = model.index(row, SubscriptionsModel::NextStepColumn).data().toString();
            const QString key = loadedKeys(model).at(row);
            if (step.isEmpty())
                continue;
            withAStep << key;
            const QString end = model.index(row, SubscriptionsModel::PeriodColumn)
                                    .data(int(rd::ui::Role::Raw))
                                    .toString();
            QVERIFY2(step.startsWith(u"Import or fetch a statement, or attach a snapshot"_qs),
                qPrintable(step));
            QVERIFY2(step.contains(key.section(u'/', 0, 0)), qPrintable(step));
            // On screen the period end in the locale's form; in a CSV, the CLI's sentence.
            const QString endRfc3339
                = QString::fromStdString(rd::formatRfc3339(rd::Timestamp {end.toLongLong()}));
            QVERIFY2(
                step.contains(rd::ui::format::localDateTime(rd::ui::format::instant(endRfc3339))),
                qPrintable(step));
            const QStringList exported = model.index(row, SubscriptionsModel::NextStepColumn)
                                             .data(int(rd::ui::Role::Export))
                                             .toStringList();
            QCOMPARE(exported,
                QStringList {QString::fromStdString(rd::overdueNextStep(
                    key.section(u'/', 0, 0).toStdString(), endRfc3339.toStdString()))});
            // The desk's words are the CLI's, but for the date's form.
            QCOMPARE(step,
                QString(exported.front())
                    .replace(endRfc3339,
                        rd::ui::format::localDateTime(rd::ui::format::instant(endRfc3339))));
        }
        QCOMPARE(withAStep,
            (QStringList {u"slow/slow_late"_qs, u"stripe-main/late"_qs, u"stripe-main/late_2"_qs}));
    }

    /// "Go to": the list starts at a position of its order, and goes on from there in order.
    void startsAtAPosition_data()
    {
        QTest::addColumn<SubscriptionOrder>("order");
        QTest::addColumn<bool>("descending");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("orderBy");

        const QString byKey = u"provider_key, provider_subscription_id"_qs;
        const QString byKeyDesc = u"provider_key DESC, provider_subscription_id DESC"_qs;
        QTest::newRow("provider/id")
            << SubscriptionOrder::ProviderAndId << false << QString() << u"stripe-main/sub_101"_qs
            << u"(provider_key, provider_subscription_id) >= ('stripe-main', 'sub_101')"_qs
            << byKey;
        QTest::newRow("a provider, descending")
            << SubscriptionOrder::ProviderAndId << true << QString() << u"stripe-main"_qs
            << u"provider_key <= 'stripe-main'"_qs << byKeyDesc;
        QTest::newRow("status") << SubscriptionOrder::Status << false << QString() << u"past_due"_qs
                                << u"status >= 'past_due'"_qs
                                << u"status, provider_key, provider_subscription_id"_qs;
        QTest::newRow("status, descending")
            << SubscriptionOrder::Status << true << QString() << u"canceled"_qs
            << u"status <= 'canceled'"_qs
            << u"status DESC, provider_key DESC, provider_subscription_id DESC"_qs;
        QTest::newRow("period end, then the ones without")
            << SubscriptionOrder::PeriodEnd << false << QString() << u"2025-06-01T00:00:00Z"_qs
            << u"current_period_end >= '2025-06-01T00:00:00Z' OR current_period_end IS NULL"_qs
            << u"current_period_end NULLS LAST, provider_key, provider_subscription_id"_qs;
        QTest::newRow("period end, descending: the ones without lie before")
            << SubscriptionOrder::PeriodEnd << true << QString() << u"2025-06-01T00:00:00Z"_qs
            << u"current_period_end <= '2025-06-01T00:00:00Z'"_qs
            << u"current_period_end DESC, provider_key DESC, provider_subscription_id DESC"_qs;
        QTest::newRow("period end within a status filter")
            << SubscriptionOrder::PeriodEnd << false << u"past_due"_qs << u"2025-10-15T12:00:00Z"_qs
            << u"status = 'past_due' AND current_period_end >= '2025-10-15T12:00:00Z'"_qs
            << u"current_period_end, provider_key, provider_subscription_id"_qs;
    }

    void startsAtAPosition()
    {
        QFETCH(SubscriptionOrder, order);
        QFETCH(bool, descending);
        QFETCH(QString, status);
        QFETCH(QString, typed);
        QFETCH(QString, where);
        QFETCH(QString, orderBy);

        SubscriptionsModel model(pool());
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPageSize(151);
        model.setOrder(order, descending ? Qt::DescendingOrder : Qt::AscendingOrder);
        model.setFilter({QString(), status, false, QString()});
        QString error;
        const auto position = SubscriptionsModel::parsePosition(order, typed, &error);
        QVERIFY2(position.has_value(), qPrintable(error));
        model.setStartPosition(*position);
        QVERIFY(loadAll(model));
        const QStringList want = expected(where, orderBy);
        QVERIFY(want.size() > 151); // more than a page: the pages after the first follow on
        QVERIFY(want.size() < kSubscriptions);
        QCOMPARE(loadedKeys(model), want);

        // Another order starts at its own beginning.
        model.setOrder(order, descending ? Qt::AscendingOrder : Qt::DescendingOrder);
        QVERIFY(model.startPosition().isEmpty());
    }

    void positionsAreParsedOrNamed_data()
    {
        QTest::addColumn<SubscriptionOrder>("order");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("position"); // empty: refused
        QTest::addColumn<QString>("error");

        const QString localMidnight = QString::fromStdString(rd::formatRfc3339(
            rd::Timestamp {QDate(2027, 3, 1).startOfDay().toMSecsSinceEpoch() * 1000}));
        QTest::newRow("a date is local midnight")
            << SubscriptionOrder::PeriodEnd << u" 2027-03-01 "_qs << localMidnight << QString();
        QTest::newRow("an RFC 3339 time is exact")
            << SubscriptionOrder::PeriodEnd << u"2027-03-01T10:30:00+02:00"_qs
            << u"2027-03-01T08:30:00Z"_qs << QString();
        QTest::newRow("not a date") << SubscriptionOrder::PeriodEnd << u"2027-13-01"_qs << QString()
                                    << u"\"2027-13-01\" is not a date"_qs;
        QTest::newRow("a status") << SubscriptionOrder::Status << u"paused"_qs << u"paused"_qs
                                  << QString();
        QTest::newRow("not a status") << SubscriptionOrder::Status << u"late"_qs << QString()
                                      << u"\"late\" is not a status"_qs;
        QTest::newRow("provider/id as typed")
            << SubscriptionOrder::ProviderAndId << u"stripe-us/sub_9"_qs << u"stripe-us/sub_9"_qs
            << QString();
    }

    void positionsAreParsedOrNamed()
    {
        QFETCH(SubscriptionOrder, order);
        QFETCH(QString, typed);
        QFETCH(QString, position);
        QFETCH(QString, error);
        QString message;
        const auto parsed = SubscriptionsModel::parsePosition(order, typed, &message);
        if (position.isEmpty()) {
            QVERIFY(!parsed.has_value());
            QVERIFY2(message.startsWith(error), qPrintable(message));
        } else {
            QVERIFY2(parsed.has_value(), qPrintable(message));
            QCOMPARE(*parsed, position);
        }
    }
};

QTEST_MAIN(TestUiSubscriptionsModel)
#include "tst_ui_subscriptionsmodel.moc"
