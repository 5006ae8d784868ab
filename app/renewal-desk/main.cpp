#include "domain/database.hpp"
#include "domain/migrator.hpp"
#include "ui/mainwindow.h"

#include <pqxx/pqxx>

#include <QApplication>
#include <QMessageBox>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName("renewal-desk");
    QApplication::setOrganizationName("renewal-desk");
    try {
        const auto target = rd::resolveDatabase(std::nullopt);
        if (target.embedded) {
            auto conn = rd::connectTo(target.conninfo);
            rd::migrate(*conn, rd::loadMigrations(rd::defaultMigrationsDir()));
        }
        rd::ui::MainWindow window(QString::fromStdString(target.description));
        window.show();
        return QApplication::exec();
    } catch (const std::exception &e) {
        QMessageBox::critical(nullptr, QObject::tr("Renewal Desk"), QString::fromUtf8(e.what()));
        return 69;
    }
}
