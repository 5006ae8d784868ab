#include "ui/widgets/buttonaction.h"

#include <QAbstractButton>
#include <QEvent>

namespace rd::ui {

ButtonAction::ButtonAction(QAbstractButton *button, const QKeySequence &shortcut, QObject *parent)
    : QAction(parent), m_button(button)
{
    setShortcut(shortcut);
    // The window's shortcut wherever the focus is in it (a table, the search box).
    setShortcutContext(Qt::WindowShortcut);
    button->installEventFilter(this);
    connect(this, &QAction::triggered, this, [this] {
        // Clicked as a person would: a disabled or hidden button does nothing.
        if (m_button && m_button->isEnabled() && m_button->isVisible())
            m_button->click();
    });
    sync();
}

QAbstractButton *ButtonAction::button() const
{
    return m_button;
}

void ButtonAction::sync()
{
    if (!m_button)
        return;
    QString text = m_button->text();
    // "Add note…" as the menu shows it; a "&" in the text would be a mnemonic.
    text.replace(u'&', u"&&"_qs);
    setText(text);
    setToolTip(m_button->toolTip());
    setStatusTip(m_button->toolTip());
    setEnabled(m_button->isEnabled() && m_button->isVisible());
}

bool ButtonAction::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_button) {
        switch (event->type()) {
        case QEvent::EnabledChange:
        case QEvent::Show:
        case QEvent::Hide:
        case QEvent::ToolTipChange:
            sync();
            break;
        default:
            break;
        }
    }
    return QAction::eventFilter(watched, event);
}

} // namespace rd::ui
