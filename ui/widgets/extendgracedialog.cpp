#include "ui/widgets/extendgracedialog.h"

#include "ui/actions/accessactions.h"
#include "ui/widgets/dialogkeys.h"

#include "domain/core/operator_note.h"

#include <QDateEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace rd::ui {

ExtendGraceDialog::ExtendGraceDialog(
    const QString &subject, const QString &verdict, const QDate &todayUtc, QWidget *parent)
    : QDialog(parent)
    , m_day(new QDateEdit)
    , m_dayNote(new QLabel)
    , m_note(new QPlainTextEdit)
    , m_blocked(new QLabel)
{
    setWindowTitle(tr("Extend grace of %1").arg(subject));
    setObjectName(u"extend-grace-dialog"_qs);
    auto *intro = new QLabel(tr("%1 is %2. Extending its grace keeps its access until the end of "
                                "the day you choose; it ends by itself then, and a payment "
                                "recorded before ends it at once. The note is kept with your "
                                "name in its audit trail.")
                                 .arg(subject, verdict));
    intro->setWordWrap(true);
    m_day->setObjectName(u"grace-last-day"_qs);
    m_day->setCalendarPopup(true);
    m_day->setMinimumDate(todayUtc.addDays(1));
    m_day->setMaximumDate(todayUtc.addDays(kMaxGraceDaysAhead));
    m_day->setDate(todayUtc.addDays(7));
    m_day->setDisplayFormat(QLocale().dateFormat(QLocale::LongFormat));
    m_dayNote->setObjectName(u"grace-last-day-note"_qs);
    m_dayNote->setStyleSheet(u"color:#5a6270"_qs);
    m_note->setObjectName(u"grace-note"_qs);
    m_note->setPlaceholderText(tr("e.g. the customer's bank confirmed the new card for Monday"));
    m_note->setTabChangesFocus(true);
    m_blocked->setObjectName(u"grace-blocked"_qs);
    m_blocked->setStyleSheet(u"color:#8a5a00"_qs);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_action = buttons->addButton(tr("Extend grace"), QDialogButtonBox::AcceptRole);
    m_action->setObjectName(u"grace-accept"_qs);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    submitOnCtrlReturn(this, m_action, {m_note});
    connect(m_note, &QPlainTextEdit::textChanged, this, &ExtendGraceDialog::validate);
    connect(m_day, &QDateEdit::dateChanged, this, &ExtendGraceDialog::validate);

    auto *form = new QFormLayout;
    form->addRow(tr("Last day of grace (UTC):"), m_day);
    form->addRow(QString(), m_dayNote);
    form->addRow(tr("Note (required):"), m_note);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form, 1);
    layout->addWidget(m_blocked);
    layout->addWidget(buttons);
    resize(520, 320);
    validate();
}

QDate ExtendGraceDialog::lastDay() const
{
    return m_day->date();
}

void ExtendGraceDialog::setLastDay(const QDate &day)
{
    m_day->setDate(day);
}

QString ExtendGraceDialog::note() const
{
    return m_note->toPlainText().trimmed();
}

QString ExtendGraceDialog::blockedBecause() const
{
    return m_action->isEnabled() ? QString() : m_blocked->text();
}

void ExtendGraceDialog::validate()
{
    m_dayNote->setText(tr("Access until the end of %1 (midnight UTC): %2 days from today, at "
                          "most %3.")
                           .arg(QLocale().toString(m_day->date(), QLocale::LongFormat))
                           .arg(m_day->minimumDate().addDays(-1).daysTo(m_day->date()))
                           .arg(kMaxGraceDaysAhead));
    // The database's own test (rd_note_text): a no-break or zero-width space is no note.
    const bool ok = rd::hasVisibleText(note().toStdString());
    m_action->setEnabled(ok);
    m_blocked->setText(ok ? QString() : tr("Write a note to extend the grace."));
}

} // namespace rd::ui
