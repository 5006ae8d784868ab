#pragma once

#include "ui/actions/actionresult.h"

#include <nlohmann/json.hpp>

#include <QDate>
#include <QFuture>
#include <QList>
#include <QString>
#include <QStringList>

#include <string>

class QSqlDatabase;

namespace rd::ui {

/// Whether a provider's month can be closed now (migration 0031's month_close_refusal).
struct MonthCloseState
{
    bool closed = false; ///< closed already: its report can be written again
    QString refusal; ///< why it cannot be closed now, in the desk's words; empty when it can
    /// The cases the refusal names (open statement cases, the first few), for the dialog's
    /// "Open case N": the user goes from the sentence to the case.
    QList<qint64> caseIds;
};

/// Why a month cannot be closed (month_close_refusal_reason's JSON: {"code", ...}) in the desk's
/// language: in English word for word month_close_refusal's sentence; empty for a code this
/// build does not know (the caller then shows the database's sentence).
QString monthCloseRefusalText(const nlohmann::json &reason);

/// The registered providers' keys, sorted (a pool thread; rd::DatabaseFailure).
QStringList loadProviderKeys(QSqlDatabase &db);
/// Whether `provider`'s `month` (any day of it) can be closed, and if not why (a pool thread;
/// rd::DatabaseFailure).
MonthCloseState loadMonthCloseState(QSqlDatabase &db, const QString &provider, const QDate &month);
/// The closed month's report (month_close_report): null when it is not closed (a pool thread;
/// rd::DatabaseFailure).
nlohmann::json loadMonthCloseReport(QSqlDatabase &db, const QString &provider, const QDate &month);

/// How closing ended: Done ("closed") with the report, Refused (the database's sentence) or
/// Failed (the error).
struct MonthCloseResult : ActionResult
{
    nlohmann::json report; ///< Done: the report (month_close_report)
};

/// Closes the month as the conninfo's login role (the store's OperatorSession, its own
/// connection), then reads its report. Blocking: call it on a pool thread. Never throws.
MonthCloseResult closeMonthAs(
    const std::string &conninfo, const QString &provider, const QDate &month);
/// The same off the GUI thread, on a connection of its own.
QFuture<MonthCloseResult> closeMonthAsync(
    const QString &conninfo, const QString &provider, const QDate &month);

/// The report as HTML for QTextDocument: the provider, the month, who closed and when, the
/// runs and their digests, the totals per currency on both sides (in each currency's
/// decimals), the counts, every finding other than matched with its case's resolution, and
/// the audit anchor's digest.
QString closeReportHtml(const nlohmann::json &report);
/// The line at the foot of each page of the PDF: "stripe-main 2026-02 month close, page 1 of 3".
QString closeReportPageFooter(const nlohmann::json &report, int page, int pages);
/// Writes the report as an A4 PDF (QPdfWriter) to `path`, each page with its footer
/// (closeReportPageFooter) and the sign-off block (prepared by, reviewed by, date) at the end;
/// `pages`, when given, is set to the number of pages. False with `error` set otherwise.
bool writeCloseReportPdf(
    const nlohmann::json &report, const QString &path, QString *error, int *pages = nullptr);
/// Writes the report's CSV (domain/core/close_report.h) to `path`; false with `error` set.
bool writeCloseReportCsv(const nlohmann::json &report, const QString &path, QString *error);

} // namespace rd::ui
