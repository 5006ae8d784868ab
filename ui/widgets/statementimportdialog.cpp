#include "ui/widgets/statementimportdialog.h"

#include "ui/actions/monthclose.h"
#include "ui/models/asyncresult.h"
#include "ui/models/databasepool.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimeZone>
#include <QVBoxLayout>

namespace rd::ui {

StatementImportDialog::StatementImportDialog(
    const QString &conninfo, DatabasePool *pool, QWidget *parent, Importer importer)
    : QDialog(parent)
    , m_importer(importer ? std::move(importer) : [conninfo](const StatementImportRequest &r) {
        return importStatementAsync(conninfo, r);
    })
{
    setWindowTitle(tr("Import provider statement"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("The provider's own list of paid invoices, as its API returns "
                                "it (one or more pages) or as JSON lines. Each renewal in it is "
                                "matched with what is recorded; a missing one is recorded through "
                                "the renewal core; what differs becomes a case."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *form = new QFormLayout;
    m_provider = new QComboBox(this);
    m_provider->setEditable(true);
    form->addRow(tr("&Provider:"), m_provider);

    auto *filesRow = new QHBoxLayout;
    m_files = new QListWidget(this);
    m_files->setMinimumHeight(90);
    auto *add = new QPushButton(tr("&Add files…"), this);
    auto *remove = new QPushButton(tr("&Remove"), this);
    auto *fileButtons = new QVBoxLayout;
    fileButtons->addWidget(add);
    fileButtons->addWidget(remove);
    fileButtons->addStretch();
    filesRow->addWidget(m_files, 1);
    filesRow->addLayout(fileButtons);
    form->addRow(tr("Files:"), filesRow);

    // Unticked, the store's default (#42, 4): the whole month of the file's paid days, as the
    // CLI takes it, so that a month's file can close its month. Ticked, these days, which
    // start at the month before this one, as a month-end reconciliation would cover.
    const QDate today = QDateTime::currentDateTimeUtc().date();
    const QDate firstOfMonth(today.year(), today.month(), 1);
    auto *daysRow = new QHBoxLayout;
    m_ownDays = new QCheckBox(tr("Only these days:"), this);
    m_ownDays->setToolTip(tr("Unticked: the whole month the statement's paid days fall in"));
    m_from = new QDateEdit(firstOfMonth.addMonths(-1), this);
    m_to = new QDateEdit(firstOfMonth.addDays(-1), this);
    for (auto *d : {m_from, m_to}) {
        d->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
        d->setCalendarPopup(true);
        d->setEnabled(false);
    }
    daysRow->addWidget(m_ownDays);
    daysRow->addWidget(m_from);
    daysRow->addWidget(new QLabel(tr("to"), this));
    daysRow->addWidget(m_to);
    daysRow->addWidget(new QLabel(tr("(UTC days, both included)"), this));
    daysRow->addStretch();
    form->addRow(tr("Days:"), daysRow);
    m_daysHint = new QLabel(this);
    m_daysHint->setWordWrap(true);
    form->addRow(QString(), m_daysHint);
    layout->addLayout(form);

    m_report = new QPlainTextEdit(this);
    m_report->setReadOnly(true);
    m_report->setLineWrapMode(QPlainTextEdit::NoWrap); // the report is aligned in columns
    m_report->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_report->setPlaceholderText(tr("Preview first: it runs the whole import and keeps nothing."));
    m_report->setMinimumSize(640, 200);
    layout->addWidget(m_report, 1);
    m_status = new QLabel(this);
    layout->addWidget(m_status);

    auto *buttons = new QDialogButtonBox(this);
    m_preview = buttons->addButton(tr("&Preview"), QDialogButtonBox::ActionRole);
    m_import = buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(buttons);

    connect(add, &QPushButton::clicked, this, [this] {
        addFiles(QFileDialog::getOpenFileNames(
            this, tr("Statement files"), {}, tr("Provider lists (*.json *.jsonl);;All files (*)")));
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        qDeleteAll(m_files->selectedItems());
        updateButtons();
    });
    connect(m_ownDays, &QCheckBox::toggled, this, [this](bool on) {
        m_from->setEnabled(on);
        m_to->setEnabled(on);
        updateButtons();
    });
    connect(m_from, &QDateEdit::dateChanged, this, &StatementImportDialog::updateButtons);
    connect(m_to, &QDateEdit::dateChanged, this, &StatementImportDialog::updateButtons);
    connect(
        m_provider, &QComboBox::currentTextChanged, this, &StatementImportDialog::updateButtons);
    connect(m_preview, &QPushButton::clicked, this, [this] { run(true); });
    connect(m_import, &QPushButton::clicked, this, [this] { run(false); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(&m_watcher, &QFutureWatcher<StatementImportResult>::finished, this,
        &StatementImportDialog::finished);
    updateButtons();

    deliverResult(
        this, pool->call(&loadProviderKeys),
        [this](const QStringList &keys) {
            // Typed already: kept; else the first registered provider.
            const QString typed = m_provider->currentText();
            m_provider->addItems(keys);
            if (!typed.isEmpty())
                m_provider->setCurrentText(typed);
            emit providersLoaded();
        },
        [this](const QString &message) { m_status->setText(message); });
}

StatementImportRequest StatementImportDialog::request(bool dryRun) const
{
    StatementImportRequest r;
    r.providerKey = m_provider->currentText().trimmed();
    for (int i = 0; i < m_files->count(); ++i)
        r.files << m_files->item(i)->data(Qt::UserRole).toString();
    if (m_ownDays->isChecked()) {
        r.from = m_from->date().toString(Qt::ISODate);
        r.to = m_to->date().toString(Qt::ISODate);
    }
    r.dryRun = dryRun;
    return r;
}

void StatementImportDialog::setProviderKey(const QString &key)
{
    m_provider->setCurrentText(key);
}

void StatementImportDialog::addFiles(const QStringList &paths)
{
    for (const auto &path : paths) {
        auto *item = new QListWidgetItem(path, m_files);
        item->setData(Qt::UserRole, path);
    }
    updateButtons();
}

void StatementImportDialog::setDays(const QDate &from, const QDate &to)
{
    m_ownDays->setChecked(from.isValid() && to.isValid());
    if (from.isValid())
        m_from->setDate(from);
    if (to.isValid())
        m_to->setDate(to);
}

QString StatementImportDialog::reportText() const
{
    return m_report->toPlainText();
}

void StatementImportDialog::updateButtons()
{
    QString missing;
    if (m_provider->currentText().trimmed().isEmpty())
        missing = tr("Choose the provider.");
    else if (m_files->count() == 0)
        missing = tr("Add the statement's files.");
    else if (m_ownDays->isChecked() && m_from->date() > m_to->date())
        missing = tr("The first day is after the last.");
    m_daysHint->setText(m_ownDays->isChecked()
            ? tr("The statement covers these days: only renewals paid on them can be \"not in "
                 "the statement\".")
            : tr("The statement covers the whole month its paid days fall in (October's file: "
                 "1 to 31 October); its first to last paid day when they span months."));
    const bool ready = missing.isEmpty() && !m_running;
    m_preview->setEnabled(ready);
    m_import->setEnabled(ready);
    m_status->setText(m_running ? tr("Working…") : missing);
}

void StatementImportDialog::run(bool dryRun)
{
    m_running = true;
    updateButtons();
    m_watcher.setFuture(m_importer(request(dryRun)));
}

void StatementImportDialog::finished()
{
    m_running = false;
    m_last = m_watcher.result();
    m_report->setPlainText(m_last.summary);
    updateButtons();
    if (m_last.kept()) {
        m_status->setText(m_last.openCases > 0
                ? tr("Imported. %n case(s) wait in Cases.", nullptr, int(m_last.openCases))
                : tr("Imported. Nothing is left open."));
        emit imported(m_last.runId);
    } else if (!m_last.succeeded()) {
        m_status->setText(tr("Not imported."));
    }
    emit reported();
}

} // namespace rd::ui
