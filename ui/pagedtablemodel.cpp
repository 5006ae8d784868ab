#include "pagedtablemodel.h"

#include "database.h"

#include <QBrush>
#include <QPalette>

namespace rd::ui {

PagedTableModel::PagedTableModel(DatabasePool *pool, QVector<Field> fields, QVector<Column> columns,
    int keyField, QObject *parent)
    : QAbstractTableModel(parent)
    , m_pool(pool)
    , m_fields(std::move(fields))
    , m_columns(std::move(columns))
    , m_keyField(keyField)
{ }

PagedTableModel::~PagedTableModel()
{
    // No waiting: a page in flight touches nothing of the model (the fetcher and the keyset
    // are copied into the task), and the pool that runs it may already be gone.
    if (m_watcher)
        m_watcher->disconnect(this);
}

int PagedTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return m_loaded + (m_loading ? 1 : 0);
}

int PagedTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant PagedTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (index.row() >= m_loaded) {
        switch (role) {
        case Qt::DisplayRole:
            return index.column() == 0 ? tr("Loading…") : QVariant();
        case Qt::ForegroundRole:
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        case int(Role::Placeholder):
            return true;
        default:
            return {};
        }
    }
    return columnCell(m_columns, index.column(), row(index.row()), m_keyField, role);
}

QVariant PagedTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    const QVariant header = columnHeader(m_columns, section, orientation, role);
    return header.isValid() ? header : QAbstractTableModel::headerData(section, orientation, role);
}

bool PagedTableModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_fetcher && !m_loading && !m_fetchScheduled && !m_complete
        && !m_failed;
}

void PagedTableModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    scheduleLoad();
}

void PagedTableModel::scheduleLoad()
{
    // Never inside fetchMore itself: views (and QAbstractItemModelTester) call it while they
    // handle another change of this model, when inserting the placeholder row would nest.
    m_fetchScheduled = true;
    const quint64 generation = m_generation;
    QMetaObject::invokeMethod(
        this,
        [this, generation] {
            if (generation != m_generation || !m_fetchScheduled)
                return;
            if (m_loading || m_complete || m_failed) {
                m_fetchScheduled = false;
                return;
            }
            startLoad(m_pageSize, false); // clears m_fetchScheduled once m_loading is set
        },
        Qt::QueuedConnection);
}

void PagedTableModel::setFetcher(Fetcher fetcher)
{
    beginResetModel();
    ++m_generation;
    m_fetcher = std::move(fetcher);
    m_cells.clear();
    m_loaded = 0;
    m_loading = false;
    m_complete = false;
    m_failed = false;
    m_fetchScheduled = false;
    m_refreshPending = false;
    endResetModel();
    scheduleLoad();
}

void PagedTableModel::refresh()
{
    if (!m_fetcher)
        return;
    if (m_loading) {
        // Whatever is in flight may predate the change: read again once it lands.
        m_refreshPending = true;
        return;
    }
    m_refreshPending = false;
    m_failed = false;
    m_fetchScheduled = false;
    ++m_generation;
    startLoad(std::clamp(m_loaded, m_pageSize, kRefreshLimit), true);
}

int PagedTableModel::rowOfKey(const QString &key) const
{
    // A linear scan: keys are looked up rarely (tests, opening a row by id), and an index of
    // every loaded key would cost more memory per row than the rest of the row.
    for (int r = 0; r < m_loaded; ++r) {
        if (keyText(row(r)[m_keyField]) == key)
            return r;
    }
    return -1;
}

void PagedTableModel::startLoad(int limit, bool replace)
{
    QVector<QVariant> after;
    if (!replace && m_loaded > 0)
        after = QVector<QVariant>(row(m_loaded - 1), row(m_loaded - 1) + m_fields.size());
    if (!replace) {
        beginInsertRows({}, m_loaded, m_loaded);
        m_loading = true;
        m_fetchScheduled = false;
        endInsertRows();
    } else {
        m_loading = true; // no placeholder: the rows stay visible while they are re-read
    }
    const quint64 generation = m_generation;
    QElapsedTimer timer;
    timer.start();
    auto *watcher = new QFutureWatcher<Page>(this);
    m_watcher = watcher;
    connect(watcher, &QFutureWatcher<Page>::finished, this,
        [this, watcher, generation, replace, limit, timer] {
            watcher->deleteLater();
            if (m_refreshPending)
                QMetaObject::invokeMethod(this, &PagedTableModel::refresh, Qt::QueuedConnection);
            if (watcher->isCanceled())
                return;
            try {
                const Page page = watcher->result();
                pageArrived(generation, replace, limit, page, timer.elapsed());
            } catch (const std::exception &e) {
                if (generation != m_generation)
                    return;
                if (!replace) {
                    beginRemoveRows({}, m_loaded, m_loaded);
                    m_loading = false;
                    endRemoveRows();
                } else {
                    m_loading = false;
                }
                m_failed = true;
                emit loadFailed(QString::fromUtf8(e.what()));
            }
        });
    watcher->setFuture(m_pool->run([fetcher = m_fetcher, after, limit](
                                       QSqlDatabase &db) { return fetcher(db, after, limit); }));
}

void PagedTableModel::pageArrived(
    quint64 generation, bool replace, int limit, const Page &page, qint64 ms)
{
    if (generation != m_generation)
        return; // a page for a filter or order that is no longer shown
    const int stride = m_fields.size();
    if (!replace) {
        beginRemoveRows({}, m_loaded, m_loaded);
        m_loading = false;
        endRemoveRows();
        if (page.rows > 0) {
            beginInsertRows({}, m_loaded, m_loaded + page.rows - 1);
            m_cells.append(page.cells);
            m_loaded += page.rows;
            endInsertRows();
        }
    } else {
        m_loading = false;
        // In place: rows that still exist keep their index, so selection and scroll stay.
        const int common = std::min(m_loaded, page.rows);
        std::copy(
            page.cells.begin(), page.cells.begin() + qsizetype(common) * stride, m_cells.begin());
        if (common > 0)
            emit dataChanged(index(0, 0), index(common - 1, columnCount() - 1));
        if (page.rows > m_loaded) {
            beginInsertRows({}, m_loaded, page.rows - 1);
            m_cells.append(page.cells.mid(qsizetype(m_loaded) * stride));
            m_loaded = page.rows;
            endInsertRows();
        } else if (page.rows < m_loaded) {
            beginRemoveRows({}, page.rows, m_loaded - 1);
            m_cells.resize(qsizetype(page.rows) * stride);
            m_loaded = page.rows;
            endRemoveRows();
        }
    }
    m_complete = page.rows < limit;
    emit pageLoaded(page.rows, ms);
}

} // namespace rd::ui
