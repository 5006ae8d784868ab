#include "ui/models/subscriptiondetail.h"

#include "ui/models/auditdetails.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"

#include "domain/core/money_movement.h"

#include <QCoreApplication>

namespace rd::ui {

QString moneyBackLines(const QString &stored, const QString &currency)
{
    // "kind key amount occurred_at[ after_close]" per line (keys and kinds hold no spaces:
    // rd_key refuses them).
    QStringList lines;
    for (const QString &line : stored.split(u'\n', Qt::SkipEmptyParts)) {
        const QStringList f = line.split(u' ');
        if (f.size() < 4)
            continue;
        const auto kind = rd::movementKindFromString(f[0].toStdString());
        const bool back = kind && rd::takesMoneyAway(*kind);
        const qint64 minor = f[2].toLongLong();
        QString text = u"%1 %2 · %3%4 · %5"_qs.arg(format::humanize(f[0]), f[1],
            back ? u"−"_qs : u"+"_qs, format::money(minor, currency), f[3].left(10));
        if (f.size() > 4)
            text += u" · "_qs
                + QCoreApplication::translate(
                    "rd::ui::SubscriptionDetail", "after its month was closed");
        lines << text;
    }
    return lines.join(u'\n');
}

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

    // Its access now (#41): worked out from the facts, as the Payment trouble page does.
    QSqlQuery v = execSql(db,
        u"SELECT verdict, rd_rfc3339(since), rd_rfc3339(until), source, reason "
        "FROM public.rd_access_verdict(CAST(? AS uuid), now())"_qs,
        {id});
    if (v.next() && !v.value(0).isNull()) {
        d.access.verdict = v.value(0).toString();
        d.access.since = format::instant(v.value(1).toString());
        d.access.until = format::instant(v.value(2).toString());
        d.access.source = v.value(3).toString();
        d.access.reason = v.value(4).toString();
    }

    // Newest first: the unique (subscription_id, period_start, period_end) scanned backwards.
    // Each period's money back (#40) from money_movements_by_billing_period: its signed sum and
    // its movements, each by its own date.
    QSqlQuery p = execSql(db,
        u"SELECT b.id::text, b.provider_renewal_key, b.provider_event_id, "
        "rd_rfc3339(b.period_start), rd_rfc3339(b.period_end), b.paid_amount_minor, b.currency, "
        "rd_rfc3339(b.paid_at), b.recorded_by, m.back, m.lines "
        "FROM subscription_billing_periods b LEFT JOIN LATERAL ("
        "SELECT sum("_qs
            + QString::fromStdString(rd::signedAmountSql("x"))
            + u") AS back, string_agg(x.kind || ' ' || x.movement_key || ' ' "
              "|| x.amount_minor || ' ' || rd_rfc3339(x.occurred_at) || CASE WHEN x.after_close "
              "THEN ' after_close' ELSE '' END, E'\\n' ORDER BY x.occurred_at, x.id) AS lines "
              "FROM public.money_movements x WHERE x.billing_period_id = b.id) m ON true "
              "WHERE b.subscription_id = CAST(? AS uuid) "
              "ORDER BY b.period_start DESC, b.period_end DESC LIMIT ?"_qs,
        {id, SubscriptionDetail::kMaxPeriods + 1});
    int periods = readRows(p,
        {Field::Text, Field::Text, Field::Text, Field::Micros, Field::Micros, Field::Int,
            Field::Interned, Field::Micros, Field::Interned, Field::Int, Field::Text},
        d.periods);
    for (qsizetype i = SubscriptionDetail::PMovements; i < d.periods.size();
         i += SubscriptionDetail::PeriodFieldCount)
        d.periods[i] = moneyBackLines(d.periods[i].toString(),
            d.periods[i - SubscriptionDetail::PMovements + SubscriptionDetail::PCurrency]
                .toString());
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
