#pragma once

#include <QFuture>
#include <QMetaType>
#include <QString>

#include <memory>

namespace rd::ui {

/// What an operator asks for on one reconciliation case.
struct CaseActionRequest
{
    qint64 caseId = 0;
    QString reason; ///< picked from a fixed list in the dialog
    QString comment; ///< free text, may be empty
    QString snapshotJson; ///< AttachSnapshot only: the provider's subscription snapshot
};

/// How it ended, in words for the person at the desk.
struct CaseActionOutcome
{
    enum class Kind { Resolved, StillOpen, Refused, Failed };
    Kind kind = Kind::Failed;
    QString summary; ///< "Applied: period now 1 Mar → 1 Apr 2026"
    QString resultCode; ///< "applied", "duplicate", "rejected:<code>", "error"
};

/// The operator actions on a case, behind one small interface so that the desk does not care
/// which domain functions implement them. Every call returns at once; the work runs off the
/// GUI thread with its own database connection and the QFuture reports the outcome (it never
/// throws: failures are CaseActionOutcome::Kind::Failed with the reason).
class CaseActions
{
public:
    enum class Action { Reapply, Dismiss, AttachSnapshot };

    virtual ~CaseActions() = default;

    /// False when this build has no domain function for the action.
    virtual bool isAvailable(Action action) const = 0;
    /// Why an action is not available, for the disabled button's tooltip.
    virtual QString unavailableReason(Action action) const = 0;
    virtual QFuture<CaseActionOutcome> run(Action action, const CaseActionRequest &request) = 0;
};

/// The reasons an operator can give (the dialog's combo box).
QStringList caseActionReasons(CaseActions::Action action);

/// The implementation over the domain library and a libpq conninfo.
///
/// Re-apply: the case's stored `event` through rd::RenewalApplier as actor ("operator",
/// session_user); on applied/duplicate the case is resolved ('reapplied'/'already_applied',
/// resolved_by = session_user) with an UPDATE guarded by status = 'open'. A renewed rejection
/// leaves the case open (the applier counts one more occurrence).
/// Dismiss and AttachSnapshot are not available yet: the reconciliation domain functions
/// (issue 5) will provide them.
std::unique_ptr<CaseActions> makeDomainCaseActions(const QString &conninfo);

/// Re-apply, synchronously on the calling thread (the worker body of makeDomainCaseActions).
CaseActionOutcome reapplyCase(const std::string &conninfo, const CaseActionRequest &request);

} // namespace rd::ui

Q_DECLARE_METATYPE(rd::ui::CaseActionOutcome)
