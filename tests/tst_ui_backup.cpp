#include "domain/store/embedded_cluster.h"
#include "domain/store/migrator.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"
#include "ui/actions/backupjobs.h"
#include "ui/models/databasepool.h"
#include "ui/models/lastbackup.h"
#include "ui/widgets/backupdialog.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/overviewpage.h"
#include "ui/widgets/overviewtile.h"
#include "ui/widgets/restoredialog.h"

#include <pqxx/pqxx>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <memory>

using rd::ui::BackupAgeModel;
using rd::ui::BackupAgeStatus;
using rd::ui::BackupDialog;
using rd::ui::BackupLogState;
using rd::ui::MainWindow;
using rd::ui::RestoreDialog;

Q_DECLARE_METATYPE(BackupAgeStatus::Level)

// The newest numbered migration of this build: what a freshly migrated database records.
static QString newestMigrationName()
{
    QString newest;
    for (const auto &entry : std::filesystem::directory_iterator(rd::defaultMigrationsDir())) {
        const QString name = QString::fromStdString(entry.path().filename().string());
        if (name.endsWith(u".sql"_qs) && name.size() > 5 && name.at(0).isDigit() && name > newest)
            newest = name;
    }
    return newest;
}

/// File › Back up… and Restore…, and the last backup's age in the status bar and on the
/// Overview, against the run's PostgreSQL: the backup log (migration 0036) read by a viewer,
/// a backup written, cancelled, restored into a new embedded cluster and verified.
class TestUiBackup : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::unique_ptr<rdtest::TestDatabase> m_db;
    QString m_viewer; ///< a viewer's conninfo: the desk of someone who may only look
    QString m_goodBackup; ///< written by backupEndToEnd, read by the restore tests
    QStringList m_clusters; ///< embedded clusters started by a restore: stopped at the end

    std::string sql(const std::string &query) { return rdtest::text(*m_db, query); }

    /// The backup log holds exactly backups taken these ages ago (seconds).
    void setBackupsTakenAgo(const QList<qint64> &ages)
    {
        auto conn = m_db->connect();
        pqxx::work tx(*conn);
        tx.exec0("DELETE FROM public.database_backups");
        for (qint64 age : ages)
            tx.exec0("INSERT INTO public.database_backups (taken_at, file_name, file_bytes, "
                     "schema_version, anchor_digest, manifest) VALUES (now() - interval '"
                + std::to_string(age) + " seconds', '/backups/b-" + std::to_string(age)
                + ".backup', 123456, '0036_backup_log', repeat('ab', 32), '{}')");
        tx.commit();
    }

    static BackupLogState logTakenAgo(qint64 ageSecs, const QDateTime &now)
    {
        BackupLogState state;
        state.logReadable = true;
        if (ageSecs >= 0)
            state.newest = rd::ui::LastBackup {now.addSecs(-ageSecs), u"alice"_qs,
                u"/b/renewal-desk-20261201-120000.backup"_qs, 2'500'000};
        return state;
    }

    static bool isRed(const QWidget *w) { return w->styleSheet().contains(u"#b02020"_qs); }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"renewal-desk-tests"_qs);
        QCoreApplication::setApplicationName(u"tst_ui_backup"_qs);
        QSettings().clear();
        QVERIFY(m_tmp.isValid());
        // Run as root, the embedded server runs as another account, which must traverse the
        // directory to reach a restored cluster's data (QTemporaryDir makes it private).
        QFile::setPermissions(m_tmp.path(),
            QFile::permissions(m_tmp.path()) | QFile::ExeGroup | QFile::ExeOther | QFile::ReadGroup
                | QFile::ReadOther);
        // The default backups/ directory is the embedded data directory's: here, not ~.
        qputenv("RENEWAL_DESK_DATA_DIR", QFile::encodeName(m_tmp.filePath(u"data-home"_qs)));
        m_db = std::make_unique<rdtest::TestDatabase>("ui_backup");
        // Three subscriptions, two renewed: periods, audits and intents to count.
        std::string lines;
        for (const char *sub : {"sub_a", "sub_b", "sub_c"})
            lines += rdtest::subscriptionLine("stripe-main", sub) + "\n";
        rdtest::importSubscriptions(m_db->conninfo(), lines);
        rd::RenewalApplier applier(m_db->conninfo());
        for (const char *sub : {"sub_a", "sub_b"})
            QVERIFY(applier
                        .apply(rdtest::februaryRenewal(
                            sub, std::string("evt_") + sub, std::string("in_") + sub))
                        .outcome
                == rd::ApplyOutcome::Applied);
        m_viewer = QString::fromStdString(rdtest::loginAs(*m_db, "vera", "viewer"));
    }

    void cleanupTestCase()
    {
        for (const QString &root : m_clusters)
            rd::EmbeddedCluster(root.toStdString()).stop();
        m_db.reset();
        QSettings().clear();
    }

    void cleanup() { QSettings().remove(u"backup/warnAfterDays"_qs); }

    /// The age in words and when it warns: none at all, fresh, at the boundary of N days
    /// (exactly N days old is not yet old), and N changed.
    void ageStatus_data()
    {
        QTest::addColumn<bool>("logReadable");
        QTest::addColumn<qint64>("ageSecs"); // -1: no backup
        QTest::addColumn<int>("warnAfterDays");
        QTest::addColumn<BackupAgeStatus::Level>("level");
        QTest::addColumn<QString>("text");
        const qint64 day = 86400;
        using L = BackupAgeStatus::Level;
        QTest::newRow("no log (older schema)") << false << qint64(-1) << 7 << L::Unknown << u""_qs;
        QTest::newRow("never backed up")
            << true << qint64(-1) << 7 << L::None << u"No backup yet"_qs;
        QTest::newRow("just taken")
            << true << qint64(20) << 7 << L::Fresh << u"Last backup: just now"_qs;
        QTest::newRow("minutes") << true << qint64(300) << 7 << L::Fresh
                                 << u"Last backup: 5 minutes ago"_qs;
        QTest::newRow("hours") << true << qint64(5 * 3600 + 59) << 7 << L::Fresh
                               << u"Last backup: 5 hours ago"_qs;
        QTest::newRow("yesterday")
            << true << qint64(day + 3600) << 7 << L::Fresh << u"Last backup: yesterday"_qs;
        QTest::newRow("2 days") << true << 2 * day << 7 << L::Fresh
                                << u"Last backup: 2 days ago"_qs;
        QTest::newRow("exactly 7 days, warn after 7")
            << true << 7 * day << 7 << L::Fresh << u"Last backup: 7 days ago"_qs;
        QTest::newRow("7 days and a second, warn after 7")
            << true << 7 * day + 1 << 7 << L::Old << u"Last backup: 7 days ago"_qs;
        QTest::newRow("3 days, warn after 2")
            << true << 3 * day << 2 << L::Old << u"Last backup: 3 days ago"_qs;
        QTest::newRow("3 days, warn after 3")
            << true << 3 * day << 3 << L::Fresh << u"Last backup: 3 days ago"_qs;
        QTest::newRow("40 days, warn after 30")
            << true << 40 * day << 30 << L::Old << u"Last backup: 40 days ago"_qs;
        // #42: a backup taken with the audit chains broken restores only as that state.
        QTest::newRow("fresh, taken with 2 chain breaks")
            << true << qint64(300) << 7 << L::Broken
            << u"Last backup: 5 minutes ago, audit chains broken"_qs;
        QTest::newRow("fresh, taken with no chain break")
            << true << qint64(301) << 7 << L::Fresh << u"Last backup: 5 minutes ago"_qs;
    }

    void ageStatus()
    {
        QFETCH(bool, logReadable);
        QFETCH(qint64, ageSecs);
        QFETCH(int, warnAfterDays);
        QFETCH(BackupAgeStatus::Level, level);
        QFETCH(QString, text);
        const QDateTime now = QDateTime::currentDateTimeUtc();
        BackupLogState state = logTakenAgo(ageSecs, now);
        state.logReadable = logReadable;
        if (QByteArray(QTest::currentDataTag()).contains("chain break") && state.newest)
            state.newest->chainBreaks
                = QByteArray(QTest::currentDataTag()).contains("with 2") ? 2 : 0;
        const BackupAgeStatus status = rd::ui::describeBackupAge(state, now, warnAfterDays);
        QCOMPARE(status.level, level);
        QCOMPARE(status.text, text);
        const bool warns = level == BackupAgeStatus::Level::Old
            || level == BackupAgeStatus::Level::None || level == BackupAgeStatus::Level::Broken;
        QCOMPARE(status.warning(), warns);
        // A warning says what to do; every tooltip of a backup names its file.
        if (warns)
            QVERIFY2(status.toolTip.contains(u"File › Back up"_qs), qPrintable(status.toolTip));
        if (ageSecs >= 0 && logReadable)
            QVERIFY2(status.toolTip.contains(u"renewal-desk-20261201-120000.backup"_qs),
                qPrintable(status.toolTip));
    }

    void warnAfterDaysSetting_data()
    {
        QTest::addColumn<QVariant>("stored");
        QTest::addColumn<int>("read");
        QTest::newRow("unset") << QVariant() << 7;
        QTest::newRow("3") << QVariant(3) << 3;
        QTest::newRow("365") << QVariant(365) << 365;
        QTest::newRow("0 is not a threshold") << QVariant(0) << 7;
        QTest::newRow("negative") << QVariant(-2) << 7;
        QTest::newRow("too large") << QVariant(4000) << 7;
        QTest::newRow("text") << QVariant(u"a week"_qs) << 7;
    }

    void warnAfterDaysSetting()
    {
        QFETCH(QVariant, stored);
        QFETCH(int, read);
        if (stored.isValid())
            QSettings().setValue(u"backup/warnAfterDays"_qs, stored);
        QCOMPARE(rd::ui::backupWarnAfterDaysSetting(), read);
    }

    /// The model reads the newest row of the log as a viewer (SELECT is granted to viewers),
    /// off the GUI thread; the age follows the setting.
    void modelReadsNewestBackup_data()
    {
        QTest::addColumn<QList<qint64>>("ages");
        QTest::addColumn<BackupAgeStatus::Level>("level");
        QTest::addColumn<QString>("text");
        using L = BackupAgeStatus::Level;
        const qint64 day = 86400;
        QTest::newRow("none") << QList<qint64> {} << L::None << u"No backup yet"_qs;
        QTest::newRow("one, 2 days old")
            << QList<qint64> {2 * day + 60} << L::Fresh << u"Last backup: 2 days ago"_qs;
        QTest::newRow("newest of three") << QList<qint64> {30 * day, 3 * 3600 + 60, 9 * day}
                                         << L::Fresh << u"Last backup: 3 hours ago"_qs;
        QTest::newRow("only old ones")
            << QList<qint64> {12 * day, 9 * day} << L::Old << u"Last backup: 9 days ago"_qs;
    }

    void modelReadsNewestBackup()
    {
        QFETCH(QList<qint64>, ages);
        QFETCH(BackupAgeStatus::Level, level);
        QFETCH(QString, text);
        setBackupsTakenAgo(ages);
        rd::ui::DatabasePool pool(m_viewer);
        BackupAgeModel model(&pool);
        QSignalSpy changed(&model, &BackupAgeModel::changed);
        QSignalSpy failed(&model, &BackupAgeModel::failed);
        model.refresh();
        QVERIFY(QTest::qWaitFor([&] { return !changed.isEmpty() || !failed.isEmpty(); }, 10000));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed[0][0].toString()));
        QVERIFY(model.state().logReadable);
        QCOMPARE(model.status().level, level);
        QCOMPARE(model.status().text, text);
        // N changed: a month's threshold makes every one of these fresh, except none at all.
        QSettings().setValue(u"backup/warnAfterDays"_qs, 30);
        QCOMPARE(model.status().warning(), level == BackupAgeStatus::Level::None);
    }

    /// The desk of a viewer: the status bar and the Overview's "Last delivery received" tile
    /// say how old the last backup is, amber or red when it is too old, and turn back when
    /// the threshold is raised in the Back up dialog; a click on either opens the dialog.
    void deskShowsBackupAge()
    {
        setBackupsTakenAgo({10 * 86400 + 60});
        MainWindow window(m_viewer, u"test"_qs);
        window.resize(1280, 820);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QPushButton *indicator = window.backupIndicator();
        QVERIFY(QTest::qWaitFor([&] { return indicator->isVisible(); }, 15000));
        QCOMPARE(indicator->text(), u"Last backup: 10 days ago"_qs);
        QVERIFY2(
            indicator->styleSheet().contains(u"#fff4ce"_qs), qPrintable(indicator->styleSheet()));
        QVERIFY(indicator->toolTip().contains(u"Older than 7 days"_qs));
        QVERIFY(indicator->toolTip().contains(u"File › Back up"_qs));
        rd::ui::OverviewPage *overview = window.overviewPage();
        QVERIFY(QTest::qWaitFor([&] { return overview->isLoaded(); }, 15000));
        QPushButton *line = nullptr;
        QVERIFY(QTest::qWaitFor(
            [&] {
                line = overview->tile(u"last-delivery"_qs)
                           ->findChild<QPushButton *>(u"last-backup"_qs);
                return line && line->isVisible();
            },
            5000));
        QCOMPARE(line->text(), u"Last backup: 10 days ago"_qs);
        QVERIFY(isRed(line));

        // Raised to 30 days in the Back up dialog: no longer a warning, at once.
        BackupDialog *dialog = window.showBackup();
        QVERIFY(dialog->isVisible());
        auto *days = dialog->findChild<QSpinBox *>(u"backup-warn-days"_qs);
        QCOMPARE(days->value(), 7);
        days->setValue(30);
        QCOMPARE(rd::ui::backupWarnAfterDaysSetting(), 30);
        QVERIFY(!indicator->styleSheet().contains(u"#fff4ce"_qs));
        QVERIFY(!indicator->styleSheet().contains(u"#b02020"_qs));
        line = overview->tile(u"last-delivery"_qs)->findChild<QPushButton *>(u"last-backup"_qs);
        QVERIFY(QTest::qWaitFor([&] { return line && !isRed(line); }, 2000));
        dialog->hide();

        // None at all: red, in both places (after File › Refresh reads the log again).
        setBackupsTakenAgo({});
        window.refreshAll();
        QVERIFY(QTest::qWaitFor([&] { return indicator->text() == u"No backup yet"_qs; }, 10000));
        QVERIFY(indicator->styleSheet().contains(u"#b02020"_qs));
        QVERIFY(QTest::qWaitFor(
            [&] {
                line = overview->tile(u"last-delivery"_qs)
                           ->findChild<QPushButton *>(u"last-backup"_qs);
                return line && line->text() == u"No backup yet"_qs && isRed(line);
            },
            10000));

        // Either opens File › Back up….
        QTest::mouseClick(line, Qt::LeftButton);
        QVERIFY(dialog->isVisible());
        dialog->hide();
        QTest::mouseClick(indicator, Qt::LeftButton);
        QVERIFY(dialog->isVisible());
        dialog->hide();
    }

    /// File › Back up… end to end: the file written with progress, its summary, the log's row,
    /// and the desk's age moving to "just now" by itself.
    void backupEndToEnd()
    {
        setBackupsTakenAgo({20 * 86400});
        // The owner's desk: a backup reads every table (pg_dump), raw bodies included.
        MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.show();
        QPushButton *indicator = window.backupIndicator();
        QVERIFY(QTest::qWaitFor(
            [&] { return indicator->text() == u"Last backup: 20 days ago"_qs; }, 15000));
        BackupDialog *dialog = window.showBackup();
        // The default place: the data directory's backups/, a name of the time.
        QVERIFY2(
            dialog->destination().startsWith(m_tmp.filePath(u"data-home/backups/renewal-desk-"_qs)),
            qPrintable(dialog->destination()));
        QVERIFY(dialog->destination().endsWith(u".backup"_qs));
        const QString file = m_tmp.filePath(u"mine/books.backup"_qs);
        dialog->setDestination(file);
        QSignalSpy progress(dialog->job(), &rd::ui::BackupJob::progress);
        QSignalSpy completed(dialog, &BackupDialog::backupCompleted);
        dialog->start();
        QVERIFY(dialog->isRunning());
        QVERIFY(QTest::qWaitFor([&] { return !dialog->isRunning(); }, 120000));
        QVERIFY2(dialog->errorText().isEmpty(), qPrintable(dialog->errorText()));
        QCOMPARE(completed.size(), 1);
        QVERIFY(!progress.isEmpty());
        const auto outcome = completed[0][0].value<rd::ui::BackupResult>();
        QVERIFY(QFileInfo::exists(file));
        // The directory the desk made for it is private (the file holds raw bodies).
        QCOMPARE(QFileInfo(QFileInfo(file).absolutePath()).permissions()
                & (QFile::ReadGroup | QFile::ReadOther | QFile::ExeOther),
            QFile::Permissions());
        QCOMPARE(QFileInfo(file).size(), outcome.fileBytes);
        QCOMPARE(QFileInfo(outcome.file).canonicalFilePath(), QFileInfo(file).canonicalFilePath());
        // What finance reads: the three counts a consistent snapshot keeps equal, as the
        // database has them.
        const QString summary = dialog->summaryText();
        const QString periods
            = QString::fromStdString(sql("SELECT count(*) FROM subscription_billing_periods"));
        const QString audits
            = QString::fromStdString(sql("SELECT count(*) FROM subscription_transition_audits"));
        const QString intents
            = QString::fromStdString(sql("SELECT count(*) FROM subscription_outbox"));
        QVERIFY2(summary.contains(periods + u" billing periods, "_qs + audits
                     + u" audit entries, "_qs + intents + u" outbox intents"_qs),
            qPrintable(summary));
        QVERIFY2(summary.contains(outcome.facts.anchorDigest), qPrintable(summary));
        QCOMPARE(outcome.facts.anchorDigest.size(), 64);
        // The digest to keep is the whole file's (#39, item 3), shown and copied as such.
        QVERIFY2(
            summary.contains(u"File SHA-256: "_qs + outcome.facts.fileSha256), qPrintable(summary));
        QCOMPARE(outcome.facts.fileSha256.size(), 64);
        // The log's row, and the desk's age from it.
        QCOMPARE(QString::fromStdString(sql("SELECT anchor_digest FROM public.database_backups "
                                            "ORDER BY taken_at DESC LIMIT 1")),
            outcome.facts.anchorDigest);
        QCOMPARE(QString::fromStdString(sql("SELECT file_sha256 FROM public.database_backups "
                                            "ORDER BY taken_at DESC LIMIT 1")),
            outcome.facts.fileSha256);
        QCOMPARE(
            QString::fromStdString(sql("SELECT count(*) FROM public.database_backups")), u"2"_qs);
        QVERIFY(QTest::qWaitFor(
            [&] { return indicator->text() == u"Last backup: just now"_qs; }, 10000));
        QVERIFY(!indicator->styleSheet().contains(u"#fff4ce"_qs));
        m_goodBackup = file;
        const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            QVERIFY(dialog->grab().save(dir + u"/backup-dialog.png"_qs));
    }

    /// Cancel stops the backup, leaves no file (nor a temporary one) and records nothing.
    void backupCancelLeavesNoFile()
    {
        const QString before
            = QString::fromStdString(sql("SELECT count(*) FROM public.database_backups"));
        QDir().mkpath(m_tmp.filePath(u"canceled"_qs));
        BackupDialog dialog(QString::fromStdString(m_db->conninfo()));
        dialog.setDestination(m_tmp.filePath(u"canceled/never.backup"_qs));
        QSignalSpy completed(&dialog, &BackupDialog::backupCompleted);
        dialog.start();
        dialog.cancel();
        QVERIFY(QTest::qWaitFor([&] { return !dialog.isRunning(); }, 60000));
        QVERIFY(completed.isEmpty());
        QVERIFY2(dialog.errorText().contains(u"canceled"_qs), qPrintable(dialog.errorText()));
        QCOMPARE(QDir(m_tmp.filePath(u"canceled"_qs))
                     .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
            QStringList());
        QCOMPARE(
            QString::fromStdString(sql("SELECT count(*) FROM public.database_backups")), before);
    }

    /// What a backup cannot do is said in a fixed sentence naming it, and leaves nothing: a
    /// viewer may not read every table; a file that exists is never overwritten; a database
    /// that is not there.
    void backupErrorsSaid_data()
    {
        QTest::addColumn<QString>("who");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("starts");
        QTest::newRow("a viewer")
            << u"viewer"_qs << u"errors/viewer.backup"_qs
            << u"Your database role may not read every table: a backup needs the database's owner"_qs;
        QTest::newRow("an existing file")
            << u"owner"_qs << u"mine/books.backup"_qs << u"/"_qs; // "<path> exists already"
        QTest::newRow("no such database") << u"nowhere"_qs << u"errors/nowhere.backup"_qs
                                          << u"The database could not be reached: "_qs;
    }

    void backupErrorsSaid()
    {
        QFETCH(QString, who);
        QFETCH(QString, file);
        QFETCH(QString, starts);
        QVERIFY(!m_goodBackup.isEmpty());
        const QString before
            = QString::fromStdString(sql("SELECT count(*) FROM public.database_backups"));
        const QString conninfo = who == u"viewer" ? m_viewer
            : who == u"owner"                     ? QString::fromStdString(m_db->conninfo())
                              : QString::fromStdString(m_db->conninfo()) + u" dbname=no_such_db"_qs;
        const QString path = m_tmp.filePath(file);
        const bool existed = QFileInfo::exists(path);
        const qint64 size = QFileInfo(path).size();
        BackupDialog dialog(conninfo);
        dialog.setDestination(path);
        dialog.start();
        QVERIFY(QTest::qWaitFor([&] { return !dialog.isRunning(); }, 60000));
        qInfo().noquote() << "said:" << dialog.errorText();
        QVERIFY2(dialog.errorText().startsWith(starts), qPrintable(dialog.errorText()));
        QVERIFY(dialog.summaryText().isEmpty());
        QCOMPARE(QFileInfo::exists(path), existed);
        QCOMPARE(QFileInfo(path).size(), size);
        QCOMPARE(
            QString::fromStdString(sql("SELECT count(*) FROM public.database_backups")), before);
    }

    /// Restore shows a file's manifest before doing anything, or what is wrong with it.
    void restoreShowsManifest_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<bool>("sound");
        QTest::newRow("good file") << u""_qs << true;
        QTest::newRow("bytes flipped in the dump") << u"flip"_qs << false;
        QTest::newRow("cut short") << u"truncate"_qs << false;
        QTest::newRow("not a backup") << u"text"_qs << false;
        QTest::newRow("no such file") << u"missing"_qs << false;
    }

    void restoreShowsManifest()
    {
        QFETCH(QString, damage);
        QFETCH(bool, sound);
        QVERIFY2(!m_goodBackup.isEmpty(), "backupEndToEnd wrote no backup");
        QFile good(m_goodBackup);
        QVERIFY(good.open(QIODevice::ReadOnly));
        QByteArray bytes = good.readAll();
        const QString file = m_tmp.filePath(u"manifest-%1.backup"_qs.arg(damage));
        if (damage == u"flip") {
            // In the middle of the file: the dump, whose digest the manifest holds.
            for (qsizetype i = bytes.size() / 2; i < bytes.size() / 2 + 16; ++i)
                bytes[i] = char(~bytes[i]);
        } else if (damage == u"truncate") {
            bytes.truncate(bytes.size() * 2 / 3);
        } else if (damage == u"text") {
            bytes = "these are not the books\n";
        }
        if (damage != u"missing") {
            QFile out(file);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(bytes);
        }
        RestoreDialog dialog;
        QSignalSpy read(&dialog, &RestoreDialog::manifestRead);
        dialog.setFile(damage.isEmpty() ? m_goodBackup : file);
        QVERIFY(read.wait(30000));
        QCOMPARE(dialog.isManifestOk(), sound);
        auto *start = dialog.findChild<QPushButton *>(u"restore-start"_qs);
        dialog.setEmbeddedTarget(m_tmp.filePath(u"not-created-%1"_qs.arg(damage)));
        QCOMPARE(start->isEnabled(), sound);
        const QString text = dialog.manifestText();
        if (sound) {
            QVERIFY2(text.contains(u"Snapshot taken: "_qs), qPrintable(text));
            QVERIFY2(text.contains(u"Written by: renewal-desk"_qs), qPrintable(text));
            QVERIFY2(text.contains(u"billing periods"_qs), qPrintable(text));
            // The newest migration the backed-up database had: this build's newest.
            QVERIFY2(text.contains(u"Schema: "_qs + newestMigrationName()), qPrintable(text));
            const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR");
            if (!dir.isEmpty()) {
                dialog.show();
                QVERIFY(dialog.grab().save(dir + u"/restore-manifest.png"_qs));
            }
        } else {
            QVERIFY2(!text.isEmpty(), "the file's error is said");
            QVERIFY2(!text.contains(u"Snapshot taken"_qs), qPrintable(text));
            QVERIFY2(text.startsWith(u"This file is not a usable Renewal Desk backup"_qs)
                    || text.startsWith(u"The backup file could not be read"_qs),
                qPrintable(text));
        }
    }

    /// A target with data is not offered: a directory that is not empty, a database that holds
    /// Renewal Desk data (the store refuses it; the desk has no force).
    void restoreNeverOverData()
    {
        QVERIFY(!m_goodBackup.isEmpty());
        RestoreDialog dialog;
        QSignalSpy read(&dialog, &RestoreDialog::manifestRead);
        dialog.setFile(m_goodBackup);
        QVERIFY(read.wait(30000));
        auto *start = dialog.findChild<QPushButton *>(u"restore-start"_qs);
        auto *problem = dialog.findChild<QLabel *>(u"restore-target-problem"_qs);
        dialog.setEmbeddedTarget(m_tmp.filePath(u"mine"_qs)); // holds books.backup
        QVERIFY(!start->isEnabled());
        QVERIFY2(problem->text().contains(u"is not empty"_qs), qPrintable(problem->text()));

        dialog.setServerTarget(QString::fromStdString(m_db->conninfo()));
        QVERIFY(start->isEnabled());
        const QString subscriptions
            = QString::fromStdString(sql("SELECT count(*) FROM subscriptions"));
        QSignalSpy finished(&dialog, &RestoreDialog::restoreFinished);
        dialog.start();
        QVERIFY(finished.wait(60000));
        QVERIFY(!dialog.outcome().ok);
        QVERIFY(!dialog.isVerified());
        QVERIFY(!dialog.openButton()->isVisible());
        QVERIFY2(!dialog.resultText().isEmpty(), "the refusal is said");
        QCOMPARE(QString::fromStdString(sql("SELECT count(*) FROM subscriptions")), subscriptions);
    }

    /// A digest kept apart from the file that is not the file's: refused before anything is
    /// restored, and the new directory the desk had made is gone again.
    void restoreRefusesAnotherDigest()
    {
        QVERIFY(!m_goodBackup.isEmpty());
        RestoreDialog dialog;
        QSignalSpy read(&dialog, &RestoreDialog::manifestRead);
        dialog.setFile(m_goodBackup);
        QVERIFY(read.wait(30000));
        const QString root = m_tmp.filePath(u"refused"_qs);
        dialog.setEmbeddedTarget(root);
        dialog.setExpectedDigest(QString(64, u'0'));
        QSignalSpy finished(&dialog, &RestoreDialog::restoreFinished);
        dialog.start();
        QVERIFY(finished.wait(120000));
        QVERIFY(!dialog.outcome().ok);
        QVERIFY2(dialog.resultText().contains(u"is not the one given"_qs),
            qPrintable(dialog.resultText()));
        QVERIFY(!dialog.openButton()->isVisible());
        QVERIFY(!QFileInfo::exists(root));
    }

    /// Restore into a new embedded data directory: the desk creates and starts the cluster,
    /// restores, and the verification says so in words; the copy can be opened.
    void restoreIntoNewEmbeddedVerifies()
    {
        QVERIFY(!m_goodBackup.isEmpty());
        RestoreDialog dialog;
        QSignalSpy read(&dialog, &RestoreDialog::manifestRead);
        dialog.setFile(m_goodBackup);
        QVERIFY(read.wait(30000));
        const QString root = m_tmp.filePath(u"restored"_qs);
        dialog.setEmbeddedTarget(root);
        // The digest the Back up summary showed, kept apart: it is the file's.
        dialog.setExpectedDigest(QString::fromStdString(
            sql("SELECT file_sha256 FROM public.database_backups ORDER BY taken_at DESC LIMIT 1")));
        QSignalSpy progress(&dialog, &RestoreDialog::restoreFinished);
        QSignalSpy open(&dialog, &RestoreDialog::openRequested);
        auto *job = dialog.findChild<rd::ui::BackupJob *>();
        QVERIFY(job);
        QSignalSpy phases(job, &rd::ui::BackupJob::progress);
        dialog.show();
        dialog.start();
        m_clusters << root;
        QVERIFY(progress.wait(180000));
        // The file is checked before the cluster is made (a damaged one makes none), and the
        // cluster's start is said while it happens.
        QStringList said;
        for (const auto &args : phases)
            if (said.isEmpty() || said.last() != args.at(0).toString())
                said << args.at(0).toString();
        QVERIFY2(said.indexOf(u"check"_qs) >= 0
                && said.indexOf(u"check"_qs) < said.indexOf(u"cluster"_qs)
                && said.indexOf(u"cluster"_qs) < said.indexOf(u"restore"_qs),
            qPrintable(said.join(u", "_qs)));
        QVERIFY2(dialog.isVerified(), qPrintable(dialog.resultText()));
        QVERIFY2(dialog.resultText().startsWith(
                     u"Verified: counts match the backup, the audit anchor matches"_qs),
            qPrintable(dialog.resultText()));
        QVERIFY2(
            dialog.resultText().contains(u" chains intact."_qs), qPrintable(dialog.resultText()));
        QVERIFY(dialog.openButton()->isVisible());
        const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            QVERIFY(dialog.grab().save(dir + u"/restore-verified.png"_qs));
        // The restored copy holds the books.
        const std::string conninfo = dialog.outcome().conninfo.toStdString();
        pqxx::connection restored(conninfo);
        pqxx::nontransaction q(restored);
        QCOMPARE(q.exec1("SELECT count(*) FROM subscription_billing_periods")[0].as<std::string>(),
            sql("SELECT count(*) FROM subscription_billing_periods"));
        QTest::mouseClick(dialog.openButton(), Qt::LeftButton);
        QCOMPARE(open.size(), 1);
        QCOMPARE(open[0][0].toString(), dialog.outcome().conninfo);
    }

    /// #42, item 6: Back up… of a database whose audit chain is broken writes the file and says
    /// so first, naming the break; Restore… shows it in the manifest and restores that file as
    /// verified, with the chains broken as recorded, said in amber.
    void brokenChainsBackupIsSaidAndRestores()
    {
        rdtest::TestDatabase source("ui_backup_broken");
        rdtest::importSubscriptions(
            source.conninfo(), rdtest::subscriptionLine("stripe-main", "sub_k") + "\n");
        rd::RenewalApplier applier(source.conninfo());
        QVERIFY(applier.apply(rdtest::februaryRenewal("sub_k", "evt_k", "in_k")).outcome
            == rd::ApplyOutcome::Applied);
        std::string row;
        {
            pqxx::connection conn(source.conninfo());
            pqxx::work tx(conn);
            tx.exec0("SET LOCAL session_replication_role = replica");
            row = tx.exec1("UPDATE subscription_transition_audits SET actor_id = 'forged' WHERE "
                           "transition = 'subscription_renewed' RETURNING id")[0]
                      .as<std::string>();
            tx.commit();
        }
        const QString file = m_tmp.filePath(u"broken/books.backup"_qs);
        BackupDialog backup(QString::fromStdString(source.conninfo()));
        backup.setDestination(file);
        QSignalSpy completed(&backup, &BackupDialog::backupCompleted);
        backup.show();
        backup.start();
        QVERIFY(QTest::qWaitFor([&] { return !backup.isRunning(); }, 120000));
        QCOMPARE(completed.size(), 1);
        QVERIFY(QFileInfo::exists(file));
        const QString where = u"audit row %1 at position 2: row content does not match its hash "
                              "(altered)"_qs.arg(QString::fromStdString(row));
        QVERIFY2(backup.errorText().startsWith(u"The database's audit chains were already broken "
                                               "when this backup was taken: 1 break(s), first: "
                                               "subscription stripe-main sub_k"_qs)
                && backup.errorText().contains(where),
            qPrintable(backup.errorText()));
        QVERIFY(isRed(backup.findChild<QLabel *>(u"backup-error"_qs)));
        QVERIFY2(
            backup.summaryText().startsWith(u"Warning: taken with the audit chains broken: "_qs),
            qPrintable(backup.summaryText()));
        const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            QVERIFY(backup.grab().save(dir + u"/backup-broken-chains.png"_qs));
        {
            // The status bar and the Overview say the newest backup has the chains broken.
            rd::ui::DatabasePool pool(QString::fromStdString(source.conninfo()));
            BackupAgeModel model(&pool);
            QSignalSpy changed(&model, &BackupAgeModel::changed);
            model.refresh();
            QVERIFY(changed.wait(10000) || !changed.isEmpty());
            QCOMPARE(model.state().newest->chainBreaks, 1);
            QCOMPARE(model.status().level, BackupAgeStatus::Level::Broken);
            QVERIFY2(model.status().text.endsWith(u", audit chains broken"_qs),
                qPrintable(model.status().text));
        }

        rdtest::TestDatabase target("ui_backup_broken_dst", false);
        RestoreDialog restore;
        QSignalSpy read(&restore, &RestoreDialog::manifestRead);
        restore.setFile(file);
        QVERIFY(read.wait(30000));
        QVERIFY2(restore.manifestText().contains(u"Audit chains: BROKEN when the backup was "
                                                 "taken: 1 break(s), first: "_qs),
            qPrintable(restore.manifestText()));
        restore.setServerTarget(QString::fromStdString(target.conninfo()));
        QSignalSpy finished(&restore, &RestoreDialog::restoreFinished);
        restore.show();
        restore.start();
        QVERIFY(finished.wait(180000));
        QVERIFY2(restore.isVerified(), qPrintable(restore.resultText()));
        QVERIFY2(restore.resultText().startsWith(u"Verified, but the audit chains are broken: the "
                                                 "backup was taken with 1 break(s)"_qs)
                && restore.resultText().contains(where),
            qPrintable(restore.resultText()));
        if (!dir.isEmpty())
            QVERIFY(restore.grab().save(dir + u"/restore-broken-chains.png"_qs));
    }
};

QTEST_MAIN(TestUiBackup)
#include "tst_ui_backup.moc"
