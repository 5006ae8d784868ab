#pragma once

#include "ui/models/records.h"

#include <QString>
#include <QVector>
#include <QWidget>

class QLabel;
class QPushButton;

namespace rd::ui {

class NewRowsBar;
class RecordTableModel;
class TableView;

/// The Cases page's queue: the listed cases (CaseRow rows), "N new — show" above them, and
/// under them the bulk actions over the selected cases. An open case older than the "Mark
/// older than" threshold shows ⚠ by its age; the session's own claims read "(you)".
class CaseQueueView : public QWidget
{
    Q_OBJECT

public:
    explicit CaseQueueView(qint64 markAgedAfterSecs, QWidget *parent = nullptr);

    RecordTableModel *model() const { return m_model; }
    TableView *table() const { return m_table; }
    NewRowsBar *newRowsBar() const { return m_newRows; }
    QPushButton *applicableButton() const { return m_applicable; }
    QPushButton *bulkReapplyButton() const { return m_bulkReapply; }
    QPushButton *bulkDismissButton() const { return m_bulkDismiss; }

    qint64 markAgedAfterSecs() const { return m_markAfterSecs; }
    /// The threshold of the ⚠ marker (at least a second): the rows are shown again with it.
    void setMarkAgedAfterSecs(qint64 secs);
    /// Whether `row` is an open case older than the threshold.
    bool isAged(RowRef row) const;
    /// The login role whose claims read "(you)".
    void setSessionUser(const QString &user) { m_sessionUser = user; }
    /// The cases selected, in the queue's order.
    QVector<qint64> selectedCaseIds() const;
    /// The bulk buttons and the selection's count, for who may act and whether a run goes.
    void updateBulkActions(bool canOperate, bool bulkRunning, const QString &blockedReason);

private:
    qint64 m_markAfterSecs;
    QString m_sessionUser;
    RecordTableModel *m_model;
    TableView *m_table;
    NewRowsBar *m_newRows;
    QLabel *m_selection;
    QPushButton *m_applicable;
    QPushButton *m_bulkReapply;
    QPushButton *m_bulkDismiss;
};

} // namespace rd::ui
