#pragma once

#include <QDialog>

class QLabel;
class QProgressBar;
class QPushButton;

namespace rd::ui {

class BulkCaseRun;
class TableView;

/// A bulk run as it goes: the progress, every case's result as it comes (applied / still
/// refused with the reason / refused / error), Cancel (stops after the case in flight) and,
/// once finished, what came of it in one line. The dialog does not block the desk.
class BulkCaseDialog : public QDialog
{
    Q_OBJECT

public:
    BulkCaseDialog(BulkCaseRun *run, const QString &title, QWidget *parent = nullptr);

    BulkCaseRun *run() const { return m_run; }
    TableView *resultsTable() const { return m_table; }
    QProgressBar *progressBar() const { return m_progress; }
    QPushButton *cancelButton() const { return m_cancel; }
    QString summaryText() const;

private:
    void update();

    BulkCaseRun *m_run;
    QLabel *m_heading;
    QProgressBar *m_progress;
    TableView *m_table;
    QLabel *m_summary;
    QPushButton *m_cancel;
    QPushButton *m_close;
};

} // namespace rd::ui
