#include "ui/widgets/helpwindow.h"

#include "ui/widgets/windowplacement.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QScrollBar>
#include <QShortcut>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace rd::ui {

QStringList HelpWindow::candidatePaths(const QString &applicationDir)
{
    QStringList paths;
    if (const QString override = qEnvironmentVariable("RENEWAL_DESK_USER_GUIDE");
        !override.isEmpty())
        paths << override;
    const QDir dir(applicationDir);
    paths << QDir::cleanPath(dir.filePath(QString::fromLatin1(kFileName)))
          << QDir::cleanPath(
                 dir.filePath(u"../share/renewal-desk/"_s + QString::fromLatin1(kFileName)));
    return paths;
}

QString HelpWindow::findUserGuide(const QString &applicationDir)
{
    for (const QString &path : candidatePaths(applicationDir))
        if (QFileInfo(path).isFile())
            return path;
    return {};
}

HelpWindow::HelpWindow(QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_browser(new QTextBrowser)
    , m_problem(new QLabel)
    , m_note(new QLabel)
{
    setObjectName(u"user-guide"_s);
    setWindowTitle(tr("Renewal Desk — User guide"));
    m_browser->setObjectName(u"user-guide-text"_s);
    // Links are ours to follow: anchors in the guide scroll, the web opens in the browser,
    // and the other documents (operations, architecture) are not installed with the desk.
    m_browser->setOpenLinks(false);
    connect(m_browser, &QTextBrowser::anchorClicked, this, &HelpWindow::followLink);
    m_problem->setObjectName(u"user-guide-problem"_s);
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_problem->setMargin(16);
    m_problem->hide();
    m_note->setWordWrap(true);
    m_note->hide();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser, 1);
    layout->addWidget(m_problem, 1);
    layout->addWidget(m_note);
    // Alt+Left / Alt+Right as in the main window: back and forward between sections.
    auto *back = new QShortcut(QKeySequence(Qt::ALT | Qt::Key_Left), this);
    connect(back, &QShortcut::activated, m_browser, &QTextBrowser::backward);
    auto *forward = new QShortcut(QKeySequence(Qt::ALT | Qt::Key_Right), this);
    connect(forward, &QShortcut::activated, m_browser, &QTextBrowser::forward);
    auto *close = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(close, &QShortcut::activated, this, &QWidget::close);
    resize(900, 760);
}

QString HelpWindow::problem() const
{
    return m_problem->text();
}

bool HelpWindow::load()
{
    if (!m_loadedFrom.isEmpty())
        return true;
    const QString appDir = QCoreApplication::applicationDirPath();
    const QString path = findUserGuide(appDir);
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly)) {
        QStringList looked;
        for (const QString &candidate : candidatePaths(appDir))
            looked << u"  • "_s + candidate.toHtmlEscaped();
        m_problem->setText(
            tr("<p><b>The user guide is not installed.</b></p>"
               "<p>Renewal Desk looked for %1 in:</p><p>%2</p>"
               "<p>It comes with the renewal-desk package (/usr/share/renewal-desk); in a build "
               "tree it is written beside the renewal-desk program. docs/user-guide.md in the "
               "source tree is the same text.</p>")
                .arg(QString::fromLatin1(kFileName), looked.join(u"<br>"_s)));
        m_problem->show();
        m_browser->hide();
        return false;
    }
    m_browser->setSearchPaths({QFileInfo(path).absolutePath()});
    m_browser->setHtml(QString::fromUtf8(file.readAll()));
    m_loadedFrom = path;
    m_problem->clear();
    m_problem->hide();
    m_browser->show();
    return true;
}

bool HelpWindow::showSection(const QString &anchor)
{
    m_note->hide();
    if (!load())
        return false;
    if (anchor.isEmpty())
        m_browser->verticalScrollBar()->setValue(0);
    else
        m_browser->scrollToAnchor(anchor);
    return true;
}

HelpWindow *HelpWindow::showFor(QWidget *owner, const QString &anchor)
{
    auto *window = owner->findChild<HelpWindow *>(QString(), Qt::FindDirectChildrenOnly);
    if (!window) {
        window = new HelpWindow(owner);
        // Beside the desk, centred on it, within the screen (it opened at 0,0, over it); once
        // shown, where the person put it.
        placeOnOwner(window, owner, window->size());
    }
    window->show();
    window->raise();
    window->activateWindow();
    window->showSection(anchor);
    return window;
}

void HelpWindow::followLink(const QUrl &url)
{
    m_note->hide();
    if (url.isRelative() && url.path().isEmpty() && url.hasFragment()) {
        m_browser->scrollToAnchor(url.fragment());
        return;
    }
    if (url.scheme() == u"http"_s || url.scheme() == u"https"_s || url.scheme() == u"mailto"_s) {
        QDesktopServices::openUrl(url);
        return;
    }
    m_note->setText(tr("“%1” is a document for administrators and contributors; it is in the "
                       "docs folder of Renewal Desk's sources, not installed with the desk.")
                        .arg(url.path().section(u'/', -1)));
    m_note->setMargin(8);
    m_note->show();
}

} // namespace rd::ui
