#pragma once

#include "ui/models/pagedtablemodel.h"
#include "ui/models/records.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QVariantList>
#include <QVector>

class QSqlDatabase;

namespace rd::ui {

/// The Inbox's list of webhook deliveries (webhook_inbox), newest first, in keyset pages: what
/// a row holds, what the list is narrowed to, and the reads behind it (the Inbox page draws it).
namespace inbox {

/// A row's fields, in order.
enum FieldIndex {
    Id,
    ReceivedAt,
    Provider,
    Outcome,
    Reason,
    Error,
    CaseId,
    EventId,
    SubscriptionRef,
    Deliveries,
    BodySize,
    FieldCount
};

/// How each field is stored, in FieldIndex order.
const QVector<Field> &fields();

/// What the list is narrowed to; an empty value does not narrow.
struct Filter
{
    QString provider;
    /// An outcome; "problems" (rejected, needs snapshot, invalid), "unprocessed" (no outcome
    /// yet) or "invalid_to_review" (invalid, nobody reviewed or re-ran it: migration 0034).
    QString outcome;
    /// How far back it was received, as an interval: "1 hour", "1 day", "7 days", "30 days".
    QString received;
    /// A provider event id or a delivery number, whole.
    QString search;
};

/// The pages of the list narrowed to `filter`, newest first on webhook_inbox_recent
/// (received_at DESC, id DESC) or webhook_inbox_by_outcome for one outcome.
PagedTableModel::Fetcher fetcher(const Filter &filter);

/// The registered providers as (key, display name), by key (a pool thread; rd::DatabaseFailure).
QList<QPair<QString, QString>> loadProviders(QSqlDatabase &db);

/// What changes when the inbox does: the newest delivery's id, the write counters of
/// webhook_inbox and webhook_inbox_reviews, and on a hot standby the replay position. Empty
/// when it could not be read (a pool thread; rd::DatabaseFailure).
QVariantList loadChangeMark(QSqlDatabase &db);

} // namespace inbox

/// The SQL condition, over webhook_inbox `w`, of an invalid delivery nobody has reviewed yet
/// (migration 0034): webhook_inbox_by_outcome's 'invalid' range, each probed in
/// webhook_inbox_reviews. The Overview counts these; the Inbox lists them.
QString invalidToReviewCondition();

} // namespace rd::ui
