#pragma once

#include "ui/actions/bulkcaserun.h"
#include "ui/actions/caseactions.h"
#include "ui/models/asyncresult.h"
#include "ui/models/casehistory.h"
#include "ui/models/casequeue.h"
#include "ui/models/caserow.h"
#include "ui/models/records.h"
#include "ui/widgets/casedetailpanel.h"
#include "ui/widgets/casefilterbar.h"
#include "ui/widgets/casequeueview.h"
#include "ui/widgets/searchablepage.h"

#include <QDate>
#include <QPointer>
#include <QWidget>

class QAction;
class QLineEdit;
class QSplitter;

namespace rd::ui {

class ApplicableDialog;
class BulkCaseDialog;
class DatabasePool;
class FilterChips;
class NewRowsBar;
class RecordTableModel;
class SnapshotDialog;
class TableView;

/// The reconciliation queue: open cases (reason, provider, age, occurrences, last seen) and
/// the selected case's evidence and history side by side, with the operator actions. The
/// queue can also list the cases healed automatically, resolved, dismissed, or all.
///
/// Composed of a filter bar (CaseFilterBar), the queue (CaseQueueView) and the selected case
/// (CaseDetailPanel); it reads through the case models (loadCaseQueue, loadCaseDetail) on the
/// DatabasePool and runs the actions through CaseActions.
class CasesPage : public QWidget, public SearchablePage
{
    Q_OBJECT

public:
    /// A case's row (the queue's and the panel's): CasesPage::Id, CasesPage::IsOpen, ...
    using Field = CaseRow::Field;
    using enum CaseRow::Field;
    /// One step of the selected case's history, in words: CasesPage::StepOutcome, ...
    using HistoryField = CaseHistoryRow::Field;
    using enum CaseHistoryRow::Field;
    using Scope = CaseScope;
    using Sort = CaseSort;
    using Assignee = CaseAssignee;
    using QueueFilter = CaseQueueFilter;

    CasesPage(DatabasePool *pool, CaseActions *actions, QWidget *parent = nullptr);

    RecordTableModel *model() const { return m_queue->model(); }
    TableView *table() const { return m_queue->table(); }
    /// "N new — show": cases that arrived out of view in the listed queue.
    NewRowsBar *newRowsBar() const { return m_queue->newRowsBar(); }
    /// The selected case's evidence side by side (copies and exports like every table).
    TableView *evidenceTable() const { return m_panel->evidenceTable(); }
    /// The selected case's history, one row a step, oldest first.
    TableView *historyTable() const { return m_panel->historyTable(); }
    RecordTableModel *historyModel() const { return m_panel->historyModel(); }
    CaseFilterBar *filterBar() const { return m_filters; }
    /// What narrows the queue (its scope other than Open cases, whose, reason, age, search),
    /// as removable chips above it; the day has its own chip in the filter bar.
    FilterChips *chips() const { return m_chips; }
    /// Whether a drill-down (the Overview's open cases or day) set the filters shown.
    bool isDrilledDown() const { return m_drilledDown; }
    /// A click on Cases in the sidebar: the filters a drill-down set go (the queue as it
    /// opens: open cases, everyone's, any reason, age and day); the ones a person chose stay.
    void clearDrillDown();
    CaseQueueView *queueView() const { return m_queue; }
    CaseDetailPanel *detailPanel() const { return m_panel; }
    /// The case the panel shows (it stays shown after it left the queue: resolved by an
    /// action, it is shown as it now is); 0 when none.
    qint64 currentCase() const { return m_currentCase; }
    /// Whether the listed rows are the last filter's (no refresh on its way).
    bool queueIsCurrent() const { return !m_queueStale; }
    /// The panel's title and finding, as shown.
    QString titleText() const { return m_panel->titleText(); }
    QString findingText() const { return m_panel->findingText(); }
    QSplitter *splitter() const { return m_splitter; }
    int openCount() const { return m_openCount; }
    /// Whether the session's database role may act (renewal_operator, or UPDATE on cases
    /// while the roles of the reconciliation core are not installed).
    bool canOperate() const { return m_canOperate; }
    /// Whether the database is a hot standby (read-only replica): every action is disabled.
    bool isOnReplica() const { return m_onReplica; }
    /// Why actions are disabled, for their tooltips (a replica, or a role that may only
    /// look); empty when they are not.
    QString actionsBlockedReason() const;
    QString outcomeText() const { return m_panel->outcomeText(); }

    void refresh();
    /// Ctrl+F: the queue's search box (subscription id contains…).
    void focusSearch() override;
    QLineEdit *searchBox() const { return m_filters->searchBox(); }
    void setScope(Scope scope);
    Scope scope() const { return m_filters->scope(); }
    void setSort(Sort sort);
    Sort sort() const { return m_filters->sort(); }
    void setAssignee(Assignee assignee);
    Assignee assignee() const { return m_filters->assignee(); }
    /// Keeps the cases opened (first seen) between `minAgeSecs` and `maxAgeSecs` ago (-1:
    /// unbounded) whose reason is `reason` (an error code; empty: any).
    void setFilter(const QString &reason, qint64 minAgeSecs, qint64 maxAgeSecs);
    QString reasonFilter() const { return m_filters->reason(); }
    qint64 minAgeSecs() const { return m_filters->minAge(); }
    qint64 maxAgeSecs() const { return m_filters->maxAge(); }
    /// The Overview's drill-down: the open cases of `reason` (empty: any) of that age (-1:
    /// unbounded), everyone's, oldest first, whatever the queue showed before.
    void showOpenCases(const QString &reason, qint64 minAgeSecs, qint64 maxAgeSecs);
    /// The Overview's drill-down of a day: every case first seen (`closed`: resolved or
    /// dismissed) on the UTC day `dayUtc`, whatever its status now, everyone's, newest first.
    /// The day shows in the filter bar until it is cleared (its ✕, or clearDay()).
    void showCasesOfDay(const QDate &dayUtc, bool closed);
    /// Keeps only the cases opened (`closed`: closed) on the UTC day; an invalid day: any day.
    void setDay(const QDate &dayUtc, bool closed);
    void clearDay() { setDay({}, false); }
    QDate dayUtc() const { return m_filters->day(); }
    bool dayIsClosing() const { return m_filters->dayClosed(); }
    /// Open cases older than this are marked in the queue (QSettings "cases/markOlderThanSecs",
    /// 24 h unless set; the queue's "Mark older than" box).
    qint64 markAgedAfterSecs() const { return m_queue->markAgedAfterSecs(); }
    /// Sets the threshold (at least a second); `remember`: kept in QSettings for next time.
    void setMarkAgedAfterSecs(qint64 secs, bool remember = true);
    /// Whether the queue marks the row as open longer than the threshold.
    bool isAged(RowRef row) const { return m_queue->isAged(row); }
    /// The session's login role (as the queue last read it).
    QString sessionUser() const { return m_sessionUser; }
    /// The cases selected in the queue, in the queue's order.
    QVector<qint64> selectedCaseIds() const { return m_queue->selectedCaseIds(); }
    /// Runs `action` (Reapply or Dismiss) over `caseIds` one case at a time, in a results
    /// dialog (window-modal, not blocking) that the page owns until it is closed. nullptr when
    /// there is nothing to run or a bulk run is going. A re-apply leaves out the cases that
    /// need a snapshot, and its summary says how many.
    BulkCaseDialog *runBulk(CaseActions::Action action, const QVector<qint64> &caseIds,
        const QString &reason, const QString &comment);
    BulkCaseDialog *bulkDialog() const;
    /// "Re-apply applicable now…": the preview dialog (window-modal) for `reason`; accepting it
    /// runs the previewed cases through runBulk.
    ApplicableDialog *openApplicableDialog(const QString &reason = {});
    /// Selects a case (opening it from elsewhere); true when it is in the queue. A queue
    /// narrowed to other cases (a reason, an age, a day, a search, whose) is widened to its
    /// scope first, unless `widen` is false (back to a drill-down's list: it stays as it was).
    bool openCase(qint64 caseId, bool widen = true);
    /// "Attach provider snapshot…": the dialog with its preview, open (window-modal) on the
    /// current case; confirming it runs the action. nullptr when there is no case or an action
    /// is running.
    SnapshotDialog *openSnapshotDialog();
    /// The case actions as menu entries with their shortcuts (MainWindow's Case menu), in the
    /// buttons' order, a separator before the bulk actions: each follows its button's state.
    QList<QAction *> caseActions() const { return m_caseActions; }
    /// Runs an action on the current case without the dialog (tests, scripted use); `reason`
    /// is a reason code (caseActionReasonCodes()). Claim, Release, Note and Reopen take the
    /// comment only: the note a takeover, a release of another's claim or a reopen needs, or
    /// the note itself.
    void runAction(CaseActions::Action action, const QString &reason, const QString &comment,
        const QString &snapshotJson = {});

signals:
    void openCountChanged(int count);
    void subscriptionOpenRequested(const QString &subscriptionUuid);
    void actionFinished(const rd::ui::ActionResult &outcome);
    /// A bulk run finished (or was stopped); `summary` is BulkCaseRun::summary().
    void bulkFinished(const QString &summary);
    void statusMessage(const QString &message);

private:
    void showCase(int row);
    void showRecord(RowRef r);
    void loadCase(qint64 caseId);
    /// The selected case's row: the queue's, or the one loaded for the panel.
    RowRef currentRecord() const;
    void askAndRun(CaseActions::Action action);
    void updateButtons();
    void actionDone(const ActionResult &outcome);
    void askAndRunBulk(CaseActions::Action action);
    /// The bulk run's items of `caseIds`, each as the queue shows it (its subscription, and
    /// whether it needs a snapshot).
    QVector<BulkCaseRun::Item> bulkItems(const QVector<qint64> &caseIds) const;
    /// Everyone's cases of `scope` in `sort` order, no search and no day: where the
    /// Overview's drill-downs start from, whatever the queue showed.
    void resetQueue(Scope scope, Sort sort);
    void makeCaseActions();
    void openCurrentSubscription();
    void updateChips();
    void removeFilter(const QString &key);

    DatabasePool *m_pool;
    CaseActions *m_actions;
    CaseFilterBar *m_filters;
    CaseQueueView *m_queue;
    CaseDetailPanel *m_panel;
    FilterChips *m_chips;
    QSplitter *m_splitter;
    /// The queue's filter the rows were last listed with: another one lists no arrivals.
    QueueFilter m_listedFilter;
    QVector<QVariant> m_caseRow; ///< the panel's case as last loaded (FieldCount values)
    QList<QAction *> m_caseActions;
    QPointer<BulkCaseDialog> m_bulk;
    bool m_openFirst = false;
    bool m_drilledDown = false;
    qint64 m_currentCase = 0;
    qint64 m_pendingSelect = 0;
    int m_openCount = 0;
    bool m_canOperate = false;
    bool m_onReplica = false;
    bool m_busy = false;
    bool m_queueStale = false; ///< a refresh is on its way: the rows may be another filter's
    QString m_sessionUser;
    LatestRequest m_queueRequest;
    LatestRequest m_caseRequest;
};

} // namespace rd::ui
