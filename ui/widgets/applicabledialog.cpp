#include "ui/widgets/applicabledialog.h"

#include "ui/actions/caseactions.h"
#include "ui/models/columns.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/dialogkeys.h"
#include "ui/widgets/reasonbox.h"
#include "ui/widgets/tableview.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace rd::ui {
namespace {

enum PreviewField { CaseId, Subscription, RenewalKey, Start, End, PreviewFieldCount };

} // namespace

ApplicableDialog::ApplicableDialog(DatabasePool *pool, const QString &reason, QWidget *parent)
    : QDialog(parent)
    , m_pool(pool)
    , m_reasonBox(new QComboBox)
    , m_count(new QLabel)
    , m_table(new TableView)
    , m_noteReason(new QComboBox)
    , m_comment(new QPlainTextEdit)
    , m_wanted(reason)
{
    setWindowTitle(tr("Re-apply the cases applicable now"));
    m_model = new RecordTableModel(PreviewFieldCount,
        {columns::count(tr("Case"), CaseId), columns::text(tr("Subscription"), Subscription),
            columns::text(tr("Renewal key"), RenewalKey),
            columns::period(tr("Renewal period"), Start, End)},
        CaseId, this);
    m_table->setObjectName(u"applicable-preview"_qs);
    m_table->setModel(m_model);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_reasonBox->setObjectName(u"applicable-reason"_qs);
    m_count->setObjectName(u"applicable-count"_qs);
    m_count->setWordWrap(true);
    m_noteReason->setObjectName(u"applicable-note-reason"_qs);
    fillReasonBox(m_noteReason);
    m_comment->setObjectName(u"applicable-comment"_qs);
    m_comment->setPlaceholderText(tr("What changed, for whoever reads each case's history"));
    m_comment->setMaximumHeight(fontMetrics().lineSpacing() * 4);
    auto *explain = new QLabel(
        tr("Applicable now: the renewal core's own verdict on each case's renewal against the "
           "subscription as it is now (the period continues the current one, the subscription "
           "is active, not scheduled to cancel, and exists). Each case is re-applied through "
           "the core on its own; one that changed since this preview is refused and shown so."));
    explain->setWordWrap(true);
    auto *form = new QFormLayout;
    form->addRow(tr("Open cases of"), m_reasonBox);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_run = box->button(QDialogButtonBox::Ok);
    m_run->setEnabled(false);
    auto *note = new QFormLayout;
    note->addRow(tr("Reason"), m_noteReason);
    note->addRow(tr("Comment"), m_comment);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(explain);
    layout->addWidget(m_count);
    layout->addWidget(m_table, 1);
    layout->addLayout(note);
    layout->addWidget(box);
    connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    submitOnCtrlReturn(this, m_run, {m_comment});
    connect(m_reasonBox, &QComboBox::currentIndexChanged, this, &ApplicableDialog::loadPreview);
    connect(m_noteReason, &QComboBox::currentIndexChanged, this,
        [this] { m_run->setEnabled(m_ready && !m_preview.isEmpty() && !noteReason().isEmpty()); });
    resize(760, 520);

    m_count->setText(tr("Reading the open cases…"));
    deliverResult(
        this, m_pool->call(&loadOpenReasons),
        [this](const QVector<OpenReason> &reasons) {
            const QSignalBlocker block(m_reasonBox);
            qint64 all = 0;
            for (const OpenReason &r : reasons)
                all += r.open;
            m_reasonBox->addItem(tr("Every reason (%1 open)").arg(all), QString());
            for (const OpenReason &r : reasons)
                m_reasonBox->addItem(
                    tr("%1 (%2 open)").arg(format::humanize(r.code)).arg(r.open), r.code);
            const int wanted = m_reasonBox->findData(m_wanted);
            m_reasonBox->setCurrentIndex(std::max(0, wanted));
            loadPreview();
        },
        [this](const QString &message) { m_count->setText(message); });
}

QString ApplicableDialog::reason() const
{
    return m_reasonBox->currentData().toString();
}

void ApplicableDialog::setReason(const QString &code)
{
    m_wanted = code;
    const int index = m_reasonBox->findData(code);
    if (index >= 0)
        m_reasonBox->setCurrentIndex(index);
}

QString ApplicableDialog::previewText() const
{
    return m_count->text();
}

QString ApplicableDialog::noteReason() const
{
    return m_noteReason->currentData().toString();
}

void ApplicableDialog::setNoteReason(const QString &code)
{
    m_noteReason->setCurrentIndex(m_noteReason->findData(code));
}

QString ApplicableDialog::comment() const
{
    return m_comment->toPlainText();
}

void ApplicableDialog::setComment(const QString &text)
{
    m_comment->setPlainText(text);
}

void ApplicableDialog::loadPreview()
{
    m_ready = false;
    m_run->setEnabled(false);
    m_count->setText(tr("Asking the renewal core which cases it would apply now…"));
    const QString code = reason();
    deliverResult(
        this, m_pool->call(&loadApplicableCases, code),
        [this, code](QVector<ApplicableCase> cases) {
            m_preview = std::move(cases);
            QVector<QVariant> cells;
            for (const ApplicableCase &c : m_preview)
                cells << c.caseId << c.subscription << c.renewalKey
                      << (c.periodStartMicros ? QVariant(c.periodStartMicros) : QVariant())
                      << (c.periodEndMicros ? QVariant(c.periodEndMicros) : QVariant());
            m_model->setRows(std::move(cells));
            const QString of = code.isEmpty() ? tr("of any reason") : format::humanize(code);
            m_count->setText(m_preview.isEmpty()
                    ? tr("No open case (%1) is applicable now: nothing to re-apply.").arg(of)
                    : m_preview.size() == 1
                    ? tr("1 open case (%1) would be applied now:").arg(of)
                    : tr("%1 open cases (%2) would be applied now:").arg(m_preview.size()).arg(of));
            m_run->setText(m_preview.size() == 1 ? tr("Re-apply 1 case")
                                                 : tr("Re-apply %1 cases").arg(m_preview.size()));
            m_run->setEnabled(!m_preview.isEmpty() && !noteReason().isEmpty());
            m_ready = true;
            emit previewLoaded();
        },
        [this](const QString &message) {
            m_count->setText(message);
            m_ready = true;
            emit previewLoaded();
        },
        m_request.next());
}

} // namespace rd::ui
