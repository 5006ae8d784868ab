#include "ui/widgets/windowplacement.h"

#include <QScreen>
#include <QWidget>

#include <algorithm>

namespace rd::ui {

void placeOnOwner(QWidget *window, const QWidget *owner, QSize wanted, bool withinOwner)
{
    const QWidget *ownerWindow = owner ? owner->window() : nullptr;
    const QScreen *screen = ownerWindow ? ownerWindow->screen() : window->screen();
    // Room for the window manager's frame around it (its title bar, mostly).
    constexpr int kFrame = 40;
    QSize room = screen ? screen->availableGeometry().size() - QSize(kFrame, kFrame) : wanted;
    if (withinOwner && ownerWindow)
        room = room.boundedTo(ownerWindow->size() - QSize(kFrame / 2, kFrame / 2));
    const QSize size = wanted.boundedTo(room).expandedTo(QSize(200, 150));
    window->resize(size);
    if (!ownerWindow)
        return;
    const QRect owned = ownerWindow->frameGeometry();
    QRect placed(QPoint(), size);
    placed.moveCenter(owned.center());
    if (screen) {
        const QRect area = screen->availableGeometry();
        // Its frame (not in `size`) inside the screen too.
        const int right = area.right() - size.width() - kFrame / 2;
        const int bottom = area.bottom() - size.height() - kFrame / 2;
        placed.moveLeft(std::clamp(placed.left(), area.left(), std::max(area.left(), right)));
        placed.moveTop(std::clamp(placed.top(), area.top(), std::max(area.top(), bottom)));
    }
    window->move(placed.topLeft());
}

} // namespace rd::ui
