#pragma once

#include "ui/models/auditlog.h"
#include "ui/models/auditverifier.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace rd::ui {

class ComparisonModel;
class DatabasePool;
class PagedTableModel;
class TableView;

/// The audit log (auditors): every subscription transition and case action in one list,
/// newest first, filtered by time, transition or action, actor, database role, provider,
/// subscription and case (auditlog.h). Enter opens the row's subscription or case; beside the
/// list, the selected record's before → after. Above it, the hash chains' state: Verify runs
/// the streamed verification on a thread of its own (progress, Cancel), against an anchor file
/// when one is chosen; Export writes the filtered rows as CSV and an anchor beside it.
class AuditLogPage : public QWidget
{
    Q_OBJECT

public:
    AuditLogPage(DatabasePool *pool, QWidget *parent = nullptr);

    PagedTableModel *model() const { return m_model; }
    TableView *table() const { return m_table; }
    ComparisonModel *detailsModel() const { return m_detailsModel; }
    AuditVerifier *verifier() const { return m_verifier; }
    QLabel *chainState() const { return m_chainState; }
    QPushButton *openBreakButton() const { return m_openBreak; }

    /// Sets every filter box from `filter` and reloads.
    void setFilter(const auditlog::Filter &filter);
    /// The filter the boxes say; `error` names what could not be read.
    auditlog::Filter filter(QString *error = nullptr) const;
    void refresh();
    /// Something was recorded elsewhere (live updates: a renewal, a case action, a note):
    /// read the list again in place, now if the page is shown, else when it is next shown.
    void dataChanged();
    /// Verify (against `anchorPath` when given); the result shows in chainState().
    void verify(const QString &anchorPath = {});
    /// Writes the filtered list to `csvPath`, the chains' anchor to anchorPathFor(csvPath) and
    /// the chains' verification, in words (intact, or each break named), to
    /// verificationPathFor(csvPath); a broken chain shows in chainState() too.
    void exportForAuditor(const QString &csvPath);
    static QString anchorPathFor(const QString &csvPath);
    static QString verificationPathFor(const QString &csvPath);

signals:
    void statusMessage(const QString &message);
    void subscriptionOpenRequested(const QString &subscriptionUuid);
    void caseOpenRequested(qint64 caseId);
    /// "Open subscription" under a broken chain: the subscription's audit trail, with the
    /// record at `chainSeq` flagged as `problem` says.
    void auditRecordOpenRequested(
        const QString &subscriptionUuid, qint64 chainSeq, const QString &problem);
    /// An export finished: both files written (or `error`).
    void exportFinished(qint64 rows, qint64 heads, const QString &error);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void reload();
    void openRow(const QModelIndex &index);
    void showDetails();
    void verified(const AuditVerifyReport &report);
    void loadChoices();

    DatabasePool *m_pool;
    PagedTableModel *m_model;
    TableView *m_table;
    ComparisonModel *m_detailsModel;
    TableView *m_details;
    QLineEdit *m_from;
    QLineEdit *m_to;
    QComboBox *m_what;
    QComboBox *m_provider;
    QLineEdit *m_actor;
    QLineEdit *m_dbRole;
    QLineEdit *m_subscription;
    QLineEdit *m_case;
    QLabel *m_chainState;
    QProgressBar *m_progress;
    QPushButton *m_verify;
    QPushButton *m_verifyAnchor;
    QPushButton *m_cancel;
    QPushButton *m_openBreak;
    QPushButton *m_export;
    AuditVerifier *m_verifier;
    QString m_breakChain;
    QString m_breakChainId;
    qint64 m_breakSeq = 0;
    QString m_breakProblem;
    bool m_stale = false; ///< changed while hidden: read again when shown
    QString m_lastFilterError;
};

} // namespace rd::ui
