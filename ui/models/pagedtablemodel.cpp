#include "ui/models/pagedtablemodel.h"

#include "ui/models/asyncresult.h"
#include "ui/models/csvwriter.h"
#include "ui/models/databasepool.h"

#include <QBrush>
#include <QPalette>

#include <stdexcept>

namespace rd::ui {

PagedTableModel::PagedTableModel(DatabasePool *pool, QVector<Field> fields, QVector<Column> columns,
    int keyField, QObject *parent)
    : QAbstractTableModel(parent)
    , m_pool(pool)
    , m_fields(std::move(fields))
    , m_columns(std::move(columns))
    , m_keyField(keyField)
{ }

// No waiting: a page in flight touches nothing of the model (the fetcher and the keyset are
// copied into the task), and its answer is not delivered once the model is gone.
PagedTableModel::~PagedTableModel() = default;

namespace {
/// Re-reads of evicted slots in flight at once: enough for the two slots a viewport can span,
/// few enough that a fast scroll past a thousand slots does not queue a thousand queries ahead
/// of the ones now on screen.
constexpr int kMaxRestores = 2;
} // namespace

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

RowRef PagedTableModel::row(int r) const
{
    if (r < 0 || r >= m_loaded)
        return nullptr;
    const int i = slotOf(r);
    const Slot &slot = m_slots[i];
    if (slot.cells.isEmpty())
        return nullptr;
    return slot.cells.constData() + qsizetype(r - slotFirstRow(i)) * m_fields.size();
}

QVariant PagedTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RowRef cells = row(index.row());
    if (cells)
        m_slots[slotOf(index.row())].used = ++m_tick;
    else if (index.row() < m_loaded)
        requestRestore(slotOf(index.row()));
    if (!cells) {
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
    return columnCell(m_columns, index.column(), cells, m_keyField, role);
}

QVariant PagedTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    const QVariant header = columnHeader(m_columns, section, orientation, role);
    return header.isValid() ? header : QAbstractTableModel::headerData(section, orientation, role);
}

bool PagedTableModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_fetcher && !m_loading && !m_fetchScheduled && !m_complete
        && !m_failed && !m_loadingBefore;
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

void PagedTableModel::setFetcher(Fetcher fetcher, Fetcher before)
{
    beginResetModel();
    ++m_generation;
    m_fetcher = std::move(fetcher);
    m_before = std::move(before);
    m_atTop = !m_before;
    m_loadingBefore = false;
    m_prepended = false;
    m_slots.clear();
    m_slotRows = m_pageSize;
    m_loaded = 0;
    m_lead = 0;
    m_wanted.clear();
    m_restoresInFlight = 0;
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
    if (m_loadingBefore) {
        m_refreshPending = true; // slot indexes move when the page before lands
        return;
    }
    // Rows read backwards are read again the same way, slot by slot (a read from the start
    // would begin at the position again and lose them).
    if (m_loaded > kRefreshLimit || m_prepended) {
        // Too long to read again in one go: the slots in memory are read again where they
        // are (the ones on screen first, being the most recently used), evicted ones when
        // they are next shown; and the end is looked at again, for rows added since.
        for (int i = 0; i < m_slots.size(); ++i) {
            if (!m_slots[i].cells.isEmpty() && !m_wanted.contains(i))
                m_wanted << i;
        }
        m_complete = false;
        m_failed = false;
        startRestores();
        return;
    }
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

int PagedTableModel::residentPages() const
{
    return int(std::count_if(
        m_slots.cbegin(), m_slots.cend(), [](const Slot &s) { return !s.cells.isEmpty(); }));
}

int PagedTableModel::rowOfKey(const QString &key) const
{
    // A linear scan of what is in memory: keys are looked up rarely (tests, opening a row by
    // id), and an index of every key would cost more memory per row than the rest of the row.
    const int stride = m_fields.size();
    for (int i = 0; i < m_slots.size(); ++i) {
        const Slot &slot = m_slots[i];
        for (int r = 0; r < slot.rows && !slot.cells.isEmpty(); ++r) {
            if (keyText(slot.cells[qsizetype(r) * stride + m_keyField]) == key)
                return slotFirstRow(i) + r;
        }
    }
    return -1;
}

QFuture<Page> PagedTableModel::fetchPage(const QVector<QVariant> &after, int limit) const
{
    // The task owns copies: a page in flight touches nothing of the model.
    return m_pool->run([fetcher = m_fetcher, after, limit](
                           QSqlDatabase &db) { return fetcher(db, after, limit); });
}

QFuture<qint64> PagedTableModel::exportCsv(const QString &path) const
{
    return m_pool->run([fetcher = m_fetcher, columns = m_columns, stride = int(m_fields.size()),
                           path](QSqlDatabase &db) -> qint64 {
        if (!fetcher)
            throw std::runtime_error("nothing to export: the list has no query yet");
        CsvWriter csv(path);
        csv.writeHeader(exportHeader(columns), exportHeaderKinds(columns));
        constexpr int kExportPage = 2000;
        qint64 written = 0;
        QVector<QVariant> after;
        for (;;) {
            const Page page = fetcher(db, after, kExportPage);
            for (int r = 0; r < page.rows; ++r) {
                const RowRef row = page.cells.constData() + qsizetype(r) * stride;
                csv.writeRow(exportRow(columns, row));
            }
            written += page.rows;
            if (page.rows < kExportPage)
                break;
            after = page.cells.mid(qsizetype(page.rows - 1) * stride, stride);
        }
        csv.commit();
        return written;
    });
}

void PagedTableModel::startLoad(int limit, bool replace)
{
    QVector<QVariant> after;
    if (!replace && m_loaded > 0)
        after = m_slots.last().last;
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
    deliverResult(
        this, fetchPage(after, limit),
        [this, generation, replace, limit, timer](const Page &page) {
            if (m_refreshPending)
                QMetaObject::invokeMethod(this, &PagedTableModel::refresh, Qt::QueuedConnection);
            pageArrived(generation, replace, limit, page, timer.elapsed());
        },
        [this, replace](const QString &message) {
            if (m_refreshPending)
                QMetaObject::invokeMethod(this, &PagedTableModel::refresh, Qt::QueuedConnection);
            if (!replace) {
                beginRemoveRows({}, m_loaded, m_loaded);
                m_loading = false;
                endRemoveRows();
            } else {
                m_loading = false;
            }
            m_failed = true;
            emit loadFailed(message);
        },
        // A page for a filter or order that is no longer shown is dropped.
        [this, generation] { return generation == m_generation; });
}

void PagedTableModel::pageArrived(
    quint64 generation, bool replace, int limit, const Page &page, qint64 ms)
{
    if (generation != m_generation)
        return; // a page for a filter or order that is no longer shown
    if (!replace) {
        beginRemoveRows({}, m_loaded, m_loaded);
        m_loading = false;
        endRemoveRows();
        if (page.rows > 0) {
            beginInsertRows({}, m_loaded, m_loaded + page.rows - 1);
            appendRows(page.cells, page.rows);
            endInsertRows();
        }
    } else {
        m_loading = false;
        replaceAll(page);
    }
    m_complete = page.rows < limit;
    evictOverLimit();
    emit pageLoaded(page.rows, ms);
}

void PagedTableModel::replaceAll(const Page &page)
{
    // In place: rows that still exist keep their index, so selection and scroll stay.
    const int before = m_loaded;
    auto rebuild = [&] {
        m_slots.clear();
        m_slotRows = m_pageSize;
        m_loaded = 0;
        m_lead = 0;
        m_wanted.clear();
        m_restoresInFlight = 0; // the refresh's new generation drops their answers
        appendRows(page.cells, page.rows);
    };
    if (page.rows > before) {
        beginInsertRows({}, before, page.rows - 1);
        rebuild();
        endInsertRows();
    } else if (page.rows < before) {
        beginRemoveRows({}, page.rows, before - 1);
        rebuild();
        endRemoveRows();
    } else {
        rebuild();
    }
    const int common = std::min(before, page.rows);
    if (common > 0)
        emit dataChanged(index(0, 0), index(common - 1, columnCount() - 1));
}

void PagedTableModel::appendRows(const QVector<QVariant> &cells, int rows)
{
    const int stride = m_fields.size();
    int done = 0;
    while (done < rows) {
        if (m_slots.isEmpty() || m_slots.last().rows >= slotCapacity(int(m_slots.size()) - 1))
            m_slots.append(Slot {});
        Slot &slot = m_slots.last();
        const int take = std::min(slotCapacity(int(m_slots.size()) - 1) - slot.rows, rows - done);
        if (slot.rows == 0)
            slot.first = cells.mid(qsizetype(done) * stride, stride);
        slot.cells.append(cells.mid(qsizetype(done) * stride, qsizetype(take) * stride));
        slot.rows += take;
        slot.last = slot.cells.mid(qsizetype(slot.rows - 1) * stride, stride);
        slot.used = ++m_tick;
        done += take;
    }
    m_loaded += rows;
}

void PagedTableModel::evictOverLimit()
{
    // The last slot stays: the next page is appended to it while it is short.
    for (int resident = residentPages(); resident > m_residentLimit; --resident) {
        int victim = -1;
        for (int i = 0; i + 1 < m_slots.size(); ++i) {
            const Slot &s = m_slots[i];
            if (!s.cells.isEmpty() && (victim < 0 || s.used < m_slots[victim].used))
                victim = i;
        }
        if (victim < 0)
            return;
        m_slots[victim].cells = QVector<QVariant>(); // clear() would keep the capacity
    }
}

void PagedTableModel::requestRestore(int slot) const
{
    // Called from data(): nothing may change under the view now, so the read starts from
    // the event loop.
    m_slots[slot].used = ++m_tick;
    if (m_slots[slot].restoring || m_wanted.contains(slot))
        return;
    m_wanted << slot;
    if (m_restoreScheduled)
        return;
    m_restoreScheduled = true;
    auto *self = const_cast<PagedTableModel *>(this);
    QMetaObject::invokeMethod(self, &PagedTableModel::startRestores, Qt::QueuedConnection);
}

void PagedTableModel::startRestores()
{
    m_restoreScheduled = false;
    // Not while a page before the first is in flight: its arrival moves every slot's index.
    while (!m_loadingBefore && m_restoresInFlight < kMaxRestores && !m_wanted.isEmpty()) {
        // The most recently shown first: that is what is on screen now.
        const auto next = std::max_element(m_wanted.begin(), m_wanted.end(),
            [this](int a, int b) { return m_slots[a].used < m_slots[b].used; });
        const int i = *next;
        m_wanted.erase(next);
        if (i >= m_slots.size() || m_slots[i].restoring)
            continue;
        Slot &slot = m_slots[i];
        slot.restoring = true;
        ++m_restoresInFlight;
        // The first slot, when it was read backwards, is read backwards again: from the start
        // the list begins at its position, after it.
        const bool backwards = i == 0 && m_prepended && m_slots.size() > 1;
        const QVector<QVariant> after = i > 0 ? m_slots[i - 1].last
            : backwards                       ? m_slots[1].first
                                              : QVector<QVariant>();
        const int limit = slot.rows;
        const quint64 generation = m_generation;
        auto finished = [this, i] {
            --m_restoresInFlight;
            m_slots[i].restoring = false;
        };
        QFuture<Page> read = backwards
            ? m_pool->run([before = m_before, after, limit](
                              QSqlDatabase &db) { return before(db, after, limit); })
            : fetchPage(after, limit);
        deliverResult(
            this, read,
            [this, finished, generation, i, limit](const Page &page) {
                finished();
                restoreArrived(generation, i, limit, page);
                if (generation == m_generation)
                    startRestores();
            },
            [this, finished](const QString &message) {
                finished();
                m_failed = true;
                emit loadFailed(message);
                startRestores();
            },
            // The slots a stale answer was meant for are gone.
            [this, generation] { return generation == m_generation; });
    }
}

void PagedTableModel::restoreArrived(quint64 generation, int i, int asked, const Page &page)
{
    Slot &slot = m_slots[i];
    const int first = slotFirstRow(i);
    const int stride = m_fields.size();
    if (page.rows < asked && i == 0 && m_prepended && m_slots.size() > 1) {
        // Rows before the position went away: read the list again from its position.
        setFetcher(Fetcher(m_fetcher), Fetcher(m_before));
        return;
    }
    if (page.rows < asked) {
        // Fewer rows after this slot's start than it had: the list got shorter here (rows
        // left a filter at its end). Rows cannot be taken out of the middle without moving
        // every later one, so only a short end is cut; elsewhere the list starts over.
        if (i + 1 < m_slots.size() || m_loading || slot.rows != asked) {
            setFetcher(Fetcher(m_fetcher), Fetcher(m_before));
            return;
        }
        beginRemoveRows({}, first + page.rows, m_loaded - 1);
        m_loaded = first + page.rows;
        slot.rows = page.rows;
        if (page.rows == 0)
            m_slots.removeLast();
        endRemoveRows();
        if (page.rows == 0)
            return;
    }
    if (slot.rows == page.rows) {
        slot.cells = page.cells;
    } else if (!slot.cells.isEmpty()) {
        // The last slot grew by a page while it was being read again: the rows read replace
        // its beginning only.
        std::copy(page.cells.cbegin(), page.cells.cend(), slot.cells.begin());
    } else {
        requestRestore(i); // grew, then was evicted: read it whole
        return;
    }
    if (slot.rows == page.rows)
        slot.last = slot.cells.mid(qsizetype(slot.rows - 1) * stride, stride);
    slot.first = slot.cells.mid(0, stride);
    slot.used = ++m_tick;
    emit dataChanged(index(first, 0), index(first + page.rows - 1, columnCount() - 1));
    emit rowsRestored(first, first + page.rows - 1);
    if (generation == m_generation)
        evictOverLimit();
}

bool PagedTableModel::canFetchBefore() const
{
    return m_before && !m_atTop && !m_loadingBefore && !m_loading && !m_fetchScheduled
        && m_restoresInFlight == 0 && m_lead == 0 && m_loaded > 0 && !m_slots.isEmpty()
        && !m_failed;
}

void PagedTableModel::fetchBefore()
{
    if (!canFetchBefore())
        return;
    // Exactly one slot's worth: every slot after the new first one stays whole.
    m_loadingBefore = true;
    const quint64 generation = m_generation;
    const int limit = m_slotRows;
    QElapsedTimer timer;
    timer.start();
    deliverResult(
        this,
        m_pool->run([before = m_before, first = m_slots.first().first, limit](
                        QSqlDatabase &db) { return before(db, first, limit); }),
        [this, generation, limit, timer](const Page &page) {
            beforeArrived(generation, limit, page);
            emit pageLoaded(page.rows, timer.elapsed());
        },
        [this](const QString &message) {
            m_loadingBefore = false;
            m_failed = true;
            emit loadFailed(message);
        },
        [this, generation] { return generation == m_generation; });
}

void PagedTableModel::beforeArrived(quint64 generation, int limit, const Page &page)
{
    if (generation != m_generation)
        return;
    m_loadingBefore = false;
    const int rows = std::min(page.rows, limit);
    if (rows < limit)
        m_atTop = true;
    if (rows > 0) {
        const int stride = m_fields.size();
        Slot slot;
        slot.cells = page.cells.mid(0, qsizetype(rows) * stride);
        slot.rows = rows;
        slot.first = slot.cells.mid(0, stride);
        slot.last = slot.cells.mid(qsizetype(rows - 1) * stride, stride);
        slot.used = ++m_tick;
        beginInsertRows({}, 0, rows - 1);
        m_slots.prepend(slot);
        m_lead = m_slotRows - rows;
        m_loaded += rows;
        m_prepended = true;
        for (int &wanted : m_wanted)
            ++wanted;
        endInsertRows();
        emit rowsPrepended(rows);
        evictOverLimit();
    }
    if (m_refreshPending)
        QMetaObject::invokeMethod(this, &PagedTableModel::refresh, Qt::QueuedConnection);
    startRestores();
}

} // namespace rd::ui
