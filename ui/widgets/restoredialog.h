#pragma once

#include "ui/actions/backupjobs.h"
#include "ui/models/asyncresult.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;

namespace rd::ui {

class BackupProgressPanel;

/// File › Restore…: a backup file, its manifest shown before anything is done (or what is
/// wrong with the file), a target that holds no data (a new embedded data directory the desk
/// creates and starts, or an empty database on a server), progress and cancel, and then the
/// verification in words: counts, the audit anchor and the chains, or exactly what differs.
/// The desk offers no force: a restore never goes over data (renewalctl db restore --force is
/// there for whoever means it). A verified restore can be opened at once.
class RestoreDialog : public QDialog
{
    Q_OBJECT

public:
    explicit RestoreDialog(QWidget *parent = nullptr);

    /// Chooses `file` and reads its manifest (manifestRead() when known).
    void setFile(const QString &file);
    void setEmbeddedTarget(const QString &directory);
    void setServerTarget(const QString &conninfo);
    /// The anchor digest kept apart from the file (optional; empty: none).
    void setExpectedDigest(const QString &digest);
    void start();
    void cancel();
    bool isRunning() const;
    bool isManifestOk() const { return m_manifestOk; }
    /// The manifest panel's text, or the file's error (plain text).
    QString manifestText() const;
    /// The verification's result in words, after a restore (or its error).
    QString resultText() const;
    bool isVerified() const { return m_outcome.ok && m_outcome.verified; }
    const RestoreResult &outcome() const { return m_outcome; }
    QPushButton *openButton() const { return m_open; }

signals:
    void manifestRead();
    void restoreFinished();
    /// "Open the restored database": the desk switches to `conninfo`.
    void openRequested(const QString &conninfo);

protected:
    void reject() override;

private:
    void browseFile();
    void browseDirectory();
    void readManifest();
    void showManifest(const ManifestResult &m);
    void updateStart();
    void finished(const RestoreResult &outcome);
    void setRunning(bool running);
    RestoreTarget target() const;

    BackupJob *m_job;
    QLineEdit *m_file;
    QLabel *m_manifest;
    bool m_manifestOk = false;
    QString m_manifestPlain;
    QRadioButton *m_toEmbedded;
    QRadioButton *m_toServer;
    QLineEdit *m_directory;
    QPushButton *m_browseDirectory;
    QLineEdit *m_conninfo;
    QLabel *m_targetProblem;
    QLineEdit *m_expectedDigest;
    BackupProgressPanel *m_progress;
    QLabel *m_result;
    QPushButton *m_start;
    QPushButton *m_open;
    QPushButton *m_cancel;
    RestoreResult m_outcome;
    LatestRequest m_manifestRequest;
};

} // namespace rd::ui
