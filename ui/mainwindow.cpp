#include "mainwindow.h"

#include <QLabel>

namespace rd::ui {

MainWindow::MainWindow(const QString &databaseDescription, QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Renewal Desk"));
    auto *label = new QLabel(tr("Connected to %1").arg(databaseDescription), this);
    label->setAlignment(Qt::AlignCenter);
    setCentralWidget(label);
    resize(900, 600);
}

} // namespace rd::ui
