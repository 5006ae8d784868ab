#pragma once

#include "ui/models/lastbackup.h" // fileSizeText

#include <QDateTime>
#include <QFuture>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QStringList>

#include <atomic>
#include <exception>
#include <memory>

namespace rd::ui {

/// A backup file's manifest, in the desk's terms.
struct BackupFacts
{
    QString program; ///< "renewal-desk 1.2.3"
    QString schemaVersion;
    QDateTime takenAt; ///< the snapshot's instant (UTC)
    QString source;
    /// (table, rows) as the manifest lists them.
    QList<QPair<QString, qint64>> counts;
    QString anchorDigest;
    qint64 anchorHeads = 0;
    qint64 dumpBytes = 0;
    /// The whole file's SHA-256: the digest to keep apart from it (not in the manifest: known
    /// once the file was written or read whole).
    QString fileSha256;
    /// The audit chains as the backup verified them in its snapshot (#42, item 6): the breaks
    /// the file records (named, first first), when it was taken with broken chains.
    /// chainsVerified is false for a file written before the backup verified them.
    bool chainsVerified = false;
    qint64 chainBreaks = 0;
    bool moreChainBreaks = false;
    QStringList brokenChains;
    bool chainsIntact() const { return chainBreaks == 0 && !moreChainBreaks; }

    /// Rows of `table` in the manifest; -1 when it does not list the table.
    qint64 count(const QString &table) const;
};

/// "1,204 billing periods, 1,310 audit entries, 1,204 outbox intents": the three tables a
/// renewal writes one row of each, first; then (`all`) the tables people know by name and the
/// rows of the others.
QString describeCounts(const BackupFacts &facts, bool all = false);
/// A table's name for people ("subscription_billing_periods" → "billing periods").
QString tableInWords(const QString &table);
/// What a BackupProgress phase says to people ("dump" → "Writing the backup file…").
QString backupPhaseText(const QString &phase);

/// What a backup or restore error means to people: a fixed text naming what was wrong, and
/// the error's own message for the log. Mapped once, here, from the store's typed errors.
struct BackupError
{
    bool canceled = false;
    QString text;
    QString detail;
};
enum class BackupStep { Backup, ReadManifest, Restore };
BackupError backupErrorText(std::exception_ptr error, BackupStep step);

struct BackupResult
{
    bool ok = false;
    BackupError error;
    QString file;
    qint64 fileBytes = 0;
    BackupFacts facts;
    /// The database's backup log has the backup (else notRecorded says why: the desk's age
    /// of the last backup will not show it).
    bool recorded = false;
    QString notRecorded;
};

struct ManifestResult
{
    bool ok = false;
    BackupError error;
    BackupFacts facts;
};

/// Where a restore goes: a new embedded data directory (created and started here, then the
/// backup restored into its renewal_desk database) or a server's empty database.
struct RestoreTarget
{
    QString embeddedDirectory; ///< non-empty: a new embedded cluster there
    QString conninfo; ///< else: this database
    /// The file's SHA-256 kept apart from it when it was taken (optional): any other file is
    /// refused before the target is touched.
    QString expectedFileSha256;
};

/// Why `directory` cannot take a new embedded cluster (it exists and is not empty, or it is a
/// file); empty when it can.
QString newEmbeddedDirectoryProblem(const QString &directory);

struct CountDifferenceText
{
    QString table;
    qint64 expected = 0;
    qint64 found = 0;
};

struct RestoreResult
{
    bool ok = false; ///< the restore ran (verified or not)
    BackupError error;
    BackupFacts facts;
    /// The restored database's conninfo (for "Open the restored database").
    QString conninfo;
    QString embeddedDirectory;
    bool verified = false;
    QList<CountDifferenceText> countDifferences;
    qint64 anchorHeads = 0;
    qint64 anchorMismatches = 0;
    QString firstAnchorMismatch;
    qint64 chains = 0;
    qint64 auditRows = 0;
    qint64 chainBreaks = 0;
    QString firstChainBreak;
    /// Verified, with the chains broken exactly as the backup recorded them (#42, item 6).
    bool brokenAsRecorded = false;
    /// Not verified on the chains: breaks the backup did not record (the first named in
    /// firstChainBreak), and recorded ones this copy does not have as recorded.
    qint64 unrecordedBreaks = 0;
    qint64 recordedBreaksNotFound = 0;
    QString firstRecordedBreakNotFound;
    qint64 ruleDifferences = 0; ///< privileges, definitions, constraints unlike the migrations'
    QString firstRuleDifference;
    QString rulesNotCompared; ///< why they were not compared; "" when they were
    QStringList rolesCreated; ///< group roles the restore created on the server
    QStringList migrationsApplied; ///< migrations applied after it verified
};

/// The verification's result in words: "Verified: counts match the backup, the audit anchor
/// matches, 1,204 chains intact." (or broken exactly as the backup recorded, said so) or each
/// difference on a line of its own.
QString describeRestore(const RestoreResult &outcome);

/// Runs a backup (the store's backupDatabase) or a restore (restoreDatabase) on a thread of
/// its own, with progress; cancellable (the store removes a canceled backup's partial file).
/// One job at a time.
class BackupJob : public QObject
{
    Q_OBJECT

public:
    explicit BackupJob(QObject *parent = nullptr);
    ~BackupJob() override;

    /// Backs up `conninfo`'s database to `file` (empty: the store's default name and place).
    void startBackup(const QString &conninfo, const QString &file);
    void startRestore(const QString &file, const RestoreTarget &target);
    void cancel();
    bool isRunning() const { return m_running; }

    /// Reads `file`'s manifest on a pool thread (checks its form and its dump's digest).
    static QFuture<ManifestResult> readManifest(const QString &file);
    /// The store's defaultBackupDirectory()/defaultBackupFileName().
    static QString defaultBackupPath();
    /// A new directory beside the embedded cluster's ("renewal-desk-restored-YYYYMMDD-HHMMSS").
    static QString defaultRestoreDirectory();

signals:
    void progress(const QString &phase, qint64 bytes, qint64 expectedBytes);
    void backupFinished(const rd::ui::BackupResult &outcome);
    void restoreFinished(const rd::ui::RestoreResult &outcome);

private:
    template<typename Work>
    void run(Work work);

    bool m_running = false;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace rd::ui
