#pragma once

#include <QDateTime>
#include <QObject>
#include <QString>

#include <optional>

class QSqlDatabase;
class QTimer;

namespace rd::ui {

class DatabasePool;

/// The newest row of the backup log (migration 0036), as the desk shows it.
struct LastBackup
{
    QDateTime takenAt; ///< the snapshot's instant (UTC)
    QString takenBy;
    QString fileName;
    qint64 fileBytes = 0;
    /// The audit chains' breaks the backup recorded (#42): 0 intact, -1 not verified (a backup
    /// taken before backups verified the chains).
    int chainBreaks = -1;
};

/// What the backup log says, read in one query.
struct BackupLogState
{
    /// The database has a backup log the login role may read (false: a database older than
    /// migration 0036, or a role without SELECT on it: the desk then says nothing).
    bool logReadable = false;
    std::optional<LastBackup> newest;
};

/// Reads the newest backup (on a pool thread; SQL lives here, not in the widgets).
BackupLogState readBackupLog(QSqlDatabase &db);

/// QSettings "backup/warnAfterDays": how old the last backup may get before the desk warns
/// (default 7; values outside 1..365 read as the default).
int backupWarnAfterDaysSetting();
void setBackupWarnAfterDaysSetting(int days);
constexpr int kDefaultBackupWarnAfterDays = 7;

/// The last backup's age in words, and whether it asks for a person: what the status bar and
/// the Overview show.
struct BackupAgeStatus
{
    /// Broken: the newest backup was taken with the audit chains broken (it restores only as
    /// that broken state): a warning, whatever its age.
    enum class Level { Unknown, Fresh, Old, None, Broken };
    Level level = Level::Unknown;
    QString text; ///< "Last backup: 2 days ago", "No backup yet"; empty when Unknown
    QString toolTip; ///< when, which file, and what to do
    bool warning() const
    {
        return level == Level::Old || level == Level::None || level == Level::Broken;
    }
};

/// "12.3 MB": a file's size for people.
QString fileSizeText(qint64 bytes);
/// "just now", "5 minutes ago", "3 hours ago", "yesterday", "12 days ago".
QString backupAgeText(const QDateTime &takenAt, const QDateTime &now);
/// The status for `state` at `now`; Old when the backup is older than `warnAfterDays` days
/// (exactly that old is not yet old).
BackupAgeStatus describeBackupAge(
    const BackupLogState &state, const QDateTime &now, int warnAfterDays);

/// The desk's read model of the last backup's age: reads the log on the pool (now, after a
/// backup, and every few minutes: a server's backups are taken elsewhere), re-describes the age
/// every minute, and says when what it shows changed.
class BackupAgeModel : public QObject
{
    Q_OBJECT

public:
    explicit BackupAgeModel(DatabasePool *pool, QObject *parent = nullptr);

    void refresh();
    const BackupLogState &state() const { return m_state; }
    BackupAgeStatus status() const;
    bool isLoaded() const { return m_loaded; }
    /// The instant ages are measured to (tests set it; invalid: the clock).
    void setNow(const QDateTime &now);

    static constexpr int kRereadMs = 5 * 60 * 1000;
    static constexpr int kRedescribeMs = 60 * 1000;

signals:
    void changed();
    /// The log could not be read (the message says why); what was shown stays.
    void failed(const QString &message);

private:
    DatabasePool *m_pool;
    BackupLogState m_state;
    bool m_loaded = false;
    QDateTime m_now;
    QTimer *m_reread;
    QTimer *m_redescribe;
};

} // namespace rd::ui
