#pragma once

#include "ui/actions/backupjobs.h"

#include <QDialog>

class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace rd::ui {

class BackupProgressPanel;

/// File › Back up…: where the file goes (the data directory's backups/ by default), a progress
/// bar while the store writes it (off the GUI thread; Cancel leaves no file), and then what the
/// file holds in a finance person's words: when the snapshot was taken, its counts, the audit
/// anchor's digest to copy. Also where the desk's "backup is old" warning is set.
class BackupDialog : public QDialog
{
    Q_OBJECT

public:
    explicit BackupDialog(const QString &conninfo, QWidget *parent = nullptr);

    QString destination() const;
    void setDestination(const QString &file);
    /// Starts the backup (what the Back up button does).
    void start();
    void cancel();
    bool isRunning() const;
    BackupJob *job() const { return m_job; }
    /// The summary shown after a backup, as plain text (tests and screenshots read it).
    QString summaryText() const;
    QString errorText() const;

signals:
    /// A backup was written and recorded (the desk reads the backup's age again).
    void backupCompleted(const rd::ui::BackupResult &outcome);
    /// The warning's threshold changed (QSettings "backup/warnAfterDays" is written).
    void warnAfterDaysChanged(int days);

protected:
    void reject() override;

private:
    void browse();
    void finished(const BackupResult &outcome);
    void setRunning(bool running);

    QString m_conninfo;
    BackupJob *m_job;
    QLineEdit *m_file;
    QPushButton *m_browse;
    QSpinBox *m_warnDays;
    BackupProgressPanel *m_progress;
    QWidget *m_summary;
    QFormLayout *m_summaryForm;
    QLabel *m_summaryHeading;
    QString m_summaryPlain;
    QLabel *m_error;
    QLabel *m_digest; ///< the digest, short; Copy copies it whole
    QString m_fullDigest;
    QPushButton *m_start;
    QPushButton *m_cancel;
    QDialogButtonBox *m_buttons;
};

} // namespace rd::ui
