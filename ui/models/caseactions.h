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
/// Re-apply, Dismiss and Attach snapshot go through the reconciliation core's SECURITY DEFINER
/// functions, so the desk can do nothing the database would not let the operator do anyway.
std::unique_ptr<CaseActions> makeDomainCaseActions(const QString &conninfo);

/// The worker bodies of makeDomainCaseActions, synchronous on the calling thread. Each calls
/// the reconciliation core (domain/reconciliation.hpp): one transaction in the database as the
/// connection's login role, refusals in plain words ("case 42 was already resolved ... by
/// alice at ...").
CaseActionOutcome reapplyCase(const std::string &conninfo, const CaseActionRequest &request);
CaseActionOutcome dismissCase(const std::string &conninfo, const CaseActionRequest &request);
/// `snapshotJson` is Renewal Desk's snapshot form, or the provider's own subscription object
/// (Stripe, Paddle), read with the adapter of the case's provider.
CaseActionOutcome attachSnapshot(const std::string &conninfo, const CaseActionRequest &request);

} // namespace rd::ui

Q_DECLARE_METATYPE(rd::ui::CaseActionOutcome)
