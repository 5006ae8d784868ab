#pragma once

#include "ui/actions/actionresult.h"

#include <QDate>
#include <QFuture>
#include <QString>

namespace rd::ui {

/// An operator extends a subscription's grace (#41): what the Extend grace dialog asks for.
struct ExtendGraceRequest
{
    QString providerKey;
    QString providerSubscriptionId;
    /// The last day of grace, a UTC day: access runs until the end of it (the next UTC midnight).
    QDate lastDayUtc;
    QString note; ///< required
};

/// The most days ahead a last day of grace may be: its end (the next midnight) is then at most
/// 90 days after today's, which extend_access allows (rd::kMaxAccessGraceDays).
inline constexpr int kMaxGraceDaysAhead = 89;

/// The instant a grace ending on `lastDayUtc` ends: the next UTC midnight, RFC 3339.
QString graceEndOf(const QDate &lastDayUtc);

/// rd::extendAccess as the connection's login role (extend_access, a renewal_operator's),
/// synchronous on the calling thread: Done with the verdict afterwards in words; a refusal
/// (note_required, subscription_not_found, access_extension_refused) as Refused in the desk's
/// words; anything else as Failed. Never throws.
ActionResult extendGrace(const std::string &conninfo, const ExtendGraceRequest &request);
/// The same off the GUI thread, on a connection of its own.
QFuture<ActionResult> extendGraceAsync(const QString &conninfo, const ExtendGraceRequest &request);

} // namespace rd::ui
