#pragma once

#include "domain/store/action_refused.h"

#include <QMetaType>
#include <QString>

#include <exception>
#include <type_traits>

namespace rd::ui {

/// How an operation of ui/actions ended, in words for the person at the desk: the one answer of
/// the desk's actions (case actions and bulk runs, inbox actions, month close, statement
/// import). `kind` is what the desk acts on, `code` the database's name for what happened,
/// `summary` the sentence the person reads. An action that tells more derives from it
/// (InboxActionResult, MonthCloseResult, StatementImportResult).
struct ActionResult
{
    enum class Kind {
        Resolved, ///< a case action closed its case (re-applied, dismissed, recorded by a snapshot)
        StillOpen, ///< it ran, but its case stays open: `code` is the rejection that keeps it so
        Done, ///< it did what was asked and closed no case (claimed, noted, reviewed, imported)
        Refused, ///< the database refused it: `code` is the refusal's ("note_required")
        Failed, ///< it could not run (database unreachable, ...): `summary` is the error
    };
    Kind kind = Kind::Failed;
    QString summary;
    /// "applied", "duplicate", "dismissed", "claimed", "reviewed", ...; StillOpen: the
    /// renewal's rejection code ("renewal_period_is_not_contiguous"); Refused: the refusal's
    /// code; Failed: "error".
    QString code;

    /// Resolved or Done: what was asked happened.
    bool succeeded() const { return kind == Kind::Resolved || kind == Kind::Done; }
    /// A refusal in the database's words, with its code.
    static ActionResult refused(const rd::ActionRefused &refusal);
    /// An action that could not run; `summary` says which and why.
    static ActionResult failed(const QString &summary);
};

/// The desk's sentence for a refusal code ("case_already_closed"), translated; empty for a
/// code the desk does not know.
QString refusalHeadline(const QString &code);
/// A refusal for the person at the desk: the database's `sentence` (its particulars in English)
/// where the desk's language is English, else the desk's translated sentence, then the
/// database's in parentheses.
QString refusalText(const QString &code, const QString &sentence);

/// Runs `body` at an action's edge, where the desk's actions turn what the store throws into
/// their answer: ActionRefused as Refused, anything else as Failed with `failure` ("Could not
/// re-apply: %1", translated) filled with the error. Never throws. `body` returns an
/// ActionResult or a struct derived from it (whose other fields are then left empty).
template<class Body>
auto answerOf(const QString &failure, Body &&body) -> decltype(body())
{
    using Result = decltype(body());
    static_assert(std::is_base_of_v<ActionResult, Result>);
    Result result;
    try {
        return body();
    } catch (const rd::ActionRefused &e) {
        static_cast<ActionResult &>(result) = ActionResult::refused(e);
    } catch (const std::exception &e) {
        static_cast<ActionResult &>(result)
            = ActionResult::failed(failure.arg(QString::fromUtf8(e.what()).trimmed()));
    }
    return result;
}

} // namespace rd::ui

Q_DECLARE_METATYPE(rd::ui::ActionResult)
