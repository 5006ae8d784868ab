#include "ui/widgets/snapshotdialog.h"

#include "ui/actions/caseactions.h"
#include "ui/models/asyncresult.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/snapshotinput.h"
#include "ui/models/snapshotstart.h"
#include "ui/models/snapshotsubject.h"
#include "ui/widgets/comparisonview.h"
#include "ui/widgets/dialogkeys.h"
#include "ui/widgets/reasonbox.h"
#include "ui/widgets/tableview.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTimeZone>
#include <QVBoxLayout>

namespace rd::ui {

SnapshotDialog::SnapshotDialog(
    DatabasePool *pool, CaseActions *actions, qint64 caseId, QWidget *parent)
    : QDialog(parent)
    , m_pool(pool)
    , m_actions(actions)
    , m_caseId(caseId)
    , m_reason(new QComboBox)
    , m_comment(new QPlainTextEdit)
    , m_text(new QPlainTextEdit)
    , m_source(new QLabel)
    , m_message(new QLabel)
    , m_preview(new ComparisonModel(this))
    , m_previewView(new TableView)
{
    setWindowTitle(tr("Attach provider snapshot to case %1").arg(caseId));
    fillReasonBox(m_reason);
    m_reason->setObjectName(u"snapshot-reason"_qs);
    m_comment->setPlaceholderText(tr("What you checked, for whoever reads the audit trail"));
    m_comment->setObjectName(u"snapshot-comment"_qs);
    m_comment->setMaximumHeight(fontMetrics().height() * 4);
    m_text->setObjectName(u"snapshot-text"_qs);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(
        tr("Paste the provider's subscription object (Stripe, Paddle) or a snapshot in Renewal "
           "Desk's form, or load it from a file."));
    m_source->setObjectName(u"snapshot-source"_qs);
    m_message->setObjectName(u"snapshot-message"_qs);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_previewView->setObjectName(u"snapshot-preview"_qs);
    showComparison(m_previewView, m_preview);

    auto *load = new QPushButton(tr("Load from file…"));
    load->setObjectName(u"snapshot-load"_qs);
    // The desk's own form with what it holds, to correct to what the provider shows: no one
    // has to write the form from its description.
    auto *start = new QPushButton(tr("Start from current state"));
    start->setObjectName(u"snapshot-start"_qs);
    start->setToolTip(tr("Fill in Renewal Desk's form with the subscription as the desk holds "
                         "it and this case's renewal; then change what the provider shows "
                         "differently."));
    auto *sourceRow = new QHBoxLayout;
    sourceRow->addWidget(start);
    sourceRow->addWidget(load);
    sourceRow->addWidget(m_source, 1);
    auto *formatHelp = new QLabel(snapshotFormatDescription());
    formatHelp->setObjectName(u"snapshot-format"_qs);
    formatHelp->setWordWrap(true);
    formatHelp->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *snapshotBox = new QWidget;
    auto *snapshotLayout = new QVBoxLayout(snapshotBox);
    snapshotLayout->setContentsMargins(0, 0, 0, 0);
    snapshotLayout->addLayout(sourceRow);
    snapshotLayout->addWidget(formatHelp);
    snapshotLayout->addWidget(m_text, 1);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(snapshotBox);
    split->addWidget(m_previewView);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);

    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_confirm = box->button(QDialogButtonBox::Ok);
    m_confirm->setText(tr("Attach snapshot"));
    m_confirm->setObjectName(u"snapshot-confirm"_qs);
    auto *form = new QFormLayout;
    form->addRow(tr("Reason"), m_reason);
    form->addRow(tr("Comment"), m_comment);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(split, 1);
    // Beside the confirm button: what it will do, or why it will not.
    layout->addWidget(m_message);
    layout->addWidget(box);
    resize(880, 640);

    connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    submitOnCtrlReturn(this, m_confirm, {m_comment, m_text});
    connect(load, &QPushButton::clicked, this, &SnapshotDialog::chooseFile);
    connect(start, &QPushButton::clicked, this, &SnapshotDialog::startFromCurrentState);
    connect(m_reason, &QComboBox::currentIndexChanged, this, &SnapshotDialog::updateConfirm);
    connect(m_text, &QPlainTextEdit::textChanged, this, [this] {
        m_source->setText(tr("pasted"));
        m_source->setToolTip({});
        updatePreview();
    });

    deliverResult(
        this, pool->call(&loadSnapshotSubject, caseId),
        [this](std::optional<SnapshotSubject> loaded) {
            if (!loaded) {
                m_loadError = tr("Could not read the case's subscription: %1")
                                  .arg(tr("there is no case %1").arg(m_caseId));
            } else {
                m_subject = std::move(loaded->subscription);
                m_kind = loaded->kind;
                setWindowTitle(tr("Attach provider snapshot to case %1 · %2 · %3")
                                   .arg(m_caseId)
                                   .arg(m_subject->providerKey, m_subject->providerSubscriptionId));
            }
            updatePreview();
        },
        [this](const QString &message) {
            m_loadError = tr("Could not read the case's subscription: %1").arg(message);
            updatePreview();
        });
    updatePreview();
}

void SnapshotDialog::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Load provider snapshot"), {}, tr("JSON files (*.json);;All files (*)"));
    if (!path.isEmpty())
        loadFile(path);
}

bool SnapshotDialog::loadFile(const QString &path)
{
    QFile file(path);
    // The parser refuses more than 1 MiB anyway; reading a larger file would only cost memory.
    const qint64 limit = qint64(rd::JsonLimits {}.maxBytes);
    if (!file.open(QIODevice::ReadOnly)) {
        showProblem(tr("Could not read %1: %2").arg(path, file.errorString()));
        return false;
    }
    if (file.size() > limit) {
        showProblem(tr("%1 is %2 bytes; a snapshot is at most %3.")
                        .arg(QFileInfo(path).fileName())
                        .arg(file.size())
                        .arg(limit));
        return false;
    }
    m_text->setPlainText(QString::fromUtf8(file.readAll()));
    m_source->setText(tr("from %1").arg(QDir::toNativeSeparators(path)));
    m_source->setToolTip(path);
    return true;
}

void SnapshotDialog::setComment(const QString &comment)
{
    m_comment->setPlainText(comment);
}

QString SnapshotDialog::reason() const
{
    return m_reason->currentData().toString();
}

void SnapshotDialog::setReason(const QString &code)
{
    m_reason->setCurrentIndex(m_reason->findData(code));
}

QString SnapshotDialog::snapshotText() const
{
    return m_text->toPlainText();
}

void SnapshotDialog::startFromCurrentState()
{
    const qint64 caseId = m_caseId;
    deliverResult(
        this, m_pool->call(&loadSnapshotStartFacts, caseId),
        [this](const std::optional<SnapshotStartFacts> &facts) {
            if (!facts) {
                showProblem(tr("Could not read the case's subscription: %1")
                                .arg(tr("there is no case %1").arg(m_caseId)));
            } else {
                m_text->setPlainText(
                    snapshotFormText(startingSnapshot(*facts, rd::Timestamp::now())));
                m_source->setText(tr("the desk's current state: change what the provider shows "
                                     "differently"));
                m_source->setToolTip({});
            }
            emit startFilled();
        },
        [this](const QString &message) {
            showProblem(tr("Could not read the case's subscription: %1").arg(message));
            emit startFilled();
        });
}

void SnapshotDialog::updateConfirm()
{
    const bool ready = isReady();
    m_confirm->setEnabled(ready && !reason().isEmpty());
    m_confirm->setToolTip(ready && reason().isEmpty()
            ? tr("Choose the reason that is true: the case's history keeps it.")
            : QString());
}

QString SnapshotDialog::comment() const
{
    return m_comment->toPlainText();
}

bool SnapshotDialog::isReady() const
{
    return m_subject && m_snapshot && m_problem.isEmpty() && !m_verdict.isEmpty();
}

QString SnapshotDialog::snapshotJson() const
{
    return m_snapshot ? QString::fromStdString(rd::toJson(*m_snapshot).dump()) : QString();
}

void SnapshotDialog::showProblem(const QString &text)
{
    m_problem = text;
    m_message->setStyleSheet(u"color:#b02020; font-weight:bold"_qs);
    m_message->setText(text);
    m_confirm->setEnabled(false);
}

void SnapshotDialog::updatePreview()
{
    m_snapshot.reset();
    m_problem.clear();
    m_verdict.clear();
    m_previewRequest.cancel(); // the database's answer about the text before is not wanted
    m_message->setToolTip({});
    const QString text = m_text->toPlainText();
    if (!m_loadError.isEmpty()) {
        showProblem(m_loadError);
    } else if (!m_subject) {
        m_message->setStyleSheet({});
        m_message->setText(tr("Reading the case's subscription…"));
        m_confirm->setEnabled(false);
    } else if (text.trimmed().isEmpty()) {
        m_preview->setLines(tr("current (local)"), tr("snapshot"), {});
        m_message->setStyleSheet({});
        m_message->setText(tr("Paste a snapshot or load one from a file to see what it changes."));
        m_confirm->setEnabled(false);
    } else {
        try {
            m_snapshot = readSnapshotText(text.toStdString(), m_subject->providerKey.toStdString(),
                m_kind, rd::Timestamp::now());
        } catch (const rd::InputError &e) {
            m_preview->setLines(tr("current (local)"), tr("snapshot"), {});
            showProblem(tr("This is not a snapshot the desk can read: %1")
                            .arg(QString::fromUtf8(e.what())));
        }
    }
    if (m_snapshot) {
        const SnapshotDiff diff = diffSnapshot(*m_subject, *m_snapshot);
        m_preview->setLines(tr("current (local)"), tr("snapshot"), diff.lines);
        const QDateTime captured = QDateTime::fromMSecsSinceEpoch(
            m_snapshot->capturedAt.micros / 1000, QTimeZone::utc());
        m_message->setToolTip(format::utcTooltip(captured));
        // Whether it may be attached at all (stale, about another subscription, a renewal that
        // contradicts the recorded one) is the database's judgment: askDatabase shows it.
        const QStringList changed = diff.changedFields();
        QString summary;
        if (diff.createsSubscription)
            summary = tr("The desk does not hold this subscription: attaching creates it.");
        else if (changed.isEmpty())
            summary = tr("The snapshot agrees with the desk: attaching records it and "
                         "changes nothing.");
        else
            summary = tr("Attaching changes %1.").arg(changed.join(u", "_qs));
        summary = tr("Captured %1.").arg(format::localDateTime(captured)) + u' ' + summary;
        askDatabase(summary);
    }
    emit previewUpdated();
}

// What becomes of the case is the database's judgment, not the desk's: the attach runs in a
// transaction that is rolled back, and its answer (or refusal) is shown before confirming.
void SnapshotDialog::askDatabase(const QString &summary)
{
    m_message->setStyleSheet({});
    m_message->setText(
        summary + u' ' + tr("Asking the database what happens to case %1…").arg(m_caseId));
    m_confirm->setEnabled(false);
    deliverResult(
        this, m_actions->preview(m_caseId, snapshotJson()),
        [this, summary](const SnapshotVerdict &verdict) {
            switch (verdict.kind) {
            case SnapshotVerdict::Kind::Verdict:
                m_verdict = verdict.text;
                m_message->setStyleSheet(u"font-weight:bold"_qs);
                m_message->setText(summary + u' ' + m_verdict);
                updateConfirm();
                break;
            case SnapshotVerdict::Kind::Refused:
                showProblem(tr("The database would refuse it: %1").arg(verdict.text));
                break;
            case SnapshotVerdict::Kind::Failed:
                showProblem(tr("Could not preview the snapshot: %1").arg(verdict.text));
                break;
            }
            emit previewUpdated();
        },
        [this](const QString &message) {
            showProblem(tr("Could not preview the snapshot: %1").arg(message));
            emit previewUpdated();
        },
        // An answer about text that changed meanwhile is dropped.
        m_previewRequest.next());
}

} // namespace rd::ui
