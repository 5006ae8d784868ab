#include "ui/models/subscriptiondetail.h"

#include "ui/models/auditdetails.h"
#include "ui/models/databasepool.h"

namespace rd::ui {

std::optional<SubscriptionDetail> loadSubscriptionDetail(QSqlDatabase &db, const QString &id)
{
    // One REPEATABLE READ snapshot for the five reads.
    execDirect(db, u"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"_qs);
    struct Rollback
    {
        QSqlDatabase &db;
        ~Rollback() { QSqlQuery(db).exec(u"ROLLBACK"_qs); }
    } rollback {db};

    QSqlQuery h = execSql(db,
        u"SELECT id::text, provider_key, provider_subscription_id, status, cancel_at_period_end, "
        "rd_rfc3339(current_period_start), rd_rfc3339(current_period_end), revision, "
        "coalesce(provider_version, '') FROM subscriptions WHERE id = CAST(? AS uuid)"_qs,
        {id});
    QVector<QVariant> header;
    if (readRows(h,
            {Field::Text, Field::Text, Field::Text, Field::Text, Field::Bool, Field::Micros,
                Field::Micros, Field::Int, Field::Text},
            header)
        == 0)
        return std::nullopt;
    SubscriptionDetail d;
    d.id = header[0].toString();
    d.provider = header[1].toString();
    d.subscriptionId = header[2].toString();
    d.status = header[3].toString();
    d.cancelAtPeriodEnd = header[4].toBool();
    d.periodStart = header[5];
    d.periodEnd = header[6];
    d.revision = header[7].toLongLong();
    d.providerVersion = header[8].toString();

    // Newest first: the unique (subscription_id, period_start, period_end) scanned backwards.
    QSqlQuery p = execSql(db,
        u"SELECT id::text, provider_renewal_key, provider_event_id, rd_rfc3339(period_start), "
        "rd_rfc3339(period_end), paid_amount_minor, currency, rd_rfc3339(paid_at), recorded_by "
        "FROM subscription_billing_periods WHERE subscription_id = CAST(? AS uuid) "
        "ORDER BY period_start DESC, period_end DESC LIMIT ?"_qs,
        {id, SubscriptionDetail::kMaxPeriods + 1});
    int periods = readRows(p,
        {Field::Text, Field::Text, Field::Text, Field::Micros, Field::Micros, Field::Int,
            Field::Interned, Field::Micros, Field::Interned},
        d.periods);
    if (periods > SubscriptionDetail::kMaxPeriods) {
        d.periodsTruncated = true;
        d.periods.resize(
            qsizetype(SubscriptionDetail::kMaxPeriods) * SubscriptionDetail::PeriodFieldCount);
    }

    QSqlQuery a = execSql(db,
        u"SELECT a.id, a.transition, a.actor_type, a.actor_id, a.db_role, "
        "coalesce(a.reason, ''), coalesce(a.comment, ''), jsonb_pretty(a.details), "
        "rd_rfc3339(a.created_at), coalesce(a.provider_renewal_key, ''), "
        "rd_rfc3339(a.period_start), rd_rfc3339(a.period_end), a.chain_seq, "_qs
            + renewalAfterStateSql(u"a"_qs, u"s"_qs)
            + u" FROM subscription_transition_audits a JOIN subscriptions s "
              "ON s.id = a.subscription_id "
              "WHERE a.subscription_id = CAST(? AS uuid) ORDER BY a.id DESC LIMIT ?"_qs,
        {id, SubscriptionDetail::kMaxAudits});
    readRows(a,
        {Field::Int, Field::Interned, Field::Interned, Field::Text, Field::Interned, Field::Text,
            Field::Text, Field::Text, Field::Micros, Field::Text, Field::Micros, Field::Micros,
            Field::Int, Field::Text},
        d.audits);

    QSqlQuery o = execSql(db,
        u"SELECT id::text, event_type, rd_rfc3339(created_at), attempts, "
        "rd_rfc3339(next_attempt_at), coalesce(last_error, ''), rd_rfc3339(published_at), "
        "jsonb_pretty(payload) FROM subscription_outbox WHERE subscription_id = CAST(? AS uuid) "
        "ORDER BY created_at DESC LIMIT 500"_qs,
        {id});
    readRows(o,
        {Field::Text, Field::Interned, Field::Micros, Field::Int, Field::Micros, Field::Text,
            Field::Micros, Field::Text},
        d.outbox);

    QSqlQuery c = execSql(db,
        u"SELECT id, error_code, status, provider_renewal_key, occurrences, "
        "rd_rfc3339(first_seen_at), rd_rfc3339(last_seen_at), event::text, "
        "coalesce(resolution, '') FROM reconciliation_cases "
        "WHERE subscription_id = CAST(? AS uuid) ORDER BY id DESC LIMIT 200"_qs,
        {id});
    readRows(c,
        {Field::Int, Field::Interned, Field::Interned, Field::Text, Field::Int, Field::Micros,
            Field::Micros, Field::Text, Field::Interned},
        d.cases);
    return d;
}

} // namespace rd::ui
