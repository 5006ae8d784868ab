#pragma once

#include "ui/actions/statementimport.h"

#include <QDialog>
#include <QFutureWatcher>

class QCheckBox;
class QComboBox;
class QDateEdit;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace rd::ui {

class DatabasePool;

/// File › Import provider statement…: the provider, the statement's files (its API's pages or
/// JSON lines), the days it covers; *Preview* runs the whole import and rolls it back, *Import*
/// keeps it. The report (what matched, what was backfilled, what became a case) stays in the
/// dialog. The import itself runs off the GUI thread (statementimport.h).
class StatementImportDialog : public QDialog
{
    Q_OBJECT

public:
    /// The registered providers are read through `pool`, off the GUI thread (the choice is
    /// editable meanwhile). `importer` runs a request (tests pass their own); by default
    /// importStatementAsync over `conninfo`.
    using Importer = std::function<QFuture<StatementImportResult>(const StatementImportRequest &)>;
    StatementImportDialog(const QString &conninfo, DatabasePool *pool, QWidget *parent = nullptr,
        Importer importer = {});

    /// What the dialog would ask for now.
    StatementImportRequest request(bool dryRun) const;
    void setProviderKey(const QString &key);
    void addFiles(const QStringList &paths);
    /// Days the statement covers: both given, or neither (the statement's own paid days).
    void setDays(const QDate &from, const QDate &to);
    QPushButton *previewButton() const { return m_preview; }
    QPushButton *importButton() const { return m_import; }
    QString reportText() const;
    /// The last report, once one came back.
    const StatementImportResult &lastReport() const { return m_last; }

signals:
    /// The registered providers were read into the choice.
    void providersLoaded();
    /// A run was kept: the pages showing renewals and cases may refresh.
    void imported(qint64 runId);
    /// A report came back (preview or import).
    void reported();

private:
    void run(bool dryRun);
    void finished();
    void updateButtons();

    Importer m_importer;
    QComboBox *m_provider;
    QListWidget *m_files;
    QCheckBox *m_ownDays;
    QDateEdit *m_from;
    QDateEdit *m_to;
    QLabel *m_daysHint; ///< what the days are, ticked or not
    QPlainTextEdit *m_report;
    QLabel *m_status;
    QPushButton *m_preview;
    QPushButton *m_import;
    QFutureWatcher<StatementImportResult> m_watcher;
    StatementImportResult m_last;
    bool m_running = false;
};

} // namespace rd::ui
