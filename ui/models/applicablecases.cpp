#include "ui/models/applicablecases.h"

#include "ui/models/databasepool.h"
#include "ui/models/format.h"

#include <QSqlQuery>
#include <QVariant>

namespace rd::ui {

QVector<OpenReason> loadOpenReasons(QSqlDatabase &db)
{
    QVector<OpenReason> reasons;
    // reconciliation_cases_queue (status, ...): the open cases only.
    QSqlQuery q = execSql(db,
        u"SELECT error_code, count(*) FROM reconciliation_cases WHERE status = 'open' "
        "GROUP BY error_code ORDER BY count(*) DESC, error_code"_qs);
    while (q.next())
        reasons.push_back({q.value(0).toString(), q.value(1).toLongLong()});
    return reasons;
}

QVector<ApplicableCase> loadApplicableCases(QSqlDatabase &db, const QString &reason)
{
    QVector<ApplicableCase> cases;
    QSqlQuery q = execSql(db,
        u"SELECT c.id, c.provider_subscription_id, c.provider_renewal_key, "
        "coalesce(rd_rfc3339((c.event->'period'->>'start')::timestamptz), ''), "
        "coalesce(rd_rfc3339((c.event->'period'->>'end')::timestamptz), '') "
        "FROM reconciliation_cases c "
        "WHERE c.status = 'open' AND (?::text IS NULL OR c.error_code = ?::text) "
        "AND public.rd_case_is_applicable(c) "
        "ORDER BY c.first_seen_at, c.id"_qs,
        {reason.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(reason),
            reason.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(reason)});
    while (q.next()) {
        ApplicableCase c;
        c.caseId = q.value(0).toLongLong();
        c.subscription = q.value(1).toString();
        c.renewalKey = q.value(2).toString();
        c.periodStartMicros = format::micros(q.value(3).toString()).value_or(0);
        c.periodEndMicros = format::micros(q.value(4).toString()).value_or(0);
        cases.push_back(c);
    }
    return cases;
}

} // namespace rd::ui
