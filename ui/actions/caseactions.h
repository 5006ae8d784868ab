#pragma once

#include "ui/actions/actionresult.h"
#include "ui/models/casereasons.h"

#include <QFuture>
#include <QMetaType>
#include <QString>

#include <memory>

namespace rd::ui {

/// What an operator asks for on one reconciliation case.
struct CaseActionRequest
{
    qint64 caseId = 0;
    QString reason; ///< a reason code of caseActionReasonCodes(), picked in the dialog
    QString comment; ///< free text, may be empty
    QString snapshotJson; ///< AttachSnapshot only: the provider's subscription snapshot
};

/// The database's judgment of a snapshot before it is attached (its preview: the attach run in
/// a transaction that is rolled back).
struct SnapshotVerdict
{
    enum class Kind {
        Verdict, ///< it may be attached; `text` says what becomes of the case
        Refused, ///< the database would refuse it; `text` says why ("stale_snapshot: ...")
        Failed, ///< the preview could not be run; `text` is the error
    };
    Kind kind = Kind::Failed;
    QString text;
};

/// The operator actions on a case, behind one small interface so that the desk does not care
/// which domain functions implement them. Every call returns at once; the work runs off the
/// GUI thread with its own database connection and the QFuture reports the outcome as an
/// ActionResult (it never throws: failures are ActionResult::Kind::Failed with the reason).
/// Resolved: the case is closed; StillOpen: re-applied or attached, but its renewal is still
/// rejected (`code`: the rejection); Done: claimed, released, noted or reopened.
class CaseActions
{
public:
    /// Claim, Release and Note take only the request's comment (no reason code): a claim or a
    /// release of another operator's case needs it, a note is it. Reopen (a dismissed case
    /// back in the queue) takes the comment too, the note saying why, which it requires.
    enum class Action { Reapply, Dismiss, AttachSnapshot, Claim, Release, Note, Reopen };

    virtual ~CaseActions() = default;

    /// False when this build has no domain function for the action.
    virtual bool isAvailable(Action action) const = 0;
    /// Why an action is not available, for the disabled button's tooltip.
    virtual QString unavailableReason(Action action) const = 0;
    virtual QFuture<ActionResult> run(Action action, const CaseActionRequest &request) = 0;
    /// What attaching `snapshotJson` (Renewal Desk's form) to the case would do; never throws.
    virtual QFuture<SnapshotVerdict> preview(qint64 caseId, const QString &snapshotJson) = 0;
};

/// Why re-applying the case cannot work, or empty when it may: a renewal whose message does
/// not say which period was paid (no complete period in the case's `eventJson`) is refused
/// by the core (case_not_reapplicable) until a provider snapshot completes it.
QString reapplyBlockedReason(const QString &eventJson);
/// Why Attach provider snapshot… cannot resolve a case whose event is `eventJson`: a case
/// about money back (attach_provider_snapshot refuses it); empty when it can.
QString snapshotBlockedReason(const QString &eventJson);

/// The implementation over the domain library and a libpq conninfo.
///
/// Re-apply, Dismiss and Attach snapshot go through the reconciliation core's SECURITY DEFINER
/// functions, so the desk can do nothing the database would not let the operator do anyway.
std::unique_ptr<CaseActions> makeDomainCaseActions(const QString &conninfo);

/// The worker body of makeDomainCaseActions' run, synchronous on the calling thread: `action` on
/// an rd::OperatorSession of its own (domain/store/operator_session.h), one transaction in the
/// database as the connection's login role, refusals in plain words ("case 42 was already
/// resolved ... by alice at ..."). Claim, Release and Note are claim_case, release_case and
/// note_case (migration 0015); Reopen puts a dismissed case back in the queue (reopen_case,
/// 0033) with the request's comment as the note saying why. AttachSnapshot reads
/// `snapshotJson` as Renewal Desk's snapshot form, or the provider's own subscription object
/// (Stripe, Paddle) with the adapter of the case's provider. Never throws.
ActionResult runCaseAction(
    const std::string &conninfo, CaseActions::Action action, const CaseActionRequest &request);
/// The worker body of CaseActions::preview.
SnapshotVerdict previewSnapshot(
    const std::string &conninfo, qint64 caseId, const QString &snapshotJson);

} // namespace rd::ui

Q_DECLARE_METATYPE(rd::ui::SnapshotVerdict)
