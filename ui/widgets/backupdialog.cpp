#include "ui/widgets/backupdialog.h"
#include "ui/widgets/backupprogresspanel.h"

#include "ui/models/format.h"
#include "ui/models/lastbackup.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace rd::ui {
namespace {

QLabel *valueLabel(const QString &objectName)
{
    auto *label = new QLabel;
    label->setObjectName(objectName);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

} // namespace

BackupDialog::BackupDialog(const QString &conninfo, QWidget *parent)
    : QDialog(parent)
    , m_conninfo(conninfo)
    , m_job(new BackupJob(this))
    , m_file(new QLineEdit)
    , m_browse(new QPushButton(tr("Browse…")))
    , m_warnDays(new QSpinBox)
    , m_progress(new BackupProgressPanel(u"backup-progress"_qs))
    , m_summary(new QWidget)
    , m_summaryForm(new QFormLayout)
    , m_summaryHeading(new QLabel)
    , m_error(new QLabel)
    , m_digest(new QLabel)
    , m_start(new QPushButton(tr("Back up")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_buttons(new QDialogButtonBox)
{
    setObjectName(u"backup-dialog"_qs);
    setWindowTitle(tr("Back up the database"));

    auto *intro = new QLabel(tr("Copies the whole database — subscriptions, ledger, cases and "
                                "the audit trail — into one file, from one consistent snapshot, "
                                "with the audit anchor and the counts to prove a restore by. "
                                "The desk stays usable while it runs."));
    intro->setWordWrap(true);

    m_file->setObjectName(u"backup-file"_qs);
    m_file->setText(BackupJob::defaultBackupPath());
    m_file->setMinimumWidth(m_file->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 60);
    m_browse->setObjectName(u"backup-browse"_qs);
    connect(m_browse, &QPushButton::clicked, this, &BackupDialog::browse);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(m_browse);

    m_warnDays->setObjectName(u"backup-warn-days"_qs);
    m_warnDays->setRange(1, 365);
    m_warnDays->setValue(backupWarnAfterDaysSetting());
    m_warnDays->setSuffix(tr(" days"));
    m_warnDays->setToolTip(tr("The status bar and the Overview turn amber when the last backup "
                              "is older than this."));
    connect(m_warnDays, &QSpinBox::valueChanged, this, [this](int days) {
        setBackupWarnAfterDaysSetting(days);
        emit warnAfterDaysChanged(days);
    });

    auto *form = new QFormLayout;
    form->addRow(tr("Save to:"), fileRow);
    auto *warnRow = new QHBoxLayout;
    warnRow->addWidget(m_warnDays);
    warnRow->addWidget(new QLabel(tr("(the status bar and the Overview warn after that)")));
    warnRow->addStretch(1);
    form->addRow(tr("Warn when older than:"), warnRow);

    m_error->setObjectName(u"backup-error"_qs);
    m_error->setStyleSheet(u"color: #b02020;"_qs);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setVisible(false);

    m_summaryHeading->setObjectName(u"backup-summary-heading"_qs);
    m_summaryHeading->setStyleSheet(u"color: #1b6e20; font-weight: bold;"_qs);
    m_digest->setObjectName(u"backup-digest"_qs);
    m_digest->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_digest->setToolTip(tr("The SHA-256 digest of the whole file: keep it apart from the file "
                            "(a note, a ticket) to prove later that the file you restore is the "
                            "one backed up. File › Restore… refuses any other file."));
    auto *copy = new QPushButton(tr("Copy"));
    copy->setObjectName(u"backup-copy-digest"_qs);
    connect(copy, &QPushButton::clicked, this,
        [this] { QApplication::clipboard()->setText(m_fullDigest); });
    auto *digestRow = new QHBoxLayout;
    digestRow->addWidget(m_digest);
    digestRow->addWidget(copy);
    digestRow->addStretch(1);
    auto *summaryLayout = new QVBoxLayout(m_summary);
    summaryLayout->setContentsMargins(0, 0, 0, 0);
    summaryLayout->addWidget(m_summaryHeading);
    summaryLayout->addLayout(m_summaryForm);
    m_summaryForm->addRow(tr("File:"), valueLabel(u"backup-summary-file"_qs));
    m_summaryForm->addRow(tr("Size:"), valueLabel(u"backup-summary-size"_qs));
    m_summaryForm->addRow(tr("Snapshot taken:"), valueLabel(u"backup-summary-taken"_qs));
    m_summaryForm->addRow(tr("It holds:"), valueLabel(u"backup-summary-counts"_qs));
    m_summaryForm->addRow(tr("File digest (SHA-256):"), digestRow);
    m_summary->setVisible(false);

    m_start->setObjectName(u"backup-start"_qs);
    m_start->setDefault(true);
    m_cancel->setObjectName(u"backup-cancel"_qs);
    m_buttons->addButton(m_start, QDialogButtonBox::AcceptRole);
    m_buttons->addButton(m_cancel, QDialogButtonBox::RejectRole);
    connect(m_start, &QPushButton::clicked, this, &BackupDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &BackupDialog::reject);

    connect(m_job, &BackupJob::progress, m_progress, &BackupProgressPanel::showProgress);
    connect(m_job, &BackupJob::backupFinished, this, &BackupDialog::finished);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_error);
    layout->addWidget(m_summary);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
}

QString BackupDialog::destination() const
{
    return m_file->text().trimmed();
}

void BackupDialog::setDestination(const QString &file)
{
    m_file->setText(file);
}

bool BackupDialog::isRunning() const
{
    return m_job->isRunning();
}

QString BackupDialog::summaryText() const
{
    return m_summaryPlain;
}

QString BackupDialog::errorText() const
{
    return m_error->isVisibleTo(this) ? m_error->text() : QString();
}

void BackupDialog::browse()
{
    const QString start = destination().isEmpty() ? QDir::homePath() : destination();
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Back up to"), start, tr("Renewal Desk backups (*.backup);;All files (*)"));
    if (!file.isEmpty())
        m_file->setText(file);
}

void BackupDialog::start()
{
    if (isRunning())
        return;
    m_error->setVisible(false);
    m_summary->setVisible(false);
    m_summaryPlain.clear();
    const QString file = destination();
    if (file.isEmpty()) {
        m_error->setText(tr("Choose where to save the backup file."));
        m_error->setVisible(true);
        return;
    }
    if (QFileInfo::exists(file)) {
        m_error->setText(tr("%1 exists already: choose a new file name (a backup never "
                            "overwrites another).")
                             .arg(file));
        m_error->setVisible(true);
        return;
    }
    // The backups/ directory of a new data directory does not exist yet. Made private, as
    // renewalctl makes it: a backup holds every table, raw bodies included.
    const QString dir = QFileInfo(file).absolutePath();
    if (!QFileInfo::exists(dir) && QDir().mkpath(dir))
        QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    setRunning(true);
    m_progress->begin();
    m_job->startBackup(m_conninfo, file);
}

void BackupDialog::cancel()
{
    if (isRunning()) {
        m_progress->showCanceling();
        m_cancel->setEnabled(false);
        m_job->cancel();
    }
}

void BackupDialog::reject()
{
    // Cancel while it runs stops the backup (the store removes the partial file); the dialog
    // stays to say so. Otherwise it closes.
    if (isRunning()) {
        cancel();
        return;
    }
    QDialog::reject();
}

void BackupDialog::setRunning(bool running)
{
    m_file->setEnabled(!running);
    m_browse->setEnabled(!running);
    m_start->setEnabled(!running);
    m_cancel->setEnabled(true);
    m_cancel->setText(running ? tr("Cancel") : tr("Close"));
    if (!running)
        m_progress->end();
}

void BackupDialog::finished(const BackupResult &outcome)
{
    setRunning(false);
    if (!outcome.ok) {
        m_error->setText(outcome.error.text);
        m_error->setStyleSheet(
            outcome.error.canceled ? u"color: #5c4400;"_qs : u"color: #b02020;"_qs);
        m_error->setVisible(true);
        return;
    }
    const BackupFacts &f = outcome.facts;
    const QString taken = f.takenAt.isValid()
        ? tr("%1 (%2)").arg(format::localDateTime(f.takenAt), format::utcTooltip(f.takenAt))
        : tr("unknown");
    QString counts = describeCounts(f);
    const QString others = describeCounts(f, true).mid(counts.size());
    if (others.size() > 2)
        counts += u"\n"_qs + tr("and %1").arg(others.mid(2));
    m_summaryHeading->setText(tr("Backup complete."));
    m_summaryHeading->setStyleSheet(u"color: #1b6e20; font-weight: bold;"_qs);
    findChild<QLabel *>(u"backup-summary-file"_qs)->setText(outcome.file);
    findChild<QLabel *>(u"backup-summary-size"_qs)->setText(fileSizeText(outcome.fileBytes));
    findChild<QLabel *>(u"backup-summary-taken"_qs)->setText(taken);
    findChild<QLabel *>(u"backup-summary-counts"_qs)->setText(counts);
    m_fullDigest = f.fileSha256;
    // Short, as people compare digests by their ends; whole in the tooltip and the clipboard.
    m_digest->setText(f.fileSha256.size() > 24
            ? f.fileSha256.left(12) + u"…"_qs + f.fileSha256.right(8)
            : f.fileSha256);
    m_digest->setToolTip(f.fileSha256);
    m_summary->setVisible(true);
    m_summaryPlain = tr("Backup complete.\nFile: %1\nSize: %2\nSnapshot taken: %3\nIt holds: "
                        "%4\nFile SHA-256: %5\nAudit anchor: %6")
                         .arg(outcome.file, fileSizeText(outcome.fileBytes), taken, counts,
                             f.fileSha256, f.anchorDigest);
    QStringList warnings;
    if (!f.chainsIntact()) {
        // Written all the same (an older backup may be all there is otherwise), and said first
        // (#42, item 6): the file records the breaks, and its restore accepts exactly those.
        m_summaryHeading->setText(tr("Backup complete, but the audit chains are broken."));
        m_summaryHeading->setStyleSheet(u"color: #b02020; font-weight: bold;"_qs);
        const QString count
            = QLocale().toString(f.chainBreaks) + (f.moreChainBreaks ? u"+"_qs : QString());
        warnings << tr("The database's audit chains were already broken when this backup was "
                       "taken: %1 break(s), first: %2. The file records them: a restore of it "
                       "accepts exactly these breaks, says so, and refuses any other. Find out "
                       "why in the Audit log (Verify).")
                        .arg(count, f.brokenChains.value(0));
        m_summaryPlain.prepend(
            tr("Warning: taken with the audit chains broken: %1").arg(f.brokenChains.join(u"; "_qs))
            + u'\n');
    }
    if (!outcome.recorded)
        // Sound, but the desk's "last backup" will not know of it: say why, in amber.
        warnings << tr("The backup is complete, but the database's backup log could not "
                       "record it (%1): the desk's \"Last backup\" will not show it.")
                        .arg(outcome.notRecorded);
    if (!warnings.isEmpty()) {
        m_error->setText(warnings.join(u"\n\n"_qs));
        m_error->setStyleSheet(
            f.chainsIntact() ? u"color: #8a5a00;"_qs : u"color: #b02020; font-weight: bold;"_qs);
        m_error->setVisible(true);
    }
    // The next backup gets a name of its own.
    m_file->setText(QFileInfo(outcome.file).absolutePath() + u'/'
        + QFileInfo(BackupJob::defaultBackupPath()).fileName());
    adjustSize(); // room for the summary
    emit backupCompleted(outcome);
}

} // namespace rd::ui
