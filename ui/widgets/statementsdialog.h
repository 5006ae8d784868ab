#pragma once

#include "ui/models/asyncresult.h"
#include "ui/models/finder.h"
#include "ui/models/statementruns.h"

#include <QDialog>

class QLabel;

namespace rd::ui {

class DatabasePool;
class RecordTableModel;
class TableView;

/// Ledger › Statements…: the finished statement runs (provider, days, who imported them and
/// when, their counts) and, for the selected run, its findings with each one's case and that
/// case's status now. Activating a finding (Enter, a double click) opens its case, else its
/// subscription, the way Find anything opens what it found.
class StatementsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit StatementsDialog(DatabasePool *pool, QWidget *parent = nullptr);

    TableView *runsTable() const { return m_runsView; }
    TableView *findingsTable() const { return m_findingsView; }
    const QVector<StatementRunRow> &runs() const { return m_runs; }
    const QVector<StatementFindingRow> &findings() const { return m_findings; }
    QString messageText() const;
    /// Reads the runs again (and the selected run's findings).
    void reload();
    /// Opens finding `row` of the list (what activating it does).
    void openFinding(int row);

signals:
    /// The person chose a finding's case or subscription.
    void chosen(const rd::ui::FoundItem &item);
    /// *Import statement…*: the window opens File › Import provider statement….
    void importRequested();
    void runsLoaded();
    void findingsLoaded();

private:
    void showRun(int row);

    DatabasePool *m_pool;
    TableView *m_runsView;
    TableView *m_findingsView;
    RecordTableModel *m_runsModel;
    RecordTableModel *m_findingsModel;
    QLabel *m_message;
    QVector<StatementRunRow> m_runs;
    QVector<StatementFindingRow> m_findings;
    LatestRequest m_findingsRequest;
};

} // namespace rd::ui
