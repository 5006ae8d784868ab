#include "app/renewal-desk/screenshotrunner.h"
#include "domain/store/prepared_database.h"
#include "ui/models/connectionsettings.h"
#include "ui/widgets/connectiondialog.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/translations.h"

#include "rd_version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QIcon>
#include <QMessageBox>
#include <QSettings>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::desk::Main)
};

struct Target
{
    QString conninfo;
    QString description;
    bool embedded = false;
};

/// An empty conninfo means "the embedded cluster (or the libpq environment)": started and
/// migrated here, before the window opens. A configured server is used as it is.
Target resolve(const QString &configured)
{
    const auto prepared = rd::prepareDatabase(configured.toStdString());
    if (configured.isEmpty())
        return {QString::fromStdString(prepared.conninfo),
            prepared.embedded ? Tr::tr("local (embedded)")
                              : QString::fromStdString(prepared.description),
            prepared.embedded};
    const auto s = rd::ui::ConnectionSettings::fromConninfo(configured);
    return {configured, s.databaseName + u'@' + (s.host.isEmpty() ? u"localhost"_qs : s.host)};
}

/// Earlier versions saved the embedded database as "connect_timeout='10'" (a default added on
/// the way), which on the next start meant "the default socket": read that as what it meant.
bool isOnlyATimeout(const QString &conninfo)
{
    const auto settings = rd::ui::parseConninfo(conninfo).settings;
    return !settings.isEmpty()
        && std::all_of(settings.cbegin(), settings.cend(),
            [](const auto &s) { return s.first == u"connect_timeout"; });
}

struct DeskOptions
{
    QCommandLineOption help {u"help"_qs};
    QCommandLineOption version {u"version"_qs};
    QCommandLineOption db {
        u"db"_qs, u"libpq connection string (no password: use ~/.pgpass)"_qs, u"CONNINFO"_qs};
    QCommandLineOption screenshot {
        u"screenshot"_qs, u"render each main view to DIR/<view>.png and exit"_qs, u"DIR"_qs};
    QCommandLineOption connect {u"connect"_qs, u"ask for the database to connect to"_qs};
    QCommandLineOption size {
        u"size"_qs, u"the window's size, e.g. 1024x700 (for --screenshot)"_qs, u"WxH"_qs};
    QCommandLineOption lang {u"lang"_qs,
        u"the desk's language, e.g. de or en (default: the locale, LANGUAGE then LANG)"_qs,
        u"LANG"_qs};
};

/// The desk's options, the same for the early look at --help and the real parse.
DeskOptions addDeskOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        u"Renewal Desk: subscriptions, renewals and reconciliation"_qs);
    DeskOptions o;
    o.help = parser.addHelpOption();
    o.version = parser.addVersionOption();
    parser.addOptions({o.db, o.screenshot, o.connect, o.size, o.lang});
    return o;
}

/// --help and --version answer without a display: they are read with a QCoreApplication
/// before the GUI application exists (QApplication aborts when no display is there). Qt's own
/// options (-platform, -style) are not known here: other errors wait for the full parse.
/// Returns the exit code when the desk should stop here.
std::optional<int> answerHelpOrVersion(int argc, char **argv)
{
    QCoreApplication early(argc, argv);
    QCommandLineParser parser;
    const DeskOptions options = addDeskOptions(parser);
    (void)parser.parse(QCoreApplication::arguments());
    if (parser.isSet(options.help)) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    if (parser.isSet(options.version)) {
        // A line, as every other program's version: a shell prompt does not follow it.
        std::printf("renewal-desk %s\n", RD_VERSION);
        return 0;
    }
    return std::nullopt;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication::setApplicationName(u"renewal-desk"_qs);
    QCoreApplication::setOrganizationName(u"renewal-desk"_qs);
    QCoreApplication::setApplicationVersion(QString::fromLatin1(RD_VERSION));
    if (const auto answered = answerHelpOrVersion(argc, argv))
        return *answered;
    QApplication app(argc, argv);
    // The desktop entry (and so the icon a Wayland compositor shows) of the installed desk.
    QGuiApplication::setDesktopFileName(u"io.renewaldesk.RenewalDesk"_qs);
    // The installed hicolor icon (PNG sizes); none in a build tree, which is harmless.
    QApplication::setWindowIcon(QIcon::fromTheme(u"io.renewaldesk.RenewalDesk"_qs));

    QCommandLineParser parser;
    const DeskOptions options = addDeskOptions(parser);
    const QCommandLineOption &db = options.db;
    const QCommandLineOption &screenshot = options.screenshot;
    const QCommandLineOption &connect = options.connect;
    const QCommandLineOption &size = options.size;
    parser.process(app);
    QString language;
    if (parser.isSet(options.lang)) {
        language = parser.value(options.lang);
        if (!rd::ui::deskLanguages().contains(language)) {
            qCritical("renewal-desk: --lang: no translation for '%s' (there are: %s)",
                qPrintable(language), qPrintable(rd::ui::deskLanguages().join(u", "_qs)));
            return 64;
        }
    }
    rd::ui::installTranslations(app, language);
    QSize windowSize;
    if (parser.isSet(size)) {
        const QStringList wh = parser.value(size).split(u'x');
        bool okW = false;
        bool okH = false;
        if (wh.size() == 2)
            windowSize = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || windowSize.width() < 200 || windowSize.height() < 200) {
            qCritical("renewal-desk: --size: expected WxH (at least 200x200), got '%s'",
                qPrintable(parser.value(size)));
            return 64;
        }
    }

    QSettings settings;
    QString configured = parser.isSet(db) ? parser.value(db)
                                          : settings.value(u"connection/conninfo"_qs).toString();
    if (!parser.isSet(db) && isOnlyATimeout(configured))
        configured.clear();
    if (parser.isSet(connect)) {
        rd::ui::ConnectionDialog dialog(configured);
        if (dialog.exec() != QDialog::Accepted)
            return 0;
        configured = dialog.conninfo();
    }

    std::unique_ptr<rd::ui::MainWindow> window;
    std::function<bool(const QString &)> open = [&](const QString &conninfo) {
        QString candidate = conninfo;
        while (true) {
            try {
                const Target target = resolve(candidate);
                if (!parser.isSet(screenshot))
                    settings.setValue(u"connection/conninfo"_qs,
                        rd::ui::conninfoWithoutPassword(candidate)); // never a password
                window = std::make_unique<rd::ui::MainWindow>(target.conninfo, target.description);
                window->setOnEmbeddedDatabase(target.embedded);
                QObject::connect(window.get(), &rd::ui::MainWindow::reconnectRequested,
                    [&](const QString &next) {
                        QMetaObject::invokeMethod(
                            &app, [&, next] { open(next); }, Qt::QueuedConnection);
                    });
                if (windowSize.isValid())
                    window->resize(windowSize);
                window->show();
                return true;
            } catch (const std::exception &e) {
                if (parser.isSet(screenshot)) {
                    qCritical("renewal-desk: %s", e.what());
                    return false;
                }
                QMessageBox::warning(nullptr, Tr::tr("Renewal Desk"),
                    Tr::tr("Could not open the database:\n%1").arg(QString::fromUtf8(e.what())));
                rd::ui::ConnectionDialog dialog(candidate);
                if (dialog.exec() != QDialog::Accepted)
                    return false;
                candidate = dialog.conninfo();
            }
        }
    };
    if (!open(configured))
        return 69;
    if (parser.isSet(screenshot))
        return saveScreenshots(*window, parser.value(screenshot)) ? 0 : 73;
    return QApplication::exec();
}
