#include "ui/widgets/operatornotedialog.h"

#include "ui/models/caseactions.h"
#include "ui/widgets/dialogkeys.h"

#include "domain/core/operator_note.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>

namespace rd::ui {

OperatorNoteDialog::OperatorNoteDialog(
    const QString &actionName, qint64 caseId, bool commentRequired, QWidget *parent)
    : QDialog(parent)
    , m_commentRequired(commentRequired)
    , m_reason(new QComboBox)
    , m_comment(new QPlainTextEdit)
    , m_blocked(new QLabel)
{
    setWindowTitle(tr("%1 case %2").arg(actionName).arg(caseId));
    m_reason->setObjectName(u"note-reason"_qs);
    for (const QString &code : caseActionReasonCodes())
        m_reason->addItem(reasonLabel(code), code);
    m_comment->setObjectName(u"note-comment"_qs);
    m_comment->setPlaceholderText(tr("What you checked, for whoever reads the audit trail"));
    m_blocked->setObjectName(u"note-blocked"_qs);
    m_blocked->setStyleSheet(u"color:#8a5a00"_qs);
    m_blocked->setWordWrap(true);
    auto *form = new QFormLayout(this);
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
    submitOnCtrlReturn(this, m_action, {m_comment});
    validate();
}

QString OperatorNoteDialog::reason() const
{
    return m_reason->currentData().toString();
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
    const bool missing = m_commentRequired && !rd::hasVisibleText(comment().toStdString());
    m_blocked->setText(
        missing ? tr("Write a note saying why: the audit trail keeps it.") : QString());
    m_blocked->setVisible(missing);
    m_action->setEnabled(!missing);
}

} // namespace rd::ui
