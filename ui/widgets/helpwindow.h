#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

class QLabel;
class QTextBrowser;
class QUrl;

namespace rd::ui {

/// Help › User guide (F1): docs/user-guide.md as rendered to HTML at build time (cmark-gfm),
/// shown offline in a window of its own. One window per main window, reused: F1 again
/// scrolls it to the shown page's section.
class HelpWindow : public QWidget
{
    Q_OBJECT

public:
    /// The file name the build writes beside the desk's executable and the package installs
    /// in share/renewal-desk.
    static constexpr const char *kFileName = "user-guide.html";

    /// Where the guide is looked for, in order: $RENEWAL_DESK_USER_GUIDE; beside the
    /// executable (a build tree); ../share/renewal-desk beside it (the install prefix).
    static QStringList candidatePaths(const QString &applicationDir);

    /// The first candidate that exists, or an empty string.
    static QString findUserGuide(const QString &applicationDir);

    explicit HelpWindow(QWidget *parent = nullptr);

    /// Shows the guide at `anchor` (its top when empty). When the guide cannot be found or
    /// read, the window says so, naming where it looked, and returns false.
    bool showSection(const QString &anchor);

    /// The window belonging to `owner`, created on first use, raised and scrolled to `anchor`.
    static HelpWindow *showFor(QWidget *owner, const QString &anchor);

    QTextBrowser *browser() const { return m_browser; }
    /// What the window says instead of the guide (empty while the guide is shown).
    QString problem() const;

private:
    bool load();
    void followLink(const QUrl &url);

    QTextBrowser *m_browser;
    QLabel *m_problem;
    QLabel *m_note; ///< why a link to another document does not open here
    QString m_loadedFrom;
};

} // namespace rd::ui
