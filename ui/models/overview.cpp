#include "ui/models/overview.h"

#include "ui/models/accesstrouble.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/inboxlist.h"
#include "ui/models/outboxpublisher.h"
#include "ui/models/overduewatch.h"
#include "ui/models/utcmidnight.h"

#include "domain/store/outbox_publisher.h"

#include <QMap>
#include <QSqlQuery>

#include <algorithm>

namespace rd::ui {
namespace {

QVector<CurrencyTotal> byCurrency(const QMap<QString, CurrencyTotal> &totals)
{
    QVector<CurrencyTotal> out;
    for (const CurrencyTotal &t : totals)
        out << t;
    return out; // QMap: by currency code
}

} // namespace

OverviewFigures loadOverview(QSqlDatabase &db, std::optional<int> overdueGraceHours)
{
    // Deltas appended by renewals since the last fold are read by renewal_totals() either way;
    // folding first keeps what it reads small. A failed fold changes no figure (a standby
    // cannot fold, and says so by returning 0), so its error is not the page's.
    {
        QSqlQuery fold(db);
        fold.exec(u"SELECT public.fold_renewal_totals(), public.fold_inbox_days(), "
                  "public.fold_money_back_totals()"_qs);
    }

    execDirect(db, u"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"_qs);
    struct Rollback
    {
        QSqlDatabase &db;
        ~Rollback() { QSqlQuery(db).exec(u"ROLLBACK"_qs); }
    } rollback {db};

    OverviewFigures f;
    {
        QSqlQuery q = execSql(db, u"SELECT rd_rfc3339(now()), (now() AT TIME ZONE 'UTC')::date"_qs);
        if (!q.next())
            throw rd::DatabaseFailure("the database did not say what time it is", "", false);
        f.readAt = format::instant(q.value(0).toString());
        f.todayUtc = QDate::fromString(q.value(1).toString(), Qt::ISODate);
    }
    f.firstDay = f.todayUtc.addDays(1 - kOverviewDays);
    const QDate monthStart(f.todayUtc.year(), f.todayUtc.month(), 1);
    const QDate tomorrow = f.todayUtc.addDays(1);

    // Renewals: the ledger's daily totals (migration 0016), never the billing periods
    // themselves, whose month is millions of rows.
    {
        QSqlQuery q = execSql(db,
            u"SELECT day, provider_key, currency, sum(renewals)::bigint, sum(amount_minor)::text "
            "FROM public.renewal_totals(CAST(? AS date), CAST(? AS date)) GROUP BY 1, 2, 3"_qs,
            {std::min(monthStart, f.firstDay).toString(Qt::ISODate),
                tomorrow.toString(Qt::ISODate)});
        QMap<QString, CurrencyTotal> today;
        QMap<QString, CurrencyTotal> month;
        QMap<std::pair<QDate, QString>, qint64> perDay;
        while (q.next()) {
            const QDate day = QDate::fromString(q.value(0).toString(), Qt::ISODate);
            const QString provider = q.value(1).toString();
            const QString currency = q.value(2).toString();
            const qint64 renewals = q.value(3).toLongLong();
            const qint64 amount = q.value(4).toString().toLongLong();
            auto add = [&](QMap<QString, CurrencyTotal> &m) {
                CurrencyTotal &t = m[currency];
                t.currency = currency;
                t.renewals += renewals;
                t.amountMinor += amount;
            };
            if (day == f.todayUtc)
                add(today);
            if (day >= monthStart)
                add(month);
            if (day >= f.firstDay) {
                perDay[{day, provider}] += renewals;
                if (!f.providers.contains(provider))
                    f.providers << provider;
            }
        }
        // Money back of the same days, each movement by its own day (0050): net beside gross.
        QSqlQuery back = execSql(db,
            u"SELECT day, currency, sum(refunded_minor + disputed_minor)::text "
            "FROM public.money_back_totals(CAST(? AS date), CAST(? AS date)) GROUP BY 1, 2"_qs,
            {monthStart.toString(Qt::ISODate), tomorrow.toString(Qt::ISODate)});
        while (back.next()) {
            const QDate day = QDate::fromString(back.value(0).toString(), Qt::ISODate);
            const QString currency = back.value(1).toString();
            const qint64 amount = back.value(2).toString().toLongLong();
            auto add = [&](QMap<QString, CurrencyTotal> &m) {
                CurrencyTotal &t = m[currency];
                t.currency = currency;
                t.moneyBackMinor += amount;
            };
            if (day == f.todayUtc)
                add(today);
            add(month);
        }
        f.renewalsToday = byCurrency(today);
        f.renewalsThisMonth = byCurrency(month);
        for (auto it = perDay.cbegin(); it != perDay.cend(); ++it)
            f.renewalsPerDay << DayCount {it.key().first, it.key().second, it.value()};
        f.providers.sort();
    }

    // Open cases by reason and age: few rows, one range of reconciliation_cases_by_age.
    {
        QSqlQuery q = execSql(db,
            u"SELECT error_code, count(*), "
            "count(*) FILTER (WHERE first_seen_at > now() - make_interval(secs => ?)), "
            "count(*) FILTER (WHERE first_seen_at <= now() - make_interval(secs => ?) "
            "AND first_seen_at > now() - make_interval(secs => ?)), "
            "count(*) FILTER (WHERE first_seen_at <= now() - make_interval(secs => ?) "
            "AND first_seen_at > now() - make_interval(secs => ?)), "
            "count(*) FILTER (WHERE first_seen_at <= now() - make_interval(secs => ?)) "
            "FROM reconciliation_cases WHERE status = 'open' GROUP BY error_code "
            "ORDER BY 2 DESC, 1"_qs,
            {kAgeBucketLimits[0], kAgeBucketLimits[0], kAgeBucketLimits[1], kAgeBucketLimits[1],
                kAgeBucketLimits[2], kAgeBucketLimits[2]});
        while (q.next()) {
            const qint64 n = q.value(1).toLongLong();
            f.openByReason << KeyCount {q.value(0).toString(), n};
            f.openCases += n;
            for (int b = 0; b < int(AgeBucket::Count); ++b)
                f.openByAge[b] += q.value(2 + b).toLongLong();
        }
        QSqlQuery oldest = execSql(db,
            u"SELECT id, rd_rfc3339(first_seen_at) FROM reconciliation_cases "
            "WHERE status = 'open' ORDER BY first_seen_at, id LIMIT 1"_qs);
        if (oldest.next()) {
            f.oldestOpenCaseId = oldest.value(0).toLongLong();
            f.oldestOpenSince = format::instant(oldest.value(1).toString());
        }
    }

    // Cases opened and closed per UTC day. Opened: the three statuses' ranges of
    // reconciliation_cases_by_age (status, first_seen_at); closed: reconciliation_cases_closed
    // (resolved_at, migration 0018).
    {
        const QString from = utcMidnight(f.firstDay);
        QSqlQuery q = execSql(db,
            u"SELECT 'opened', (first_seen_at AT TIME ZONE 'UTC')::date, count(*) "
            "FROM reconciliation_cases WHERE status IN ('open', 'resolved', 'dismissed') "
            "AND first_seen_at >= CAST(? AS timestamptz) GROUP BY 2 "
            "UNION ALL "
            "SELECT 'closed', (resolved_at AT TIME ZONE 'UTC')::date, count(*) "
            "FROM reconciliation_cases WHERE resolved_at >= CAST(? AS timestamptz) GROUP BY 2 "
            "ORDER BY 2, 1"_qs,
            {from, from});
        while (q.next())
            f.casesPerDay << DayCount {QDate::fromString(q.value(1).toString(), Qt::ISODate),
                q.value(0).toString(), q.value(2).toLongLong()};
    }

    // The outbox's undelivered intents: the publisher's own partial index.
    {
        QSqlQuery q = execSql(db,
            u"SELECT count(*) FILTER (WHERE last_error IS NULL), "
            "count(*) FILTER (WHERE last_error IS NOT NULL) "
            "FROM subscription_outbox WHERE published_at IS NULL"_qs);
        if (q.next()) {
            f.outboxPending = q.value(0).toLongLong();
            f.outboxFailing = q.value(1).toLongLong();
        }
        // Whether anyone publishes (the publisher's named session, its last publication).
        const OutboxPublisher publisher = loadOutboxPublisher(db);
        f.outboxPublishers = publisher.sessions;
        f.outboxLastPublishedAt = publisher.lastPublishedAt;
    }

    // Invalid deliveries nobody looked at.
    {
        QSqlQuery q = execSql(
            db, u"SELECT count(*) FROM webhook_inbox w WHERE "_qs + invalidToReviewCondition());
        if (q.next())
            f.invalidToReview = q.value(0).toLongLong();
    }

    // Overdue subscriptions: one range of the partial index per provider (migration 0030).
    {
        f.overdueGraceHours = overdueGraceHours;
        QSqlQuery q = execSql(db,
            u"SELECT provider_key, overdue FROM public.overdue_subscription_counts("
            "make_interval(hours => CAST(? AS integer))) WHERE overdue > 0 "
            "ORDER BY overdue DESC, provider_key"_qs,
            {overdueGraceValue(overdueGraceHours)});
        while (q.next()) {
            f.overdueByProvider << KeyCount {q.value(0).toString(), q.value(1).toLongLong()};
            f.overdueSubscriptions += q.value(1).toLongLong();
        }
    }

    // Payment trouble (#41): worked out now from the facts, as the Payment trouble page lists it.
    {
        const access::TroubleCounts trouble = access::loadTroubleCounts(db);
        f.inGrace = trouble.inGrace;
        f.blocked = trouble.blocked;
    }

    // Renewals recorded after their month was closed: billing periods are never removed, so the
    // ledger's count of a closed month now, less the count its close stored, is what came
    // since. The daily totals (a month of days per close), never the billing periods.
    {
        QSqlQuery q = execSql(db,
            u"SELECT mc.month::text, mc.provider_key, n.now - n.closed FROM public.month_closes mc "
            "CROSS JOIN LATERAL (SELECT (SELECT coalesce(sum(t.renewals), 0) "
            "FROM public.renewal_totals(mc.month, (mc.month + interval '1 month')::date) t "
            "WHERE t.provider_key = mc.provider_key) AS now, "
            "(SELECT coalesce(sum((e.value->>'renewals')::bigint), 0) "
            "FROM jsonb_each(mc.ledger_totals) e) AS closed) n "
            "WHERE n.now > n.closed ORDER BY mc.month, mc.provider_key"_qs);
        while (q.next()) {
            if (f.renewalsAfterClose == 0) {
                f.firstMonthAfterClose = QDate::fromString(q.value(0).toString(), Qt::ISODate);
                f.firstProviderAfterClose = q.value(1).toString();
            }
            f.renewalsAfterClose += q.value(2).toLongLong();
        }
    }
    // Money back recorded after its month's close that no close has counted yet: few rows, by
    // the partial index money_movements_after_close.
    {
        QSqlQuery q = execSql(db,
            u"SELECT date_trunc('month', m.occurred_at AT TIME ZONE 'UTC')::date::text, "
            "m.provider_key, count(*) FROM public.money_movements m WHERE m.after_close "
            "AND NOT EXISTS (SELECT 1 FROM public.month_closes o "
            "WHERE o.provider_key = m.provider_key AND m.id = ANY (o.after_close_movement_ids)) "
            "GROUP BY 1, 2 ORDER BY 1, 2"_qs);
        while (q.next()) {
            if (f.moneyBackAfterClose == 0) {
                f.firstMonthMoneyBackAfterClose
                    = QDate::fromString(q.value(0).toString(), Qt::ISODate);
                f.firstProviderMoneyBackAfterClose = q.value(1).toString();
            }
            f.moneyBackAfterClose += q.value(2).toLongLong();
        }
    }

    // Deliveries: the newest from webhook_inbox_recent; the window's outcomes from the folded
    // days (webhook_inbox_daily, migration 0018) and the rows received since, counted live
    // from webhook_inbox_recent (today's).
    {
        QSqlQuery last = execSql(db, u"SELECT rd_rfc3339(max(received_at)) FROM webhook_inbox"_qs);
        if (last.next() && !last.value(0).isNull())
            f.lastDeliveryAt = format::instant(last.value(0).toString());
        QSqlQuery q = execSql(db,
            u"SELECT outcome, sum(n)::bigint FROM ("
            "SELECT d.outcome, d.deliveries AS n FROM webhook_inbox_daily d "
            "WHERE d.day >= CAST(? AS date) "
            "UNION ALL "
            "SELECT coalesce(w.outcome, ''), count(*) FROM webhook_inbox w "
            "WHERE w.received_at >= greatest(CAST(? AS timestamptz), (SELECT "
            "s.folded_before::timestamp AT TIME ZONE 'UTC' FROM webhook_inbox_daily_state s)) "
            "GROUP BY 1) t GROUP BY 1 ORDER BY 2 DESC, 1"_qs,
            {f.firstDay.toString(Qt::ISODate), utcMidnight(f.firstDay)});
        while (q.next())
            f.deliveriesByOutcome << KeyCount {q.value(0).toString(), q.value(1).toLongLong()};
    }
    return f;
}

QString overviewChangeMark(QSqlDatabase &db)
{
    // The write counters reach pg_stat_user_tables when the writing transaction ends (at most
    // a second late); the newest ids show a new renewal or delivery at once. The renewal
    // totals' own tables are left out: folding them is the page's own doing. The UTC hour:
    // a new day's figures, and a subscription that became overdue with no write at all.
    QSqlQuery q = execSql(db,
        u"SELECT concat_ws('/', (SELECT max(id) FROM subscription_transition_audits), "
        "(SELECT max(id) FROM webhook_inbox), "
        "(SELECT sum(n_tup_ins + n_tup_upd + n_tup_del) FROM pg_stat_user_tables "
        "WHERE relid IN ('subscription_billing_periods'::regclass, "
        "'reconciliation_cases'::regclass, 'subscription_outbox'::regclass, "
        "'webhook_inbox'::regclass, 'webhook_inbox_reviews'::regclass)), "
        // A publisher that starts or stops changes what the outbox tile says.
        "(SELECT count(*) FROM pg_stat_activity WHERE application_name = ? "
        "AND datname = current_database()), date_trunc('hour', now() AT TIME ZONE 'UTC'))"_qs,
        {QString::fromLatin1(kOutboxPublisherApplicationName)});
    return q.next() ? q.value(0).toString() : QString();
}

} // namespace rd::ui
