#include "ui/widgets/reviewdeliverydialog.h"

#include "ui/widgets/dialogkeys.h"

#include "domain/core/operator_note.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace rd::ui {

ReviewDeliveryDialog::ReviewDeliveryDialog(qint64 inboxId, QWidget *parent)
    : QDialog(parent), m_note(new QPlainTextEdit), m_blocked(new QLabel)
{
    setWindowTitle(tr("Mark delivery %1 reviewed").arg(inboxId));
    setObjectName(u"review-delivery-dialog"_qs);
    auto *intro = new QLabel(tr("Delivery %1 could not be read and opened no case. Say why "
                                "nothing more is to be done about it: the note is kept with "
                                "your name in the inbox.")
                                 .arg(inboxId));
    intro->setWordWrap(true);
    m_note->setObjectName(u"review-note"_qs);
    m_note->setPlaceholderText(tr("e.g. a test payload from the provider's dashboard"));
    m_blocked->setObjectName(u"review-blocked"_qs);
    m_blocked->setStyleSheet(u"color:#8a5a00"_qs);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_action = buttons->addButton(tr("Mark reviewed"), QDialogButtonBox::AcceptRole);
    m_action->setObjectName(u"review-accept"_qs);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    submitOnCtrlReturn(this, m_action, {m_note});
    connect(m_note, &QPlainTextEdit::textChanged, this, &ReviewDeliveryDialog::validate);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_note, 1);
    layout->addWidget(m_blocked);
    layout->addWidget(buttons);
    resize(480, 260);
    validate();
}

QString ReviewDeliveryDialog::note() const
{
    return m_note->toPlainText().trimmed();
}

QString ReviewDeliveryDialog::blockedBecause() const
{
    return m_action->isEnabled() ? QString() : m_blocked->text();
}

void ReviewDeliveryDialog::validate()
{
    // The database's own test (rd_note_text): a no-break or zero-width space is no note.
    const bool ok = rd::hasVisibleText(note().toStdString());
    m_action->setEnabled(ok);
    m_blocked->setText(ok ? QString() : tr("Write a note to mark it reviewed."));
}

} // namespace rd::ui
