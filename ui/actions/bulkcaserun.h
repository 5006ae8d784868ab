#pragma once

#include "ui/actions/caseactions.h"

#include <QObject>
#include <QVector>

namespace rd::ui {

class RecordTableModel;

/// One operator action over several cases, one case at a time, each through CaseActions (the
/// same SECURITY DEFINER function as the single action, off the GUI thread, one transaction a
/// case): a bulk run is never one big transaction, so each case's result stands on its own and
/// a cancel stops between two cases. Every result is a row of results(), in words.
class BulkCaseRun : public QObject
{
    Q_OBJECT

public:
    /// The results' fields, one row a case.
    enum Field {
        CaseId,
        Subscription, ///< the provider's subscription id, as the queue showed it
        Result, ///< "applied", "already recorded", "still refused", "refused", "dismissed", "error"
        Detail, ///< the action's sentence ("Still rejected: Renewal period is not contiguous. ...")
        ResultCode, ///< ActionResult::code
        FieldCount
    };
    struct Item
    {
        qint64 caseId = 0;
        QString subscription;
        /// Its renewal names no period (reapplyBlockedReason): a bulk re-apply leaves it out,
        /// as a single Re-apply is disabled on it, rather than report it refused (#42, 9).
        bool needsSnapshot = false;
    };

    explicit BulkCaseRun(CaseActions *actions, QObject *parent = nullptr);

    /// Starts the run; false (and nothing started) while another run is going or with no cases.
    /// A re-apply runs the cases that do not need a snapshot; the others are left out, counted
    /// (leftOut) and said in the summary.
    bool start(CaseActions::Action action, QVector<Item> cases, const QString &reason,
        const QString &comment);
    /// Stops after the case in flight: that one's result is still shown.
    void cancel();
    bool isRunning() const { return m_running; }
    bool wasCancelled() const { return m_cancelled; }
    int total() const { return int(m_items.size()); }
    /// The cases left out of a re-apply because they need a snapshot.
    int leftOut() const { return m_leftOut; }
    int done() const { return m_done; }
    CaseActions::Action action() const { return m_action; }
    RecordTableModel *results() const { return m_results; }
    /// "2 applied, 1 still refused, 1 error" (in the results' order of first appearance).
    QString summary() const;

signals:
    void progressed(int done, int total);
    void finished();

private:
    void next();
    void record(const Item &item, const ActionResult &outcome);

    CaseActions *m_actions;
    RecordTableModel *m_results;
    QVector<Item> m_items;
    QVector<QVariant> m_cells;
    CaseActions::Action m_action = CaseActions::Action::Reapply;
    QString m_reason;
    QString m_comment;
    int m_done = 0;
    int m_leftOut = 0;
    bool m_running = false;
    bool m_cancelled = false;
};

/// "1 case needs a snapshot and is left out", "3 cases need …": what a bulk re-apply leaves out.
QString needsSnapshotLeftOutText(int count);

/// How many of `items` a bulk `action` runs: a re-apply leaves out those needing a snapshot.
int bulkRunnable(CaseActions::Action action, const QVector<BulkCaseRun::Item> &items);

/// A result's word for an outcome of `action` ("applied", "still refused", ...).
QString bulkResultWord(CaseActions::Action action, const ActionResult &outcome);

} // namespace rd::ui
