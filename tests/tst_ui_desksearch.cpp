#include "tests/support/test_database.h"
#include "ui/models/databasepool.h"
#include "ui/models/records.h"
#include "ui/models/recordtablemodel.h"
#include "ui/models/subscriptionsmodel.h"
#include "ui/widgets/casespage.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/outboxpage.h"
#include "ui/widgets/subscriptionspage.h"
#include "ui/widgets/tableview.h"
#include "ui/widgets/translations.h"

#include <pqxx/pqxx>

#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QSqlError>
#include <QStackedWidget>
#include <QtTest>

#include <map>
#include <memory>

using rd::ui::SubscriptionFilter;
using rd::ui::SubscriptionOrder;
using rd::ui::SubscriptionsModel;

namespace {

constexpr int kRows = 60000;

/// A database of `kRows` subscriptions over four providers (ids like the large benchmark's:
/// "sub_" + 10 hex digits + a 7-digit number) and a few open cases, analyzed.
std::unique_ptr<rdtest::TestDatabase> makeDatabase(const std::string &collation)
{
    auto db = std::make_unique<rdtest::TestDatabase>("ui_desksearch", true, collation);
    auto conn = db->connect();
    pqxx::work tx(*conn);
    tx.exec0("INSERT INTO subscriptions (provider_key, provider_subscription_id, status, "
             "current_period_start, current_period_end) "
             "SELECT (ARRAY['stripe-main', 'paddle-eu', 'stripe-us', 'chargebee'])[1 + i % 4], "
             "'sub_' || substr(md5(i::text), 1, 10) || to_char(i, 'FM0000000'), 'active', "
             "timestamptz '2026-01-01 00:00Z' + (i % 28) * interval '1 day', "
             "timestamptz '2026-02-01 00:00Z' + (i % 28) * interval '1 day' "
             "FROM generate_series(1, "
        + std::to_string(kRows) + ") AS i");
    tx.exec0("INSERT INTO reconciliation_cases (provider_key, provider_subscription_id, "
             "subscription_id, provider_renewal_key, first_provider_event_id, "
             "last_provider_event_id, error_code, event, event_fingerprint, local_state) "
             "SELECT s.provider_key, s.provider_subscription_id, s.id, 'in_' || s.id, "
             "'evt_' || s.id, 'evt_' || s.id, 'needs_snapshot', "
             "jsonb_build_object('providerKey', s.provider_key, 'providerSubscriptionId', "
             "s.provider_subscription_id, 'providerEventId', 'evt_' || s.id, "
             "'providerRenewalKey', 'in_' || s.id), md5(s.id::text), "
             "rd_subscription_state_json(s) "
             "FROM subscriptions s ORDER BY s.provider_subscription_id LIMIT 40");
    tx.commit();
    pqxx::nontransaction(*conn).exec0("ANALYZE");
    return db;
}

/// Every node of an EXPLAIN (FORMAT JSON) plan.
void walk(const QJsonObject &node, QVector<QJsonObject> &out)
{
    out << node;
    for (const QJsonValue &child : node.value(u"Plans"_qs).toArray())
        walk(child.toObject(), out);
}

struct Plan
{
    QVector<QJsonObject> nodes;
    qint64 removed = 0; ///< rows of subscriptions read and thrown away
    QStringList describe() const
    {
        QStringList d;
        for (const QJsonObject &n : nodes)
            d << n.value(u"Node Type"_qs).toString() + u' '
                    + n.value(u"Relation Name"_qs).toString() + u' '
                    + n.value(u"Index Name"_qs).toString();
        return d;
    }
};

/// The query with its values written in as literals: EXPLAIN cannot be a prepared statement.
QString inlined(const rd::ui::PageQuery &q)
{
    QString sql;
    qsizetype next = 0;
    for (const QChar ch : q.sql) {
        if (ch != u'?') {
            sql += ch;
            continue;
        }
        const QVariant v = q.values.value(next++);
        if (v.isNull())
            sql += u"NULL"_qs;
        else if (v.typeId() == QMetaType::QString)
            sql += u'\'' + v.toString().replace(u'\'', u"''"_qs) + u'\'';
        else
            sql += v.toString();
    }
    return sql;
}

Plan explain(rd::ui::DatabasePool &pool, const rd::ui::PageQuery &q)
{
    auto f = pool.run([sql = inlined(q)](QSqlDatabase &db) {
        QSqlQuery r(db); // not prepared: EXPLAIN cannot be
        if (!r.exec(u"EXPLAIN (ANALYZE, FORMAT JSON) "_qs + sql))
            return r.lastError().text();
        r.next();
        return r.value(0).toString();
    });
    f.waitForFinished();
    const QJsonArray doc = QJsonDocument::fromJson(f.result().toUtf8()).array();
    if (doc.isEmpty())
        qWarning("EXPLAIN failed: %s", qPrintable(f.result()));
    Plan plan;
    walk(doc.first().toObject().value(u"Plan"_qs).toObject(), plan.nodes);
    for (const QJsonObject &n : std::as_const(plan.nodes)) {
        if (n.value(u"Relation Name"_qs).toString() == u"subscriptions")
            plan.removed += n.value(u"Rows Removed by Filter"_qs).toInteger()
                + n.value(u"Rows Removed by Index Recheck"_qs).toInteger();
    }
    return plan;
}

QStringList run(rd::ui::DatabasePool &pool, const rd::ui::PageQuery &q)
{
    auto f = pool.run([q](QSqlDatabase &db) {
        QSqlQuery r = rd::ui::execSql(db, q.sql, q.values);
        QStringList keys;
        while (r.next())
            keys << r.value(1).toString() + u'/' + r.value(2).toString();
        return keys;
    });
    f.waitForFinished();
    return f.result();
}

} // namespace

/// The desk's id search (issue #13 item 9) and its layout at 1024×700 (item 11): the search's
/// queries stay index-driven on a C.UTF-8 database as on the embedded cluster's C (EXPLAIN
/// ANALYZE: no sequential scan, no provider walked row by row), a fragment from the middle of
/// an id is found, Ctrl+F searches the view shown and Return opens the first match.
class TestUiDeskSearch : public QObject
{
    Q_OBJECT

private:
    std::map<QString, std::unique_ptr<rdtest::TestDatabase>> m_dbs;
    QString m_someId; ///< an id of the data set

    rdtest::TestDatabase &db(const QString &collation) { return *m_dbs.at(collation); }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_dbs[u"C"_qs] = makeDatabase("C");
        m_dbs[u"C.UTF-8"_qs] = makeDatabase("C.UTF-8");
        auto conn = db(u"C.UTF-8"_qs).connect();
        pqxx::read_transaction tx(*conn);
        QCOMPARE(
            QString::fromStdString(tx.exec1("SELECT datcollate FROM pg_database WHERE datname = "
                                            "current_database()")[0]
                                       .as<std::string>()),
            u"C.UTF-8"_qs);
        m_someId = QString::fromStdString(
            tx.exec1("SELECT provider_subscription_id FROM subscriptions WHERE provider_key = "
                     "'paddle-eu' ORDER BY provider_subscription_id OFFSET 777 LIMIT 1")[0]
                .as<std::string>());
    }

    void cleanupTestCase() { m_dbs.clear(); }

    void searchIsIndexDriven_data()
    {
        QTest::addColumn<QString>("collation");
        QTest::addColumn<QString>("provider");
        QTest::addColumn<bool>("contains");
        QTest::addColumn<int>("from"); ///< where the typed text starts in the id
        QTest::addColumn<int>("length");
        for (const QString &collation : {u"C"_qs, u"C.UTF-8"_qs}) {
            const QByteArray c = collation.toUtf8();
            QTest::addRow("%s: prefix, every provider", c.constData())
                << collation << QString() << false << 0 << 9;
            QTest::addRow("%s: prefix, one provider", c.constData())
                << collation << u"paddle-eu"_qs << false << 0 << 9;
            QTest::addRow("%s: short prefix, every provider", c.constData())
                << collation << QString() << false << 0 << 5;
            QTest::addRow("%s: fragment, every provider", c.constData())
                << collation << QString() << true << 6 << 6;
            QTest::addRow("%s: fragment, one provider", c.constData())
                << collation << u"paddle-eu"_qs << true << 6 << 6;
            QTest::addRow("%s: fragment of the number", c.constData())
                << collation << QString() << true << 15 << 5;
        }
    }

    void searchIsIndexDriven()
    {
        QFETCH(QString, collation);
        QFETCH(QString, provider);
        QFETCH(bool, contains);
        QFETCH(int, from);
        QFETCH(int, length);
        rd::ui::DatabasePool pool(QString::fromStdString(db(collation).conninfo()));
        SubscriptionFilter filter;
        filter.provider = provider;
        filter.idPrefix = m_someId.mid(from, length);
        filter.idContains = contains;
        const auto q = SubscriptionsModel::pageQuery(
            filter, SubscriptionOrder::ProviderAndId, Qt::AscendingOrder, {}, 200);
        Plan plan;
        try {
            plan = explain(pool, q);
        } catch (const std::exception &e) {
            QFAIL(e.what());
        }
        for (const QJsonObject &n : plan.nodes) {
            QVERIFY2(!(n.value(u"Node Type"_qs).toString() == u"Seq Scan"
                         && n.value(u"Relation Name"_qs).toString() == u"subscriptions"),
                qPrintable(plan.describe().join(u" | "_qs)));
        }
        // A walk through a provider's ids, testing each, would throw away thousands of rows.
        QVERIFY2(plan.removed < 500,
            qPrintable(QString(u"%1 rows read and thrown away: %2"_qs)
                           .arg(plan.removed)
                           .arg(plan.describe().join(u" | "_qs))));

        // And it finds what it should, in bytewise id order.
        auto conn = db(collation).connect();
        pqxx::read_transaction tx(*conn);
        QStringList expected;
        const std::string pattern = contains ? "%" + filter.idPrefix.toStdString() + "%"
                                             : filter.idPrefix.toStdString() + "%";
        for (const auto &row : tx.exec("SELECT provider_key || '/' || provider_subscription_id "
                                       "FROM subscriptions WHERE provider_subscription_id LIKE "
                 + tx.quote(pattern)
                 + (provider.isEmpty() ? std::string()
                                       : " AND provider_key = " + tx.quote(provider.toStdString()))
                 + " ORDER BY provider_key, provider_subscription_id COLLATE \"C\" LIMIT 200"))
            expected << QString::fromStdString(row[0].as<std::string>());
        QVERIFY(!expected.isEmpty());
        if (expected.size() < 200) // a short prefix matches more than a page
            QVERIFY(expected.contains(u"paddle-eu/"_qs + m_someId));
        QStringList found;
        try {
            found = run(pool, q);
        } catch (const std::exception &e) {
            QFAIL(e.what());
        }
        QCOMPARE(found, expected);
    }

    /// The second page of a search continues the first (the keyset compares ids as the order
    /// does, bytewise), on both collations.
    void searchPagesFollowOneAnother()
    {
        for (const QString &collation : {u"C"_qs, u"C.UTF-8"_qs}) {
            rd::ui::DatabasePool pool(QString::fromStdString(db(collation).conninfo()));
            SubscriptionsModel model(&pool);
            model.setPageSize(50);
            SubscriptionFilter filter;
            filter.idPrefix = u"sub_a"_qs; // about one id in 16: many pages
            model.setFilter(filter);
            QSignalSpy loaded(&model, &rd::ui::PagedTableModel::pageLoaded);
            for (int i = 0; i < 4; ++i) {
                QVERIFY(loaded.wait(10000));
                if (model.canFetchMore({}))
                    model.fetchMore({});
            }
            QVERIFY(model.loadedRows() >= 150);
            QStringList keys;
            for (int r = 0; r < 150; ++r)
                keys << model.row(r)[SubscriptionsModel::Provider].toString() + u'/'
                        + model.row(r)[SubscriptionsModel::SubscriptionId].toString();
            auto conn = db(collation).connect();
            pqxx::read_transaction tx(*conn);
            QStringList expected;
            for (const auto &row :
                tx.exec("SELECT provider_key || '/' || provider_subscription_id FROM "
                        "subscriptions WHERE provider_subscription_id LIKE 'sub\\_a%' ORDER BY "
                        "provider_key, provider_subscription_id COLLATE \"C\" LIMIT 150"))
                expected << QString::fromStdString(row[0].as<std::string>());
            QCOMPARE(keys, expected);
        }
    }

    /// Ctrl+F searches the view shown (not always Subscriptions); Return right after typing
    /// opens the first match once it lands.
    void findSearchesTheViewShown()
    {
        const auto conninfo = QString::fromStdString(db(u"C.UTF-8"_qs).conninfo());
        rd::ui::MainWindow window(conninfo, u"test"_qs);
        window.resize(1024, 700);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));

        window.showPage(window.casesPage());
        QVERIFY(
            QTest::qWaitFor([&] { return window.casesPage()->model()->rowCount() > 0; }, 10000));
        QVERIFY(window.findInView());
        auto *caseSearch = window.casesPage()->searchBox();
        QVERIFY(caseSearch->hasFocus());
        QCOMPARE(window.findChild<QStackedWidget *>()->currentWidget(), window.casesPage());
        // A fragment from the middle of a case's subscription id; Return at once.
        auto conn = db(u"C.UTF-8"_qs).connect();
        pqxx::read_transaction tx(*conn);
        const auto c = tx.exec1("SELECT id, provider_subscription_id FROM reconciliation_cases "
                                "ORDER BY id DESC LIMIT 1");
        const QString fragment = QString::fromStdString(c[1].as<std::string>()).mid(7, 6);
        QTest::keyClicks(caseSearch, fragment);
        QTest::keyClick(caseSearch, Qt::Key_Return);
        QVERIFY(QTest::qWaitFor(
            [&] { return window.casesPage()->currentCase() == c[0].as<qint64>(); }, 10000));
        QVERIFY(window.casesPage()->model()->rowCount() < 40);
        QVERIFY(window.casesPage()->table()->hasFocus());

        window.showPage(window.subscriptionsPage());
        QVERIFY(window.findInView());
        auto *search = window.subscriptionsPage()->searchBox();
        QVERIFY(search->hasFocus());
        const QString middle = m_someId.mid(6, 8);
        QTest::keyClicks(search, middle);
        QTest::keyClick(search, Qt::Key_Return);
        const QString uuid = QString::fromStdString(
            tx.exec1("SELECT id::text FROM subscriptions WHERE provider_subscription_id LIKE "
                  + tx.quote("%" + middle.toStdString() + "%")
                  + " ORDER BY provider_key, provider_subscription_id COLLATE \"C\" LIMIT 1")[0]
                .as<std::string>());
        QVERIFY(QTest::qWaitFor(
            [&] { return window.subscriptionsPage()->currentSubscriptionId() == uuid; }, 10000));
        QVERIFY(window.subscriptionsPage()->table()->hasFocus());

        // A view without a search says so and stays where it is.
        window.showPage(window.outboxPage());
        QVERIFY(!window.findInView());
        QCOMPARE(window.findChild<QStackedWidget *>()->currentWidget(),
            static_cast<QWidget *>(window.outboxPage()));
    }

    /// Every view is usable at 1024×700: the window is that size, the search and go-to hints
    /// show whole, the list's columns fit with ids whole; wider, the last column takes the rest.
    void layoutAtWindowSize_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x700") << QSize(1024, 700);
        QTest::newRow("1600x1000") << QSize(1600, 1000);
    }

    void layoutAtWindowSize()
    {
        QFETCH(QSize, size);
        const auto conninfo = QString::fromStdString(db(u"C"_qs).conninfo());
        rd::ui::MainWindow window(conninfo, u"test"_qs);
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.minimumSizeHint().width() <= 1024,
            qPrintable(QString::number(window.minimumSizeHint().width())));
        QCOMPARE(window.size(), size);

        for (QWidget *page : std::initializer_list<QWidget *> {
                 window.subscriptionsPage(), window.casesPage(), window.outboxPage()}) {
            window.showPage(page);
            QTest::qWait(50);
            for (QLineEdit *edit : window.findChildren<QLineEdit *>()) {
                if (!edit->isVisible() || edit->placeholderText().isEmpty())
                    continue;
                const int hint = edit->fontMetrics().horizontalAdvance(edit->placeholderText());
                QVERIFY2(edit->width() >= hint + 8,
                    qPrintable(QString(u"%1: %2 px for \"%3\" (%4 px)"_qs)
                                   .arg(edit->objectName())
                                   .arg(edit->width())
                                   .arg(edit->placeholderText())
                                   .arg(hint)));
            }
        }

        window.showPage(window.subscriptionsPage());
        rd::ui::TableView *table = window.subscriptionsPage()->table();
        QVERIFY(QTest::qWaitFor(
            [&] { return window.subscriptionsPage()->model()->loadedRows() >= 200; }, 10000));
        QTest::qWait(50);
        const int columns = table->model()->columnCount();
        int total = 0;
        for (int c = 0; c < columns; ++c)
            total += table->columnWidth(c);
        const int viewport = table->viewport()->width();
        // Nothing cut at the right ("Open cases" whole) and no empty band: the last column
        // stretches over the rest.
        QVERIFY2(std::abs(total - viewport) <= 2,
            qPrintable(
                QString(u"columns %1 px in a viewport of %2 px"_qs).arg(total).arg(viewport)));
        const int last = columns - 1;
        QVERIFY(table->columnWidth(last) >= table->horizontalHeader()->sectionSizeHint(last));
        // Ids whole.
        const int id = SubscriptionsModel::SubscriptionColumn;
        QVERIFY2(table->columnWidth(id) >= table->naturalColumnWidth(id) - 8,
            qPrintable(QString(u"id column %1 px, ids need %2 px"_qs)
                           .arg(table->columnWidth(id))
                           .arg(table->naturalColumnWidth(id) - 8)));
    }

    // #38: in German at 1280 px, every title of the Subscriptions page is whole ("Letzte
    // Verlängerur" named nothing), and the desk still fits 1024 px (German's longer words
    // made it 1092 px wide). Last: the German catalog stays installed for the process.
    void germanTitlesAreWholeAt1280()
    {
        QCOMPARE(rd::ui::installTranslations(*QCoreApplication::instance(), u"de"_qs), u"de"_qs);
        const auto conninfo = QString::fromStdString(db(u"C"_qs).conninfo());
        rd::ui::MainWindow window(conninfo, u"test"_qs);
        QVERIFY2(window.minimumSizeHint().width() <= 1024,
            qPrintable(QString::number(window.minimumSizeHint().width())));
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showPage(window.subscriptionsPage());
        rd::ui::TableView *table = window.subscriptionsPage()->table();
        QVERIFY(QTest::qWaitFor(
            [&] { return window.subscriptionsPage()->model()->loadedRows() >= 200; }, 10000));
        QTest::qWait(50);
        QCOMPARE(table->model()
                     ->headerData(SubscriptionsModel::ProviderColumn, Qt::Horizontal)
                     .toString(),
            u"Anbieter"_qs);
        for (int c = 0; c < table->model()->columnCount(); ++c) {
            if (table->isColumnHidden(c))
                continue;
            const int title = table->horizontalHeader()->sectionSizeHint(c);
            QVERIFY2(table->columnWidth(c) >= title,
                qPrintable(u"\"%1\": %2 px for a title of %3 px"_qs
                               .arg(table->model()->headerData(c, Qt::Horizontal).toString())
                               .arg(table->columnWidth(c))
                               .arg(title)));
        }
    }
};

QTEST_MAIN(TestUiDeskSearch)
#include "tst_ui_desksearch.moc"
