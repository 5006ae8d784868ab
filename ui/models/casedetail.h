#pragma once

#include "ui/models/casehistory.h"
#include "ui/models/caserow.h"

#include <QSqlDatabase>
#include <QVariant>
#include <QVector>

namespace rd::ui {

/// One case as it now is, and every step of its history, read in one snapshot.
struct CaseDetail
{
    qint64 id = 0;
    QVector<QVariant> row; ///< CaseRow::FieldCount values; empty when the case does not exist
    QVector<CaseHistoryStep> steps; ///< oldest first (caseHistoryCells puts them in words)
};

/// Case `caseId` and its history. Read-only; throws rd::DatabaseFailure.
CaseDetail loadCaseDetail(QSqlDatabase &db, qint64 caseId);

} // namespace rd::ui
