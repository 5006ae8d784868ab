#pragma once

#include "ui/actions/actionresult.h"

#include "domain/store/statement_run.h"

#include <QFuture>
#include <QString>
#include <QStringList>

#include <string>

namespace rd::ui {

/// A provider statement to import from the desk: the files the person picked, and the days it
/// covers when given (empty: the statement's own first and last paid day).
struct StatementImportRequest
{
    QString providerKey;
    QStringList files;
    QString from; ///< "YYYY-MM-DD" or empty
    QString to; ///< "YYYY-MM-DD" or empty
    bool dryRun = true;
};

/// How it went: Done, "imported" (the run was kept or, dry, would be) or "already_imported"
/// (this very statement was imported before: nothing changed), with `summary` in several
/// lines (the counts, both sides' totals, the open cases); Refused when the database or the
/// files refused it; Failed when it could not run.
struct StatementImportResult : ActionResult
{
    bool dryRun = true;
    qint64 runId = 0;
    qint64 openCases = 0;

    /// The run was kept now (not dry, not imported before).
    bool kept() const { return kind == Kind::Done && code == u"imported" && !dryRun; }
};

/// The import's report for the desk (rd::describeStatementImport's, line for line) in the desk's
/// language: in English word for word the CLI's (tst_ui_translations keeps them alike). Amounts
/// stay as the CLI writes them, in each currency's code and decimals.
QString statementImportText(const rd::StatementImportResult &result);

/// Reads the files and imports them through rd::OperatorSession as the conninfo's login role,
/// synchronously on the calling thread (never throws).
StatementImportResult importStatement(
    const std::string &conninfo, const StatementImportRequest &request);

/// The same off the GUI thread, with a connection of its own.
QFuture<StatementImportResult> importStatementAsync(
    const QString &conninfo, const StatementImportRequest &request);

} // namespace rd::ui
