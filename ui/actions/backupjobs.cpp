#include "ui/actions/backupjobs.h"

#include "domain/core/errors.h"
#include "domain/store/database_backup.h"
#include "domain/store/embedded_cluster.h"
#include "ui/models/chainbreaktext.h"
#include "ui/models/format.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QLoggingCategory>
#include <QMetaObject>
#include <QPointer>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <filesystem>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::BackupJobs)
};

} // namespace

Q_LOGGING_CATEGORY(lcBackup, "rd.backup")

namespace {

namespace fs = std::filesystem;

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

BackupFacts factsOf(const BackupManifest &m, const std::string &fileSha256)
{
    BackupFacts f;
    f.program = qs(m.program);
    f.schemaVersion = qs(m.schemaVersion);
    f.takenAt = format::instant(qs(m.takenAt));
    f.source = qs(m.source);
    for (const auto &[table, rows] : m.counts)
        f.counts.append({qs(table), qint64(rows)});
    f.anchorDigest = qs(m.anchorDigest);
    f.anchorHeads = m.anchorHeads;
    f.dumpBytes = m.dumpBytes;
    f.fileSha256 = qs(fileSha256);
    f.chainsVerified = m.chainsVerified;
    f.chainBreaks = qint64(m.chainBreaks.size());
    f.moreChainBreaks = m.moreChainBreaks;
    for (const auto &b : m.chainBreaks)
        f.brokenChains << chainBreakText(b);
    return f;
}

/// The three tables a consistent snapshot keeps equal (a renewal writes one row of each).
const QStringList kHeadline {u"subscription_billing_periods"_qs,
    u"subscription_transition_audits"_qs, u"subscription_outbox"_qs};

} // namespace

qint64 BackupFacts::count(const QString &table) const
{
    for (const auto &[name, rows] : counts)
        if (name == table)
            return rows;
    return -1;
}

QString tableInWords(const QString &table)
{
    static const QList<QPair<QString, QString>> words {
        {u"subscription_billing_periods"_qs, Tr::tr("billing periods")},
        {u"subscription_transition_audits"_qs, Tr::tr("audit entries")},
        {u"subscription_outbox"_qs, Tr::tr("outbox intents")},
        {u"subscriptions"_qs, Tr::tr("subscriptions")},
        {u"reconciliation_cases"_qs, Tr::tr("cases")},
        {u"reconciliation_case_history"_qs, Tr::tr("case history entries")},
        {u"webhook_inbox"_qs, Tr::tr("deliveries")},
        {u"provider_snapshots"_qs, Tr::tr("provider snapshots")},
        {u"statement_lines"_qs, Tr::tr("statement lines")},
    };
    QString bare = table;
    if (bare.startsWith(u"public."_qs))
        bare = bare.mid(7);
    for (const auto &[name, word] : words)
        if (name == bare)
            return word;
    return bare.replace(u'_', u' ');
}

QString describeCounts(const BackupFacts &facts, bool all)
{
    // The manifest counts every table of the schema: people read the renewal's three, then
    // (with `all`) the ones they know by name, then how many rows the rest hold.
    static const QStringList named {u"subscriptions"_qs, u"reconciliation_cases"_qs,
        u"reconciliation_case_history"_qs, u"webhook_inbox"_qs, u"provider_snapshots"_qs,
        u"statement_lines"_qs};
    const QLocale locale;
    QStringList parts;
    for (const QString &table : kHeadline)
        if (const qint64 rows = facts.count(table); rows >= 0)
            parts << Tr::tr("%1 %2").arg(locale.toString(rows), tableInWords(table));
    if (!all && !parts.isEmpty())
        return parts.join(u", "_qs);
    for (const QString &table : named)
        if (const qint64 rows = facts.count(table); rows >= 0)
            parts << Tr::tr("%1 %2").arg(locale.toString(rows), tableInWords(table));
    qint64 otherTables = 0;
    qint64 otherRows = 0;
    for (const auto &[table, rows] : facts.counts) {
        if (!kHeadline.contains(table) && !named.contains(table)) {
            ++otherTables;
            otherRows += rows;
        }
    }
    if (otherTables > 0)
        parts << Tr::tr("%1 rows in %2 other tables")
                     .arg(locale.toString(otherRows), locale.toString(otherTables));
    return parts.join(u", "_qs);
}

QString backupPhaseText(const QString &phase)
{
    if (phase == u"snapshot")
        return Tr::tr("Taking a consistent snapshot of the database…");
    if (phase == u"dump")
        return Tr::tr("Writing the backup file…");
    if (phase == u"counts")
        return Tr::tr("Counting the rows of every table…");
    if (phase == u"anchor")
        return Tr::tr("Taking the audit anchor (the chains' heads)…");
    if (phase == u"chains")
        return Tr::tr("Verifying the audit chains in the snapshot…");
    if (phase == u"check")
        return Tr::tr("Checking the backup file…");
    if (phase == u"migrate")
        return Tr::tr("Bringing the restored database to this desk's schema…");
    if (phase == u"done")
        return Tr::tr("Done.");
    if (phase == u"restore")
        return Tr::tr("Restoring the database…");
    if (phase == u"verify")
        return Tr::tr("Verifying the restored copy (counts, audit anchor, chains)…");
    if (phase == u"rules")
        return Tr::tr("Comparing privileges and definitions with this desk's migrations…");
    if (phase == u"cluster")
        return Tr::tr("Creating and starting the new embedded database…");
    return phase.isEmpty() ? Tr::tr("Working…") : phase + u"…"_qs;
}

BackupError backupErrorText(std::exception_ptr error, BackupStep step)
{
    BackupError e;
    try {
        std::rethrow_exception(error);
    } catch (const BackupCanceled &x) {
        e.canceled = true;
        e.text = step == BackupStep::Backup
            ? Tr::tr("The backup was canceled; no file was left behind.")
            : Tr::tr("The restore was canceled.");
        e.detail = QString::fromUtf8(x.what());
    } catch (const InputError &x) {
        // The file is not a sound backup: the store names what is wrong with it.
        e.text = Tr::tr("This file is not a usable Renewal Desk backup: %1.")
                     .arg(QString::fromUtf8(x.what()));
        e.detail = QString::fromUtf8(x.what());
    } catch (const DatabaseUnavailable &x) {
        // The store's reason names the server or the directory, never a password.
        e.text = (step == BackupStep::Restore
                ? Tr::tr("The target database could not be reached or started: %1")
                : Tr::tr("The database could not be reached: %1"))
                     .arg(QString::fromUtf8(x.what()));
        e.detail = QString::fromUtf8(x.what());
    } catch (const TargetNotEmpty &x) {
        e.text = Tr::tr("The target database is not empty (it holds %1): nothing was "
                        "changed. A restore never goes over data: choose an empty database "
                        "or a new directory.")
                     .arg(QString::fromUtf8(x.what()));
        e.detail = QString::fromUtf8(x.what());
    } catch (const RolesMissing &x) {
        e.text = Tr::tr("The server lacks the desk's roles, and this login may not create "
                        "them: %1")
                     .arg(QString::fromUtf8(x.what()));
        e.detail = QString::fromUtf8(x.what());
    } catch (const BackupToolFailed &x) {
        const QString words = QString::fromUtf8(x.what());
        // The common case of a desk on a server: a viewer's or operator's login (raw bodies
        // are not theirs to read).
        if (step == BackupStep::Backup && words.contains(u"permission denied"_qs))
            e.text = Tr::tr("Your database role may not read every table: a backup needs "
                            "the database's owner (the role that ran the migrations). "
                            "pg_dump said: %1")
                         .arg(words);
        else
            e.text = (step == BackupStep::Backup ? Tr::tr("pg_dump could not write the backup: %1")
                                                 : Tr::tr("pg_restore could not restore it: %1"))
                         .arg(QString::fromUtf8(x.what()));
        e.detail = QString::fromUtf8(x.what());
    } catch (const SetupError &x) {
        // Restore's refusal of a database that holds Renewal Desk data, or a missing role.
        e.text = step == BackupStep::Restore
            ? Tr::tr("The target database was refused: %1").arg(QString::fromUtf8(x.what()))
            : Tr::tr("The database refused the backup: %1").arg(QString::fromUtf8(x.what()));
        e.detail = QString::fromUtf8(x.what());
    } catch (const fs::filesystem_error &x) {
        const QString path = QString::fromStdString(x.path1().string());
        e.text = step == BackupStep::Backup
            ? Tr::tr("The backup file could not be written: %1 (%2).")
                  .arg(path, QString::fromStdString(x.code().message()))
            : Tr::tr("The file or directory could not be used: %1 (%2).")
                  .arg(path, QString::fromStdString(x.code().message()));
        e.detail = QString::fromUtf8(x.what());
    } catch (const std::exception &x) {
        e.text = step == BackupStep::Backup ? Tr::tr("The backup failed.")
            : step == BackupStep::Restore   ? Tr::tr("The restore failed.")
                                            : Tr::tr("The backup file could not be read.");
        e.text += u" "_qs + Tr::tr("Details: %1").arg(QString::fromUtf8(x.what()));
        e.detail = QString::fromUtf8(x.what());
    } catch (...) {
        e.text = Tr::tr("Unexpected error.");
    }
    if (!e.canceled)
        qCWarning(lcBackup).noquote() << "backup/restore:" << e.detail;
    return e;
}

QString newEmbeddedDirectoryProblem(const QString &directory)
{
    if (directory.trimmed().isEmpty())
        return Tr::tr("Choose a directory for the new embedded database.");
    const QFileInfo info(directory);
    if (!info.isAbsolute())
        return Tr::tr("Give the directory's full path.");
    if (info.exists() && !info.isDir())
        return Tr::tr("%1 is a file, not a directory.").arg(directory);
    if (info.exists()
        && !QDir(directory).isEmpty(
            QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System))
        return Tr::tr("%1 is not empty: choose a new or empty directory (a restore never "
                      "goes over existing data).")
            .arg(directory);
    return {};
}

QString describeRestore(const RestoreResult &o)
{
    const QLocale locale;
    if (o.verified) {
        QString verified = Tr::tr("Verified: counts match the backup, the audit anchor "
                                  "matches (%1 heads), %2 chains intact.")
                               .arg(locale.toString(o.anchorHeads), locale.toString(o.chains));
        if (o.brokenAsRecorded)
            verified = Tr::tr("Verified, but the audit chains are broken: the backup was taken "
                              "with %1 break(s) in its %2 chains, and this copy has exactly "
                              "those (first: %3). Counts match the backup, the audit anchor "
                              "matches (%4 heads). Find out why the chains broke before "
                              "relying on this copy.")
                           .arg(locale.toString(o.chainBreaks), locale.toString(o.chains),
                               o.firstChainBreak, locale.toString(o.anchorHeads));
        if (o.rulesNotCompared.isEmpty())
            return verified + u' '
                + Tr::tr("Privileges, definitions and constraints are this desk's migrations'.");
        return verified + u'\n'
            + Tr::tr("Privileges, definitions and constraints were not compared: %1.")
                  .arg(o.rulesNotCompared);
    }
    QStringList lines;
    lines << Tr::tr("NOT verified: the restored database differs from the backup.");
    for (const auto &d : o.countDifferences)
        lines << Tr::tr("%1: the backup holds %2, the restored database %3.")
                     .arg(tableInWords(d.table), locale.toString(d.expected),
                         locale.toString(d.found));
    if (o.anchorMismatches > 0)
        lines << Tr::tr("The audit anchor does not match: %1 of its %2 chain heads differ")
                     .arg(locale.toString(o.anchorMismatches), locale.toString(o.anchorHeads))
                + (o.firstAnchorMismatch.isEmpty()
                        ? u"."_qs
                        : u" (first: "_qs + o.firstAnchorMismatch + u")."_qs);
    if (o.unrecordedBreaks > 0)
        lines << Tr::tr("Audit chains broken: %1 break(s) in %2 chains that the backup did not "
                        "record")
                     .arg(locale.toString(o.unrecordedBreaks), locale.toString(o.chains))
                + (o.firstChainBreak.isEmpty() ? u"."_qs
                                               : u" (first: "_qs + o.firstChainBreak + u")."_qs);
    if (o.recordedBreaksNotFound > 0)
        lines << Tr::tr("The backup was taken with %1 break(s) that this copy does not have as "
                        "recorded (first: %2): the file was altered after it was written.")
                     .arg(locale.toString(o.recordedBreaksNotFound), o.firstRecordedBreakNotFound);
    if (o.ruleDifferences > 0)
        lines << Tr::tr("Privileges, definitions or constraints differ from this desk's "
                        "migrations: %1 difference(s) (first: %2). Do not use this copy.")
                     .arg(locale.toString(o.ruleDifferences), o.firstRuleDifference);
    return lines.join(u'\n');
}

BackupJob::BackupJob(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<rd::ui::BackupResult>();
    qRegisterMetaType<rd::ui::RestoreResult>();
}

BackupJob::~BackupJob()
{
    // The worker holds its own copy of the flag and reports through a QPointer: it stops at
    // its next check and finds no one to tell (a canceled backup leaves no file).
    if (m_cancel)
        m_cancel->store(true);
}

void BackupJob::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

template<typename Work>
void BackupJob::run(Work work)
{
    m_running = true;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    QPointer<BackupJob> self(this);
    auto onProgress = [self](const BackupProgress &p) {
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self,
            [self, phase = qs(p.phase), bytes = qint64(p.bytes),
                expected = qint64(p.expectedBytes)] {
                if (self && self->m_running)
                    emit self->progress(phase, bytes, expected);
            },
            Qt::QueuedConnection);
    };
    QThreadPool::globalInstance()->start(
        [self, cancel = m_cancel, onProgress, work = std::move(work)]() mutable {
            auto finish = work(cancel.get(), onProgress);
            if (!self)
                return;
            QMetaObject::invokeMethod(
                self,
                [self, finish = std::move(finish)] {
                    if (!self)
                        return;
                    self->m_running = false;
                    finish(self.data());
                },
                Qt::QueuedConnection);
        });
}

void BackupJob::startBackup(const QString &conninfo, const QString &file)
{
    if (m_running)
        return;
    run([conninfo = conninfo.toStdString(), file](const std::atomic<bool> *cancel,
            std::function<void(const BackupProgress &)> onProgress) {
        BackupResult outcome;
        try {
            BackupOptions options;
            options.cancel = cancel;
            options.onProgress = std::move(onProgress);
            std::optional<fs::path> to;
            if (!file.isEmpty())
                to = fs::path(file.toStdString());
            const rd::BackupResult r = backupDatabase(conninfo, to, options);
            outcome.ok = true;
            outcome.file = QString::fromStdString(r.file.string());
            outcome.fileBytes = r.fileBytes;
            outcome.facts = factsOf(r.manifest, r.fileSha256);
            outcome.recorded = r.recorded;
            outcome.notRecorded = qs(r.notRecorded);
        } catch (...) {
            outcome.error = backupErrorText(std::current_exception(), BackupStep::Backup);
        }
        return std::function<void(BackupJob *)>(
            [outcome](BackupJob *job) { emit job->backupFinished(outcome); });
    });
}

namespace {

/// A new embedded cluster in `directory` (which the desk checked is new or empty), started;
/// on a failure later, stopped and its files removed again.
class NewEmbeddedCluster
{
public:
    explicit NewEmbeddedCluster(const fs::path &directory)
        : m_directory(directory), m_created(!fs::exists(directory)), m_cluster(directory)
    {
        fs::create_directories(directory);
        m_cluster.start();
    }
    std::string conninfo() const { return m_cluster.connectionString(); }
    void keep() { m_keep = true; }
    ~NewEmbeddedCluster()
    {
        if (m_keep)
            return;
        try {
            m_cluster.stop();
            if (m_created) {
                fs::remove_all(m_directory);
            } else {
                for (const auto &entry : fs::directory_iterator(m_directory))
                    fs::remove_all(entry.path());
            }
        } catch (const std::exception &e) {
            qCWarning(lcBackup) << "could not remove the incomplete restore in"
                                << m_directory.c_str() << ":" << e.what();
        }
    }

private:
    fs::path m_directory;
    bool m_created;
    EmbeddedCluster m_cluster;
    bool m_keep = false;
};

void fillReport(RestoreResult &outcome, const RestoreReport &r)
{
    outcome.facts = factsOf(r.manifest, r.fileSha256);
    outcome.verified = r.verified();
    for (const auto &d : r.countDifferences)
        outcome.countDifferences.append({qs(d.table), qint64(d.expected), qint64(d.found)});
    outcome.anchorHeads = r.anchor.heads;
    outcome.anchorMismatches = r.anchor.mismatchCount;
    if (!r.anchor.mismatches.empty())
        outcome.firstAnchorMismatch = chainBreakText(r.anchor.mismatches.front());
    outcome.chains = r.verification.chains;
    outcome.auditRows = r.verification.rows;
    outcome.chainBreaks = qint64(r.verification.breaks.size());
    outcome.brokenAsRecorded = r.brokenAsRecorded();
    outcome.unrecordedBreaks = qint64(r.unrecordedBreaks.size());
    outcome.recordedBreaksNotFound = qint64(r.recordedBreaksNotFound.size());
    // The break to name first: one the backup did not record, when there is one.
    if (!r.unrecordedBreaks.empty())
        outcome.firstChainBreak = chainBreakText(r.unrecordedBreaks.front());
    else if (!r.verification.breaks.empty())
        outcome.firstChainBreak = chainBreakText(r.verification.breaks.front());
    if (!r.recordedBreaksNotFound.empty())
        outcome.firstRecordedBreakNotFound = chainBreakText(r.recordedBreaksNotFound.front());
    outcome.ruleDifferences = qint64(r.rules.differences.size());
    if (!r.rules.differences.empty())
        outcome.firstRuleDifference = schemaRuleDifferenceText(r.rules.differences.front());
    // In the desk's words (the store's sentence is English): the one reason there is.
    if (r.rules.noCreateDb)
        outcome.rulesNotCompared
            = Tr::tr("the login may not create the scratch database the comparison needs "
                     "(CREATEDB); restore as a login that may");
    else
        outcome.rulesNotCompared = qs(r.rules.notCompared);
    for (const auto &role : r.rolesCreated)
        outcome.rolesCreated << qs(role);
    for (const auto &migration : r.migrationsApplied)
        outcome.migrationsApplied << qs(migration);
}

} // namespace

void BackupJob::startRestore(const QString &file, const RestoreTarget &target)
{
    if (m_running)
        return;
    run([file, target](const std::atomic<bool> *cancel,
            std::function<void(const BackupProgress &)> onProgress) {
        RestoreResult outcome;
        outcome.embeddedDirectory = target.embeddedDirectory;
        try {
            std::unique_ptr<NewEmbeddedCluster> cluster;
            std::string conninfo = target.conninfo.toStdString();
            if (!target.embeddedDirectory.isEmpty()) {
                // Checked again here: the directory may have filled since the dialog looked.
                if (const QString problem = newEmbeddedDirectoryProblem(target.embeddedDirectory);
                    !problem.isEmpty()) {
                    outcome.error.text = problem;
                    return std::function<void(BackupJob *)>(
                        [outcome](BackupJob *job) { emit job->restoreFinished(outcome); });
                }
            }
            RestoreOptions options;
            options.cancel = cancel;
            options.onProgress = std::move(onProgress);
            const auto openTarget = [&] {
                // Once the file has been checked: a damaged one makes no cluster.
                if (!target.embeddedDirectory.isEmpty()) {
                    if (options.onProgress)
                        options.onProgress({"cluster", 0, 0});
                    cluster = std::make_unique<NewEmbeddedCluster>(
                        fs::path(target.embeddedDirectory.toStdString()));
                    conninfo = cluster->conninfo();
                }
                return conninfo;
            };
            if (!target.expectedFileSha256.trimmed().isEmpty())
                options.expectedFileSha256
                    = target.expectedFileSha256.trimmed().toLower().toStdString();
            // No force from the desk: a restore never goes over data (renewalctl db restore
            // --force is there for whoever means it).
            const RestoreReport report
                = restoreDatabase(fs::path(file.toStdString()), openTarget, options);
            if (cluster)
                cluster->keep(); // restored, verified or not: kept to be looked at
            outcome.ok = true;
            outcome.conninfo = QString::fromStdString(conninfo);
            fillReport(outcome, report);
        } catch (...) {
            outcome.error = backupErrorText(std::current_exception(), BackupStep::Restore);
        }
        return std::function<void(BackupJob *)>(
            [outcome](BackupJob *job) { emit job->restoreFinished(outcome); });
    });
}

QFuture<ManifestResult> BackupJob::readManifest(const QString &file)
{
    return QtConcurrent::run([file] {
        ManifestResult outcome;
        try {
            std::string fileSha256;
            const auto manifest = readBackupManifest(fs::path(file.toStdString()), &fileSha256);
            outcome.facts = factsOf(manifest, fileSha256);
            outcome.ok = true;
        } catch (...) {
            outcome.error = backupErrorText(std::current_exception(), BackupStep::ReadManifest);
        }
        return outcome;
    });
}

QString BackupJob::defaultBackupPath()
{
    try {
        return QString::fromStdString(
            (defaultBackupDirectory() / defaultBackupFileName()).string());
    } catch (const std::exception &e) {
        qCWarning(lcBackup) << "no default backup place:" << e.what();
        return {};
    }
}

QString BackupJob::defaultRestoreDirectory()
{
    const fs::path root = EmbeddedCluster::defaultRoot();
    const QString stamp = QDateTime::currentDateTimeUtc().toString(u"yyyyMMdd-HHmmss"_qs);
    return QDir::cleanPath(QString::fromStdString(root.string())) + u"-restored-"_qs + stamp;
}

} // namespace rd::ui
