#include "tests/support/desk_subscriptions.h"
#include "tests/support/test_database.h"
#include "ui/models/databasepool.h"
#include "ui/models/pagedtablemodel.h"
#include "ui/widgets/outboxpage.h"

#include <QAbstractItemModelTester>
#include <QtTest>

#include <memory>

/// The outbox page over an empty database: its lazy list loads, and is empty.
class TestUiOutboxPage : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::unique_ptr<rd::ui::DatabasePool> m_pool;

private slots:
    void initTestCase()
    {
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
};

QTEST_MAIN(TestUiOutboxPage)
#include "tst_ui_outboxpage.moc"
