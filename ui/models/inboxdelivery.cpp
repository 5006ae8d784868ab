#include "ui/models/inboxdelivery.h"

#include "ui/models/columns.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"

#include <QCoreApplication>
#include <QSqlQuery>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::InboxDelivery)
};

} // namespace

namespace {

QVariant micros(const QVariant &rfc3339)
{
    const auto m = format::micros(rfc3339.toString());
    return m ? QVariant::fromValue<qint64>(*m) : QVariant();
}

} // namespace

InboxDelivery loadInboxDelivery(QSqlDatabase &db, qint64 id)
{
    // The delivery, its provider, and what it is linked to: its case, the billing period it
    // recorded, and the subscription (the period's, else the one the payload names).
    // A column the role may not read fails the whole statement, so ask first.
    QSqlQuery may = execSql(
        db, u"SELECT has_column_privilege('public.webhook_inbox', 'raw_body', 'SELECT')"_qs);
    const bool mayReadBody = may.next() && may.value(0).toBool();
    QSqlQuery q = execSql(db,
        u"SELECT w.id, w.provider_key, coalesce(p.display_name, w.provider_key), "
        "w.provider_event_id, %1, w.body_size, w.body_sha256, w.body_truncated, "
        "rd_rfc3339(w.received_at), rd_rfc3339(w.last_delivery_at), rd_rfc3339(w.processed_at), "
        "w.deliveries, coalesce(w.outcome, ''), coalesce(w.reason, ''), coalesce(w.error, ''), "
        "coalesce(w.normalized->>'message', ''), coalesce(jsonb_pretty(w.normalized), ''), "
        "coalesce(w.case_id, 0), coalesce(c.status, ''), coalesce(c.error_code, ''), "
        "coalesce(w.billing_period_id::text, ''), rd_rfc3339(b.period_start), "
        "rd_rfc3339(b.period_end), b.paid_amount_minor, coalesce(b.currency, ''), "
        "coalesce(s.id::text, ''), "
        "coalesce(s.provider_subscription_id, w.normalized->>'providerSubscriptionId', ''), "
        "coalesce(r.reviewed_by, ''), rd_rfc3339(r.reviewed_at), coalesce(r.note, ''), "
        "coalesce(r.rerun_inbox_id, 0), m.kind, rd_rfc3339(m.removed_at), m.retention_days, "
        "m.configured, m.request "
        "FROM webhook_inbox w "
        "LEFT JOIN billing_providers p ON p.provider_key = w.provider_key "
        "LEFT JOIN reconciliation_cases c ON c.id = w.case_id "
        "LEFT JOIN webhook_inbox_reviews r ON r.inbox_id = w.id "
        "LEFT JOIN webhook_inbox_removals m ON m.id = w.body_removal_id "
        "LEFT JOIN subscription_billing_periods b ON b.id = w.billing_period_id "
        "LEFT JOIN subscriptions s ON s.id = coalesce(b.subscription_id, "
        "(SELECT s2.id FROM subscriptions s2 WHERE s2.provider_key = w.provider_key "
        "AND s2.provider_subscription_id = w.normalized->>'providerSubscriptionId')) "
        "WHERE w.id = ?"_qs.arg(mayReadBody ? u"w.raw_body"_qs : u"NULL::bytea"_qs),
        {id});
    InboxDelivery d;
    d.id = id;
    d.bodyHidden = !mayReadBody;
    if (!q.next())
        return d;
    d.found = true;
    int i = 1;
    d.provider = q.value(i++).toString();
    d.providerName = q.value(i++).toString();
    d.eventId = q.value(i++).toString();
    d.rawBody = q.value(i++).toByteArray();
    d.bodySize = q.value(i++).toLongLong();
    d.bodySha256 = q.value(i++).toString();
    d.bodyTruncated = q.value(i++).toBool();
    d.receivedAt = micros(q.value(i++));
    d.lastDeliveryAt = micros(q.value(i++));
    d.processedAt = micros(q.value(i++));
    d.deliveries = q.value(i++).toLongLong();
    d.outcome = q.value(i++).toString();
    d.reason = q.value(i++).toString();
    d.error = q.value(i++).toString();
    d.message = q.value(i++).toString();
    d.normalizedPretty = q.value(i++).toString();
    d.caseId = q.value(i++).toLongLong();
    d.caseStatus = q.value(i++).toString();
    d.caseCode = q.value(i++).toString();
    d.billingPeriodId = q.value(i++).toString();
    d.periodStart = micros(q.value(i++));
    d.periodEnd = micros(q.value(i++));
    d.paidMinor = q.value(i++);
    d.currency = q.value(i++).toString();
    d.subscriptionUuid = q.value(i++).toString();
    d.subscriptionRef = q.value(i++).toString();
    d.reviewedBy = q.value(i++).toString();
    d.reviewedAt = micros(q.value(i++));
    d.reviewNote = q.value(i++).toString();
    d.rerunInboxId = q.value(i++).toLongLong();
    // 0037: whoever reads, a removed body says when and why it went; viewers read this too.
    d.removalKind = q.value(i++).toString();
    d.bodyRemoved = !d.removalKind.isEmpty();
    d.removedAt = micros(q.value(i++));
    d.removalRetentionDays = q.value(i++);
    d.removalConfigured = q.value(i++).toBool();
    d.removalRequest = q.value(i++).toString();
    // Formatted here, off the GUI thread: a body can be a MiB.
    d.body = displayBody(d.rawBody);
    return d;
}

QString removedBodyNote(const InboxDelivery &d)
{
    if (!d.bodyRemoved)
        return {};
    // The day in UTC, as every removal record and `renewalctl inbox removals` say it.
    const QString day = columns::fromMicros(d.removedAt).toUTC().toString(u"yyyy-MM-dd"_qs);
    if (d.removalKind == u"erasure")
        return Tr::tr("Body erased on %1 (request: %2)").arg(day, d.removalRequest);
    const int days = d.removalRetentionDays.toInt();
    const QString span = days == 1 ? Tr::tr("1 day") : Tr::tr("%1 days").arg(days);
    return (d.removalConfigured ? Tr::tr("Body removed on %1 (retention %2)")
                                : Tr::tr("Body removed on %1 (older than %2)"))
        .arg(day, span);
}

} // namespace rd::ui
