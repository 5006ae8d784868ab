#pragma once

#include <initializer_list>

class QAbstractButton;
class QDialog;
class QPlainTextEdit;

namespace rd::ui {

/// A dialog with a text box is submitted from the keyboard as a mail or chat is: Ctrl+Return
/// (or Ctrl+Enter) clicks `accept` when it is enabled (a note still missing leaves it
/// disabled, and the dialog open), Return stays a new line, and Tab moves on to the next
/// control instead of typing a tab into each of `textBoxes`. The button's tooltip says so.
void submitOnCtrlReturn(
    QDialog *dialog, QAbstractButton *accept, std::initializer_list<QPlainTextEdit *> textBoxes);

} // namespace rd::ui
