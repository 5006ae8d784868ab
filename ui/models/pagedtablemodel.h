#pragma once

#include "ui/models/records.h"

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QFuture>

#include <algorithm>
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
/// through deliverResult (a queued delivery). Nothing ever counts or loads the whole table.
///
/// Row-count state: the model knows only the rows reached so far (plus one "Loading…"
/// placeholder row while a page is in flight); `isComplete()` once a short page arrived.
///
/// Memory stays bounded however far the view scrolls: rows live in slots of one page each,
/// and only the `residentPageLimit()` most recently shown slots keep their cells. An evicted
/// slot keeps its last row, the keyset the next slot starts after, so a slot scrolled back
/// into view is read again with one indexed query ("Loading…" until it lands).
///
/// A generation counter is bumped by every reset: a page that arrives for an older
/// generation (filter changed while it was loading) is dropped.
class PagedTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    /// Loads up to `limit` rows after `after` (nullptr: from the start) in the model's order.
    /// Runs on a pool thread; throws rd::DatabaseFailure on failure.
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

    /// Drops every row and starts over with `fetcher` (a new filter or order). `before`, when
    /// given, pages backwards: the up to `limit` rows before its keyset argument (the first row
    /// loaded), returned in the model's order. A list that starts at a position (not at the
    /// beginning of its order) has one, so that scrolling up reaches the rows before it.
    void setFetcher(Fetcher fetcher, Fetcher before = {});
    /// Whether rows before the first loaded one may exist and can be read (a `before` fetcher,
    /// the top not reached yet, nothing else in flight).
    bool canFetchBefore() const;
    /// Reads the page before the first loaded row and inserts it at row 0 (rowsPrepended).
    void fetchBefore();
    /// False until a backwards page came back short: the list starts mid-order.
    bool isAtTop() const { return m_atTop; }
    bool isLoadingBefore() const { return m_loadingBefore; }
    /// Re-reads the rows in place, so that the view keeps its selection and scroll position:
    /// a short list (at most `kRefreshLimit` rows) in one query that also finds rows added or
    /// gone; a long one slot by slot, the resident slots now and evicted ones when shown.
    void refresh();

    int loadedRows() const { return m_loaded; }
    bool isLoading() const { return m_loading || m_fetchScheduled; }
    bool isComplete() const { return m_complete; }
    int pageSize() const { return m_pageSize; }
    /// Takes effect for pages loaded from now on.
    void setPageSize(int rows) { m_pageSize = std::max(1, rows); }
    int residentPageLimit() const { return m_residentLimit; }
    void setResidentPageLimit(int pages) { m_residentLimit = std::max(2, pages); }
    /// Slots whose cells are in memory (the bound the limit keeps).
    int residentPages() const;
    quint64 generation() const { return m_generation; }
    int fieldCount() const { return m_fields.size(); }
    /// The row of a key (Role::Key) among the resident rows, or -1.
    int rowOfKey(const QString &key) const;
    /// Writes the whole list, not only the rows in memory, to `path` as CSV (the columns'
    /// display text), reading it again from its start on a pool thread; the file appears
    /// whole or not at all. The future's result is the row count; it throws on failure.
    QFuture<qint64> exportCsv(const QString &path) const;
    /// A reached row's cells, or nullptr while its slot is evicted (see `isResident`).
    RowRef row(int r) const;
    bool isResident(int r) const { return row(r) != nullptr; }

    static constexpr int kRefreshLimit = 2000;
    static constexpr int kDefaultResidentPages = 50;

signals:
    /// A page arrived: how many rows and how long since it was asked for.
    void pageLoaded(int rows, qint64 elapsedMs);
    void loadFailed(const QString &message);
    /// An evicted slot (or, on refresh, a resident one) was read again: rows first..last.
    void rowsRestored(int first, int last);
    /// A backwards page arrived: `count` rows were inserted at row 0 (every earlier row moved
    /// down by `count`).
    void rowsPrepended(int count);

private:
    /// One page worth of rows. Every slot but the last holds `m_slotRows` rows.
    struct Slot
    {
        QVector<QVariant> cells; ///< empty while evicted
        QVector<QVariant> first; ///< the slot's first row: where a slot before it ends
        QVector<QVariant> last; ///< the slot's last row: where the next slot starts after
        int rows = 0;
        bool restoring = false;
        mutable quint64 used = 0; ///< when last shown (LRU tick)
    };

    /// The fetcher's page after `after`, read on a pool thread.
    QFuture<Page> fetchPage(const QVector<QVariant> &after, int limit) const;
    void scheduleLoad();
    void startLoad(int limit, bool replace);
    void pageArrived(
        quint64 generation, bool replace, int limit, const Page &page, qint64 elapsedMs);
    void replaceAll(const Page &page);
    void appendRows(const QVector<QVariant> &cells, int rows);
    void evictOverLimit();
    void requestRestore(int slot) const;
    void startRestores();
    void restoreArrived(quint64 generation, int slot, int asked, const Page &page);
    void beforeArrived(quint64 generation, int limit, const Page &page);
    /// Rows are laid out in slots of m_slotRows, except the first: a short backwards page that
    /// reached the top fills only its end (m_lead rows of it are missing).
    int slotOf(int r) const { return (r + m_lead) / m_slotRows; }
    int slotFirstRow(int slot) const { return slot == 0 ? 0 : slot * m_slotRows - m_lead; }
    int slotCapacity(int slot) const { return slot == 0 ? m_slotRows - m_lead : m_slotRows; }

    DatabasePool *m_pool;
    QVector<Field> m_fields;
    QVector<Column> m_columns;
    int m_keyField;
    Fetcher m_fetcher;
    Fetcher m_before;
    QVector<Slot> m_slots;
    int m_slotRows = 200;
    int m_loaded = 0;
    int m_lead = 0;
    int m_residentLimit = kDefaultResidentPages;
    int m_restoresInFlight = 0;
    mutable quint64 m_tick = 0;
    mutable QVector<int> m_wanted; ///< evicted slots a view asked for, not yet requested
    mutable bool m_restoreScheduled = false;
    int m_pageSize = 200;
    bool m_loading = false;
    bool m_complete = false;
    bool m_failed = false;
    bool m_fetchScheduled = false;
    bool m_refreshPending = false;
    bool m_atTop = true;
    bool m_loadingBefore = false;
    bool m_prepended = false; ///< slot 0 was read backwards (it is read again so)
    quint64 m_generation = 0;
};

} // namespace rd::ui
