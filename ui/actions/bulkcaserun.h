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
    };

    explicit BulkCaseRun(CaseActions *actions, QObject *parent = nullptr);

    /// Starts the run; false (and nothing started) while another run is going or with no cases.
    bool start(CaseActions::Action action, QVector<Item> cases, const QString &reason,
        const QString &comment);
    /// Stops after the case in flight: that one's result is still shown.
    void cancel();
    bool isRunning() const { return m_running; }
    bool wasCancelled() const { return m_cancelled; }
    int total() const { return int(m_items.size()); }
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
    bool m_running = false;
    bool m_cancelled = false;
};

/// A result's word for an outcome of `action` ("applied", "still refused", ...).
QString bulkResultWord(CaseActions::Action action, const ActionResult &outcome);

} // namespace rd::ui
