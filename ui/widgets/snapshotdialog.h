#pragma once

#include "ui/models/asyncresult.h"
#include "ui/models/snapshotdiff.h"

#include "domain/core/adapters/normalization.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace rd::ui {

class CaseActions;
class ComparisonModel;
class DatabasePool;
class TableView;

/// Attach provider snapshot, with a preview: the snapshot (pasted, or loaded from a file) is
/// parsed as the action will parse it, and set beside the subscription the desk holds,
/// "field | current (local) | snapshot", the fields it would change highlighted. The confirm
/// button stays disabled while the snapshot cannot be read or the database would refuse it,
/// and the message says why.
class SnapshotDialog : public QDialog
{
    Q_OBJECT

public:
    /// Reads the case's subscription off the GUI thread through `pool`; the database's preview
    /// of the snapshot comes through `actions`.
    SnapshotDialog(
        DatabasePool *pool, CaseActions *actions, qint64 caseId, QWidget *parent = nullptr);

    qint64 caseId() const { return m_caseId; }
    /// Reads the file into the snapshot field; false (and the message says why) when it
    /// cannot be read or is larger than a snapshot can be.
    bool loadFile(const QString &path);
    void setComment(const QString &comment);

    /// The local state has arrived, the database has judged the snapshot (preview), and it may
    /// be attached.
    bool isReady() const;
    /// The database's own judgment of what attaching does to the case ("Case 7 will be
    /// resolved: its renewal will be applied."); empty until it has answered.
    QString verdict() const { return m_verdict; }
    /// What stops the snapshot (unreadable, stale, another subscription); empty when none.
    QString problem() const { return m_problem; }
    /// "field | current (local) | snapshot | note".
    const ComparisonModel *preview() const { return m_preview; }
    /// The reason code picked (one of caseActionReasonCodes()); empty until one is: none is
    /// chosen in advance, and Attach waits for it.
    QString reason() const;
    void setReason(const QString &code);
    /// "Start from current state": fills the snapshot text with Renewal Desk's form prefilled
    /// from the subscription and the case's renewal (snapshotstart.h), read off the GUI thread;
    /// startFilled() is emitted when it is in.
    void startFromCurrentState();
    /// The snapshot text as shown.
    QString snapshotText() const;
    QString comment() const;
    /// The previewed snapshot in Renewal Desk's form, so that what is attached is exactly what
    /// was shown (a provider object's capture time included).
    QString snapshotJson() const;

signals:
    /// The preview was rebuilt (the snapshot text or the local state changed).
    void previewUpdated();
    /// startFromCurrentState() filled the text (or said in the message why it could not).
    void startFilled();

private:
    void chooseFile();
    void updatePreview();
    void showProblem(const QString &text);
    void askDatabase(const QString &summary);
    void updateConfirm();

    DatabasePool *m_pool;
    CaseActions *m_actions;
    qint64 m_caseId;
    QComboBox *m_reason;
    QPlainTextEdit *m_comment;
    QPlainTextEdit *m_text;
    QLabel *m_source;
    QLabel *m_message;
    ComparisonModel *m_preview;
    TableView *m_previewView;
    QPushButton *m_confirm;
    /// The case's subscription once read; the provider's kind reads its own objects.
    std::optional<CaseSubscription> m_subject;
    std::optional<rd::ProviderKind> m_kind;
    std::optional<rd::ProviderSnapshot> m_snapshot;
    QString m_problem;
    QString m_loadError; ///< the case could not be read: nothing can be attached
    QString m_verdict;
    LatestRequest m_previewRequest; ///< drops the answers to previews of older text
};

} // namespace rd::ui
