#include "ui/models/finder.h"

#include "ui/models/databasepool.h"
#include "ui/models/format.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSet>
#include <QUuid>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::Finder)
};

// The provider keys an id may be filed under: every provider with subscriptions (a loose index
// scan of the browse index, one probe per provider) and every registered one (deliveries and
// cases of providers with no subscription yet). Each lookup below is then
// `provider_key = ANY(keys) AND <id column> = ?`: one descent of a (provider_key, id) unique
// index per key, whatever the server's collation (equality needs no bytewise order).
const QString kProviderKeys = uR"(WITH RECURSIVE sp(k) AS (
    SELECT min(provider_key) FROM public.subscriptions
    UNION ALL
    SELECT (SELECT min(provider_key) FROM public.subscriptions WHERE provider_key > sp.k)
      FROM sp WHERE sp.k IS NOT NULL),
keys AS (SELECT ARRAY(SELECT k FROM sp WHERE k IS NOT NULL
                      UNION SELECT provider_key FROM public.billing_providers) AS k)
)"_qs;

// Every branch yields the same columns: kind, subscription uuid, billing period id, case id,
// delivery id, matched-by code, provider, the provider's subscription id, then per kind:
// subscription: status, period start, period end; period: renewal key, start, end, amount,
// currency; case: reason, status, renewal key, first seen; delivery: outcome, event id,
// received at.
const QString kSubscription = uR"(SELECT 1 AS ord, 'subscription' AS kind, s.id::text AS sub,
    NULL::text AS period, NULL::bigint AS case_id, NULL::bigint AS delivery, '%1' AS matched,
    s.provider_key AS provider, s.provider_subscription_id AS ref, s.status AS a1,
    rd_rfc3339(s.current_period_start) AS a2, rd_rfc3339(s.current_period_end) AS a3,
    NULL::text AS a4, NULL::bigint AS amount, NULL::text AS currency
  FROM public.subscriptions s WHERE %2)"_qs;
const QString kPeriod = uR"(SELECT 2, 'period', b.subscription_id::text, b.id::text, NULL::bigint,
    NULL::bigint,
    '%1', b.provider_key, s.provider_subscription_id, b.provider_renewal_key,
    rd_rfc3339(b.period_start), rd_rfc3339(b.period_end), b.provider_event_id,
    b.paid_amount_minor, b.currency
  FROM public.subscription_billing_periods b
  JOIN public.subscriptions s ON s.id = b.subscription_id WHERE %2)"_qs;
// A failed payment's invoice (#41) that was never paid is in payment_attempts alone (its
// primary key leads with provider and invoice): it opens its subscription.
const QString kAttempt = uR"(SELECT 2, 'attempt', a.subscription_id::text, NULL::text,
    NULL::bigint, NULL::bigint, '%1', a.provider_key, s.provider_subscription_id, a.invoice_key,
    rd_rfc3339(max(a.failed_at)), max(a.attempt)::text, NULL::text, NULL::bigint, NULL::text
  FROM public.payment_attempts a
  JOIN public.subscriptions s ON s.id = a.subscription_id WHERE %2
 GROUP BY a.subscription_id, a.provider_key, s.provider_subscription_id, a.invoice_key)"_qs;
const QString kCase = uR"(SELECT 3, 'case', c.subscription_id::text, NULL::text, c.id,
    NULL::bigint, '%1', c.provider_key, c.provider_subscription_id, c.error_code, c.status,
    c.provider_renewal_key, rd_rfc3339(c.first_seen_at), NULL::bigint, NULL::text
  FROM public.reconciliation_cases c WHERE %2)"_qs;
const QString kDelivery = uR"(SELECT 4, 'delivery', NULL::text, NULL::text, NULL::bigint, w.id,
    '%1', w.provider_key, coalesce(w.normalized->>'providerSubscriptionId', ''),
    coalesce(w.outcome, ''), w.provider_event_id, rd_rfc3339(w.received_at), NULL::text,
    NULL::bigint, NULL::text
  FROM public.webhook_inbox w WHERE %2)"_qs;

const QString kByKey
    = u"%1.provider_key = ANY(CAST((SELECT k FROM keys) AS text[])) AND %1.%2 = CAST(? AS text)"_qs;

QString matchedText(const QString &code)
{
    if (code == u"provider_id")
        return Tr::tr("the provider's subscription id");
    if (code == u"uuid")
        return Tr::tr("Renewal Desk's id");
    if (code == u"renewal_key")
        return Tr::tr("the renewal key (invoice or transaction)");
    if (code == u"event_id")
        return Tr::tr("the provider event id");
    if (code == u"failed_invoice")
        return Tr::tr("the invoice of a failed payment");
    if (code == u"number")
        return Tr::tr("its number");
    return code;
}

QString periodText(const QVariant &start, const QVariant &end)
{
    const QDateTime s = format::instant(start.toString());
    const QDateTime e = format::instant(end.toString());
    return s.isValid() && e.isValid() ? format::period(s, e) : Tr::tr("no current period");
}

} // namespace

FindQuery parseFindText(const QString &typed)
{
    FindQuery q;
    QString t = typed.trimmed();
    // What is copied from a log line or a JSON document often comes quoted.
    for (const QChar quote : {u'"', u'\'', u'`'}) {
        if (t.size() >= 2 && t.front() == quote && t.back() == quote) {
            t = t.mid(1, t.size() - 2).trimmed();
            break;
        }
    }
    if (t.isEmpty()) {
        q.error = Tr::tr("Type or paste an id: a subscription, invoice or transaction, provider "
                         "event, case number or inbox delivery.");
        return q;
    }
    if (t.size() > kMaxFindLength) {
        q.error = Tr::tr("That is %1 characters long; no id is longer than %2. Paste the id alone.")
                      .arg(t.size())
                      .arg(kMaxFindLength);
        return q;
    }
    for (const QChar c : t) {
        if (c.category() == QChar::Other_Control || c == QChar::LineSeparator
            || c == QChar::ParagraphSeparator) {
            q.error = Tr::tr("An id has no line breaks, tabs or control characters: paste one id "
                             "alone.");
            return q;
        }
    }
    static const QRegularExpression caseNumber(
        u"^(?:case\\s*(?:no\\.?\\s*)?#?|#)\\s*(\\d{1,18})$"_qs,
        QRegularExpression::CaseInsensitiveOption);
    if (const auto m = caseNumber.match(t); m.hasMatch()) {
        q.caseOnly = true;
        q.number = m.captured(1).toLongLong();
        q.text = t;
        return q;
    }
    bool isNumber = false;
    const qint64 n = t.toLongLong(&isNumber);
    if (isNumber && n >= 0 && t.front().isDigit())
        q.number = n;
    const QUuid uuid = QUuid::fromString(t);
    if (!uuid.isNull() && (t.size() == 36 || t.size() == 38))
        q.uuid = uuid.toString(QUuid::WithoutBraces);
    q.text = t;
    return q;
}

QVector<FoundItem> findAnything(QSqlDatabase &db, const FindQuery &query)
{
    if (!query.error.isEmpty() || query.text.isEmpty())
        return {};
    QStringList branches;
    QVariantList values;
    if (!query.caseOnly) {
        branches << kSubscription.arg(
            u"provider_id"_qs, kByKey.arg(u"s"_qs, u"provider_subscription_id"_qs));
        values << query.text;
        if (!query.uuid.isEmpty()) {
            branches << kSubscription.arg(u"uuid"_qs, u"s.id = CAST(? AS uuid)"_qs);
            values << query.uuid;
        }
        branches << kPeriod.arg(u"renewal_key"_qs, kByKey.arg(u"b"_qs, u"provider_renewal_key"_qs));
        values << query.text;
        // billing_periods_by_event_id (migration 0019).
        branches << kPeriod.arg(u"event_id"_qs, kByKey.arg(u"b"_qs, u"provider_event_id"_qs));
        values << query.text;
        if (!query.uuid.isEmpty()) {
            branches << kPeriod.arg(u"uuid"_qs, u"b.id = CAST(? AS uuid)"_qs);
            values << query.uuid;
        }
        branches << kAttempt.arg(u"failed_invoice"_qs, kByKey.arg(u"a"_qs, u"invoice_key"_qs));
        values << query.text;
        // A renewal that was rejected is only in its case (reconciliation_cases_by_renewal_key,
        // migration 0019).
        branches << kCase.arg(u"renewal_key"_qs, kByKey.arg(u"c"_qs, u"provider_renewal_key"_qs));
        values << query.text;
        // ... and a renewal rejected outside the inbox keeps its event ids only there, the
        // first and the latest (reconciliation_cases_by_first_event_id, _by_last_, 0021).
        branches << kCase.arg(u"event_id"_qs, kByKey.arg(u"c"_qs, u"first_provider_event_id"_qs));
        values << query.text;
        branches << kCase.arg(u"event_id"_qs, kByKey.arg(u"c"_qs, u"last_provider_event_id"_qs));
        values << query.text;
    }
    if (query.number >= 0) {
        branches << kCase.arg(u"number"_qs, u"c.id = CAST(? AS bigint)"_qs);
        values << query.number;
    }
    if (!query.caseOnly) {
        branches << kDelivery.arg(u"event_id"_qs, kByKey.arg(u"w"_qs, u"provider_event_id"_qs));
        values << query.text;
        if (query.number >= 0) {
            branches << kDelivery.arg(u"number"_qs, u"w.id = CAST(? AS bigint)"_qs);
            values << query.number;
        }
    }
    QSqlQuery q = execSql(db,
        kProviderKeys + u"SELECT * FROM ("_qs + branches.join(u"\nUNION ALL\n"_qs)
            + u") found(ord, kind, sub, period, case_id, delivery, matched, provider, ref, a1, a2, "
              "a3, a4, amount, currency) ORDER BY ord, provider, ref, a1 LIMIT 50"_qs,
        values);

    QVector<FoundItem> found;
    QSet<QString> seen;
    while (q.next()) {
        FoundItem item;
        const QString kind = q.value(1).toString();
        item.subscriptionUuid = q.value(2).toString();
        item.billingPeriodId = q.value(3).toString();
        const QString matched = q.value(6).toString();
        const QString provider = q.value(7).toString();
        const QString ref = q.value(8).toString();
        item.matchedBy = matchedText(matched);
        if (kind == u"subscription") {
            item.kind = FoundItem::Kind::Subscription;
            item.title = Tr::tr("Subscription %1").arg(ref);
            item.detail
                = Tr::tr("%1 · %2 · %3")
                      .arg(provider, q.value(9).toString(), periodText(q.value(10), q.value(11)));
        } else if (kind == u"period") {
            item.kind = FoundItem::Kind::BillingPeriod;
            item.title = Tr::tr("Renewal %1").arg(q.value(9).toString());
            item.detail = Tr::tr("%1 · subscription %2 · %3 · %4")
                              .arg(provider, ref, periodText(q.value(10), q.value(11)),
                                  format::money(q.value(13).toLongLong(), q.value(14).toString()));
        } else if (kind == u"attempt") {
            item.kind = FoundItem::Kind::Subscription;
            item.title = Tr::tr("Failed payment of %1").arg(q.value(9).toString());
            item.detail = Tr::tr("%1 · subscription %2 · %3 attempts, the last failed %4")
                              .arg(provider, ref, q.value(11).toString(),
                                  format::localDateTime(format::instant(q.value(10).toString())));
        } else if (kind == u"case") {
            item.kind = FoundItem::Kind::Case;
            item.caseId = q.value(4).toLongLong();
            item.title = Tr::tr("Case %1 · %2")
                             .arg(item.caseId)
                             .arg(format::humanize(q.value(9).toString()));
            item.detail = Tr::tr("%1 · %2 · subscription %3 · renewal %4 · opened %5 ago")
                              .arg(q.value(10).toString(), provider, ref, q.value(11).toString(),
                                  format::age(format::instant(q.value(12).toString())));
        } else {
            item.kind = FoundItem::Kind::Delivery;
            item.deliveryId = q.value(5).toLongLong();
            const QString outcome = q.value(9).toString();
            item.title = Tr::tr("Inbox delivery %1 · %2")
                             .arg(item.deliveryId)
                             .arg(outcome.isEmpty() ? Tr::tr("not processed yet")
                                                    : format::humanize(outcome));
            const QDateTime received = format::instant(q.value(11).toString());
            item.detail
                = Tr::tr("%1 · event %2 · received %3")
                      .arg(provider, q.value(10).toString(), format::localDateTime(received));
        }
        // One thing found by two of its ids (a subscription's uuid that is also its provider
        // id) is listed once.
        const QString identity = kind + u'/' + item.subscriptionUuid + u'/' + item.billingPeriodId
            + u'/' + QString::number(item.caseId) + u'/' + QString::number(item.deliveryId);
        if (seen.contains(identity))
            continue;
        seen.insert(identity);
        found << item;
    }
    return found;
}

} // namespace rd::ui
