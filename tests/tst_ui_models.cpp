#include "tests/support/test_database.h"
#include "ui/models/caseevidence.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/recordtablemodel.h"
#include "ui/models/subscriptionsmodel.h"
#include "ui/widgets/outboxpage.h"
#include "ui/widgets/tableview.h"
#include "ui/widgets/timelinewidget.h"

#include "domain/core/timestamp.h"
#include "domain/store/renewal_applier.h"

#include <pqxx/pqxx>

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QtTest>

using rd::ui::SubscriptionFilter;
using rd::ui::SubscriptionOrder;
using rd::ui::SubscriptionsModel;

Q_DECLARE_METATYPE(SubscriptionOrder)

namespace {

constexpr int kSubscriptions = 3000;
const char *const kProviders[] = {"paddle-eu", "stripe-main", "stripe-us"};
const char *const kStatuses[] = {"active", "active", "active", "past_due", "canceled", "trialing"};

/// Loads every page of `model` (the way a view scrolling to the end would).
bool loadAll(rd::ui::PagedTableModel &model)
{
    QSignalSpy loaded(&model, &rd::ui::PagedTableModel::pageLoaded);
    QSignalSpy failed(&model, &rd::ui::PagedTableModel::loadFailed);
    for (int guard = 0; guard < 1000; ++guard) {
        if (model.isLoading()) {
            if (!loaded.wait(10000) && failed.isEmpty())
                return false;
        }
        if (!failed.isEmpty()) {
            qWarning() << "load failed:" << failed.first().first().toString();
            return false;
        }
        if (model.isComplete())
            return true;
        if (model.canFetchMore({}))
            model.fetchMore({});
    }
    return false;
}

QStringList loadedKeys(const SubscriptionsModel &model)
{
    QStringList keys;
    for (int r = 0; r < model.loadedRows(); ++r) {
        const rd::ui::RowRef row = model.row(r);
        keys << row[SubscriptionsModel::Provider].toString() + u'/'
                + row[SubscriptionsModel::SubscriptionId].toString();
    }
    return keys;
}

} // namespace

/// The desk's read models against a real database of 3,000 subscriptions.
class TestUiModels : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::unique_ptr<rd::ui::DatabasePool> m_pool;

    /// The expected order, straight from SQL over the whole (small) table.
    QStringList expected(const QString &where, const QString &orderBy)
    {
        auto conn = m_db->connect();
        pqxx::read_transaction tx(*conn);
        QStringList keys;
        for (const auto &row : tx.exec("SELECT provider_key || '/' || provider_subscription_id "
                                       "FROM subscriptions s WHERE "
                 + where.toStdString() + " ORDER BY " + orderBy.toStdString()))
            keys << QString::fromStdString(row[0].as<std::string>());
        return keys;
    }

private slots:
    void initTestCase()
    {
        m_db = std::make_unique<rdtest::TestDatabase>("ui_models");
        std::string lines;
        for (int i = 0; i < kSubscriptions; ++i) {
            const std::string id = "sub_" + std::to_string(100000 + (i * 7919) % kSubscriptions);
            const auto start = rd::addMonths(rd::makeUtc(2025, 1, 1 + i % 28), i % 14);
            const auto end = rd::addMonths(start, 1);
            if (i % 97 == 0) {
                // No current period: NULL ends must page correctly in both directions.
                lines += "{\"providerKey\":\"" + std::string(kProviders[i % 3])
                    + "\",\"providerSubscriptionId\":\"" + id
                    + "\",\"status\":\"incomplete\",\"currentPeriod\":null,\"cancelAtPeriodEnd\":"
                      "false,\"providerVersion\":null}"
                    + "\n";
                continue;
            }
            lines += rdtest::subscriptionLine(kProviders[i % 3], id, kStatuses[i % 6],
                         rd::formatRfc3339(start), rd::formatRfc3339(end), i % 13 == 0)
                + "\n";
        }
        rdtest::importSubscriptions(m_db->conninfo(), lines);
        // Open cases on a few subscriptions: renewals of past_due ones are refused.
        rd::RenewalApplier applier(m_db->conninfo());
        auto conn = m_db->connect();
        pqxx::read_transaction tx(*conn);
        const auto rows = tx.exec("SELECT provider_key, provider_subscription_id, "
                                  "rd_rfc3339(current_period_end) FROM subscriptions "
                                  "WHERE status = 'past_due' ORDER BY 1, 2 LIMIT 25");
        tx.commit();
        int n = 0;
        for (const auto &row : rows) {
            rd::SuccessfulRenewalEvent e;
            e.providerKey = row[0].as<std::string>();
            e.providerSubscriptionId = row[1].as<std::string>();
            e.providerEventId = "evt_" + std::to_string(n);
            e.providerRenewalKey = "in_" + std::to_string(n++);
            e.period.start = *rd::parseRfc3339(row[2].as<std::string>());
            e.period.end = rd::addMonths(e.period.start, 1);
            e.paidAmountMinor = 1999;
            e.currency = "USD";
            e.paidAt = e.period.start;
            QCOMPARE(
                applier.apply(e, {"webhook", e.providerKey}).result, rd::ApplyResult::Rejected);
        }
        m_pool = std::make_unique<rd::ui::DatabasePool>(QString::fromStdString(m_db->conninfo()));
    }

    void cleanupTestCase()
    {
        m_pool.reset();
        m_db.reset();
    }

    void conninfoParsing()
    {
        const QString given = u"host='/tmp/x y/socket' port=5433 dbname='renewal_desk' "
                              "user=postgres sslmode=require password=secret "
                              "application_name='it\\'s'"_qs;
        const auto s = rd::ui::ConnectionSettings::fromConninfo(given);
        QCOMPARE(s.host, u"/tmp/x y/socket"_qs);
        QCOMPARE(s.port, 5433);
        QCOMPARE(s.databaseName, u"renewal_desk"_qs);
        QCOMPARE(s.userName, u"postgres"_qs);
        QVERIFY(s.error.isEmpty());
        QVERIFY(s.options.contains(u"sslmode='require'"_qs));
        QVERIFY(s.options.contains(u"application_name='it\\'s'"_qs));
        QVERIFY(!s.options.contains(u"secret"_qs));
        // What the desk remembers: the same connection, never the password.
        const QString remembered = rd::ui::conninfoWithoutPassword(given);
        QVERIFY(!remembered.contains(u"secret"_qs));
        QVERIFY(!remembered.contains(u"password"_qs));
        const auto again = rd::ui::ConnectionSettings::fromConninfo(remembered);
        QCOMPARE(again.host, s.host);
        QCOMPARE(again.port, s.port);
        QCOMPARE(again.databaseName, s.databaseName);
        QCOMPARE(again.userName, s.userName);
        QCOMPARE(again.options, s.options);

        // A URI reads the same way (libpq's parser), and a broken string is named, not guessed.
        const QString uriGiven
            = u"postgresql://finance:secret@db.example.com:6432/renewals?sslmode=verify-full"_qs;
        const auto uri = rd::ui::ConnectionSettings::fromConninfo(uriGiven);
        QVERIFY2(uri.error.isEmpty(), qPrintable(uri.error));
        QCOMPARE(uri.host, u"db.example.com"_qs);
        QCOMPARE(uri.port, 6432);
        QCOMPARE(uri.databaseName, u"renewals"_qs);
        QCOMPARE(uri.userName, u"finance"_qs);
        QVERIFY(uri.options.contains(u"sslmode='verify-full'"_qs));
        QVERIFY(!rd::ui::conninfoWithoutPassword(uriGiven).contains(u"secret"_qs));
        // What the desk saves: nothing added, nothing but the password taken away. The embedded
        // database (an empty conninfo) must stay empty, or the next start would look for a
        // server on the default socket.
        QCOMPARE(rd::ui::conninfoWithoutPassword(QString()), QString());
        QCOMPARE(rd::ui::conninfoWithoutPassword(
                     u"host=/tmp/s dbname=rd password=secret sslmode=require"_qs),
            u"dbname='rd' host='/tmp/s' sslmode='require'"_qs);
        QCOMPARE(rd::ui::conninfoWithoutPassword(u"postgresql://u:secret@h/db"_qs),
            u"user='u' dbname='db' host='h'"_qs);
        const auto broken = rd::ui::ConnectionSettings::fromConninfo(u"host='unterminated"_qs);
        QVERIFY(!broken.error.isEmpty());
        QVERIFY2(broken.error.contains(u"quoted"_qs), qPrintable(broken.error));
    }

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

        SubscriptionsModel model(m_pool.get());
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
        SubscriptionsModel model(m_pool.get());
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(loadAll(model));
        QCOMPARE(model.loadedRows(), kSubscriptions);
        // The first page alone is a page, not the table.
        SubscriptionsModel fresh(m_pool.get());
        QSignalSpy loaded(&fresh, &rd::ui::PagedTableModel::pageLoaded);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(fresh.loadedRows(), fresh.pageSize());
        QVERIFY(!fresh.isComplete());
        QVERIFY(fresh.canFetchMore({}));
    }

    void columnsRenderMoneyAndCases()
    {
        SubscriptionsModel model(m_pool.get());
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

    void staleGenerationIsDropped()
    {
        SubscriptionsModel model(m_pool.get());
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
        SubscriptionsModel model(m_pool.get());
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

        SubscriptionsModel model(m_pool.get());
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

        SubscriptionsModel model(m_pool.get());
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
        SubscriptionsModel model(m_pool.get());
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
        QVERIFY(lines.first().startsWith(u"Provider,Subscription,Status"_qs));
        QStringList keys;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QStringList fields = lines[i].split(u',');
            keys << fields[0] + u'/' + fields[1];
        }
        QCOMPARE(keys, expected(u"true"_qs, u"provider_key, provider_subscription_id"_qs));

        // A list that has not been scrolled at all exports whole too.
        SubscriptionsModel fresh(m_pool.get());
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
        SubscriptionsModel model(m_pool.get());
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
            auto conn = m_db->connect();
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

    void outboxAndRecordModels()
    {
        rd::ui::OutboxPage outbox(m_pool.get());
        QAbstractItemModelTester tester(
            outbox.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(loadAll(*outbox.model()));
        QCOMPARE(outbox.model()->loadedRows(), 0); // nothing renewed in this database

        rd::ui::RecordTableModel records(2,
            {{u"a"_qs,
                [](rd::ui::RowRef r, int role) {
                    return role == Qt::DisplayRole ? r[1] : QVariant();
                }}},
            0);
        QAbstractItemModelTester recordTester(
            &records, QAbstractItemModelTester::FailureReportingMode::QtTest);
        records.setRows({u"k1"_qs, 1, u"k2"_qs, 2});
        QCOMPARE(records.rowCount(), 2);
        QSignalSpy reset(&records, &QAbstractItemModel::modelReset);
        records.setRows({u"k1"_qs, 10, u"k2"_qs, 20}); // same keys: in place
        QCOMPARE(reset.size(), 0);
        QCOMPARE(records.index(1, 0).data().toInt(), 20);
        records.setRows({u"k3"_qs, 3});
        QCOMPARE(reset.size(), 1);
        QCOMPARE(records.rowOfKey(u"k3"_qs), 0);
    }

    void copyAndExportCsv()
    {
        rd::ui::RecordTableModel records(2,
            {{u"key"_qs,
                 [](rd::ui::RowRef r, int role) {
                     return role == Qt::DisplayRole ? r[0] : QVariant();
                 }},
                {u"note"_qs,
                    [](rd::ui::RowRef r, int role) {
                        return role == Qt::DisplayRole ? r[1] : QVariant();
                    }}},
            0);
        records.setRows({u"k1"_qs, u"plain"_qs, u"k2"_qs, u"with, comma and \"quote\""_qs});
        rd::ui::TableView view;
        view.setModel(&records);
        view.selectAll();
        QCOMPARE(view.selectionAsText(), u"key\tnote\nk1\tplain\nk2\twith, comma and \"quote\""_qs);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"out.csv"_qs);
        QVERIFY(view.exportCsv(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()),
            u"key,note\nk1,plain\nk2,\"with, comma and \"\"quote\"\"\"\n"_qs);
    }

    void timelineCountsGapsAndOverlaps()
    {
        const qint64 day = 86400LL * 1000000;
        const qint64 jan = 1767225600LL * 1000000; // 2026-01-01T00:00:00Z
        rd::ui::TimelineWidget timeline;
        timeline.resize(800, timeline.sizeHint().height());
        // Jan, Feb (contiguous), a gap of 10 days, then an overlap of 5 days.
        timeline.setSpans({{jan, jan + 31 * day, {}, {}}, {jan + 31 * day, jan + 59 * day, {}, {}},
                              {jan + 69 * day, jan + 99 * day, {}, {}},
                              {jan + 94 * day, jan + 124 * day, {}, {}}},
            {{jan + 124 * day, jan + 154 * day, u"case 1"_qs, {}}});
        QCOMPARE(timeline.irregularities(), 2);
        const QImage image = timeline.grab().toImage();
        QVERIFY(!image.isNull());
        // The warning colour is painted somewhere (the gap and the overlapping bar).
        bool warning = false;
        for (int y = 0; y < image.height() && !warning; y += 2) {
            for (int x = 0; x < image.width() && !warning; x += 2) {
                const QColor c = image.pixelColor(x, y);
                warning = c.red() > 200 && c.green() > 90 && c.green() < 130 && c.blue() < 40;
            }
        }
        QVERIFY(warning);
    }

    void evidenceStatesTheGap()
    {
        const auto ev = rd::ui::buildCaseEvidence(u"renewal_period_is_not_contiguous"_qs,
            QString::fromUtf8(
                "{\"providerEventId\":\"evt_9\",\"period\":{\"start\":\"2026-03-30T00:00:00Z\","
                "\"end\":\"2026-04-30T00:00:00Z\"},\"paidAmountMinor\":2000,\"currency\":\"USD\"}"),
            QString::fromUtf8(
                "{\"status\":\"active\",\"cancelAtPeriodEnd\":false,\"currentPeriod\":{\"start\":"
                "\"2026-01-01T00:00:00.000000Z\",\"end\":\"2026-03-01T00:00:00.000000Z\"}}"));
        QVERIFY2(ev.finding.contains(u"gap of 29 days"_qs), qPrintable(ev.finding));
        // The continuity line marks the gap itself, beside the two instants.
        const auto continuity = std::find_if(ev.lines.cbegin(), ev.lines.cend(),
            [](const rd::ui::ComparisonLine &l) { return l.field == u"continuity"_qs; });
        QVERIFY(continuity != ev.lines.cend());
        QVERIFY(continuity->differs);
        QCOMPARE(continuity->note, u"gap of 29 days"_qs);
        const auto conflict = rd::ui::buildCaseEvidence(u"provider_renewal_key_payload_conflict"_qs,
            QString::fromUtf8("{\"providerEventId\":\"evt_2\",\"providerRenewalKey\":\"in_1\","
                              "\"period\":{\"start\":\"2026-02-01T00:00:00Z\",\"end\":\"2026-03-"
                              "01T00:00:00Z\"},\"paidAmountMinor\":2400,\"currency\":\"USD\"}"),
            QString::fromUtf8(
                "{\"subscriptionId\":\"u1\",\"conflictingBillingPeriod\":{\"subscriptionId\":"
                "\"u1\",\"providerRenewalKey\":\"in_1\",\"period\":{\"start\":\"2026-02-01T00:00:"
                "00.000000Z\",\"end\":\"2026-03-01T00:00:00.000000Z\"},\"paidAmountMinor\":2000,"
                "\"currency\":\"USD\"}}"));
        QStringList differing;
        for (const auto &l : conflict.lines) {
            if (l.differs)
                differing << l.field;
        }
        QCOMPARE(differing, QStringList {u"amount"_qs});
        QCOMPARE(conflict.lines[4].local, u"$20.00"_qs);
        QCOMPARE(conflict.lines[4].other, u"$24.00"_qs);
    }

    void moneyUsesTheCurrencyExponent_data()
    {
        QTest::addColumn<qint64>("minor");
        QTest::addColumn<QString>("currency");
        QTest::addColumn<QString>("text");
        QTest::newRow("USD") << qint64(123456) << u"USD"_qs << u"$1,234.56"_qs;
        QTest::newRow("JPY") << qint64(500) << u"JPY"_qs << u"¥500"_qs;
        QTest::newRow("KWD") << qint64(1234) << u"KWD"_qs << u"1.234 KWD"_qs;
        QTest::newRow("EUR cents") << qint64(5) << u"EUR"_qs << u"€0.05"_qs;
    }

    void moneyUsesTheCurrencyExponent()
    {
        QFETCH(qint64, minor);
        QFETCH(QString, currency);
        QFETCH(QString, text);
        QCOMPARE(rd::ui::format::money(minor, currency), text);
    }
};

QTEST_MAIN(TestUiModels)
#include "tst_ui_models.moc"
