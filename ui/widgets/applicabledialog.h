#pragma once

#include "ui/models/applicablecases.h"
#include "ui/models/asyncresult.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace rd::ui {

class DatabasePool;
class RecordTableModel;
class TableView;

/// "Re-apply every open case that is applicable now": pick a reason, see how many and which
/// open cases of it the core would apply now (loadApplicableCases: read-only, off the GUI
/// thread), give the note the history keeps, and run exactly those.
class ApplicableDialog : public QDialog
{
    Q_OBJECT

public:
    ApplicableDialog(DatabasePool *pool, const QString &reason, QWidget *parent = nullptr);

    /// The reason shown (an error code; empty: every reason).
    QString reason() const;
    void setReason(const QString &code);
    /// The cases the preview lists, as last loaded.
    const QVector<ApplicableCase> &preview() const { return m_preview; }
    RecordTableModel *previewModel() const { return m_model; }
    /// False while the preview loads.
    bool isReady() const { return m_ready; }
    QString previewText() const;
    /// The reason code picked for the cases' history; empty until one is (none is chosen in
    /// advance, and Re-apply waits for it).
    QString noteReason() const;
    void setNoteReason(const QString &code);
    QString comment() const;
    void setComment(const QString &text);
    QPushButton *runButton() const { return m_run; }

signals:
    void previewLoaded();

private:
    void loadPreview();

    DatabasePool *m_pool;
    QComboBox *m_reasonBox;
    QLabel *m_count;
    TableView *m_table;
    RecordTableModel *m_model;
    QComboBox *m_noteReason;
    QPlainTextEdit *m_comment;
    QPushButton *m_run;
    QVector<ApplicableCase> m_preview;
    QString m_wanted;
    bool m_ready = false;
    LatestRequest m_request;
};

} // namespace rd::ui
