#pragma once

#include <QString>
#include <QVariant>
#include <QVector>

namespace rd::ui {

/// One step of a case's history (reconciliation_case_history) as the database recorded it:
/// what loadCaseDetail reads, before it is put in words.
struct CaseHistoryStep
{
    qint64 seq = 0; ///< chain_seq
    QVariant at; ///< created_at, µs; null when unreadable
    QString action; ///< "opened", "occurrence", "reapply", "claimed", ...
    QString outcome; ///< "applied", "duplicate", "rejected", "attached", ...
    QString errorCode; ///< the renewal's refusal, when it has one
    QString role; ///< the login role that wrote it ("alice"; "system": the renewal core)
    QString reason; ///< the operator's reason code
    QString comment;
    QString snapshotId; ///< the provider snapshot the step attached or re-applied after
    bool automatic = false; ///< a re-apply by the core itself
    QString otherRole; ///< who held the case before a takeover, or whose claim was released
    QString recordedBy; ///< who handed the rejected renewal in: "cli", "statement", or ""
    QString why; ///< why a snapshot left the case's renewal unrecorded
    bool renewalFromSnapshot = false; ///< the snapshot recorded the case's renewal (0032)
};

/// The columns of the case history the Cases page shows, one row a step.
struct CaseHistoryRow
{
    enum Field {
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
};

/// Who did the step, in the desk's words: "operator", "webhook delivery", "renewalctl apply",
/// "statement import", "automatic (renewal core)".
QString caseStepActor(const CaseHistoryStep &step);
/// What was done: "claimed, taken over from bob", "re-applied after snapshot 7", ...
QString caseStepAction(const CaseHistoryStep &step);
/// What came of it: "renewal applied: case resolved", "still rejected: <why>; <detail>", ...
QString caseStepOutcome(const CaseHistoryStep &step);

/// The history as the page's table shows it: CaseHistoryRow::StepFieldCount values a step, in
/// the order given (oldest first). Pure: no database, no window.
QVector<QVariant> caseHistoryCells(const QVector<CaseHistoryStep> &steps);

} // namespace rd::ui
