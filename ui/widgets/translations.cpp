#include "ui/widgets/translations.h"

#include <QCoreApplication>
#include <QDirIterator>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace rd::ui {

namespace {

/// Where CMake puts the compiled catalogs (ui/widgets/CMakeLists.txt).
const QString kCatalogDir = u":/i18n"_qs;

} // namespace

QStringList deskLanguages()
{
    QStringList languages {u"en"_qs};
    QDirIterator it(kCatalogDir, {u"renewal-desk_*.qm"_qs});
    while (it.hasNext()) {
        const QString name = it.next().section(u'/', -1);
        languages << name.mid(13, name.size() - 13 - 3); // renewal-desk_ … .qm
    }
    return languages;
}

QString installTranslations(QCoreApplication &app, const QString &forced)
{
    QLocale locale;
    if (!forced.isEmpty()) {
        locale = QLocale(forced);
        QLocale::setDefault(locale);
    }
    // Both catalogs stay installed for the program's life: owned by the application.
    auto *desk = new QTranslator(&app);
    if (!desk->load(locale, u"renewal-desk"_qs, u"_"_qs, kCatalogDir)) {
        delete desk;
        return {};
    }
    QCoreApplication::installTranslator(desk);
    // Qt's standard buttons and dialogs (OK, Cancel, the file dialog) in the same language;
    // missing when qt6-translations-l10n is not installed, which leaves them in English.
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, u"qtbase"_qs, u"_"_qs, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return desk->language();
}

} // namespace rd::ui
