#pragma once

#include <QAction>
#include <QPointer>

class QAbstractButton;

namespace rd::ui {

/// A menu entry with a shortcut that stands for a page's button (Case › Claim for the Cases
/// page's Claim): the button stays the one place that decides whether the action is possible
/// and says why not, and this action follows it. It is enabled while the button is enabled
/// and shown (a shortcut does nothing on a page not shown), shows the button's text and
/// tooltip, and triggering it clicks the button (the menu shows the shortcut; the button's tooltip
/// stays the button's: it is also a status message).
class ButtonAction : public QAction
{
    Q_OBJECT

public:
    ButtonAction(QAbstractButton *button, const QKeySequence &shortcut, QObject *parent = nullptr);

    QAbstractButton *button() const;
    /// Takes the button's state again (also done on its enable, show and hide).
    void sync();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QPointer<QAbstractButton> m_button;
};

} // namespace rd::ui
