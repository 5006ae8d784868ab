#pragma once

#include <QString>

class QCoreApplication;

namespace rd::ui {

/// Loads the desk's catalog (renewal-desk_<lang>.qm, built into the program) and Qt's own
/// (qtbase_<lang>.qm, Debian's qt6-translations-l10n) into `app`. An empty `forced` follows
/// the user's locale: LANGUAGE first, then LC_ALL/LC_MESSAGES/LANG, as QLocale::system()
/// reads them. A `forced` language ("de", "en") also becomes the default QLocale, so that
/// dates and amounts match the words. Returns the language whose desk catalog was loaded
/// (empty for English, which is the source text).
QString installTranslations(QCoreApplication &app, const QString &forced = {});

/// The languages the desk ships a catalog for, English included ("de", "en").
QStringList deskLanguages();

} // namespace rd::ui
