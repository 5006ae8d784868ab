#include "ui/models/finder.h"

#include "ui/models/databasepool.h"
#include "ui/models/format.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QUuid>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::Finder)
};

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
    if (code == u"email")
        return Tr::tr("the customer's e-mail address");
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
    q.typed = typed;
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
    q.email = t.contains(u'@');
    q.text = t;
    return q;
}

QVector<FoundItem> findAnything(QSqlDatabase &db, const FindQuery &query)
{
    if (!query.error.isEmpty() || query.text.isEmpty())
        return {};
    // The search is the database's (find_anything, #42), the same `renewalctl find` runs:
    // what the text is (a number, "case 42", a uuid, an e-mail address) and each index probe.
    QSqlQuery q = execSql(db,
        u"SELECT kind, matched_by, subscription_id, billing_period_id, case_id, delivery_id, "
        "provider_key, provider_subscription_id, status, reason, renewal_key, event_id, "
        "rd_rfc3339(period_start) AS period_start, rd_rfc3339(period_end) AS period_end, "
        "rd_rfc3339(at) AS at, amount_minor, currency, attempts "
        "FROM public.find_anything(CAST(? AS text), ?)"_qs,
        {query.typed.isNull() ? query.text : query.typed, kMaxFound});

    QVector<FoundItem> found;
    while (q.next()) {
        const auto v = [&q](const char *column) { return q.value(QLatin1String(column)); };
        FoundItem item;
        const QString kind = v("kind").toString();
        item.subscriptionUuid = v("subscription_id").toString();
        item.billingPeriodId = v("billing_period_id").toString();
        const QString provider = v("provider_key").toString();
        const QString ref = v("provider_subscription_id").toString();
        item.matchedBy = matchedText(v("matched_by").toString());
        if (kind == u"subscription") {
            item.kind = FoundItem::Kind::Subscription;
            item.title = Tr::tr("Subscription %1").arg(ref);
            item.detail = Tr::tr("%1 · %2 · %3")
                              .arg(provider, v("status").toString(),
                                  periodText(v("period_start"), v("period_end")));
        } else if (kind == u"renewal") {
            item.kind = FoundItem::Kind::BillingPeriod;
            item.title = Tr::tr("Renewal %1").arg(v("renewal_key").toString());
            item.detail
                = Tr::tr("%1 · subscription %2 · %3 · %4")
                      .arg(provider, ref, periodText(v("period_start"), v("period_end")),
                          format::money(v("amount_minor").toLongLong(), v("currency").toString()));
        } else if (kind == u"failed_payment") {
            item.kind = FoundItem::Kind::Subscription;
            item.title = Tr::tr("Failed payment of %1").arg(v("renewal_key").toString());
            item.detail = Tr::tr("%1 · subscription %2 · %3 attempts, the last failed %4")
                              .arg(provider, ref, v("attempts").toString(),
                                  format::localDateTime(format::instant(v("at").toString())));
        } else if (kind == u"case") {
            item.kind = FoundItem::Kind::Case;
            item.caseId = v("case_id").toLongLong();
            item.title = Tr::tr("Case %1 · %2")
                             .arg(item.caseId)
                             .arg(format::humanize(v("reason").toString()));
            item.detail
                = Tr::tr("%1 · %2 · subscription %3 · renewal %4 · opened %5 ago")
                      .arg(v("status").toString(), provider, ref, v("renewal_key").toString(),
                          format::age(format::instant(v("at").toString())));
        } else {
            item.kind = FoundItem::Kind::Delivery;
            item.deliveryId = v("delivery_id").toLongLong();
            const QString outcome = v("status").toString();
            item.title = Tr::tr("Inbox delivery %1 · %2")
                             .arg(item.deliveryId)
                             .arg(outcome.isEmpty() ? Tr::tr("not processed yet")
                                                    : format::humanize(outcome));
            const QDateTime received = format::instant(v("at").toString());
            item.detail
                = Tr::tr("%1 · event %2 · received %3")
                      .arg(provider, v("event_id").toString(), format::localDateTime(received));
        }
        found << item;
    }
    return found;
}

} // namespace rd::ui
