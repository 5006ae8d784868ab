#pragma once

#include "tests/support/test_database.h"
#include "ui/models/databasepool.h"
#include "ui/models/pagedtablemodel.h"
#include "ui/models/subscriptionsmodel.h"

#include <QStringList>

#include <memory>
#include <string>

namespace rdtest {

/// Subscriptions in UiSubscriptionsDatabase.
constexpr int kSubscriptions = 3000;

/// A database of 3,000 subscriptions over three providers and several statuses (a few without
/// a current period), 25 of the past_due ones with an open case, and a pool over it: what the
/// tests of the desk's lists read.
class UiSubscriptionsDatabase
{
public:
    explicit UiSubscriptionsDatabase(const std::string &name);
    ~UiSubscriptionsDatabase();

    TestDatabase &database() { return *m_db; }
    rd::ui::DatabasePool *pool() const { return m_pool.get(); }
    /// The expected order, straight from SQL over the whole (small) table: provider/id keys
    /// of `subscriptions s WHERE where ORDER BY orderBy`.
    QStringList expected(const QString &where, const QString &orderBy) const;

private:
    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<rd::ui::DatabasePool> m_pool;
};

/// What the suites over UiSubscriptionsDatabase hold (made in their initTestCase, dropped in
/// cleanupTestCase): the database, its pool and its expected order.
class UiSubscriptionsSuite
{
protected:
    std::unique_ptr<UiSubscriptionsDatabase> m_db;
    rd::ui::DatabasePool *pool() const { return m_db->pool(); }
    QStringList expected(const QString &where, const QString &orderBy) const
    {
        return m_db->expected(where, orderBy);
    }
};

/// Loads every page of `model` (the way a view scrolling to the end would).
bool loadAll(rd::ui::PagedTableModel &model);
/// The provider/id keys of the rows `model` loaded.
QStringList loadedKeys(const rd::ui::SubscriptionsModel &model);

} // namespace rdtest
