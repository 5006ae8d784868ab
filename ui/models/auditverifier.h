#pragma once

#include <QDateTime>
#include <QFuture>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace rd::ui {

/// What a verification found, in the desk's terms.
struct AuditVerifyReport
{
    bool intact = false;
    bool canceled = false;
    qint64 rows = 0;
    qint64 chains = 0;
    QDateTime at; ///< the snapshot verified (UTC)
    /// The first break, named ("subscription_transition_audits row 12 (chain …, position 3):
    /// row content does not match its hash (altered)"), with what opens it.
    QString firstBreak;
    int breakCount = 0;
    bool moreBreaks = false;
    QString breakChain; ///< "subscription_transition_audits" or "reconciliation_case_history"
    QString breakChainId; ///< the subscription uuid or the case id
    /// Whose chain: "stripe-main sub_123" (a case's: its subscription's); empty when unknown.
    QString breakSubject;
    qint64 breakRowId = 0; ///< the broken row's id; 0 for an anchor's head gone or rewritten
    qint64 breakSeq = 0; ///< its position in the chain
    QString breakProblem; ///< what is wrong with it, as the store says it
    /// The anchor file checked, when one was; its mismatches (heads changed or gone).
    QString anchorPath;
    int anchorHeads = 0;
    /// The anchor's digest, found to be the SHA-256 of its heads (what was published with it).
    QString anchorDigest;
    int anchorMismatches = 0;
    QString firstAnchorMismatch;
    QString error; ///< the verification could not run (the message says why)
};

/// An anchor written by AuditVerifier::writeAnchor: its heads and its digest (to publish).
struct AnchorWritten
{
    qint64 heads = 0;
    QString digest;
};

/// Runs `renewalctl audit verify`'s streamed verification (the store's verifyAuditChains, a
/// connection of its own) on a thread of its own, with progress; cancellable. One at a time.
class AuditVerifier : public QObject
{
    Q_OBJECT

public:
    explicit AuditVerifier(QString conninfo, QObject *parent = nullptr);
    ~AuditVerifier() override;

    /// Starts a verification; with `anchorPath`, the chains' heads are also checked against
    /// that file (written by `renewalctl audit anchor` or the desk's export).
    void start(const QString &anchorPath = {});
    void cancel();
    bool isRunning() const { return m_running; }
    /// Rows per batch (tests make it small to see progress and bounded batches).
    void setBatchRows(int rows) { m_batchRows = rows; }

    /// Writes the chains' heads (an anchor) to `path`, on a pool thread; the future's result is
    /// the number of heads and the digest written; it throws on failure.
    static QFuture<AnchorWritten> writeAnchor(const QString &conninfo, const QString &path);
    /// Verifies every chain and writes what was found to `path`, in words, for an auditor
    /// (#42, item 6: the export for auditors said nothing of a broken chain): the rows and
    /// chains verified and when, and "intact" or every break named, one a line. The future's
    /// result is the verification's report; it throws when the file cannot be written.
    static QFuture<AuditVerifyReport> writeVerification(
        const QString &conninfo, const QString &path);

signals:
    void progress(qint64 rows, qint64 expectedRows, qint64 chains);
    void finished(const rd::ui::AuditVerifyReport &report);

private:
    QString m_conninfo;
    int m_batchRows = 20000;
    bool m_running = false;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace rd::ui
