#include "ui/models/casedetail.h"

#include "ui/models/databasepool.h"
#include "ui/models/format.h"

namespace rd::ui {

CaseDetail loadCaseDetail(QSqlDatabase &db, qint64 caseId)
{
    CaseDetail d;
    d.id = caseId;
    // One snapshot for the case and its history.
    execDirect(db, u"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"_qs);
    struct Rollback
    {
        QSqlDatabase &db;
        ~Rollback() { QSqlQuery(db).exec(u"ROLLBACK"_qs); }
    } rollback {db};
    QSqlQuery row = execSql(
        db, caseRowSelect() + u" FROM reconciliation_cases c WHERE c.id = ?"_qs, {caseId});
    readRows(row, caseRowStorage(), d.row);
    // reconciliation_case_history_chain (case_id, chain_seq).
    QSqlQuery h = execSql(db,
        u"SELECT h.chain_seq, rd_rfc3339(h.created_at), h.action, h.outcome, "
        "coalesce(h.error_code, ''), h.actor, coalesce(h.reason, ''), coalesce(h.comment, ''), "
        "coalesce(h.details->>'snapshotId', h.details->>'afterSnapshot', ''), "
        "coalesce(h.details->>'automatic', '') = 'true', "
        "coalesce(h.details->>'takenFrom', h.details->>'releasedFrom', ''), "
        "coalesce(rd_case_step_recorded_by(c, h), ''), coalesce(h.details->>'why', ''), "
        "coalesce(h.details->>'renewalFromCase', '') = 'true' "
        "FROM reconciliation_case_history h JOIN reconciliation_cases c ON c.id = h.case_id "
        "WHERE h.case_id = ? ORDER BY h.chain_seq"_qs,
        {caseId});
    while (h.next()) {
        CaseHistoryStep s;
        s.seq = h.value(0).toLongLong();
        if (const auto at = format::micros(h.value(1).toString()))
            s.at = *at;
        s.action = h.value(2).toString();
        s.outcome = h.value(3).toString();
        s.errorCode = h.value(4).toString();
        s.role = h.value(5).toString();
        s.reason = h.value(6).toString();
        s.comment = h.value(7).toString();
        s.snapshotId = h.value(8).toString();
        s.automatic = h.value(9).toBool();
        s.otherRole = h.value(10).toString();
        s.recordedBy = h.value(11).toString();
        s.why = h.value(12).toString();
        s.renewalFromSnapshot = h.value(13).toBool();
        d.steps << s;
    }
    return d;
}

} // namespace rd::ui
