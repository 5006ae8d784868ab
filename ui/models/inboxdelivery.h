#pragma once

#include "ui/models/deliverybody.h"

#include <QByteArray>
#include <QString>
#include <QVariant>

class QSqlDatabase;

namespace rd::ui {

/// One webhook delivery as the inbox keeps it, with what it is linked to.
struct InboxDelivery
{
    qint64 id = 0;
    bool found = false;
    QString provider;
    QString providerName;
    QString eventId;
    QByteArray rawBody; ///< as stored: the first MiB when the body was larger
    /// The connection's role may not read bodies (renewal_payload_reader, migration 0027):
    /// they hold customers' names and addresses. rawBody is then empty.
    bool bodyHidden = false;
    qint64 bodySize = 0;
    QString bodySha256;
    bool bodyTruncated = false;
    QVariant receivedAt; ///< µs
    QVariant lastDeliveryAt; ///< µs
    QVariant processedAt; ///< µs, null while not processed
    qint64 deliveries = 0;
    QString outcome; ///< empty while not processed
    QString reason;
    QString error;
    QString message; ///< the adapter's sentence (normalized->>'message')
    QString normalizedPretty;
    qint64 caseId = 0;
    QString caseStatus;
    QString caseCode;
    QString billingPeriodId;
    QVariant periodStart; ///< µs
    QVariant periodEnd; ///< µs
    QVariant paidMinor;
    QString currency;
    QString subscriptionUuid; ///< the desk's subscription, when it has it
    QString subscriptionRef; ///< the provider's subscription id, when known
    BodyDisplay body;
    /// An invalid delivery's review (migration 0034): who marked it reviewed (or re-ran it),
    /// when, the note, and the delivery its re-run wrote. reviewedBy empty: not reviewed.
    QString reviewedBy;
    QVariant reviewedAt; ///< µs
    QString reviewNote;
    qint64 rerunInboxId = 0;
    /// The body was removed (migration 0037): by the retention ("retention") or a data
    /// subject's erasure ("erasure"), when, and why. rawBody is then empty for every role.
    bool bodyRemoved = false;
    QString removalKind;
    QVariant removedAt; ///< µs
    QVariant removalRetentionDays; ///< the retention's days (or an operator's --older-than)
    bool removalConfigured = false; ///< the configured retention, not an operator's age
    QString removalRequest; ///< an erasure's request
};

/// Reads delivery `id` (on a pool thread) and prepares its body for display.
InboxDelivery loadInboxDelivery(QSqlDatabase &db, qint64 id);

/// "Body removed on 2026-12-02 (retention 90 days)", "Body erased on 2026-12-02 (request:
/// ticket 4711)"; empty when the body is kept.
QString removedBodyNote(const InboxDelivery &d);

} // namespace rd::ui
