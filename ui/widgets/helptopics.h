#pragma once

#include <QString>
#include <QStringList>

class QWidget;
struct QMetaObject;

namespace rd::ui {

/// One page of the desk and its section of the user guide (docs/user-guide.md). The guide
/// marks each section with `<a name="ANCHOR"></a>`, which cmark-gfm passes through and
/// QTextBrowser scrolls to; tst_ui_help checks every anchor against the rendered file.
struct HelpTopic
{
    const QMetaObject *page;
    const char *anchor;
};

/// Every page's topic: the one place that says which section F1 opens on which page.
const QList<HelpTopic> &helpTopics();

/// The anchor of `page`'s section, or an empty string (the guide's top) for a widget that is
/// no page of the desk.
QString helpAnchorFor(const QWidget *page);

} // namespace rd::ui
