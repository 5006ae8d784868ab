#pragma once

#include <QDate>
#include <QDateTime>
#include <QString>
#include <QVector>

class QSqlDatabase;

namespace rd::ui {

/// One finished statement run (migration 0029), as the Statements dialog lists it.
struct StatementRunRow
{
    qint64 id = 0;
    QString provider;
    QDate from; ///< UTC days, both included
    QDate to;
    QString importedBy;
    QDateTime finishedAt;
    qint64 renewals = 0;
    qint64 matched = 0;
    qint64 backfilled = 0;
    qint64 unapplied = 0;
    qint64 differing = 0;
    qint64 notInStatement = 0;
    qint64 openCases = 0; ///< open when the run finished
    /// Its money back (#40, migration 0052): the movements it lists, and the recorded ones it
    /// lacks (looked for only when every money back list is there). The renewal counts above
    /// leave them out.
    qint64 moneyBack = 0;
    qint64 moneyBackNotInStatement = 0;
};

/// One line of a run: its finding, and the case it opened or linked with that case's status
/// now.
struct StatementFindingRow
{
    qint64 line = 0;
    QString renewalKey;
    QString subscription; ///< the provider's subscription id
    QString subscriptionUuid; ///< the desk's, when the subscription is known here
    QString finding; ///< matched, backfilled, unapplied, differing, not_in_statement
    /// A money back line's movement kind (refund, chargeback, ...); empty for a renewal's. Its
    /// renewalKey is then the movement's key.
    QString moneyBack;
    qint64 caseId = 0; ///< 0: none
    QString caseStatus; ///< open, resolved, dismissed
    QString billingPeriodId;
};

/// The most findings the dialog reads of one run: those with a case first.
inline constexpr int kStatementFindingLimit = 5000;

/// The most runs the dialog lists.
inline constexpr int kStatementRunLimit = 500;

/// The finished runs, newest first, at most `limit` (a pool thread; rd::DatabaseFailure).
QVector<StatementRunRow> loadStatementRuns(QSqlDatabase &db, int limit = kStatementRunLimit);
/// Run `runId`'s findings: those with a case first (open ones before closed ones), then by line;
/// at most kStatementFindingLimit (a pool thread; rd::DatabaseFailure).
QVector<StatementFindingRow> loadStatementFindings(QSqlDatabase &db, qint64 runId);

} // namespace rd::ui
