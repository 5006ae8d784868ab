#include "ui/widgets/tableview.h"

#include "ui/models/asyncresult.h"
#include "ui/models/csvwriter.h"
#include "ui/models/pagedtablemodel.h"
#include "ui/models/records.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QScrollBar>
#include <QStyle>
#include <QWheelEvent>

#include <numeric>

namespace rd::ui {
namespace {

bool isPlaceholder(const QModelIndex &index)
{
    return index.data(int(Role::Placeholder)).toBool();
}

} // namespace

TableView::TableView(QWidget *parent) : QTableView(parent)
{
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    setWordWrap(false);
    setCornerButtonEnabled(false);
    // Tab leaves the table for the next control (a case's Claim, Re-apply, Dismiss): moving
    // cell by cell changed the selected row, so nothing after a table was reachable by keyboard.
    // The arrows move within it.
    setTabKeyNavigation(false);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setHighlightSections(false);
    connect(this, &QTableView::doubleClicked, this, &TableView::openRequested);
    // Dragged to the top of a list that starts at a position: the rows before it.
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (value == verticalScrollBar()->minimum())
            fetchBefore();
    });
}

bool TableView::fetchBefore()
{
    auto *paged = qobject_cast<PagedTableModel *>(model());
    if (!paged || !paged->canFetchBefore())
        return false;
    paged->fetchBefore();
    return true;
}

void TableView::showEvent(QShowEvent *event)
{
    QTableView::showEvent(event);
    fitColumns();
}

void TableView::wheelEvent(QWheelEvent *event)
{
    if (event->angleDelta().y() > 0
        && verticalScrollBar()->value() == verticalScrollBar()->minimum())
        fetchBefore();
    QTableView::wheelEvent(event);
}

void TableView::setModel(QAbstractItemModel *model)
{
    QTableView::setModel(model);
    if (!model)
        return;
    connect(model, &QAbstractItemModel::rowsInserted, this, &TableView::fitColumns);
    connect(model, &QAbstractItemModel::modelReset, this, &TableView::fitColumns);
    if (auto *paged = qobject_cast<PagedTableModel *>(model)) {
        // Rows read backwards go in above what is shown: the view keeps showing the same rows
        // (scrolling up goes on into the new ones), the current row stays the same row.
        connect(paged, &PagedTableModel::rowsPrepended, this, [this](int count) {
            QScrollBar *bar = verticalScrollBar();
            const int step = verticalScrollMode() == ScrollPerPixel ? rowHeight(0) : 1;
            bar->setValue(bar->value() + count * step);
        });
    }
}

void TableView::fitColumns()
{
    // Not while hidden (a page not shown yet): its viewport has no real width then.
    if (m_fitted || !model() || model()->rowCount() < 2 || !isVisible())
        return;
    m_fitted = true;
    // The vertical scroll bar appears once more rows arrive: leave room for it now.
    int available = viewport()->width();
    if (!verticalScrollBar()->isVisible())
        available -= style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    fitColumnsTo(available);
}

int TableView::naturalColumnWidth(int column) const
{
    return std::max(sizeHintForColumn(column), horizontalHeader()->sectionSizeHint(column)) + 8;
}

void TableView::fitColumnsTo(int available)
{
    // Each column as wide as what it shows (the rows on screen and the header). When that is
    // wider than the view, the widest columns give way first (a common cap lowered until all
    // fit, down to a floor); the columns kept whole (a time, an amount, an id) never do: an
    // elided amount or instant misleads, a horizontal scroll bar does not. The last column
    // stretches over what is left (QHeaderView::stretchLastSection). No column gives way below
    // its header's text while the titles fit the view: a clipped title ("Letzte Verlängerur")
    // names nothing, and the longer words of other languages than English make that the common
    // case. When even the titles do not fit (a narrow window), the columns fit the view as
    // before: a horizontal scroll bar on every page would hide more than a clipped title; the
    // floor is then lowered from 9 to 6 em where 9 em does not fit either.
    const int columns = model()->columnCount();
    QVector<int> natural(columns, 0);
    QVector<int> title(columns, 0);
    for (int c = 0; c < columns; ++c) {
        if (isColumnHidden(c))
            continue;
        natural[c] = naturalColumnWidth(c);
        title[c] = horizontalHeader()->sectionSizeHint(c) + 8;
    }
    // The last column takes what is left (stretchLastSection): only its title asks for room.
    // Counted whole, a long last column (the Subscriptions page's next step, a sentence) made
    // every other column give way, and German titles were clipped at 1280 px.
    if (horizontalHeader()->stretchLastSection()) {
        for (int c = columns - 1; c >= 0; --c) {
            if (!isColumnHidden(c)) {
                natural[c] = std::min(natural[c], title[c]);
                break;
            }
        }
    }
    const int em = fontMetrics().horizontalAdvance(u'M');
    bool keepTitles = true;
    auto widths = [&](int cap) {
        QVector<int> w(columns, 0);
        for (int c = 0; c < columns; ++c)
            w[c] = m_wholeColumns.contains(c)
                ? natural[c]
                : std::min(natural[c], keepTitles ? std::max(cap, title[c]) : cap);
        return w;
    };
    auto sum = [](const QVector<int> &w) { return std::accumulate(w.cbegin(), w.cend(), 0); };
    const int widest = natural.isEmpty() ? 0 : *std::max_element(natural.cbegin(), natural.cend());
    int floor = 9 * em;
    keepTitles = sum(widths(floor)) <= available;
    // Even at that floor too wide (the Subscriptions page's nine columns at 1024 px): a lower
    // one, so that the columns fit the view with some text cut, not behind a scroll bar.
    if (!keepTitles && sum(widths(floor)) > available)
        floor = 6 * em;
    int cap = widest;
    while (sum(widths(cap)) > available && cap > floor)
        cap -= em / 2;
    const QVector<int> w = widths(std::max(cap, floor));
    for (int c = 0; c < columns; ++c) {
        if (!isColumnHidden(c))
            setColumnWidth(c, w[c]);
    }
}

QString TableView::selectionAsText() const
{
    if (!model() || !selectionModel())
        return {};
    QModelIndexList indexes = selectionModel()->selectedIndexes();
    std::sort(indexes.begin(), indexes.end(), [](const QModelIndex &a, const QModelIndex &b) {
        return a.row() != b.row() ? a.row() < b.row() : a.column() < b.column();
    });
    QStringList lines;
    QStringList header;
    QList<int> columns;
    for (const QModelIndex &i : std::as_const(indexes)) {
        if (!columns.contains(i.column()) && !isColumnHidden(i.column()))
            columns << i.column();
    }
    std::sort(columns.begin(), columns.end());
    for (int c : std::as_const(columns))
        header << model()->headerData(c, Qt::Horizontal).toString();
    lines << header.join(u'\t');
    int currentRow = -1;
    QStringList line;
    for (const QModelIndex &i : std::as_const(indexes)) {
        if (isColumnHidden(i.column()) || isPlaceholder(i))
            continue;
        if (i.row() != currentRow) {
            if (currentRow >= 0)
                lines << line.join(u'\t');
            line.clear();
            currentRow = i.row();
        }
        line << i.data().toString().replace(u'\t', u' ').replace(u'\n', u' ');
    }
    if (currentRow >= 0)
        lines << line.join(u'\t');
    return lines.join(u'\n');
}

void TableView::copySelection()
{
    QApplication::clipboard()->setText(selectionAsText());
}

QString TableView::exportFileName() const
{
    return (objectName().isEmpty() ? u"table"_qs : objectName()) + u".csv"_qs;
}

bool TableView::exportCsv(const QString &path, QString *error) const
{
    if (const auto *paged = qobject_cast<const PagedTableModel *>(model())) {
        // The whole list, not the rows that happen to be in memory.
        QFuture<qint64> written = paged->exportCsv(path);
        written.waitForFinished();
        try {
            written.result();
            return true;
        } catch (const std::exception &e) {
            if (error)
                *error = QString::fromUtf8(e.what());
            return false;
        }
    }
    try {
        CsvWriter csv(path);
        const QAbstractItemModel *m = model();
        // Each column's export form when the model has one (Role::Export), else its text.
        // A column is text unless its model declares its CSV kinds (Role::ExportKinds).
        QStringList header;
        QVector<csv::Kind> kinds;
        for (int c = 0; c < m->columnCount(); ++c) {
            const QVariant titles = m->headerData(c, Qt::Horizontal, int(Role::Export));
            header << (titles.isValid()
                    ? titles.toStringList()
                    : QStringList {m->headerData(c, Qt::Horizontal).toString()});
            QVector<csv::Kind> columnKinds
                = m->headerData(c, Qt::Horizontal, int(Role::ExportKinds))
                      .value<QVector<csv::Kind>>();
            columnKinds.resize(header.size() - kinds.size(), csv::Kind::Text);
            kinds << columnKinds;
        }
        csv.writeHeader(header, kinds);
        for (int r = 0; r < m->rowCount(); ++r) {
            if (isPlaceholder(m->index(r, 0)))
                continue;
            QStringList fields;
            for (int c = 0; c < m->columnCount(); ++c) {
                const QVariant values = m->index(r, c).data(int(Role::Export));
                fields << (values.isValid() ? values.toStringList()
                                            : QStringList {m->index(r, c).data().toString()});
            }
            csv.writeRow(fields);
        }
        csv.commit();
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

void TableView::exportCsvInteractively()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export CSV"), exportFileName(), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    if (const auto *paged = qobject_cast<const PagedTableModel *>(model())) {
        // A long list is read again from its start on a pool thread; the desk stays usable.
        emit exported(tr("Exporting every row of the list to %1…").arg(path));
        deliverResult(
            this, paged->exportCsv(path),
            [this, path](qint64 rows) {
                emit exported(tr("Exported %1 rows to %2").arg(QLocale().toString(rows), path));
            },
            [this, path](const QString &message) {
                QMessageBox::warning(
                    this, tr("Export CSV"), tr("Could not export to %1: %2").arg(path, message));
            });
        return;
    }
    QString error;
    if (!exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export CSV"), tr("Could not write %1: %2").arg(path, error));
    else
        emit exported(
            tr("Exported %1 rows to %2").arg(QLocale().toString(model()->rowCount()), path));
}

void TableView::keyPressEvent(QKeyEvent *event)
{
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        return;
    }
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter)
        && currentIndex().isValid()) {
        emit openRequested(currentIndex());
        return;
    }
    // Up, Page Up or Ctrl+Home on the first row reached: the rows before it, when there are.
    const bool up = event->key() == Qt::Key_Up || event->key() == Qt::Key_PageUp
        || event->key() == Qt::Key_Home;
    if (up && currentIndex().row() <= 0)
        fetchBefore();
    QTableView::keyPressEvent(event);
}

void TableView::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    menu.addAction(tr("Copy"), QKeySequence::Copy, this, &TableView::copySelection);
    menu.addAction(tr("Export CSV…"), this, &TableView::exportCsvInteractively);
    menu.exec(event->globalPos());
}

} // namespace rd::ui
