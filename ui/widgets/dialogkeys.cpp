#include "ui/widgets/dialogkeys.h"

#include <QAbstractButton>
#include <QCoreApplication>
#include <QDialog>
#include <QKeySequence>
#include <QPlainTextEdit>
#include <QShortcut>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::DialogKeys)
};

} // namespace

void submitOnCtrlReturn(
    QDialog *dialog, QAbstractButton *accept, std::initializer_list<QPlainTextEdit *> textBoxes)
{
    for (QPlainTextEdit *box : textBoxes)
        box->setTabChangesFocus(true);
    // A text box takes Return for itself; Ctrl+Return reaches the dialog's shortcuts (the
    // keypad's Enter as well).
    for (const QKeySequence &keys :
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(keys, dialog);
        shortcut->setContext(Qt::WindowShortcut);
        QObject::connect(shortcut, &QShortcut::activated, accept, [accept] {
            if (accept->isEnabled())
                accept->click();
        });
    }
    const QString hint = Tr::tr("Ctrl+Return");
    accept->setToolTip(
        accept->toolTip().isEmpty() ? hint : accept->toolTip() + u"  ("_qs + hint + u')');
}

} // namespace rd::ui
