#pragma once

#include "ui/actions/caseactions.h"
#include "ui/models/casehistory.h"
#include "ui/models/records.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace rd::ui {

class ComparisonModel;
class RecordTableModel;
class TableView;

/// The selected case on the Cases page: its title and finding, the evidence side by side with
/// the raw event, every step of its history, the last action's outcome, and the action buttons.
/// It shows what it is given; the page decides which case that is and runs the actions.
class CaseDetailPanel : public QWidget
{
    Q_OBJECT

public:
    /// What the panel says about the person and the queue's marker.
    struct Viewer
    {
        QString sessionUser; ///< the login role ("you")
        bool aged = false; ///< the case is open longer than the marker's threshold
        qint64 markAgedAfterSecs = 0;
    };
    /// What the buttons depend on besides the case.
    struct ActionState
    {
        bool canOperate = false;
        bool busy = false; ///< an action on the case is running
        QString sessionUser;
        QString blockedReason; ///< why actions are disabled (a replica, a role that may look)
    };

    explicit CaseDetailPanel(QWidget *parent = nullptr);

    TableView *evidenceTable() const { return m_evidence; }
    TableView *historyTable() const { return m_historyTable; }
    RecordTableModel *historyModel() const { return m_historyModel; }
    QString titleText() const;
    QString findingText() const;
    QString outcomeText() const;
    /// The button of `action`; Open subscription's is openSubscriptionButton().
    QPushButton *button(CaseActions::Action action) const;
    QPushButton *openSubscriptionButton() const { return m_openSubscription; }

    /// No case: a hint in the title, nothing else.
    void showNoCase();
    /// Case row `r` (CaseRow values): title, finding, deliveries, evidence, the raw event.
    void showCase(RowRef r, const Viewer &viewer);
    /// The case's history, put in words (caseHistoryCells), the columns fitted to it.
    void setHistory(const QVector<CaseHistoryStep> &steps);
    void clearHistory();
    /// The outcome line under the evidence: `good` green, else red; neutral when running.
    void showOutcome(const QString &text, bool good);
    void showRunning(const QString &text);
    void clearOutcome();
    /// Enables the buttons for the case `current` (CaseRow values, nullptr: none), with their
    /// tooltips saying why not.
    void updateButtons(const CaseActions &actions, RowRef current, const ActionState &state);

signals:
    void actionRequested(rd::ui::CaseActions::Action action);
    void openSubscriptionClicked();

private:
    QLabel *m_title;
    QLabel *m_finding;
    QLabel *m_history;
    RecordTableModel *m_historyModel;
    TableView *m_historyTable;
    TableView *m_evidence;
    ComparisonModel *m_evidenceModel;
    QPlainTextEdit *m_json;
    QLabel *m_outcome;
    QPushButton *m_openSubscription;
    QPushButton *m_claim;
    QPushButton *m_release;
    QPushButton *m_note;
    QPushButton *m_snapshot;
    QPushButton *m_reapply;
    QPushButton *m_dismiss;
    QPushButton *m_reopen;
};

} // namespace rd::ui
