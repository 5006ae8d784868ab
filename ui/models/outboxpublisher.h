#pragma once

#include <QDateTime>
#include <QString>

class QSqlDatabase;

namespace rd::ui {

/// Whether anyone publishes the outbox: a growing pending count means little without it.
struct OutboxPublisher
{
    /// Sessions of `renewalctl outbox publish` connected now (its application_name in
    /// pg_stat_activity, which every role may read).
    qint64 sessions = 0;
    QDateTime lastPublishedAt; ///< null: nothing was ever published
    QDateTime readAt; ///< the database's clock

    bool operator==(const OutboxPublisher &) const = default;
};

/// Reads it (on a pool thread): one row, the publisher's named sessions and max(published_at)
/// through subscription_outbox_published (migration 0034).
OutboxPublisher loadOutboxPublisher(QSqlDatabase &db);

/// What the desk says about it.
struct OutboxPublisherState
{
    QString text; ///< "publisher running", "no publisher has run for 12 min"
    QString toolTip;
    bool stalled = false; ///< no publisher is connected
};
OutboxPublisherState outboxPublisherState(
    qint64 sessions, const QDateTime &lastPublishedAt, const QDateTime &now);

} // namespace rd::ui
