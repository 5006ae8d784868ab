#pragma once

#include "ui/models/records.h"

#include <QString>
#include <QVector>

namespace rd::ui {

/// A reconciliation case as the Cases page lists it and shows it: one flat row of these values
/// (the queue's rows, and the case the detail panel shows), read by loadCaseQueue and
/// loadCaseDetail alike.
struct CaseRow
{
    enum Field {
        Id,
        ErrorCode,
        Provider,
        SubscriptionRef,
        RenewalKey,
        FirstSeen,
        LastSeen,
        Occurrences,
        SubscriptionUuid,
        EventPretty,
        EventJson,
        LocalStateJson,
        FirstEvent,
        LastEvent,
        Status, ///< "open", "re-applied automatically", "dismissed by bob", ...
        IsOpen,
        AssignedTo, ///< the login role that claimed the case; "" when unassigned
        AssignedAt, ///< µs; null when unassigned
        IsDismissed, ///< Reopen… takes Dismiss's place
        /// Of a dismissed case, why reopen_case would refuse it now (rd_case_reopen_refusal,
        /// the database's own rule); "" when it would succeed, or the case is not dismissed
        ReopenRefusal,
        FieldCount
    };
};

/// "SELECT <a case's row over c>": the columns of CaseRow over `c`, a reconciliation_cases row.
const QString &caseRowSelect();
/// How each of those columns is stored (rd::ui::Field, for readRows).
const QVector<Field> &caseRowStorage();

} // namespace rd::ui
