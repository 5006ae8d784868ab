#pragma once

#include <QSize>

class QWidget;

namespace rd::ui {

/// Sizes a window of the desk (the guide, the list of shortcuts) to `wanted`, never larger than
/// the room on `owner`'s screen (nor than `owner`'s window with `withinOwner`), and centres it
/// on `owner`'s window, inside that screen. A new top-level window otherwise opened at 0,0, over
/// the main window, and a tall one ran off a 700-pixel screen.
void placeOnOwner(QWidget *window, const QWidget *owner, QSize wanted, bool withinOwner = false);

} // namespace rd::ui
