#include "ui/widgets/casequeueview.h"

#include "ui/models/casequeue.h"
#include "ui/models/columns.h"
#include "ui/models/format.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/newrowsbar.h"
#include "ui/widgets/tableview.h"

#include <QColor>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace rd::ui {

CaseQueueView::CaseQueueView(qint64 markAgedAfterSecs, QWidget *parent)
    : QWidget(parent)
    , m_markAfterSecs(std::max<qint64>(1, markAgedAfterSecs))
    , m_table(new TableView)
    , m_selection(new QLabel)
    , m_applicable(new QPushButton(tr("Re-apply applicable now…")))
    , m_bulkReapply(new QPushButton(tr("Re-apply selected…")))
    , m_bulkDismiss(new QPushButton(tr("Dismiss selected…")))
{
    using F = CaseRow;
    // The age, with a marker (⚠) on an open case older than the threshold: it reads without
    // colour. Not bold: the column is fitted with the view's font.
    Column age = columns::age(tr("Age"), F::FirstSeen);
    age.data = [this, base = age.data](RowRef r, int role) -> QVariant {
        const bool aged = isAged(r);
        switch (role) {
        case Qt::DisplayRole:
            return aged ? u"⚠ "_qs + base(r, role).toString() : base(r, role);
        case Qt::ToolTipRole:
            return aged ? tr("Open for more than %1 (the queue's \"Mark older than\").")
                              .arg(ageBoundText(m_markAfterSecs))
                    + u'\n' + base(r, role).toString()
                        : base(r, role);
        case Qt::ForegroundRole:
            return aged ? QVariant(QColor(0xa0, 0x30, 0x00)) : base(r, role);
        default:
            return base(r, role);
        }
    };
    Column assigned = columns::text(tr("Assigned to"), F::AssignedTo);
    assigned.data = [this, base = assigned.data](RowRef r, int role) -> QVariant {
        const QString who = r[F::AssignedTo].toString();
        switch (role) {
        case Qt::DisplayRole:
            if (who.isEmpty())
                return r[F::IsOpen].toBool() ? tr("—") : QString();
            return who == m_sessionUser ? tr("%1 (you)").arg(who) : who;
        case Qt::ToolTipRole:
            if (who.isEmpty())
                return r[F::IsOpen].toBool() ? tr("Unassigned: nobody has claimed it.") : QString();
            return tr("Claimed by %1 %2 ago")
                .arg(who, format::age(columns::fromMicros(r[F::AssignedAt])));
        default:
            return base(r, role);
        }
    };
    m_model = new RecordTableModel(F::FieldCount,
        {columns::count(tr("Case"), F::Id), columns::code(tr("Reason"), F::ErrorCode),
            columns::text(tr("Provider"), F::Provider),
            columns::text(tr("Subscription"), F::SubscriptionRef),
            columns::text(tr("Renewal key"), F::RenewalKey), age,
            columns::count(tr("Seen"), F::Occurrences),
            columns::instant(tr("Last seen"), F::LastSeen), columns::word(tr("Status"), F::Status),
            assigned},
        F::Id, this);
    m_table->setObjectName(u"cases"_qs);
    m_table->setModel(m_model);
    // Several cases at once for the bulk actions; the panel shows the current one.
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setWholeColumns({5}); // the age and its ⚠ give way last
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_newRows = new NewRowsBar(m_table);
    layout->addWidget(m_newRows);
    layout->addWidget(m_table);
    connect(m_newRows, &NewRowsBar::showRequested, this, [this](const QString &key) {
        if (const int r = m_model->rowOfKey(key); r >= 0) {
            m_table->selectRow(r);
            m_table->scrollTo(m_model->index(r, 0));
            m_table->setFocus();
        }
    });

    // The bulk actions over the selected rows, and the re-apply of what the core would apply.
    auto *bulkRow = new QHBoxLayout;
    m_selection->setObjectName(u"case-selection"_qs);
    bulkRow->addWidget(m_selection);
    bulkRow->addStretch(1);
    m_bulkReapply->setObjectName(u"case-bulk-reapply"_qs);
    m_bulkDismiss->setObjectName(u"case-bulk-dismiss"_qs);
    m_applicable->setObjectName(u"case-applicable"_qs);
    bulkRow->addWidget(m_applicable);
    bulkRow->addWidget(m_bulkReapply);
    bulkRow->addWidget(m_bulkDismiss);
    layout->addLayout(bulkRow);
}

void CaseQueueView::setMarkAgedAfterSecs(qint64 secs)
{
    secs = std::max<qint64>(1, secs);
    if (secs == m_markAfterSecs)
        return;
    m_markAfterSecs = secs;
    // The rows are the same; their marker is not.
    if (m_model->rowCount() > 0)
        emit m_model->dataChanged(m_model->index(0, 0),
            m_model->index(m_model->rowCount() - 1, m_model->columnCount() - 1));
    m_table->fitColumnsTo(m_table->viewport()->width()); // the age, with or without ⚠
}

bool CaseQueueView::isAged(RowRef row) const
{
    if (!row || !row[CaseRow::IsOpen].toBool())
        return false;
    const QDateTime first = columns::fromMicros(row[CaseRow::FirstSeen]);
    return first.isValid() && first.secsTo(QDateTime::currentDateTimeUtc()) > m_markAfterSecs;
}

QVector<qint64> CaseQueueView::selectedCaseIds() const
{
    QVector<int> rows;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    QVector<qint64> ids;
    for (int r : rows)
        ids << m_model->row(r)[CaseRow::Id].toLongLong();
    return ids;
}

void CaseQueueView::updateBulkActions(
    bool canOperate, bool bulkRunning, const QString &blockedReason)
{
    // The bulk actions: over the selected open cases, one at a time through the core.
    int selectedOpen = 0;
    const QVector<qint64> selected = selectedCaseIds();
    for (qint64 id : selected) {
        const int r = m_model->rowOfKey(QString::number(id));
        if (r >= 0 && m_model->row(r)[CaseRow::IsOpen].toBool())
            ++selectedOpen;
    }
    for (QPushButton *b : {m_bulkReapply, m_bulkDismiss, m_applicable}) {
        const bool needsSelection = b != m_applicable;
        b->setEnabled(canOperate && !bulkRunning && (!needsSelection || selectedOpen > 0));
        b->setToolTip(!canOperate ? blockedReason
                : bulkRunning     ? tr("A bulk run is going: wait for it or stop it.")
                : b == m_applicable
                ? tr("Re-apply every open case of a reason that the renewal core would apply "
                     "now, after a preview of how many and which.")
                : selectedOpen == 0 ? tr("Select open cases in the queue (Ctrl+click, "
                                         "Shift+click).")
                                    : tr("Each selected open case through the core, one at a "
                                         "time, each result shown."));
    }
    m_selection->setText(selected.size() > 1 ? tr("%1 selected").arg(caseCountText(selected.size()))
                + (selectedOpen < selected.size() ? tr(" (%1 open)").arg(selectedOpen) : QString())
                                             : QString());
}

} // namespace rd::ui
