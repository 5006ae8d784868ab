#include "ui/models/outboxlist.h"

#include "ui/models/databasepool.h"
#include "ui/models/outboxpublisher.h"

#include "domain/core/timestamp.h"

#include <QSqlQuery>

namespace rd::ui::outbox {
namespace {

QString select(const QString &inner, const QString &order)
{
    return u"SELECT o.id::text, s.provider_key, s.provider_subscription_id, o.event_type, "
           "rd_rfc3339(o.created_at), o.attempts, rd_rfc3339(o.next_attempt_at), "
           "coalesce(o.last_error, ''), rd_rfc3339(o.published_at), "
           "coalesce(o.payload->>'providerRenewalKey', '') FROM ("_qs
        + inner + u") o JOIN subscriptions s ON s.id = o.subscription_id ORDER BY "_qs + order;
}

} // namespace

const QVector<Field> &fields()
{
    static const QVector<Field> kFields {Field::Text, Field::Interned, Field::Text, Field::Interned,
        Field::Micros, Field::Int, Field::Micros, Field::Text, Field::Micros, Field::Text};
    return kFields;
}

PagedTableModel::Fetcher fetcher(Show show)
{
    const bool undelivered = show != Show::All;
    const bool failedOnly = show == Show::Failed;
    return [undelivered, failedOnly](QSqlDatabase &db, const QVector<QVariant> &after, int limit) {
        QString sql;
        QVariantList values;
        const QString lim = u" LIMIT "_qs + QString::number(limit);
        if (undelivered) {
            // subscription_outbox_pending (next_attempt_at) WHERE published_at IS NULL: the
            // publisher's own queue, in the order it will be worked.
            QString where = failedOnly ? u"published_at IS NULL AND last_error IS NOT NULL"_qs
                                       : u"published_at IS NULL"_qs;
            if (!after.isEmpty()) {
                where
                    += u" AND (next_attempt_at, id) > (CAST(? AS timestamptz), CAST(? AS uuid))"_qs;
                values << QString::fromStdString(
                    rd::formatRfc3339(rd::Timestamp {after[NextAttemptAt].toLongLong()}))
                       << after[Id];
            }
            sql = select(u"SELECT * FROM subscription_outbox WHERE "_qs + where
                    + u" ORDER BY next_attempt_at, id"_qs + lim,
                u"o.next_attempt_at, o.id"_qs);
        } else {
            // Everything, in primary-key order: indexed, stable, no sort of the whole table.
            QString where;
            if (!after.isEmpty()) {
                where = u" WHERE id > CAST(? AS uuid)"_qs;
                values << after[Id];
            }
            sql = select(u"SELECT * FROM subscription_outbox"_qs + where + u" ORDER BY id"_qs + lim,
                u"o.id"_qs);
        }
        QSqlQuery q = execSql(db, sql, values);
        Page page;
        page.rows = readRows(q, fields(), page.cells);
        return page;
    };
}

QVariantList loadState(QSqlDatabase &db)
{
    // Only the undelivered part is counted (the partial index keeps it small). The table's
    // statistics count every insert, update and delete, published or not, once the writing
    // session reports them (at its commit's end, at most a second late): a change the counts
    // alone would miss (one published, one written) still shows.
    QSqlQuery q = execSql(db,
        u"SELECT count(*) FILTER (WHERE last_error IS NULL), "
        "count(*) FILTER (WHERE last_error IS NOT NULL), "
        "(SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) "
        "FROM pg_stat_user_tables WHERE relid = 'subscription_outbox'::regclass), "
        // A hot standby keeps no such counters for what it replays: there, the replay position
        // (it moves with every change the primary makes) says when to look.
        "CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()::text END "
        "FROM subscription_outbox WHERE published_at IS NULL"_qs);
    if (!q.next())
        return {};
    const OutboxPublisher publisher = loadOutboxPublisher(db);
    return {q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong(),
        q.value(3).toString(), publisher.sessions, publisher.lastPublishedAt, publisher.readAt};
}

} // namespace rd::ui::outbox
