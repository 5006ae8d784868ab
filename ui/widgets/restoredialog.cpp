#include "ui/widgets/restoredialog.h"
#include "ui/widgets/backupprogresspanel.h"

#include "ui/models/format.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace rd::ui {
namespace {

const QString kRed = u"color: #b02020;"_qs;
const QString kGreen = u"color: #1b6e20; font-weight: bold;"_qs;
// Verified, with chains that were broken when the backup was taken (#42, item 6).
const QString kAmber = u"color: #8a5a00; font-weight: bold;"_qs;

} // namespace

RestoreDialog::RestoreDialog(QWidget *parent)
    : QDialog(parent)
    , m_job(new BackupJob(this))
    , m_file(new QLineEdit)
    , m_manifest(new QLabel)
    , m_toEmbedded(new QRadioButton(tr("A new embedded database, in the directory:")))
    , m_toServer(new QRadioButton(tr("An empty database on a server (connection string):")))
    , m_directory(new QLineEdit)
    , m_browseDirectory(new QPushButton(tr("Browse…")))
    , m_conninfo(new QLineEdit)
    , m_targetProblem(new QLabel)
    , m_expectedDigest(new QLineEdit)
    , m_progress(new BackupProgressPanel(u"restore-progress"_qs))
    , m_result(new QLabel)
    , m_start(new QPushButton(tr("Restore")))
    , m_open(new QPushButton(tr("Open the restored database")))
    , m_cancel(new QPushButton(tr("Close")))
{
    setObjectName(u"restore-dialog"_qs);
    setWindowTitle(tr("Restore a backup"));

    auto *intro = new QLabel(tr("Restores a backup into a new, empty database and proves it: "
                                "the counts against the backup's, the audit anchor, and every "
                                "audit chain. A restore never goes over existing data."));
    intro->setWordWrap(true);

    m_file->setObjectName(u"restore-file"_qs);
    m_file->setPlaceholderText(tr("a .backup file written by File › Back up… or renewalctl"));
    m_file->setMinimumWidth(m_file->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 60);
    connect(m_file, &QLineEdit::editingFinished, this, &RestoreDialog::readManifest);
    auto *browse = new QPushButton(tr("Browse…"));
    browse->setObjectName(u"restore-browse-file"_qs);
    connect(browse, &QPushButton::clicked, this, &RestoreDialog::browseFile);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);

    m_manifest->setObjectName(u"restore-manifest"_qs);
    m_manifest->setWordWrap(true);
    m_manifest->setTextFormat(Qt::RichText);
    m_manifest->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_manifest->setText(tr("Choose a backup file: what it holds shows here before anything is "
                           "restored."));

    m_toEmbedded->setObjectName(u"restore-to-embedded"_qs);
    m_toServer->setObjectName(u"restore-to-server"_qs);
    auto *group = new QButtonGroup(this);
    group->addButton(m_toEmbedded);
    group->addButton(m_toServer);
    m_toEmbedded->setChecked(true);
    m_directory->setObjectName(u"restore-directory"_qs);
    m_directory->setText(BackupJob::defaultRestoreDirectory());
    m_browseDirectory->setObjectName(u"restore-browse-directory"_qs);
    connect(m_browseDirectory, &QPushButton::clicked, this, &RestoreDialog::browseDirectory);
    auto *dirRow = new QHBoxLayout;
    dirRow->setContentsMargins(24, 0, 0, 0);
    dirRow->addWidget(m_directory, 1);
    dirRow->addWidget(m_browseDirectory);
    m_conninfo->setObjectName(u"restore-conninfo"_qs);
    m_conninfo->setPlaceholderText(u"host=db.example.com dbname=renewal_desk user=renewal"_qs);
    m_conninfo->setToolTip(tr("A libpq connection string to an empty database; no password "
                              "here (~/.pgpass keeps it)."));
    auto *serverRow = new QHBoxLayout;
    serverRow->setContentsMargins(24, 0, 0, 0);
    serverRow->addWidget(m_conninfo, 1);
    m_targetProblem->setObjectName(u"restore-target-problem"_qs);
    m_targetProblem->setStyleSheet(kRed);
    m_targetProblem->setWordWrap(true);
    for (QLineEdit *edit : {m_directory, m_conninfo})
        connect(edit, &QLineEdit::textChanged, this, &RestoreDialog::updateStart);
    connect(m_toEmbedded, &QRadioButton::toggled, this, &RestoreDialog::updateStart);

    auto *form = new QFormLayout;
    form->addRow(tr("Backup file:"), fileRow);
    form->addRow(QString(), m_manifest);
    m_expectedDigest->setObjectName(u"restore-expected-digest"_qs);
    m_expectedDigest->setPlaceholderText(
        tr("optional: the file's SHA-256 noted when it was taken"));
    m_expectedDigest->setToolTip(
        tr("The file checks itself; the file's SHA-256 kept elsewhere (the Back up summary, "
           "renewalctl's \"file sha256\", a published note) also proves it is the very backup "
           "taken then. Any other file is refused before anything is restored."));
    form->addRow(tr("Digest you kept:"), m_expectedDigest);
    auto *targetBox = new QVBoxLayout;
    targetBox->addWidget(m_toEmbedded);
    targetBox->addLayout(dirRow);
    targetBox->addWidget(m_toServer);
    targetBox->addLayout(serverRow);
    targetBox->addWidget(m_targetProblem);
    form->addRow(tr("Restore into:"), targetBox);

    m_result->setObjectName(u"restore-result"_qs);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setVisible(false);

    m_start->setObjectName(u"restore-start"_qs);
    m_open->setObjectName(u"restore-open"_qs);
    m_open->setVisible(false);
    m_open->setToolTip(tr("Switch the desk to the restored database."));
    m_cancel->setObjectName(u"restore-cancel"_qs);
    auto *buttons = new QDialogButtonBox;
    buttons->addButton(m_start, QDialogButtonBox::AcceptRole);
    buttons->addButton(m_open, QDialogButtonBox::ActionRole);
    buttons->addButton(m_cancel, QDialogButtonBox::RejectRole);
    connect(m_start, &QPushButton::clicked, this, &RestoreDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &RestoreDialog::reject);
    connect(m_open, &QPushButton::clicked, this, [this] {
        emit openRequested(m_outcome.conninfo);
        accept();
    });

    connect(m_job, &BackupJob::progress, m_progress, &BackupProgressPanel::showProgress);
    connect(m_job, &BackupJob::restoreFinished, this, &RestoreDialog::finished);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_result);
    layout->addStretch(1);
    layout->addWidget(buttons);
    updateStart();
}

void RestoreDialog::setFile(const QString &file)
{
    m_file->setText(file);
    readManifest();
}

void RestoreDialog::setEmbeddedTarget(const QString &directory)
{
    m_toEmbedded->setChecked(true);
    m_directory->setText(directory);
}

void RestoreDialog::setExpectedDigest(const QString &digest)
{
    m_expectedDigest->setText(digest);
}

void RestoreDialog::setServerTarget(const QString &conninfo)
{
    m_toServer->setChecked(true);
    m_conninfo->setText(conninfo);
}

bool RestoreDialog::isRunning() const
{
    return m_job->isRunning();
}

QString RestoreDialog::manifestText() const
{
    return m_manifestPlain;
}

QString RestoreDialog::resultText() const
{
    return m_result->isVisibleTo(this) ? m_result->text() : QString();
}

void RestoreDialog::browseFile()
{
    const QString start = m_file->text().isEmpty()
        ? QFileInfo(BackupJob::defaultBackupPath()).absolutePath()
        : m_file->text();
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Restore from"), start, tr("Renewal Desk backups (*.backup);;All files (*)"));
    if (!file.isEmpty())
        setFile(file);
}

void RestoreDialog::browseDirectory()
{
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("A new, empty directory for the restored database"), m_directory->text());
    if (!dir.isEmpty())
        m_directory->setText(dir);
}

void RestoreDialog::readManifest()
{
    const QString file = m_file->text().trimmed();
    m_manifestOk = false;
    m_manifestPlain.clear();
    if (file.isEmpty()) {
        m_manifestRequest.cancel();
        updateStart();
        return;
    }
    m_manifest->setStyleSheet({});
    m_manifest->setText(tr("Reading %1…").arg(file.toHtmlEscaped()));
    updateStart();
    deliverResult(
        this, BackupJob::readManifest(file),
        [this](const ManifestResult &m) {
            showManifest(m);
            emit manifestRead();
        },
        [this](const QString &message) {
            showManifest({false, {false, message, message}, {}});
            emit manifestRead();
        },
        m_manifestRequest.next());
}

void RestoreDialog::showManifest(const ManifestResult &m)
{
    m_manifestOk = m.ok;
    if (!m.ok) {
        m_manifest->setStyleSheet(kRed);
        m_manifest->setText(m.error.text.toHtmlEscaped());
        m_manifestPlain = m.error.text;
        updateStart();
        return;
    }
    const BackupFacts &f = m.facts;
    const QString taken = f.takenAt.isValid()
        ? tr("%1 (%2)").arg(format::localDateTime(f.takenAt), format::utcTooltip(f.takenAt))
        : tr("unknown");
    const QList<QPair<QString, QString>> rows {
        {tr("Snapshot taken"), taken},
        {tr("Written by"), f.program},
        {tr("Schema"), f.schemaVersion},
        {tr("From"), f.source},
        {tr("It holds"), describeCounts(f, true)},
        {tr("Audit anchor"),
            tr("digest %1…%2, %3 chain heads")
                .arg(f.anchorDigest.left(12), f.anchorDigest.right(8),
                    QLocale().toString(f.anchorHeads))},
        // What the backup found of the chains when it was taken (#42, item 6), before the
        // restore: a file taken with broken chains says so here already.
        {tr("Audit chains"),
            !f.chainsVerified      ? tr("not verified when the backup was taken (an older file)")
                : f.chainsIntact() ? tr("intact when the backup was taken")
                                   : tr("BROKEN when the backup was taken: %1 break(s), first: %2")
                                         .arg(QLocale().toString(f.chainBreaks)
                                                 + (f.moreChainBreaks ? u"+"_qs : QString()),
                                             f.brokenChains.value(0))},
        {tr("Database dump"), fileSizeText(f.dumpBytes)},
        {tr("File digest"), tr("SHA-256 %1…%2").arg(f.fileSha256.left(12), f.fileSha256.right(8))},
    };
    QString html = u"<table cellspacing='2'>"_qs;
    QStringList plain;
    for (const auto &[name, value] : rows) {
        html
            += u"<tr><td nowrap style='color:#5a6270; padding-right:8px'>%1</td><td>%2</td></tr>"_qs
                   .arg(name.toHtmlEscaped(), value.toHtmlEscaped());
        plain << name + u": "_qs + value;
    }
    plain << tr("Audit anchor digest: %1").arg(f.anchorDigest);
    plain << tr("File SHA-256: %1").arg(f.fileSha256);
    html += u"</table>"_qs;
    m_manifest->setStyleSheet({});
    m_manifest->setText(html);
    m_manifestPlain = plain.join(u'\n');
    updateStart();
    adjustSize();
}

RestoreTarget RestoreDialog::target() const
{
    const QString digest = m_expectedDigest->text().trimmed();
    if (m_toEmbedded->isChecked())
        return {m_directory->text().trimmed(), {}, digest};
    return {{}, m_conninfo->text().trimmed(), digest};
}

void RestoreDialog::updateStart()
{
    const bool embedded = m_toEmbedded->isChecked();
    m_directory->setEnabled(embedded && !isRunning());
    m_browseDirectory->setEnabled(embedded && !isRunning());
    m_conninfo->setEnabled(!embedded && !isRunning());
    QString problem;
    const RestoreTarget t = target();
    // Just restored there: the target is full of the restored copy, which is no problem.
    const bool restoredHere = m_outcome.ok && t.embeddedDirectory == m_outcome.embeddedDirectory
        && (embedded || t.conninfo == m_outcome.conninfo);
    if (restoredHere)
        problem.clear();
    else if (embedded)
        problem = newEmbeddedDirectoryProblem(m_directory->text().trimmed());
    else if (m_conninfo->text().trimmed().isEmpty())
        problem = tr("Give the connection string of an empty database.");
    // "Choose a directory" is not a problem before anything was typed.
    m_targetProblem->setText(problem);
    m_targetProblem->setVisible(!problem.isEmpty());
    m_start->setEnabled(!isRunning() && m_manifestOk && problem.isEmpty() && !restoredHere);
    m_start->setToolTip(!m_manifestOk ? tr("Choose a sound backup file first.")
            : !problem.isEmpty()      ? problem
                                      : tr("Restore the backup and verify it."));
}

void RestoreDialog::start()
{
    if (isRunning() || !m_manifestOk)
        return;
    const RestoreTarget t = target();
    m_result->setVisible(false);
    m_open->setVisible(false);
    m_outcome = {};
    setRunning(true);
    m_progress->begin();
    m_job->startRestore(m_file->text().trimmed(), t);
}

void RestoreDialog::cancel()
{
    if (isRunning()) {
        m_progress->showCanceling();
        m_cancel->setEnabled(false);
        m_job->cancel();
    }
}

void RestoreDialog::reject()
{
    if (isRunning()) {
        cancel();
        return;
    }
    QDialog::reject();
}

void RestoreDialog::setRunning(bool running)
{
    m_file->setEnabled(!running);
    m_expectedDigest->setEnabled(!running);
    m_toEmbedded->setEnabled(!running);
    m_toServer->setEnabled(!running);
    m_cancel->setEnabled(true);
    m_cancel->setText(running ? tr("Cancel") : tr("Close"));
    if (!running)
        m_progress->end();
    updateStart();
}

void RestoreDialog::finished(const RestoreResult &outcome)
{
    m_outcome = outcome;
    setRunning(false);
    if (!outcome.ok) {
        m_result->setStyleSheet(outcome.error.canceled ? u"color: #5c4400;"_qs : kRed);
        QString text = outcome.error.text;
        if (outcome.error.canceled && !outcome.embeddedDirectory.isEmpty())
            text += u" "_qs + tr("The new directory was removed again.");
        m_result->setText(text);
        m_result->setVisible(true);
        emit restoreFinished();
        return;
    }
    m_result->setStyleSheet(outcome.brokenAsRecorded ? kAmber : outcome.verified ? kGreen : kRed);
    QString text = describeRestore(outcome);
    if (!outcome.rolesCreated.isEmpty())
        text += u"\n"_qs
            + tr("Roles created on the server: %1.").arg(outcome.rolesCreated.join(u", "_qs));
    if (!outcome.migrationsApplied.isEmpty())
        text += u"\n"_qs
            + tr("The backup's schema was older: %1 migration(s) applied after it verified.")
                  .arg(outcome.migrationsApplied.size());
    if (outcome.verified && !outcome.embeddedDirectory.isEmpty())
        text += u"\n"_qs
            + tr("The restored database runs in %1; the desk starts it again when it is opened.")
                  .arg(outcome.embeddedDirectory);
    m_result->setText(text);
    m_result->setVisible(true);
    // Only a verified copy is offered to work on.
    m_open->setVisible(outcome.verified);
    if (outcome.verified)
        m_open->setDefault(true);
    adjustSize(); // room for the result
    emit restoreFinished();
}

} // namespace rd::ui
