#pragma once

#include "ui/models/asyncresult.h"
#include "ui/models/caseactions.h"
#include "ui/models/records.h"
#include "ui/widgets/searchablepage.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTimer;
class QPlainTextEdit;
class QPushButton;
class QSplitter;

namespace rd::ui {

class ComparisonModel;
class DatabasePool;
class RecordTableModel;
class SnapshotDialog;
class TableView;

/// The reconciliation queue: open cases (reason, provider, age, occurrences, last seen) and
/// the selected case's evidence and history side by side, with the operator actions. The
/// queue can also list the cases healed automatically, resolved, dismissed, or all.
class CasesPage : public QWidget, public SearchablePage
{
    Q_OBJECT

public:
    enum Field {
        Id,
        ErrorCode,
        Provider,
        SubscriptionRef,
        RenewalKey,
        FirstSeen,
        LastSeen,
        Occurrences,
        SubscriptionUuid,
        EventPretty,
        EventJson,
        LocalStateJson,
        FirstEvent,
        LastEvent,
        Status, ///< "open", "re-applied automatically", "dismissed by bob", ...
        IsOpen,
        FieldCount
    };
    /// One step of the selected case's history (reconciliation_case_history), in words.
    enum HistoryField {
        StepSeq, ///< chain_seq, the row's key
        StepAt, ///< µs
        StepActor, ///< "operator", "webhook delivery", "automatic (renewal core)"
        StepRole, ///< the database login role that wrote it ("alice"; "system")
        StepAction, ///< "re-applied", "provider snapshot 7 attached", ...
        StepOutcome, ///< "renewal applied: case resolved", "still rejected: ..."
        StepReason, ///< "Data correction" (the code in StepReasonCode)
        StepReasonCode,
        StepComment,
        StepFieldCount
    };
    /// Which cases the queue lists.
    enum class Scope { Open, HealedAutomatically, Resolved, Dismissed, All };
    /// The queue's order: by when a case was last seen, or by its age (when it was opened).
    enum class Sort { LastSeenNewest, LastSeenOldest, OldestFirst, NewestFirst };

    CasesPage(DatabasePool *pool, CaseActions *actions, QWidget *parent = nullptr);

    RecordTableModel *model() const { return m_model; }
    TableView *table() const { return m_table; }
    /// The selected case's evidence side by side (copies and exports like every table).
    TableView *evidenceTable() const { return m_evidence; }
    /// The selected case's history, one row a step, oldest first.
    TableView *historyTable() const { return m_historyTable; }
    RecordTableModel *historyModel() const { return m_historyModel; }
    /// The case the panel shows (it stays shown after it left the queue: resolved by an
    /// action, it is shown as it now is); 0 when none.
    qint64 currentCase() const { return m_currentCase; }
    /// The panel's title and finding, as shown.
    QString titleText() const;
    QString findingText() const;
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
    QString outcomeText() const;

    void refresh();
    /// Ctrl+F: the queue's search box (subscription id contains…).
    void focusSearch() override;
    QLineEdit *searchBox() const { return m_search; }
    void setScope(Scope scope);
    Scope scope() const { return m_scope; }
    void setSort(Sort sort);
    Sort sort() const { return m_sort; }
    /// Selects a case (opening it from elsewhere); true when it is in the queue.
    bool openCase(qint64 caseId);
    /// "Attach provider snapshot…": the dialog with its preview, open (window-modal) on the
    /// current case; confirming it runs the action. nullptr when there is no case or an action
    /// is running.
    SnapshotDialog *openSnapshotDialog();
    /// Runs an action on the current case without the dialog (tests, scripted use); `reason`
    /// is a reason code (caseActionReasonCodes()).
    void runAction(CaseActions::Action action, const QString &reason, const QString &comment,
        const QString &snapshotJson = {});

signals:
    void openCountChanged(int count);
    void subscriptionOpenRequested(const QString &subscriptionUuid);
    void actionFinished(const rd::ui::CaseActionOutcome &outcome);
    void statusMessage(const QString &message);

private:
    void showCase(int row);
    void showRecord(RowRef r);
    void loadCase(qint64 caseId);
    /// The selected case's row: the queue's, or the one loaded for the panel.
    RowRef currentRecord() const;
    void askAndRun(CaseActions::Action action);
    void updateButtons();
    void actionDone(const CaseActionOutcome &outcome);

    DatabasePool *m_pool;
    CaseActions *m_actions;
    RecordTableModel *m_model;
    TableView *m_table;
    QSplitter *m_splitter;
    QLabel *m_title;
    QLabel *m_finding;
    QLabel *m_history;
    RecordTableModel *m_historyModel;
    TableView *m_historyTable;
    QVector<QVariant> m_caseRow; ///< the panel's case as last loaded (FieldCount values)
    TableView *m_evidence;
    ComparisonModel *m_evidenceModel;
    QPlainTextEdit *m_json;
    QPushButton *m_snapshot;
    QPushButton *m_reapply;
    QPushButton *m_dismiss;
    QPushButton *m_openSubscription;
    QLabel *m_outcome;
    QComboBox *m_scopeBox;
    QComboBox *m_sortBox;
    QLineEdit *m_search;
    QTimer *m_searchDelay;
    bool m_openFirst = false;
    Scope m_scope = Scope::Open;
    Sort m_sort = Sort::LastSeenNewest;
    qint64 m_currentCase = 0;
    qint64 m_pendingSelect = 0;
    int m_openCount = 0;
    bool m_canOperate = false;
    bool m_onReplica = false;
    bool m_busy = false;
    QString m_sessionUser;
    LatestRequest m_queueRequest;
    LatestRequest m_caseRequest;
};

} // namespace rd::ui
