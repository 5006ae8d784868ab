#pragma once

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

/// How it went, in words for the person at the desk.
struct StatementImportReport
{
    enum class Kind {
        Imported, ///< the run was kept (or, dry, would be): `text` says what it found
        AlreadyImported, ///< this very statement was imported before: nothing changed
        Refused, ///< the database or the files refused it: `text` says why
        Failed, ///< it could not run (database unreachable, ...): `text` is the error
    };
    Kind kind = Kind::Failed;
    bool dryRun = true;
    qint64 runId = 0;
    qint64 openCases = 0;
    QString text; ///< several lines: the counts, both sides' totals, the open cases
};

/// Reads the files and imports them through rd::OperatorSession as the conninfo's login role,
/// synchronously on the calling thread (never throws).
StatementImportReport importStatement(
    const std::string &conninfo, const StatementImportRequest &request);

/// The same off the GUI thread, with a connection of its own.
QFuture<StatementImportReport> importStatementAsync(
    const QString &conninfo, const StatementImportRequest &request);

} // namespace rd::ui
