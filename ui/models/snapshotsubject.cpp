#include "ui/models/snapshotsubject.h"

#include "ui/models/databasepool.h"
#include "ui/models/format.h"

#include <QSqlQuery>

namespace rd::ui {
namespace {

std::optional<qint64> microsOf(const QVariant &rfc3339)
{
    return rfc3339.isNull() ? std::nullopt : format::micros(rfc3339.toString());
}

} // namespace

std::optional<SnapshotSubject> loadSnapshotSubject(QSqlDatabase &db, qint64 caseId)
{
    QSqlQuery q = execSql(db,
        u"SELECT c.provider_key, c.provider_subscription_id, p.kind, s.id IS NOT NULL, "
        "s.status, rd_rfc3339(s.current_period_start), rd_rfc3339(s.current_period_end), "
        "s.cancel_at_period_end, s.provider_version, s.revision, "
        "lb.provider_renewal_key, rd_rfc3339(lb.period_start), rd_rfc3339(lb.period_end), "
        "lb.paid_amount_minor, lb.currency "
        "FROM reconciliation_cases c "
        "LEFT JOIN billing_providers p ON p.provider_key = c.provider_key "
        "LEFT JOIN subscriptions s ON s.provider_key = c.provider_key "
        "  AND s.provider_subscription_id = c.provider_subscription_id "
        // The newest billing period: billing_period_subscription_period_unique backwards.
        "LEFT JOIN LATERAL (SELECT * FROM subscription_billing_periods b "
        "  WHERE b.subscription_id = s.id ORDER BY period_start DESC, period_end DESC LIMIT 1) lb "
        "  ON true "
        "WHERE c.id = ?"_qs,
        {caseId});
    if (!q.next())
        return std::nullopt;
    SnapshotSubject loaded;
    loaded.subscription.providerKey = q.value(0).toString();
    loaded.subscription.providerSubscriptionId = q.value(1).toString();
    if (!q.value(2).isNull())
        loaded.kind = rd::providerKindFromString(q.value(2).toString().toStdString());
    if (q.value(3).toBool()) {
        LocalSubscription local;
        local.status = q.value(4).toString();
        local.periodStartMicros = microsOf(q.value(5));
        local.periodEndMicros = microsOf(q.value(6));
        local.cancelAtPeriodEnd = q.value(7).toBool();
        local.providerVersion = q.value(8).isNull() ? QString() : q.value(8).toString();
        local.revision = q.value(9).toLongLong();
        if (!q.value(10).isNull())
            local.latestRenewal = LocalSubscription::Renewal {q.value(10).toString(),
                microsOf(q.value(11)).value_or(0), microsOf(q.value(12)).value_or(0),
                q.value(13).toLongLong(), q.value(14).toString()};
        loaded.subscription.local = std::move(local);
    }
    return loaded;
}

} // namespace rd::ui
