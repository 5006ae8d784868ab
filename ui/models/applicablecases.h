#pragma once

#include <QMetaType>
#include <QSqlDatabase>
#include <QString>
#include <QVector>

namespace rd::ui {

/// The open cases of one reason, and how many of them a re-apply would apply now.
struct OpenReason
{
    QString code; ///< reconciliation_cases.error_code
    qint64 open = 0;
};

/// An open case whose renewal the core would apply if it were re-applied now.
struct ApplicableCase
{
    qint64 caseId = 0;
    QString subscription; ///< the provider's subscription id
    QString renewalKey;
    qint64 periodStartMicros = 0;
    qint64 periodEndMicros = 0;
};

/// The reasons of the open cases, most cases first. Read-only.
QVector<OpenReason> loadOpenReasons(QSqlDatabase &db);

/// The open cases of `reason` (any reason when empty) that are applicable now, oldest first.
///
/// "Applicable now" is the renewal core's own verdict on the case's renewal against the
/// subscription as it is at this moment (rd_case_is_applicable, migration 0007, over
/// rd_renewal_verdict, the function apply_successful_renewal judges with): a period that did
/// not continue the current one now does; a subscription that was not active, had no current
/// period, or was scheduled to cancel no longer is; a subscription that was not found now
/// exists. A renewal already recorded is not counted (re-applying resolves its case as
/// "already recorded", not as applied). The query takes no lock and writes nothing; the run
/// re-judges each case in the core, which refuses whatever changed in between.
QVector<ApplicableCase> loadApplicableCases(QSqlDatabase &db, const QString &reason);

} // namespace rd::ui

Q_DECLARE_METATYPE(rd::ui::ApplicableCase)
