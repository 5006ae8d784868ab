#include "ui/widgets/closemonthdialog.h"

#include "ui/models/databasepool.h"
#include "ui/models/format.h"

#include <QComboBox>
#include <QDateEdit>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace rd::ui {

CloseMonthDialog::CloseMonthDialog(DatabasePool *pool, QWidget *parent)
    : QDialog(parent)
    , m_pool(pool)
    , m_provider(new QComboBox)
    , m_month(new QDateEdit)
    , m_stateLabel(new QLabel)
    , m_close(new QPushButton(tr("Close the month")))
    , m_report(new QPushButton(tr("Write the report…")))
    , m_openCase(new QPushButton)
{
    setWindowTitle(tr("Close a month"));
    m_provider->setObjectName(u"close-provider"_qs);
    m_month->setObjectName(u"close-month"_qs);
    m_month->setDisplayFormat(u"MMMM yyyy"_qs);
    // Last month (UTC): the one usually closed.
    const QDate today = QDateTime::currentDateTimeUtc().date();
    m_month->setDate(QDate(today.year(), today.month(), 1).addMonths(-1));
    m_stateLabel->setObjectName(u"close-state"_qs);
    m_stateLabel->setWordWrap(true);
    m_stateLabel->setMinimumHeight(fontMetrics().lineSpacing() * 3);
    m_close->setObjectName(u"close-month-button"_qs);
    m_close->setEnabled(false);
    m_report->setObjectName(u"close-report-button"_qs);
    m_report->setEnabled(false);
    m_openCase->setObjectName(u"close-open-case"_qs);
    m_openCase->setVisible(false);

    auto *explain = new QLabel(
        tr("A month is closed when a statement of the provider imported here covers all of it "
           "and every case its findings opened is resolved or dismissed. The close keeps both "
           "sides' totals per currency, the findings and the audit anchor's digest, and is "
           "written once: it cannot be undone. Renewals recorded later for a closed month are "
           "marked \"after close\" in the Ledger."));
    explain->setWordWrap(true);
    auto *form = new QFormLayout;
    form->addRow(tr("Provider"), m_provider);
    form->addRow(tr("Month (UTC)"), m_month);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_report, QDialogButtonBox::ActionRole);
    buttons->addButton(m_close, QDialogButtonBox::ActionRole);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(explain);
    layout->addLayout(form);
    layout->addWidget(m_stateLabel);
    // From the refusal's sentence to the case it names, in one click.
    auto *caseRow = new QHBoxLayout;
    caseRow->addWidget(m_openCase);
    caseRow->addStretch(1);
    layout->addLayout(caseRow);
    layout->addStretch(1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_provider, &QComboBox::currentIndexChanged, this, &CloseMonthDialog::check);
    connect(m_month, &QDateEdit::dateChanged, this, &CloseMonthDialog::check);
    connect(m_close, &QPushButton::clicked, this, &CloseMonthDialog::closeMonth);
    connect(m_report, &QPushButton::clicked, this, &CloseMonthDialog::writeReport);
    connect(m_openCase, &QPushButton::clicked, this, [this] {
        if (!m_state.caseIds.isEmpty())
            emit caseOpenRequested(m_state.caseIds.first());
    });
    resize(560, 320);

    m_stateLabel->setText(tr("Reading the providers…"));
    deliverResult(
        this, m_pool->call(&loadProviderKeys),
        [this](const QStringList &keys) {
            const QSignalBlocker block(m_provider);
            m_provider->addItems(keys);
            if (const int wanted = m_provider->findText(m_wantedProvider); wanted >= 0)
                m_provider->setCurrentIndex(wanted);
            m_wantedProvider.clear();
            check();
        },
        [this](const QString &message) { m_stateLabel->setText(message); });
}

void CloseMonthDialog::showFor(const QString &provider, const QDate &month)
{
    {
        const QSignalBlocker blockProvider(m_provider);
        const QSignalBlocker blockMonth(m_month);
        if (month.isValid())
            m_month->setDate(QDate(month.year(), month.month(), 1));
        if (!provider.isEmpty()) {
            if (m_provider->count() == 0)
                m_wantedProvider = provider; // chosen when the providers have been read
            else if (const int i = m_provider->findText(provider); i >= 0)
                m_provider->setCurrentIndex(i);
        }
    }
    if (m_provider->count() > 0)
        check();
}

QString CloseMonthDialog::stateText() const
{
    return m_stateLabel->text();
}

void CloseMonthDialog::check()
{
    m_close->setEnabled(false);
    m_report->setEnabled(false);
    m_openCase->setVisible(false);
    const QString provider = m_provider->currentText();
    const QDate month = m_month->date();
    if (provider.isEmpty()) {
        m_stateLabel->setText(tr("No provider is registered."));
        emit stateLoaded();
        return;
    }
    m_stateLabel->setText(tr("Asking the database whether it can be closed…"));
    deliverResult(
        this, m_pool->call(&loadMonthCloseState, provider, month),
        [this, provider, month](const MonthCloseState &state) {
            m_state = state;
            const QString name = QLocale().toString(month, u"MMMM yyyy"_qs);
            m_stateLabel->setText(state.refusal.isEmpty()
                    ? tr("%1, %2 can be closed.").arg(provider, name)
                    : tr("Cannot be closed: %1.").arg(state.refusal));
            m_close->setText(tr("Close %1, %2").arg(provider, name));
            // The button names the provider and the month: never cut it off.
            if (const int wide = sizeHint().width(); wide > width())
                resize(wide, height());
            m_close->setEnabled(state.refusal.isEmpty());
            m_report->setEnabled(state.closed);
            if (!state.caseIds.isEmpty()) {
                m_openCase->setText(tr("Open case %1").arg(state.caseIds.first()));
                m_openCase->setVisible(true);
            }
            emit stateLoaded();
        },
        [this](const QString &message) {
            m_stateLabel->setText(message);
            emit stateLoaded();
        },
        m_checkRequest.next());
}

void CloseMonthDialog::closeMonth()
{
    const QString provider = m_provider->currentText();
    const QDate month = m_month->date();
    m_close->setEnabled(false);
    m_stateLabel->setText(tr("Closing…"));
    deliverResult(
        this, closeMonthAsync(m_pool->conninfo(), provider, month),
        [this](const MonthCloseResult &outcome) {
            if (!outcome.succeeded()) {
                m_stateLabel->setText(tr("Not closed: %1").arg(outcome.summary));
                emit stateLoaded();
                return;
            }
            m_state = {true, {}, {}};
            m_report->setEnabled(true);
            const QDateTime at = format::instant(
                QString::fromStdString(outcome.report.value("closedAt", std::string())));
            m_stateLabel->setText(
                tr("Closed by %1 at %2 (%3).")
                    .arg(QString::fromStdString(outcome.report.value("closedBy", std::string())),
                        format::localDateTime(at), format::utcTooltip(at)));
            emit monthClosed();
            saveReport(outcome.report);
        },
        [this](const QString &message) { m_stateLabel->setText(message); });
}

void CloseMonthDialog::writeReport()
{
    const QString provider = m_provider->currentText();
    const QDate month = m_month->date();
    deliverResult(
        this, m_pool->call(&loadMonthCloseReport, provider, month),
        [this](const nlohmann::json &report) {
            if (report.is_null()) {
                m_stateLabel->setText(tr("This month is not closed: no report to write."));
                return;
            }
            saveReport(report);
        },
        [this](const QString &message) { m_stateLabel->setText(message); });
}

void CloseMonthDialog::saveReport(const nlohmann::json &report)
{
    QString pdf = m_reportPath;
    if (pdf.isEmpty()) {
        const QString name = u"close-%1-%2.pdf"_qs.arg(
            m_provider->currentText(), m_month->date().toString(u"yyyy-MM"_qs));
        pdf = QFileDialog::getSaveFileName(
            this, tr("Save the close report"), QDir::home().filePath(name), tr("PDF (*.pdf)"));
        if (pdf.isEmpty())
            return;
    }
    if (!pdf.endsWith(u".pdf"_qs, Qt::CaseInsensitive))
        pdf += u".pdf"_qs;
    const QString csv = pdf.left(pdf.size() - 4) + u".csv"_qs;
    QString error;
    if (writeCloseReportPdf(report, pdf, &error) && writeCloseReportCsv(report, csv, &error))
        m_stateLabel->setText(m_stateLabel->text() + u' '
            + tr("Report written: %1 and %2.")
                  .arg(QDir::toNativeSeparators(pdf), QDir::toNativeSeparators(csv)));
    else
        m_stateLabel->setText(tr("The report could not be written: %1").arg(error));
    emit reportWritten(pdf, error);
}

} // namespace rd::ui
