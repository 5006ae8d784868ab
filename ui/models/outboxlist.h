#pragma once

#include "ui/models/pagedtablemodel.h"
#include "ui/models/records.h"

#include <QString>
#include <QVariantList>
#include <QVector>

class QSqlDatabase;

namespace rd::ui {

/// The Outbox's list of intents (subscription_outbox) in keyset pages: what a row holds, which
/// intents it shows, and the reads behind it (the Outbox page draws it).
namespace outbox {

/// A row's fields, in order.
enum FieldIndex {
    Id,
    Provider,
    SubscriptionRef,
    EventType,
    CreatedAt,
    Attempts,
    NextAttemptAt,
    LastError,
    PublishedAt,
    RenewalKey,
    FieldCount
};

/// How each field is stored, in FieldIndex order.
const QVector<Field> &fields();

/// Which intents the list shows.
enum class Show {
    Undelivered, ///< pending and failed, in the order the publisher will work them
    Failed, ///< failed and being retried, in that order
    All, ///< everything, in primary-key order
};

/// The pages of the list of `show`.
PagedTableModel::Fetcher fetcher(Show show);

/// The outbox's state, in this order: the pending and the failed counts (undelivered intents,
/// through the partial index), the table's write counters, on a hot standby the replay
/// position (these four change when the outbox does), then the publisher
/// (loadOutboxPublisher): its sessions, when it last published, the database's clock. Empty
/// when it could not be read (a pool thread; rd::DatabaseFailure).
QVariantList loadState(QSqlDatabase &db);

} // namespace outbox
} // namespace rd::ui
