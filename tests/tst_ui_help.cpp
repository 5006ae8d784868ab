#include "tests/support/test_database.h"
#include "ui/widgets/deskpages.h"
#include "ui/widgets/helpwindow.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/overviewpage.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTextBlock>
#include <QTextBrowser>
#include <QtTest>

#include <memory>

using rd::ui::HelpWindow;
using rd::ui::MainWindow;

namespace {

/// The block of the guide that carries `anchor` (<a name>), or an invalid block.
QTextBlock blockOfAnchor(const QTextDocument *doc, const QString &anchor)
{
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().anchorNames().contains(anchor))
                return block;
    return {};
}

/// The page of `window` whose class is `className`, or nullptr.
QWidget *pageOfClass(const MainWindow &window, const QString &className)
{
    for (const rd::ui::DeskPage &row : window.pages()->rows())
        if (QString::fromLatin1(row.page->metaObject()->className()) == className)
            return row.page;
    return nullptr;
}

QWidget *focused(QWidget *fallback)
{
    QWidget *w = QApplication::focusWidget();
    return w ? w : fallback;
}

} // namespace

/// Help › User guide (F1): the guide rendered at build time opens offline, at the section of
/// the page shown; every page has a section; a guide that is not there is said in words.
class TestUiHelp : public QObject
{
    Q_OBJECT

    std::unique_ptr<rdtest::TestDatabase> m_db;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"renewal-desk-tests"_qs);
        QCoreApplication::setApplicationName(u"tst_ui_help"_qs);
        QSettings().clear();
        // The test runs from tests/, not beside the desk: point it at the build's own file.
        qputenv("RENEWAL_DESK_USER_GUIDE", RD_USER_GUIDE_HTML);
        m_db = std::make_unique<rdtest::TestDatabase>("tst_ui_help");
    }

    void cleanupTestCase()
    {
        QSettings().clear();
        m_db.reset();
    }

    /// Every page's anchor is in the rendered guide, once, as QTextBrowser reads it; a page
    /// that is not the desk's has none (F1 there opens the guide's top).
    void everyPageHasItsSection()
    {
        QFile file(QString::fromUtf8(RD_USER_GUIDE_HTML));
        QVERIFY2(file.open(QIODevice::ReadOnly), RD_USER_GUIDE_HTML);
        const QString html = QString::fromUtf8(file.readAll());
        QTextDocument doc;
        doc.setHtml(html);
        MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        QVERIFY(!window.pages()->rows().isEmpty());
        for (const rd::ui::DeskPage &row : window.pages()->rows()) {
            QCOMPARE(html.count(u"name=\"%1\""_qs.arg(row.helpAnchor)), 1);
            QVERIFY2(blockOfAnchor(&doc, row.helpAnchor).isValid(), qPrintable(row.helpAnchor));
        }
        QCOMPARE(window.pages()->helpAnchorOf(nullptr), QString());
        QCOMPARE(window.pages()->helpAnchorOf(&window), QString());
    }

    /// F1 opens the guide; on each page at that page's section (scrolled to it, or the section
    /// visible when it is near the end); the window is reused.
    void f1OpensTheGuideAtThePage_data()
    {
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("anchor");
        QTest::newRow("overview") << u"rd::ui::OverviewPage"_qs << u"overview"_qs;
        QTest::newRow("subscriptions") << u"rd::ui::SubscriptionsPage"_qs << u"subscriptions"_qs;
        QTest::newRow("ledger") << u"rd::ui::LedgerPage"_qs << u"ledger"_qs;
        QTest::newRow("cases") << u"rd::ui::CasesPage"_qs << u"cases"_qs;
        QTest::newRow("audit log") << u"rd::ui::AuditLogPage"_qs << u"audit-log"_qs;
        QTest::newRow("inbox") << u"rd::ui::InboxPage"_qs << u"inbox"_qs;
        QTest::newRow("outbox") << u"rd::ui::OutboxPage"_qs << u"outbox"_qs;
    }

    void f1OpensTheGuideAtThePage()
    {
        QFETCH(QString, page);
        QFETCH(QString, anchor);
        MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.resize(1280, 820);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(!window.findChild<HelpWindow *>());
        QWidget *shown = pageOfClass(window, page);
        QVERIFY2(shown, qPrintable(page));
        window.showPage(shown);
        QTest::keyClick(focused(&window), Qt::Key_F1);
        auto *help = window.findChild<HelpWindow *>();
        QVERIFY(help);
        QTRY_VERIFY(help->isVisible());
        QCOMPARE(help->problem(), QString());
        QTextBrowser *browser = help->browser();
        QVERIFY(browser->isVisible());
        QVERIFY(browser->toPlainText().contains(u"Renewal Desk"_qs));
        const QTextBlock block = blockOfAnchor(browser->document(), anchor);
        QVERIFY(block.isValid());
        // The section's first line is in view, at the top unless the guide ends before.
        QTextCursor cursor(block);
        const QRect rect = browser->cursorRect(cursor);
        const int height = browser->viewport()->height();
        QVERIFY2(rect.top() >= -2 && rect.top() < height, qPrintable(QString::number(rect.top())));
        QScrollBar *bar = browser->verticalScrollBar();
        if (bar->value() < bar->maximum())
            QVERIFY2(rect.top() < 40, qPrintable(QString::number(rect.top())));
        if (shown != window.overviewPage())
            QVERIFY(bar->value() > 0);
        if (const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(help->grab().save(dir + u"/user-guide-"_qs + anchor + u".png"_qs));

        // F1 again, from the Overview: the same window, at the Overview's section.
        window.activateWindow();
        window.showPage(window.overviewPage());
        QTest::keyClick(&window, Qt::Key_F1);
        QCOMPARE(window.findChildren<HelpWindow *>().size(), 1);
        QTRY_VERIFY(help->isVisible());
        const QRect overview
            = browser->cursorRect(QTextCursor(blockOfAnchor(browser->document(), u"overview"_qs)));
        QVERIFY2(overview.top() >= -2 && overview.top() < 40,
            qPrintable(QString::number(overview.top())));
    }

    /// The guide opens beside the desk, centred on it within the screen (it opened at 0,0,
    /// over it), and shows its screenshots (it showed "(screenshot: Inbox)"): shipped beside
    /// the page, each <img> loads.
    void placedOnTheDeskWithItsScreenshots()
    {
        MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.resize(1024, 700);
        window.move(40, 30);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(focused(&window), Qt::Key_F1);
        auto *help = window.findChild<HelpWindow *>();
        QVERIFY(help);
        QTRY_VERIFY(help->isVisible());
        const QRect area = help->screen()->availableGeometry();
        QVERIFY2(area.contains(help->frameGeometry()),
            qPrintable(u"%1,%2 %3×%4"_qs.arg(help->x())
                           .arg(help->y())
                           .arg(help->width())
                           .arg(help->height())));
        QVERIFY(help->pos() != QPoint(0, 0));
        QFile file(QString::fromUtf8(RD_USER_GUIDE_HTML));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(file.readAll());
        QVERIFY(!html.contains(u"(screenshot:"_qs));
        const QRegularExpression img(u"<img src=\"([^\"]+)\""_qs);
        int images = 0;
        for (auto it = img.globalMatch(html); it.hasNext();) {
            const QString src = it.next().captured(1);
            const QVariant loaded
                = help->browser()->loadResource(QTextDocument::ImageResource, QUrl(src));
            QImage image = loaded.value<QImage>();
            if (image.isNull())
                image.loadFromData(loaded.toByteArray());
            QVERIFY2(!image.isNull(), qPrintable(src));
            ++images;
        }
        QVERIFY(images >= 10);
    }

    /// A guide that is not where it is looked for: the window says so, naming the places.
    void aMissingGuideIsSaidInWords()
    {
        const QByteArray kept = qgetenv("RENEWAL_DESK_USER_GUIDE");
        const QString missing = QDir::tempPath() + u"/no-such-dir-rd/user-guide.html"_qs;
        qputenv("RENEWAL_DESK_USER_GUIDE", missing.toUtf8());
        HelpWindow help;
        help.show();
        const bool shown = help.showSection(u"cases"_qs);
        qputenv("RENEWAL_DESK_USER_GUIDE", kept);
        QVERIFY(!shown);
        QVERIFY2(help.problem().contains(u"The user guide is not installed"_qs),
            qPrintable(help.problem()));
        QVERIFY2(help.problem().contains(missing), qPrintable(help.problem()));
        QVERIFY(!help.browser()->isVisible());
        auto *label = help.findChild<QLabel *>(u"user-guide-problem"_qs);
        QVERIFY(label && label->isVisible());
    }

    /// Where the guide is looked for: beside the program (a build tree), then the install
    /// prefix's share/renewal-desk.
    void candidatePaths()
    {
        const QByteArray kept = qgetenv("RENEWAL_DESK_USER_GUIDE");
        qunsetenv("RENEWAL_DESK_USER_GUIDE");
        const QStringList installed = HelpWindow::candidatePaths(u"/usr/bin"_qs);
        const QStringList built = HelpWindow::candidatePaths(u"/src/build/app/renewal-desk"_qs);
        qputenv("RENEWAL_DESK_USER_GUIDE", kept);
        QCOMPARE(installed,
            QStringList(
                {u"/usr/bin/user-guide.html"_qs, u"/usr/share/renewal-desk/user-guide.html"_qs}));
        QCOMPARE(built.first(), u"/src/build/app/renewal-desk/user-guide.html"_qs);
        // The build writes the file beside the desk, where the second case looks.
        QVERIFY(QFileInfo::exists(QString::fromUtf8(RD_USER_GUIDE_HTML)));
        QCOMPARE(QFileInfo(QString::fromUtf8(RD_USER_GUIDE_HTML)).fileName(),
            QString::fromLatin1(HelpWindow::kFileName));
    }
};

QTEST_MAIN(TestUiHelp)
#include "tst_ui_help.moc"
