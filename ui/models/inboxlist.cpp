#include "ui/models/inboxlist.h"

#include "ui/models/databasepool.h"

#include "domain/core/timestamp.h"

#include <QSqlQuery>
#include <QStringList>

namespace rd::ui::inbox {
namespace {

/// Each row's cells, in fields()' order.
const QString kSelect
    = u"SELECT w.id, rd_rfc3339(w.received_at), w.provider_key, coalesce(w.outcome, ''), "
      "coalesce(w.reason, ''), coalesce(w.error, ''), w.case_id, w.provider_event_id, "
      "coalesce(w.normalized->>'providerSubscriptionId', ''), w.deliveries, w.body_size "
      "FROM webhook_inbox w"_qs;

} // namespace

const QVector<Field> &fields()
{
    static const QVector<Field> kFields {Field::Int, Field::Micros, Field::Interned,
        Field::Interned, Field::Interned, Field::Text, Field::Int, Field::Text, Field::Text,
        Field::Int, Field::Int};
    return kFields;
}

PagedTableModel::Fetcher fetcher(const Filter &filter)
{
    return [filter](QSqlDatabase &db, const QVector<QVariant> &after, int limit) {
        // Newest first on webhook_inbox_recent (received_at DESC, id DESC), or on
        // webhook_inbox_by_outcome (outcome, received_at DESC, id DESC) for one outcome.
        QStringList where;
        QVariantList values;
        if (!filter.provider.isEmpty()) {
            where << u"w.provider_key = ?"_qs;
            values << filter.provider;
        }
        if (filter.outcome == u"invalid_to_review") {
            where << invalidToReviewCondition();
        } else if (filter.outcome == u"problems") {
            where << u"w.outcome IN ('rejected', 'needs_snapshot', 'invalid')"_qs;
        } else if (filter.outcome == u"unprocessed") {
            where << u"w.outcome IS NULL"_qs;
        } else if (!filter.outcome.isEmpty()) {
            where << u"w.outcome = ?"_qs;
            values << filter.outcome;
        }
        if (!filter.received.isEmpty()) {
            where << u"w.received_at >= now() - CAST(? AS interval)"_qs;
            values << filter.received;
        }
        if (!filter.search.isEmpty()) {
            // An event id is unique per provider key: one probe of webhook_inbox_delivery_once
            // for each registered provider, whatever the server's collation.
            bool isNumber = false;
            const qint64 number = filter.search.toLongLong(&isNumber);
            where << u"(w.id = CAST(? AS bigint) OR (w.provider_key, w.provider_event_id) IN "
                     "(SELECT p.provider_key, CAST(? AS text) FROM billing_providers p))"_qs;
            values << (isNumber ? number : -1) << filter.search;
        }
        if (!after.isEmpty()) {
            where << u"(w.received_at, w.id) < (CAST(? AS timestamptz), CAST(? AS bigint))"_qs;
            values << QString::fromStdString(
                rd::formatRfc3339(rd::Timestamp {after[ReceivedAt].toLongLong()}))
                   << after[Id].toLongLong();
        }
        QSqlQuery q = execSql(db,
            kSelect + (where.isEmpty() ? QString() : u" WHERE "_qs + where.join(u" AND "_qs))
                + u" ORDER BY w.received_at DESC, w.id DESC LIMIT "_qs + QString::number(limit),
            values);
        Page page;
        page.rows = readRows(q, fields(), page.cells);
        return page;
    };
}

QList<QPair<QString, QString>> loadProviders(QSqlDatabase &db)
{
    QSqlQuery q
        = execSql(db, u"SELECT provider_key, display_name FROM billing_providers ORDER BY 1"_qs);
    QList<QPair<QString, QString>> providers;
    while (q.next())
        providers << qMakePair(q.value(0).toString(), q.value(1).toString());
    return providers;
}

QVariantList loadChangeMark(QSqlDatabase &db)
{
    // The newest delivery through the primary key finds new ones at once; the table's write
    // counters (reported by the writing session at its commit's end, at most a second late)
    // find a redelivery counted or an outcome recorded.
    QSqlQuery q = execSql(db,
        u"SELECT (SELECT coalesce(max(id), 0) FROM webhook_inbox), "
        // A delivery reviewed (0034) leaves the inbox row as it was: its review's table counts
        // too.
        "(SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) "
        "FROM pg_stat_user_tables WHERE relid IN ('webhook_inbox'::regclass, "
        "'webhook_inbox_reviews'::regclass)), "
        // A hot standby keeps no write counters for what it replays: there, the replay
        // position (it moves with every change the primary makes) says when to read again (a
        // redelivery counted, an outcome recorded).
        "CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()::text END"_qs);
    if (!q.next())
        return {};
    return {q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toString()};
}

} // namespace rd::ui::inbox

namespace rd::ui {

QString invalidToReviewCondition()
{
    return u"w.outcome = 'invalid' AND NOT EXISTS (SELECT 1 FROM webhook_inbox_reviews r "
           "WHERE r.inbox_id = w.id)"_qs;
}

} // namespace rd::ui
