#pragma once

#include "ui/actions/actionresult.h"

#include <QFuture>
#include <QMetaType>
#include <QString>

namespace rd::ui {

/// How an action on an invalid inbox delivery ended: Done ("reviewed", "rerun",
/// "still_invalid"), Refused or Failed, and the delivery a re-run wrote.
struct InboxActionResult : ActionResult
{
    qint64 newInboxId = 0; ///< the delivery a re-run wrote, 0 when none
};

/// Marks invalid delivery `inboxId` reviewed with `note` (rd::reviewInvalidDelivery, as the
/// connection's login role). Synchronous; never throws.
InboxActionResult markDeliveryReviewed(
    const std::string &conninfo, qint64 inboxId, const QString &note);
/// Re-runs it through the ingest path (rd::rerunInvalidDelivery: what `renewalctl replay
/// --delivery N` does). Synchronous; never throws.
InboxActionResult rerunDelivery(const std::string &conninfo, qint64 inboxId);

/// The same off the GUI thread, each on a connection of its own.
QFuture<InboxActionResult> markDeliveryReviewedAsync(
    const QString &conninfo, qint64 inboxId, const QString &note);
QFuture<InboxActionResult> rerunDeliveryAsync(const QString &conninfo, qint64 inboxId);

} // namespace rd::ui

Q_DECLARE_METATYPE(rd::ui::InboxActionResult)
