#pragma once

#include "ui/actions/monthclose.h"
#include "ui/models/asyncresult.h"

#include <QDialog>

class QComboBox;
class QDateEdit;
class QLabel;
class QPushButton;

namespace rd::ui {

class DatabasePool;

/// Ledger › Close month…: pick a provider and a month; the dialog says whether the month can
/// be closed and, if not, why (the database's own sentence). Closing is the database's
/// close_month as the desk's login role; then the close report is written as PDF and CSV
/// (the same name, .pdf and .csv). A month closed already can have its report written again.
class CloseMonthDialog : public QDialog
{
    Q_OBJECT

public:
    explicit CloseMonthDialog(DatabasePool *pool, QWidget *parent = nullptr);

    QComboBox *providerBox() const { return m_provider; }
    QDateEdit *monthEdit() const { return m_month; }
    QPushButton *closeButton() const { return m_close; }
    QPushButton *reportButton() const { return m_report; }
    /// "Open case N": shown when the refusal names a case.
    QPushButton *openCaseButton() const { return m_openCase; }
    /// The provider and month to show first: the ones in view where the dialog was opened
    /// (the Ledger's provider filter, its month). An empty provider or an invalid month keeps
    /// the dialog's default (the first provider, last month); a provider that is not
    /// registered keeps it too. Asks the database again (check()) once the providers are read.
    void showFor(const QString &provider, const QDate &month);
    QString stateText() const;
    const MonthCloseState &state() const { return m_state; }
    /// Where the report goes (its .pdf; the .csv beside it) without asking: tests, scripts.
    void setReportPath(const QString &pdfPath) { m_reportPath = pdfPath; }
    /// Asks the database again whether the chosen month can be closed.
    void check();
    /// Closes the chosen month, then writes the report.
    void closeMonth();
    /// Writes the chosen (closed) month's report.
    void writeReport();

signals:
    void stateLoaded();
    /// A month was closed (the ledger and the overview may read again).
    void monthClosed();
    /// The report was written (`pdfPath`, and its .csv), or could not be (`error`).
    void reportWritten(const QString &pdfPath, const QString &error);
    /// The user asked to open a case the refusal names.
    void caseOpenRequested(qint64 caseId);

private:
    void saveReport(const nlohmann::json &report);

    DatabasePool *m_pool;
    QComboBox *m_provider;
    QDateEdit *m_month;
    QLabel *m_stateLabel;
    QPushButton *m_close;
    QPushButton *m_report;
    QPushButton *m_openCase;
    QString m_wantedProvider; ///< showFor's, until the providers have been read
    MonthCloseState m_state;
    QString m_reportPath;
    LatestRequest m_checkRequest;
};

} // namespace rd::ui
