#include "ui/models/statementruns.h"

#include "ui/models/databasepool.h"
#include "ui/models/format.h"

namespace rd::ui {

QVector<StatementRunRow> loadStatementRuns(QSqlDatabase &db, int limit)
{
    QSqlQuery q = execSql(db,
        u"SELECT r.id, r.provider_key, r.covers_from::text, r.covers_to::text, r.imported_by, "
        "rd_rfc3339(r.finished_at), r.renewals, r.matched, r.backfilled, r.unapplied, "
        "r.differing, r.not_in_statement, r.open_cases, "
        "coalesce((r.money_back->>'lines')::bigint, 0), "
        "coalesce((r.money_back->>'notInStatement')::bigint, 0) FROM public.statement_runs r "
        "WHERE r.finished_at IS NOT NULL ORDER BY r.id DESC LIMIT ?"_qs,
        {limit});
    QVector<StatementRunRow> rows;
    while (q.next()) {
        StatementRunRow r;
        r.id = q.value(0).toLongLong();
        r.provider = q.value(1).toString();
        r.from = QDate::fromString(q.value(2).toString(), Qt::ISODate);
        r.to = QDate::fromString(q.value(3).toString(), Qt::ISODate);
        r.importedBy = q.value(4).toString();
        r.finishedAt = format::instant(q.value(5).toString());
        r.renewals = q.value(6).toLongLong();
        r.matched = q.value(7).toLongLong();
        r.backfilled = q.value(8).toLongLong();
        r.unapplied = q.value(9).toLongLong();
        r.differing = q.value(10).toLongLong();
        r.notInStatement = q.value(11).toLongLong();
        r.openCases = q.value(12).toLongLong();
        r.moneyBack = q.value(13).toLongLong();
        r.moneyBackNotInStatement = q.value(14).toLongLong();
        rows << r;
    }
    return rows;
}

QVector<StatementFindingRow> loadStatementFindings(QSqlDatabase &db, qint64 runId)
{
    // statement_lines' primary key (run_id, line_no) reads the run; its lines' cases and
    // billing periods by their primary keys.
    QSqlQuery q = execSql(db,
        u"SELECT l.line_no, l.provider_renewal_key, "
        "coalesce(l.event->>'providerSubscriptionId', s.provider_subscription_id), "
        "coalesce(s.id, s2.id)::text, l.finding, l.case_id, c.status, l.billing_period_id::text, "
        "CASE WHEN l.money_back THEN coalesce(l.event->'movements'->0->>'kind', mm.kind) END "
        "FROM public.statement_lines l "
        "LEFT JOIN public.money_movements mm ON mm.id = l.money_movement_id "
        "LEFT JOIN public.subscription_billing_periods b ON b.id = l.billing_period_id "
        "LEFT JOIN public.subscriptions s ON s.id = b.subscription_id "
        "LEFT JOIN public.statement_runs r ON r.id = l.run_id "
        "LEFT JOIN public.subscriptions s2 ON s2.provider_key = r.provider_key "
        "AND s2.provider_subscription_id = l.event->>'providerSubscriptionId' "
        "LEFT JOIN public.reconciliation_cases c ON c.id = l.case_id "
        "WHERE l.run_id = ? "
        "ORDER BY l.case_id IS NULL, c.status = 'open' DESC, l.line_no LIMIT ?"_qs,
        {runId, kStatementFindingLimit});
    QVector<StatementFindingRow> rows;
    while (q.next()) {
        StatementFindingRow r;
        r.line = q.value(0).toLongLong();
        r.renewalKey = q.value(1).toString();
        r.subscription = q.value(2).toString();
        r.subscriptionUuid = q.value(3).toString();
        r.finding = q.value(4).toString();
        r.caseId = q.value(5).toLongLong();
        r.caseStatus = q.value(6).toString();
        r.billingPeriodId = q.value(7).toString();
        r.moneyBack = q.value(8).toString();
        rows << r;
    }
    return rows;
}

} // namespace rd::ui
