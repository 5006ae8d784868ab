#include "ui/models/lastbackup.h"

#include "ui/models/asyncresult.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"

#include <QCoreApplication>
#include <QLocale>
#include <QSettings>
#include <QSqlQuery>
#include <QTimer>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::LastBackup)
};

} // namespace
namespace {

const QString kWarnKey = u"backup/warnAfterDays"_qs;

} // namespace

BackupLogState readBackupLog(QSqlDatabase &db)
{
    BackupLogState state;
    // A database older than migration 0036, or a role that may not read the log: nothing to
    // say (the desk does not claim "no backup" of a database it cannot ask).
    QSqlQuery readable = execSql(db,
        u"SELECT to_regclass('public.database_backups') IS NOT NULL "
        "AND has_table_privilege('public.database_backups', 'SELECT')"_qs);
    if (!readable.next() || !readable.value(0).toBool())
        return state;
    state.logReadable = true;
    QSqlQuery newest = execSql(db,
        u"SELECT to_char(taken_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), "
        "taken_by, file_name, file_bytes, "
        "coalesce((manifest -> 'chains' ->> 'breakCount')::integer, -1) "
        "FROM public.database_backups "
        "ORDER BY taken_at DESC, id DESC LIMIT 1"_qs);
    if (newest.next()) {
        LastBackup last;
        last.takenAt = format::instant(newest.value(0).toString());
        last.takenBy = newest.value(1).toString();
        last.fileName = newest.value(2).toString();
        last.fileBytes = newest.value(3).toLongLong();
        last.chainBreaks = newest.value(4).toInt();
        state.newest = last;
    }
    return state;
}

int backupWarnAfterDaysSetting()
{
    bool ok = false;
    const int days = QSettings().value(kWarnKey).toInt(&ok);
    // What another version or a hand-edited file left there is ignored, not applied.
    if (!ok || days < 1 || days > 365)
        return kDefaultBackupWarnAfterDays;
    return days;
}

void setBackupWarnAfterDaysSetting(int days)
{
    QSettings().setValue(kWarnKey, days);
}

/// "1 day", "3 days": the desk ships no English translation, so %n's plurals read "day(s)".
static QString daysText(qint64 days)
{
    return days == 1 ? Tr::tr("1 day") : Tr::tr("%1 days").arg(days);
}

QString fileSizeText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

QString backupAgeText(const QDateTime &takenAt, const QDateTime &now)
{
    const qint64 secs = std::max<qint64>(takenAt.secsTo(now), 0);
    if (secs < 60)
        return Tr::tr("just now");
    if (secs < 3600)
        return secs < 120 ? Tr::tr("1 minute ago") : Tr::tr("%1 minutes ago").arg(secs / 60);
    if (secs < 86400)
        return secs < 7200 ? Tr::tr("1 hour ago") : Tr::tr("%1 hours ago").arg(secs / 3600);
    if (secs < 2 * 86400)
        return Tr::tr("yesterday");
    return Tr::tr("%1 ago").arg(daysText(secs / 86400));
}

BackupAgeStatus describeBackupAge(
    const BackupLogState &state, const QDateTime &now, int warnAfterDays)
{
    BackupAgeStatus status;
    if (!state.logReadable)
        return status;
    const QString what = Tr::tr("Take one with File › Back up… (it copies the whole "
                                "database into one file you can restore and verify).");
    if (!state.newest) {
        status.level = BackupAgeStatus::Level::None;
        status.text = Tr::tr("No backup yet");
        status.toolTip = Tr::tr("This database has never been backed up: a lost disk would "
                                "lose the ledger, the cases and the audit trail.\n")
            + what;
        return status;
    }
    const LastBackup &b = *state.newest;
    const bool old = b.takenAt.secsTo(now) > qint64(warnAfterDays) * 86400;
    status.level = old ? BackupAgeStatus::Level::Old : BackupAgeStatus::Level::Fresh;
    status.text = Tr::tr("Last backup: %1").arg(backupAgeText(b.takenAt, now));
    status.toolTip = Tr::tr("Last backup taken %1 (%2) by %3:\n%4 (%5)")
                         .arg(format::localDateTime(b.takenAt), format::utcTooltip(b.takenAt),
                             b.takenBy, b.fileName, fileSizeText(b.fileBytes));
    status.toolTip += u"\n"_qs
        + (old ? Tr::tr("Older than %1: take a new one with File › Back up….")
                     .arg(daysText(warnAfterDays))
               : Tr::tr("The desk warns when it is older than %1.").arg(daysText(warnAfterDays)));
    if (b.chainBreaks > 0) {
        // It restores only as the broken state it recorded: the newest backup is not one to
        // rely on, whatever its age.
        status.level = BackupAgeStatus::Level::Broken;
        status.text
            = Tr::tr("Last backup: %1, audit chains broken").arg(backupAgeText(b.takenAt, now));
        status.toolTip += u"\n"_qs
            + Tr::tr("It was taken with %1 break(s) in the audit chains: a restore gives back "
                     "exactly that broken state. Find out why in the Audit log (Verify), then "
                     "take a new one with File › Back up….")
                  .arg(b.chainBreaks);
    }
    return status;
}

BackupAgeModel::BackupAgeModel(DatabasePool *pool, QObject *parent)
    : QObject(parent), m_pool(pool), m_reread(new QTimer(this)), m_redescribe(new QTimer(this))
{
    m_reread->setInterval(kRereadMs);
    connect(m_reread, &QTimer::timeout, this, &BackupAgeModel::refresh);
    m_reread->start();
    // "2 hours ago" moves on by itself.
    m_redescribe->setInterval(kRedescribeMs);
    connect(m_redescribe, &QTimer::timeout, this, [this] {
        if (m_loaded)
            emit changed();
    });
    m_redescribe->start();
}

void BackupAgeModel::refresh()
{
    deliverResult(
        this, m_pool->run([](QSqlDatabase &db) { return readBackupLog(db); }),
        [this](const BackupLogState &state) {
            m_state = state;
            m_loaded = true;
            emit changed();
        },
        [this](const QString &message) { emit failed(message); });
}

BackupAgeStatus BackupAgeModel::status() const
{
    return describeBackupAge(m_state, m_now.isValid() ? m_now : QDateTime::currentDateTimeUtc(),
        backupWarnAfterDaysSetting());
}

void BackupAgeModel::setNow(const QDateTime &now)
{
    m_now = now;
    if (m_loaded)
        emit changed();
}

} // namespace rd::ui
