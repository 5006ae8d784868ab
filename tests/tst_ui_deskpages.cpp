#include "tests/support/test_database.h"
#include "ui/widgets/desknavigator.h"
#include "ui/widgets/deskpages.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/overviewpage.h"
#include "ui/widgets/tableview.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QListWidget>
#include <QMenuBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QtTest>

#include <functional>
#include <memory>

using rd::ui::DeskNavigator;
using rd::ui::DeskPage;
using rd::ui::MainWindow;

Q_DECLARE_METATYPE(std::function<void(DeskNavigator *)>)

namespace {

QWidget *focused(QWidget *fallback)
{
    QWidget *w = QApplication::focusWidget();
    return w ? w : fallback;
}

/// Every action of the window's menus that has `keys` among its shortcuts.
QStringList actionsWithKeys(const MainWindow &window, const QKeySequence &keys)
{
    QStringList found;
    for (QAction *top : window.menuBar()->actions())
        if (top->menu())
            for (QAction *action : top->menu()->actions())
                if (action->shortcuts().contains(keys))
                    found << action->text();
    return found;
}

} // namespace

/// The desk's page registry (DeskPages): each page is one row, and the rows agree with each
/// other and with the window: a unique title in the sidebar at the page's slot, a section of
/// the user guide for F1, a shortcut no other entry has; the navigator reaches every page, by
/// its shortcut and by the links that open things on it.
class TestUiDeskPages : public QObject
{
    Q_OBJECT

    std::unique_ptr<rdtest::TestDatabase> m_db;
    QString m_guide;

    std::unique_ptr<MainWindow> makeWindow()
    {
        return std::make_unique<MainWindow>(QString::fromStdString(m_db->conninfo()), u"test"_qs);
    }

    /// One data row per registered page: what its row says.
    void registeredPages()
    {
        QTest::addColumn<int>("slot");
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("anchor");
        QTest::addColumn<QKeySequence>("shortcut");
        const auto window = makeWindow();
        const auto &rows = window->pages()->rows();
        for (int slot = 0; slot < rows.size(); ++slot)
            QTest::newRow(qPrintable(rows[slot].helpAnchor))
                << slot << rows[slot].title << rows[slot].helpAnchor << rows[slot].shortcut;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"renewal-desk-tests"_qs);
        QCoreApplication::setApplicationName(u"tst_ui_deskpages"_qs);
        QSettings().clear();
        QFile file(QString::fromUtf8(RD_USER_GUIDE_HTML));
        QVERIFY2(file.open(QIODevice::ReadOnly), RD_USER_GUIDE_HTML);
        m_guide = QString::fromUtf8(file.readAll());
        m_db = std::make_unique<rdtest::TestDatabase>("tst_ui_deskpages");
    }

    void cleanupTestCase()
    {
        QSettings().clear();
        m_db.reset();
    }

    /// The registry is the stack and the sidebar: one slot, one entry per row, nothing else.
    void theRegistryIsTheStackAndTheSidebar()
    {
        const auto window = makeWindow();
        auto *stack = window->findChild<QStackedWidget *>();
        auto *sidebar = window->findChild<QListWidget *>(u"navigation"_qs);
        QVERIFY(stack && sidebar);
        QVERIFY(!window->pages()->rows().isEmpty());
        QCOMPARE(stack->count(), int(window->pages()->rows().size()));
        QCOMPARE(sidebar->count(), int(window->pages()->rows().size()));
        // The desk opens on its first row.
        QCOMPARE(stack->currentIndex(), 0);
        QCOMPARE(window->pages()->current(), window->overviewPage());
        QCOMPARE(window->pages()->find(window.get()), nullptr);
        QCOMPARE(window->pages()->slotOf(nullptr), -1);
    }

    /// A row agrees with every other and with the window: its title, anchor and shortcut are
    /// its own; the sidebar shows its title at its slot; the guide has its section, once.
    void everyRowIsItsOwn_data() { registeredPages(); }
    void everyRowIsItsOwn()
    {
        QFETCH(int, slot);
        QFETCH(QString, title);
        QFETCH(QString, anchor);
        QFETCH(QKeySequence, shortcut);
        const auto window = makeWindow();
        const auto &rows = window->pages()->rows();
        const DeskPage &row = rows[slot];

        QVERIFY(row.page);
        QVERIFY(!title.isEmpty());
        QVERIFY(!anchor.isEmpty());
        QVERIFY(!shortcut.isEmpty());
        for (int other = 0; other < rows.size(); ++other) {
            if (other == slot)
                continue;
            QVERIFY2(rows[other].title != title, qPrintable(rows[other].helpAnchor));
            QVERIFY2(rows[other].helpAnchor != anchor, qPrintable(rows[other].title));
            QVERIFY2(rows[other].shortcut != shortcut, qPrintable(rows[other].title));
            QVERIFY(rows[other].page != row.page);
        }
        // The sidebar and the stack at the row's slot.
        auto *stack = window->findChild<QStackedWidget *>();
        auto *sidebar = window->findChild<QListWidget *>(u"navigation"_qs);
        QCOMPARE(stack->widget(slot), row.page);
        QCOMPARE(sidebar->item(slot)->text(), title);
        QCOMPARE(window->pages()->slotOf(row.page), slot);
        QCOMPARE(window->pages()->helpAnchorOf(row.page), anchor);
        // F1's section, once in the guide the build renders.
        QCOMPARE(m_guide.count(u"name=\"%1\""_qs.arg(anchor)), 1);
        // No other menu entry answers to its keys (both would be dead).
        QCOMPARE(actionsWithKeys(*window, shortcut), QStringList {title});
        // Its main list, when it has one, is on the page.
        if (row.table)
            QVERIFY(row.page->isAncestorOf(row.table));
        QVERIFY(row.refresh);
        QCOMPARE(bool(row.selection), bool(row.reselect));
    }

    /// The row's shortcut shows its page from another one, as the sidebar would: the sidebar
    /// follows, F1 would open the page's section, and Back returns to where the desk was.
    void theShortcutReachesThePage_data() { registeredPages(); }
    void theShortcutReachesThePage()
    {
        QFETCH(int, slot);
        QFETCH(QString, anchor);
        QFETCH(QKeySequence, shortcut);
        const auto window = makeWindow();
        window->show();
        window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window.get()));
        const auto &rows = window->pages()->rows();
        QWidget *from = rows[slot == 0 ? rows.size() - 1 : 0].page;
        window->showPage(from);
        QCOMPARE(window->pages()->current(), from);

        QTest::keySequence(focused(window.get()), shortcut);
        QCOMPARE(window->pages()->current(), rows[slot].page);
        QCOMPARE(window->findChild<QListWidget *>(u"navigation"_qs)->currentRow(), slot);
        QCOMPARE(window->pages()->helpAnchorOf(window->pages()->current()), anchor);
        QVERIFY(window->backAction()->isEnabled());
        QTest::keyClick(focused(window.get()), Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(window->pages()->current(), from);
        QTest::keyClick(focused(window.get()), Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(window->pages()->current(), rows[slot].page);
    }

    /// Every cross-page link lands on the page that shows what it opens, and is a place of
    /// the history: Back returns to the page it was followed from.
    void everyLinkLandsOnItsPage_data()
    {
        QTest::addColumn<std::function<void(DeskNavigator *)>>("follow");
        QTest::addColumn<QString>("page");
        using N = DeskNavigator *;
        QTest::newRow("subscription")
            << std::function([](N n) { n->openSubscription(u"sub_none"_qs); })
            << u"rd::ui::SubscriptionsPage"_qs;
        QTest::newRow("billing period")
            << std::function([](N n) { n->openBillingPeriod(u"sub_none"_qs, u"1"_qs); })
            << u"rd::ui::SubscriptionsPage"_qs;
        QTest::newRow("overdue") << std::function([](N n) { n->showOverdue(); })
                                 << u"rd::ui::SubscriptionsPage"_qs;
        QTest::newRow("audit record")
            << std::function([](N n) { n->openAuditRecord(u"sub_none"_qs, 1, u"broken"_qs); })
            << u"rd::ui::SubscriptionsPage"_qs;
        QTest::newRow("case") << std::function([](N n) { n->openCase(999999); })
                              << u"rd::ui::CasesPage"_qs;
        QTest::newRow("open case")
            << std::function([](N n) { n->openOpenCase(999999); }) << u"rd::ui::CasesPage"_qs;
        QTest::newRow("open cases")
            << std::function([](N n) { n->showOpenCases({}, -1, -1); }) << u"rd::ui::CasesPage"_qs;
        QTest::newRow("cases of a day")
            << std::function([](N n) { n->showCasesOfDay(QDate(2026, 11, 2), false); })
            << u"rd::ui::CasesPage"_qs;
        QTest::newRow("delivery") << std::function([](N n) { n->openDelivery(999999); })
                                  << u"rd::ui::InboxPage"_qs;
        QTest::newRow("inbox") << std::function([](N n) { n->showInbox({}, {}); })
                               << u"rd::ui::InboxPage"_qs;
        QTest::newRow("ledger") << std::function([](N n) {
            n->showLedgerPaid(QDate(2026, 11, 1), QDate(2026, 12, 1), {}, {});
        }) << u"rd::ui::LedgerPage"_qs;
        QTest::newRow("outbox") << std::function([](N n) { n->showOutbox({}); })
                                << u"rd::ui::OutboxPage"_qs;
    }

    void everyLinkLandsOnItsPage()
    {
        QFETCH(std::function<void(DeskNavigator *)>, follow);
        QFETCH(QString, page);
        const auto window = makeWindow();
        window->resize(1280, 820);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QCOMPARE(window->pages()->current(), window->overviewPage());
        follow(window->navigator());
        QCOMPARE(QString::fromLatin1(window->pages()->current()->metaObject()->className()), page);
        QCOMPARE(window->findChild<QListWidget *>(u"navigation"_qs)->currentRow(),
            window->pages()->slotOf(window->pages()->current()));
        QVERIFY(window->history().canGoBack());
        window->goBack();
        QCOMPARE(window->pages()->current(), window->overviewPage());
    }
};

QTEST_MAIN(TestUiDeskPages)
#include "tst_ui_deskpages.moc"
