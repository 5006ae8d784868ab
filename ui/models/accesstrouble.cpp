#include "ui/models/accesstrouble.h"

#include "ui/models/databasepool.h"
#include "ui/models/format.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlQuery>

namespace rd::ui::access {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::AccessTrouble)
};

/// A text parameter, "" for "any" (every provider, every verdict): the SQL tests it with
/// NULLIF, as a bound null QString may reach the server as ''.
QVariant anyOr(const QString &text)
{
    return text.isNull() ? u""_qs : text;
}

QString dayOf(const QString &rfc3339)
{
    return format::localDate(format::instant(rfc3339));
}

} // namespace

const QVector<Field> &fields()
{
    static const QVector<Field> kFields {Field::Text, Field::Interned, Field::Text, Field::Interned,
        Field::Interned, Field::Micros, Field::Micros, Field::Int, Field::Interned, Field::Text,
        Field::Int, Field::Micros, Field::Interned};
    return kFields;
}

TroubleList loadTrouble(QSqlDatabase &db, Show show, const QString &provider, const QString &search)
{
    TroubleList list;
    {
        QSqlQuery q = execSql(db, u"SELECT rd_rfc3339(now())"_qs);
        if (q.next())
            list.readAt = format::instant(q.value(0).toString());
        QSqlQuery p = execSql(
            db, u"SELECT provider_key FROM public.billing_providers ORDER BY provider_key"_qs);
        while (p.next())
            list.providers << p.value(0).toString();
    }
    const QVariant providerKey = anyOr(provider);
    const QVariant like = anyOr(search.trimmed().toLower());
    if (show == Show::Recovered) {
        // The changes recorded this UTC month (access_transitions_by_time) that are the
        // subscription's last (access_verdicts names it) and end a trouble. Its attempts: those
        // failed after the payment before the one that recovered it (paid at the verdict's
        // since), up to the recovery.
        QSqlQuery q = execSql(db,
            u"SELECT s.id::text, s.provider_key, s.provider_subscription_id, t.verdict, "
            "t.previous_verdict, rd_rfc3339(t.since), NULL::text, NULL::bigint, t.source, "
            "t.reason, a.attempts, rd_rfc3339(a.last_failed_at), coalesce(a.decline_code, '') "
            "FROM public.access_transitions t "
            "JOIN public.access_verdicts v ON v.transition_id = t.id "
            "JOIN public.subscriptions s ON s.id = t.subscription_id "
            "CROSS JOIN LATERAL (SELECT count(*) AS attempts, max(x.failed_at) AS last_failed_at, "
            "(array_agg(x.decline_code ORDER BY x.failed_at DESC, x.attempt DESC))[1] "
            "AS decline_code FROM public.payment_attempts x WHERE x.subscription_id = s.id "
            "AND x.failed_at <= t.created_at "
            "AND x.failed_at > coalesce((SELECT max(b.paid_at) "
            "FROM public.subscription_billing_periods b WHERE b.subscription_id = s.id "
            "AND b.paid_at < t.since), '-infinity')) a "
            "WHERE t.created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE "
            "'UTC' AND t.verdict = 'good_standing' "
            "AND t.previous_verdict IN ('in_grace', 'blocked') "
            "AND (NULLIF(CAST(? AS text), '') IS NULL OR s.provider_key = CAST(? AS text)) "
            "AND (NULLIF(CAST(? AS text), '') IS NULL OR strpos(lower(s.provider_subscription_id), "
            "CAST(? AS text)) > 0 OR strpos(s.id::text, CAST(? AS text)) > 0) "
            "ORDER BY t.created_at DESC, t.id DESC LIMIT ?"_qs,
            {providerKey, providerKey, like, like, like, kMaxRows});
        list.rows = readRows(q, fields(), list.cells);
        return list;
    }
    const QVariant verdict = show == Show::InGrace ? QVariant(u"in_grace"_qs)
        : show == Show::Blocked                    ? QVariant(u"blocked"_qs)
                                                   : anyOr({});
    // Blocked first (access is off: someone may have to act), then the graces that end soonest.
    QSqlQuery q = execSql(db,
        u"SELECT t.subscription_id::text, t.provider_key, t.provider_subscription_id, t.verdict, "
        "'', rd_rfc3339(t.since), rd_rfc3339(t.until), "
        "floor(extract(epoch FROM t.until - now()))::bigint, t.source, t.reason, t.attempts, "
        "rd_rfc3339(t.last_failed_at), coalesce(t.decline_code, '') "
        "FROM public.access_trouble(now(), NULLIF(CAST(? AS text), ''), ?) t "
        "WHERE (NULLIF(CAST(? AS text), '') IS NULL OR t.verdict = CAST(? AS text)) "
        "AND (NULLIF(CAST(? AS text), '') IS NULL OR strpos(lower(t.provider_subscription_id), "
        "CAST(? AS text)) > 0 OR strpos(t.subscription_id::text, CAST(? AS text)) > 0) "
        "ORDER BY t.verdict = 'blocked' DESC, t.until NULLS LAST, t.since, "
        "t.provider_subscription_id"_qs,
        {providerKey, kMaxRows, verdict, verdict, like, like, like});
    list.rows = readRows(q, fields(), list.cells);
    list.truncated = show == Show::Trouble && list.rows >= kMaxRows;
    return list;
}

TroubleCounts loadTroubleCounts(QSqlDatabase &db)
{
    QSqlQuery q = execSql(db,
        u"SELECT count(*) FILTER (WHERE verdict = 'in_grace'), "
        "count(*) FILTER (WHERE verdict = 'blocked') "
        "FROM public.access_trouble(now(), NULL, 2147483647)"_qs);
    TroubleCounts counts;
    if (q.next()) {
        counts.inGrace = q.value(0).toLongLong();
        counts.blocked = q.value(1).toLongLong();
    }
    return counts;
}

QString reasonText(const QString &reason)
{
    static const QRegularExpression instant(
        u"\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z"_qs);
    QString out;
    qsizetype from = 0;
    for (auto it = instant.globalMatch(reason); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += reason.mid(from, m.capturedStart() - from);
        out += format::localDateTime(format::instant(m.captured()));
        from = m.capturedEnd();
    }
    return out + reason.mid(from);
}

QString verdictText(const QString &verdict)
{
    if (verdict == u"in_grace")
        return Tr::tr("in grace");
    if (verdict == u"blocked")
        return Tr::tr("blocked");
    if (verdict == u"good_standing")
        return Tr::tr("good standing");
    if (verdict == u"ended")
        return Tr::tr("ended");
    return format::humanize(verdict);
}

QString sourceText(const QString &source)
{
    if (source == u"provider")
        return Tr::tr("provider");
    if (source == u"policy")
        return Tr::tr("local policy");
    if (source == u"operator")
        return Tr::tr("operator");
    return source;
}

QString timeLeftText(qint64 secondsLeft)
{
    if (secondsLeft <= 0)
        return Tr::tr("ended");
    const qint64 days = secondsLeft / 86400;
    const qint64 hours = (secondsLeft % 86400) / 3600;
    if (days >= 1)
        return days == 1 ? Tr::tr("1 day %1 h left").arg(hours)
                         : Tr::tr("%1 days %2 h left").arg(days).arg(hours);
    if (secondsLeft >= 3600)
        return Tr::tr("%1 h left").arg(secondsLeft / 3600);
    return Tr::tr("%1 min left").arg(std::max<qint64>(1, secondsLeft / 60));
}

QString accessLine(const SubscriptionAccess &a)
{
    if (a.verdict.isEmpty() || a.verdict == u"good_standing")
        return {};
    if (a.until.isValid())
        return Tr::tr("Access: %1 until %2 (%3)")
            .arg(verdictText(a.verdict), format::localDateTime(a.until), sourceText(a.source));
    return Tr::tr("Access: %1 since %2 (%3)")
        .arg(verdictText(a.verdict), format::localDateTime(a.since), sourceText(a.source));
}

QString auditSummary(const QString &transition, const QString &detailsJson, const QString &reason,
    const QString &comment)
{
    const QJsonObject d = QJsonDocument::fromJson(detailsJson.toUtf8()).object();
    const auto text = [&d](const char *key) { return d.value(QLatin1String(key)).toString(); };
    if (transition == u"payment_failed") {
        QString s = Tr::tr("Payment failed: attempt %1 of %2")
                        .arg(d.value(u"attempt"_qs).toInteger())
                        .arg(text("invoiceKey"));
        const QString decline = text("declineCode").isEmpty() ? reason : text("declineCode");
        if (!decline.isEmpty())
            s += u" ("_qs + decline + u')';
        if (!text("nextAttemptAt").isEmpty())
            s += Tr::tr(", next attempt %1").arg(dayOf(text("nextAttemptAt")));
        else
            s += Tr::tr(", no further attempt announced");
        return s;
    }
    if (transition == u"provider_standing") {
        QString s = Tr::tr("Provider's standing: %1").arg(format::humanize(text("standing")));
        if (!reason.isEmpty())
            s += u" ("_qs + format::humanize(reason) + u')';
        return s;
    }
    if (transition == u"access_extended") {
        QString s = Tr::tr("Grace extended until %1").arg(dayOf(text("until")));
        if (!comment.isEmpty())
            s += u": "_qs + comment;
        return s;
    }
    if (transition == u"access_changed") {
        const QString verdict = text("verdict");
        const QString source = sourceText(text("source"));
        if (verdict == u"good_standing")
            return Tr::tr("Access: good standing again (was %1)")
                .arg(verdictText(text("previousVerdict")));
        if (!text("until").isEmpty())
            return Tr::tr("Access: %1 until %2 (%3)")
                .arg(verdictText(verdict), dayOf(text("until")), source);
        return Tr::tr("Access: %1 (%2)").arg(verdictText(verdict), source);
    }
    return {};
}

} // namespace rd::ui::access
