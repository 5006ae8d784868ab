#pragma once

#include <QMainWindow>

namespace rd::ui {

/// The desk's main window. For now: which database the desk is connected to.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(const QString &databaseDescription, QWidget *parent = nullptr);
};

} // namespace rd::ui
