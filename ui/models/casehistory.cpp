#include "ui/models/casehistory.h"

#include "ui/models/casereasons.h"
#include "ui/models/format.h"

#include <QCoreApplication>

namespace rd::ui {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rd::ui::CasesPage", text);
}

} // namespace

QString caseStepActor(const CaseHistoryStep &step)
{
    if (step.role == u"system")
        return tr("automatic (renewal core)");
    // Who handed the rejected renewal in (migrations 0032, 0035): a delivery unless it says
    // otherwise.
    if (step.recordedBy == u"cli")
        return tr("renewalctl apply");
    if (step.recordedBy == u"statement")
        return tr("statement import");
    if (step.action == u"opened" || step.action == u"occurrence")
        return tr("webhook delivery");
    return tr("operator");
}

QString caseStepAction(const CaseHistoryStep &step)
{
    const QString &action = step.action;
    const QString &other = step.otherRole;
    // Claims and notes: who held the case before a takeover or a release by someone else.
    if (action == u"claimed")
        return other.isEmpty() ? tr("claimed") : tr("claimed, taken over from %1").arg(other);
    if (action == u"released")
        return other.isEmpty() || other == step.role ? tr("released")
                                                     : tr("released %1's claim").arg(other);
    if (action == u"noted")
        return tr("note");
    if (action == u"opened")
        return tr("renewal rejected");
    if (action == u"occurrence")
        return tr("delivered again");
    if (action == u"reapply")
        return step.automatic           ? tr("re-applied automatically")
            : step.snapshotId.isEmpty() ? tr("re-applied")
                                        : tr("re-applied after snapshot %1").arg(step.snapshotId);
    if (action == u"snapshot_attached")
        return step.snapshotId.isEmpty() ? tr("provider snapshot attached")
                                         : tr("provider snapshot %1 attached").arg(step.snapshotId);
    if (action == u"dismissed")
        return tr("dismissed");
    if (action == u"reopened")
        return tr("reopened");
    return format::humanize(action);
}

QString caseStepOutcome(const CaseHistoryStep &step)
{
    const QString &action = step.action;
    const QString &outcome = step.outcome;
    if (action == u"claimed")
        return tr("assigned to %1").arg(step.role);
    if (action == u"released")
        return tr("back in the queue, unassigned");
    if (action == u"noted")
        return tr("noted (no action)");
    const QString why = format::humanize(step.errorCode);
    if (action == u"opened")
        return tr("case opened: %1").arg(why);
    if (action == u"occurrence")
        return step.errorCode.isEmpty() ? tr("still open") : tr("still open: %1").arg(why);
    if (action == u"reapply" || action == u"snapshot_attached") {
        if (outcome == u"applied")
            return tr("renewal applied: case resolved");
        if (outcome == u"duplicate")
            return step.renewalFromSnapshot
                ? tr("renewal recorded with the snapshot: case resolved")
                : tr("renewal already recorded: case resolved");
        if (outcome == u"rejected")
            return step.why.isEmpty() ? tr("still rejected: %1").arg(why)
                                      : tr("still rejected: %1; %2").arg(why, step.why);
        if (outcome == u"attached")
            return tr("subscription brought to the snapshot");
        if (outcome == u"unchanged")
            return tr("the same snapshot was attached before: nothing changed");
        if (outcome == u"created")
            return tr("subscription created from the snapshot");
    }
    if (action == u"dismissed")
        return tr("case dismissed");
    if (action == u"reopened")
        return tr("case open again");
    return format::humanize(outcome);
}

QVector<QVariant> caseHistoryCells(const QVector<CaseHistoryStep> &steps)
{
    QVector<QVariant> cells;
    cells.reserve(steps.size() * CaseHistoryRow::StepFieldCount);
    for (const CaseHistoryStep &s : steps) {
        cells << s.seq << s.at << caseStepActor(s) << s.role << caseStepAction(s)
              << caseStepOutcome(s) << (s.reason.isEmpty() ? QString() : reasonLabel(s.reason))
              << s.reason << s.comment;
    }
    return cells;
}

} // namespace rd::ui
