#pragma once

#include "records.h"

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QPointer>

#include <functional>
#include <memory>

namespace rd::ui {

class DatabasePool;

/// One page as a worker delivers it.
struct Page
{
    QVector<QVariant> cells;
    int rows = 0;
};

/// A lazy, read-only table over a keyset-paginated query, in the manner of a "fetch more"
/// model: pages load on a pool thread as the view scrolls, and arrive on the GUI thread
/// through a QFutureWatcher (a queued delivery). Nothing ever counts or loads the whole table.
///
/// Row-count state: the model knows only the rows loaded so far (plus one "Loading…"
/// placeholder row while a page is in flight); `isComplete()` once a short page arrived.
///
/// A generation counter is bumped by every reset: a page that arrives for an older
/// generation (filter changed while it was loading) is dropped.
class PagedTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    /// Loads up to `limit` rows after `after` (nullptr: from the start) in the model's order.
    /// Runs on a pool thread; throws DatabaseError on failure.
    using Fetcher
        = std::function<Page(QSqlDatabase &db, const QVector<QVariant> &after, int limit)>;

    PagedTableModel(DatabasePool *pool, QVector<Field> fields, QVector<Column> columns,
        int keyField, QObject *parent = nullptr);
    ~PagedTableModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    /// Drops every row and starts over with `fetcher` (a new filter or order).
    void setFetcher(Fetcher fetcher);
    /// Re-reads the loaded rows (at most `kRefreshLimit`) and updates them in place, so that
    /// the view keeps its selection and scroll position.
    void refresh();

    int loadedRows() const { return m_loaded; }
    bool isLoading() const { return m_loading || m_fetchScheduled; }
    bool isComplete() const { return m_complete; }
    int pageSize() const { return m_pageSize; }
    void setPageSize(int rows) { m_pageSize = rows; }
    quint64 generation() const { return m_generation; }
    int fieldCount() const { return m_fields.size(); }
    /// The row of a key (Role::Key), or -1 when it is not loaded.
    int rowOfKey(const QString &key) const;
    RowRef row(int r) const { return m_cells.constData() + qsizetype(r) * m_fields.size(); }

    static constexpr int kRefreshLimit = 2000;

signals:
    /// A page arrived: how many rows and how long since it was asked for.
    void pageLoaded(int rows, qint64 elapsedMs);
    void loadFailed(const QString &message);

private:
    void scheduleLoad();
    void startLoad(int limit, bool replace);
    void pageArrived(
        quint64 generation, bool replace, int limit, const Page &page, qint64 elapsedMs);

    DatabasePool *m_pool;
    QVector<Field> m_fields;
    QVector<Column> m_columns;
    int m_keyField;
    Fetcher m_fetcher;
    QVector<QVariant> m_cells;
    int m_loaded = 0;
    int m_pageSize = 200;
    bool m_loading = false;
    bool m_complete = false;
    bool m_failed = false;
    bool m_fetchScheduled = false;
    bool m_refreshPending = false;
    quint64 m_generation = 0;
    QPointer<QFutureWatcher<Page>> m_watcher;
};

} // namespace rd::ui
