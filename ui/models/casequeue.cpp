#include "ui/models/casequeue.h"

#include "ui/models/applicablecases.h"
#include "ui/models/databasepool.h"
#include "ui/models/utcmidnight.h"

#include <QCoreApplication>
#include <QStringList>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::CaseQueue)
};

QString orderBy(CaseSort sort)
{
    // Each is one index read forwards or backwards within a status:
    // reconciliation_cases_queue (status, last_seen_at DESC, id) and
    // reconciliation_cases_by_age (status, first_seen_at, id) (migration 0012).
    switch (sort) {
    case CaseSort::LastSeenNewest:
        return u"c.last_seen_at DESC, c.id"_qs;
    case CaseSort::LastSeenOldest:
        return u"c.last_seen_at, c.id DESC"_qs;
    case CaseSort::OldestFirst:
        return u"c.first_seen_at, c.id"_qs;
    case CaseSort::NewestFirst:
        return u"c.first_seen_at DESC, c.id DESC"_qs;
    }
    return {};
}

/// The cases of one status in the queue's order, at most the queue's limit, narrowed by the
/// filter. Each range carries the filter's conditions, their values bound in the order they
/// appear (appended to `values`).
class StatusRanges
{
public:
    explicit StatusRanges(const CaseQueueFilter &filter) : m_filter(filter)
    {
        // A search keeps the cases whose subscription id contains the text (the trigram index
        // reconciliation_cases_id_contains, migration 0014): one bound value per status range.
        if (!filter.search.isEmpty()) {
            QString like = filter.search;
            like.replace(u'\\', u"\\\\"_qs).replace(u'%', u"\\%"_qs).replace(u'_', u"\\_"_qs);
            m_like = u'%' + like + u'%';
        }
    }

    QString range(const QString &status, const QString &condition = {})
    {
        const CaseQueueFilter &f = m_filter;
        // "Mine" and "Unassigned" of the open cases read reconciliation_cases_open_by_assignee
        // (assigned_to, last_seen_at DESC, id) WHERE status = 'open' (migration 0015); an age
        // bound is a range of reconciliation_cases_by_age (status, first_seen_at, id).
        QStringList conditions;
        if (!condition.isEmpty())
            conditions << condition;
        if (!m_like.isEmpty()) {
            conditions << u"c.provider_subscription_id LIKE ?"_qs;
            m_values << m_like;
        }
        if (f.assignee == CaseAssignee::Mine)
            conditions << u"c.assigned_to = session_user"_qs;
        else if (f.assignee == CaseAssignee::Unassigned)
            conditions << u"c.assigned_to IS NULL"_qs;
        if (!f.reason.isEmpty()) {
            conditions << u"c.error_code = ?"_qs;
            m_values << f.reason;
        }
        if (f.minAge >= 0) {
            conditions << u"c.first_seen_at <= now() - make_interval(secs => ?)"_qs;
            m_values << double(f.minAge);
        }
        if (f.maxAge >= 0) {
            conditions << u"c.first_seen_at > now() - make_interval(secs => ?)"_qs;
            m_values << double(f.maxAge);
        }
        // A UTC day as the Overview counts it: a range of reconciliation_cases_by_age, or of
        // reconciliation_cases_closed (resolved_at, migration 0018), which an open case is not
        // in.
        if (f.day.isValid()) {
            const QString at = f.dayClosed ? u"c.resolved_at"_qs : u"c.first_seen_at"_qs;
            conditions << at + u" >= CAST(? AS timestamptz) AND "_qs + at
                    + u" < CAST(? AS timestamptz)"_qs;
            m_values << utcMidnight(f.day) << utcMidnight(f.day.addDays(1));
        }
        return u"(SELECT * FROM reconciliation_cases c WHERE c.status = '%1'%2 ORDER BY %3 LIMIT %4)"_qs
            .arg(status,
                conditions.isEmpty() ? QString() : u" AND "_qs + conditions.join(u" AND "_qs),
                orderBy(f.sort))
            .arg(kCaseQueueLimit);
    }

    const QVariantList &values() const { return m_values; }

private:
    const CaseQueueFilter &m_filter;
    QString m_like;
    QVariantList m_values;
};

} // namespace

CaseQueue loadCaseQueue(QSqlDatabase &db, const CaseQueueFilter &filter)
{
    StatusRanges ranges(filter);
    QString cases;
    switch (filter.scope) {
    case CaseScope::Open:
        cases = ranges.range(u"open"_qs);
        break;
    case CaseScope::HealedAutomatically:
        cases = ranges.range(u"resolved"_qs, u"c.resolved_by = 'system'"_qs);
        break;
    case CaseScope::Resolved:
        cases = ranges.range(u"resolved"_qs);
        break;
    case CaseScope::Dismissed:
        cases = ranges.range(u"dismissed"_qs);
        break;
    case CaseScope::All:
        // No index orders every status at once: each status's first rows in the order (one
        // index range each), merged.
        // (One statement each: the ranges bind their values in the order they are built.)
        cases = ranges.range(u"open"_qs);
        cases += u" UNION ALL "_qs + ranges.range(u"resolved"_qs);
        cases += u" UNION ALL "_qs + ranges.range(u"dismissed"_qs);
        break;
    }
    CaseQueue q;
    QSqlQuery rows = execSql(db,
        caseRowSelect() + u" FROM ("_qs + cases + u") c ORDER BY "_qs + orderBy(filter.sort)
            + u" LIMIT "_qs + QString::number(kCaseQueueLimit),
        ranges.values());
    readRows(rows, caseRowStorage(), q.cells);
    QSqlQuery meta = execSql(db,
        u"SELECT (SELECT count(*) FROM reconciliation_cases WHERE status = 'open'), "
        "coalesce(pg_has_role(session_user, to_regrole('renewal_operator')::oid, 'MEMBER'), "
        "has_table_privilege('reconciliation_cases', 'UPDATE')), session_user::text, "
        "pg_is_in_recovery()"_qs);
    if (meta.next()) {
        q.openCount = meta.value(0).toInt();
        q.sessionUser = meta.value(2).toString();
        // A hot standby writes nothing, whatever the role may do on the primary.
        q.onReplica = meta.value(3).toBool();
        q.canOperate = meta.value(1).toBool() && !q.onReplica;
    }
    for (const OpenReason &r : loadOpenReasons(db))
        q.reasons.push_back({r.code, r.open});
    return q;
}

QString caseCountText(qsizetype n)
{
    return n == 1 ? Tr::tr("1 case") : Tr::tr("%1 cases").arg(n);
}

QString ageBoundText(qint64 secs)
{
    constexpr qint64 hour = 3600, day = 24 * hour, week = 7 * day;
    // Plurals in code: the desk ships no translations, and "1 day(s)" reads badly.
    if (secs >= week && secs % week == 0)
        return secs == week ? Tr::tr("1 week") : Tr::tr("%1 weeks").arg(secs / week);
    if (secs >= day && secs % day == 0)
        return secs == day ? Tr::tr("1 day") : Tr::tr("%1 days").arg(secs / day);
    if (secs >= hour && secs % hour == 0)
        return Tr::tr("%1 h").arg(secs / hour);
    if (secs >= 60 && secs % 60 == 0)
        return Tr::tr("%1 min").arg(secs / 60);
    return Tr::tr("%1 s").arg(secs);
}

} // namespace rd::ui
