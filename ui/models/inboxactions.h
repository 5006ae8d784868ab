#pragma once

#include <QFuture>
#include <QMetaType>
#include <QString>

namespace rd::ui {

/// How an action on an invalid inbox delivery ended, in words for the person at the desk.
struct InboxActionOutcome
{
    enum class Kind { Done, Refused, Failed };
    Kind kind = Kind::Failed;
    QString summary;
    QString code; ///< "reviewed", "rerun", "still_invalid", a refusal's code, "error"
    qint64 newInboxId = 0; ///< the delivery a re-run wrote, 0 when none
};

/// Marks invalid delivery `inboxId` reviewed with `note` (rd::reviewInvalidDelivery, as the
/// connection's login role). Synchronous; never throws.
InboxActionOutcome markDeliveryReviewed(
    const std::string &conninfo, qint64 inboxId, const QString &note);
/// Re-runs it through the ingest path (rd::rerunInvalidDelivery: what `renewalctl replay
/// --delivery N` does). Synchronous; never throws.
InboxActionOutcome rerunDelivery(const std::string &conninfo, qint64 inboxId);

/// The same off the GUI thread, each on a connection of its own.
QFuture<InboxActionOutcome> markDeliveryReviewedAsync(
    const QString &conninfo, qint64 inboxId, const QString &note);
QFuture<InboxActionOutcome> rerunDeliveryAsync(const QString &conninfo, qint64 inboxId);

/// The SQL condition, over webhook_inbox `w`, of an invalid delivery nobody has reviewed yet
/// (migration 0034): webhook_inbox_by_outcome's 'invalid' range, each probed in
/// webhook_inbox_reviews. The Overview counts these; the Inbox lists them.
QString invalidToReviewCondition();

} // namespace rd::ui

Q_DECLARE_METATYPE(rd::ui::InboxActionOutcome)
