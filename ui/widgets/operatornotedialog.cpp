#include "ui/widgets/operatornotedialog.h"

#include "ui/actions/caseactions.h"
#include "ui/widgets/dialogkeys.h"
#include "ui/widgets/reasonbox.h"

#include "domain/core/operator_note.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>

#include <algorithm>

namespace rd::ui {

OperatorNoteDialog::OperatorNoteDialog(
    const QString &actionName, qint64 caseId, bool commentRequired, QWidget *parent)
    : QDialog(parent)
    , m_commentRequired(commentRequired)
    , m_reason(new QComboBox)
    , m_comment(new QPlainTextEdit)
    , m_blocked(new QLabel)
    , m_casesTitle(new QLabel)
    , m_cases(new QListWidget)
    , m_actionName(actionName)
{
    setWindowTitle(tr("%1 case %2").arg(actionName).arg(caseId));
    m_reason->setObjectName(u"note-reason"_qs);
    fillReasonBox(m_reason);
    m_casesTitle->setObjectName(u"note-cases-title"_qs);
    m_casesTitle->setVisible(false);
    m_cases->setObjectName(u"note-cases"_qs);
    m_cases->setVisible(false);
    m_cases->setMaximumHeight(fontMetrics().lineSpacing() * 8);
    m_comment->setObjectName(u"note-comment"_qs);
    m_comment->setPlaceholderText(tr("What you checked, for whoever reads the audit trail"));
    m_blocked->setObjectName(u"note-blocked"_qs);
    m_blocked->setStyleSheet(u"color:#8a5a00"_qs);
    m_blocked->setWordWrap(true);
    auto *form = new QFormLayout(this);
    form->addRow(m_casesTitle);
    form->addRow(m_cases);
    form->addRow(tr("Reason"), m_reason);
    form->addRow(tr("Comment"), m_comment);
    form->addRow(m_blocked);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_action = box->button(QDialogButtonBox::Ok);
    m_action->setText(actionName);
    form->addRow(box);
    connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_comment, &QPlainTextEdit::textChanged, this, &OperatorNoteDialog::validate);
    connect(m_reason, &QComboBox::currentIndexChanged, this, &OperatorNoteDialog::validate);
    submitOnCtrlReturn(this, m_action, {m_comment});
    validate();
}

QString OperatorNoteDialog::reason() const
{
    return m_reason->currentData().toString();
}

void OperatorNoteDialog::setReason(const QString &code)
{
    m_reason->setCurrentIndex(m_reason->findData(code));
}

void OperatorNoteDialog::setCases(const QString &title, const QStringList &lines)
{
    m_cases->clear();
    m_cases->addItems(lines);
    const auto n = lines.size();
    m_casesTitle->setText(title);
    m_casesTitle->setVisible(n > 0);
    m_cases->setVisible(n > 0);
    // Wide enough for a line a case (id, provider/subscription, renewal key, reason).
    if (n > 0)
        resize(std::clamp(m_cases->sizeHintForColumn(0) + 80, width(), 1000), height());
    m_action->setText(
        n == 1 ? tr("%1 1 case").arg(m_actionName) : tr("%1 %2 cases").arg(m_actionName).arg(n));
}

QStringList OperatorNoteDialog::listedCases() const
{
    QStringList lines;
    for (int i = 0; i < m_cases->count(); ++i)
        lines << m_cases->item(i)->text();
    return lines;
}

QString OperatorNoteDialog::comment() const
{
    return m_comment->toPlainText();
}

QString OperatorNoteDialog::blockedBecause() const
{
    return m_action->isEnabled() ? QString() : m_blocked->text();
}

void OperatorNoteDialog::validate()
{
    // The database's test (rd_note_text): a no-break or zero-width space is not a note.
    const bool noReason = reason().isEmpty();
    const bool missing = m_commentRequired && !rd::hasVisibleText(comment().toStdString());
    m_blocked->setText(noReason ? tr("Choose the reason that is true: the audit trail keeps it.")
            : missing           ? tr("Write a note saying why: the audit trail keeps it.")
                                : QString());
    m_blocked->setVisible(noReason || missing);
    m_action->setEnabled(!noReason && !missing);
}

} // namespace rd::ui
