#include "ui/models/casehistory.h"

#include "ui/models/casereasons.h"
#include "ui/models/format.h"

#include <QCoreApplication>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::CaseHistory)
};

} // namespace

QString caseStepActor(const CaseHistoryStep &step)
{
    if (step.role == u"system")
        return Tr::tr("automatic (renewal core)");
    // Who handed the rejected renewal in (migrations 0032, 0035): a delivery unless it says
    // otherwise.
    if (step.recordedBy == u"cli")
        return Tr::tr("renewalctl apply");
    if (step.recordedBy == u"statement")
        return Tr::tr("statement import");
    if (step.action == u"opened" || step.action == u"occurrence")
        return Tr::tr("webhook delivery");
    return Tr::tr("operator");
}

QString caseStepAction(const CaseHistoryStep &step)
{
    const QString &action = step.action;
    const QString &other = step.otherRole;
    // Claims and notes: who held the case before a takeover or a release by someone else.
    if (action == u"claimed")
        return other.isEmpty() ? Tr::tr("claimed")
                               : Tr::tr("claimed, taken over from %1").arg(other);
    if (action == u"released")
        return other.isEmpty() || other == step.role ? Tr::tr("released")
                                                     : Tr::tr("released %1's claim").arg(other);
    if (action == u"noted")
        return Tr::tr("note");
    if (action == u"opened")
        return Tr::tr("renewal rejected");
    if (action == u"occurrence")
        return Tr::tr("delivered again");
    if (action == u"reapply")
        return step.automatic ? Tr::tr("re-applied automatically")
            : step.snapshotId.isEmpty()
            ? Tr::tr("re-applied")
            : Tr::tr("re-applied after snapshot %1").arg(step.snapshotId);
    if (action == u"snapshot_attached")
        return step.snapshotId.isEmpty()
            ? Tr::tr("provider snapshot attached")
            : Tr::tr("provider snapshot %1 attached").arg(step.snapshotId);
    if (action == u"dismissed")
        return Tr::tr("dismissed");
    if (action == u"reopened")
        return Tr::tr("reopened");
    return format::humanize(action);
}

QString caseStepOutcome(const CaseHistoryStep &step)
{
    const QString &action = step.action;
    const QString &outcome = step.outcome;
    if (action == u"claimed")
        return Tr::tr("assigned to %1").arg(step.role);
    if (action == u"released")
        return Tr::tr("back in the queue, unassigned");
    if (action == u"noted")
        return Tr::tr("noted (no action)");
    const QString why = format::humanize(step.errorCode);
    if (action == u"opened")
        return Tr::tr("case opened: %1").arg(why);
    if (action == u"occurrence")
        return step.errorCode.isEmpty() ? Tr::tr("still open") : Tr::tr("still open: %1").arg(why);
    if (action == u"reapply" || action == u"snapshot_attached") {
        if (outcome == u"applied")
            return Tr::tr("renewal applied: case resolved");
        if (outcome == u"duplicate")
            return step.renewalFromSnapshot
                ? Tr::tr("renewal recorded with the snapshot: case resolved")
                : Tr::tr("renewal already recorded: case resolved");
        if (outcome == u"rejected")
            return step.why.isEmpty() ? Tr::tr("still rejected: %1").arg(why)
                                      : Tr::tr("still rejected: %1; %2").arg(why, step.why);
        if (outcome == u"attached")
            return Tr::tr("subscription brought to the snapshot");
        if (outcome == u"unchanged")
            return Tr::tr("the same snapshot was attached before: nothing changed");
        if (outcome == u"created")
            return Tr::tr("subscription created from the snapshot");
    }
    if (action == u"dismissed")
        return Tr::tr("case dismissed");
    if (action == u"reopened")
        return Tr::tr("case open again");
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
