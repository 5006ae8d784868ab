#include "ui/models/casedetail.h"

#include "ui/models/databasepool.h"
#include "ui/models/format.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace rd::ui {
namespace {

/// A value of case_detail's JSON as text: "" when missing or null, a number as its digits
/// (as ->> gives it).
QString textOf(const QJsonObject &o, const QString &key)
{
    const QJsonValue v = o.value(key);
    return v.isNull() || v.isUndefined() ? QString() : v.toVariant().toString();
}

/// The first of `keys` that `o` has a value for, as text.
QString firstTextOf(const QJsonObject &o, std::initializer_list<QString> keys)
{
    for (const QString &key : keys) {
        const QString text = textOf(o, key);
        if (!text.isEmpty())
            return text;
    }
    return {};
}

CaseHistoryStep stepOf(const QJsonObject &h)
{
    const QJsonObject details = h.value(u"details"_qs).toObject();
    CaseHistoryStep s;
    s.seq = h.value(u"seq"_qs).toVariant().toLongLong();
    if (const auto at = format::micros(textOf(h, u"at"_qs)))
        s.at = *at;
    s.action = textOf(h, u"action"_qs);
    s.outcome = textOf(h, u"outcome"_qs);
    s.errorCode = textOf(h, u"error"_qs);
    s.role = textOf(h, u"actor"_qs);
    s.reason = textOf(h, u"reason"_qs);
    s.comment = textOf(h, u"comment"_qs);
    s.snapshotId = firstTextOf(details, {u"snapshotId"_qs, u"afterSnapshot"_qs});
    s.automatic = textOf(details, u"automatic"_qs) == u"true";
    s.otherRole = firstTextOf(details, {u"takenFrom"_qs, u"releasedFrom"_qs});
    s.recordedBy = textOf(h, u"recordedBy"_qs);
    s.why = textOf(details, u"why"_qs);
    s.renewalFromSnapshot = textOf(details, u"renewalFromCase"_qs) == u"true";
    return s;
}

} // namespace

CaseDetail loadCaseDetail(QSqlDatabase &db, qint64 caseId)
{
    CaseDetail d;
    d.id = caseId;
    // One statement, one snapshot: the case's row as the queue lists it, and its history as
    // case_detail (migrations/functions/case_detail.sql) gives it to every program.
    QVector<Field> storage = caseRowStorage();
    storage << Field::Text;
    QSqlQuery q = execSql(db,
        caseRowSelect()
            + u", (public.case_detail(c.id)->'history')::text FROM reconciliation_cases c "
              "WHERE c.id = ?"_qs,
        {caseId});
    QVector<QVariant> cells;
    if (readRows(q, storage, cells) != 1)
        return d;
    const QJsonArray history
        = QJsonDocument::fromJson(cells.takeLast().toString().toUtf8()).array();
    d.row = std::move(cells);
    for (const QJsonValue &step : history)
        d.steps << stepOf(step.toObject());
    return d;
}

} // namespace rd::ui
