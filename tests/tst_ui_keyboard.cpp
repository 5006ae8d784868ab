#include "tests/support/gap_case.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/casespage.h"
#include "ui/widgets/finddialog.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/overviewpage.h"
#include "ui/widgets/subscriptionspage.h"
#include "ui/widgets/tableview.h"

#include <pqxx/pqxx>

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTimer>
#include <QtTest>

#include <functional>
#include <memory>

using rd::ui::CasesPage;
using rd::ui::MainWindow;

namespace {

/// Where the keys go: the widget that has the focus, as for a person at the keyboard.
QWidget *focused(QWidget *fallback)
{
    QWidget *w = QApplication::focusWidget();
    return w ? w : fallback;
}

/// Makes `window` the active window and waits until it has kept the keyboard for a few event
/// loop turns. The offscreen platform activates windows asynchronously: an activation asked
/// for earlier (when a dialog closed, say) can arrive after a newer window was shown and take
/// the keyboard back from it, so one look at isActiveWindow() is not enough.
bool holdActivation(QWidget *window)
{
    int steady = 0;
    for (int i = 0; i < 250 && steady < 5; ++i) {
        if (!window->isActiveWindow())
            window->activateWindow();
        QTest::qWait(20);
        const QWidget *focus = QApplication::focusWidget();
        const bool holds = window->isActiveWindow() && focus && focus->window() == window;
        steady = holds ? steady + 1 : 0;
    }
    return steady >= 5;
}

/// The keys a modal dialog gets once it is open: it runs its own event loop (exec), so they
/// are typed from a timer inside it. A dialog still open 10 s later is cancelled (the test
/// then fails on what it finds) rather than hanging the run.
void typeIntoNextDialog(std::function<void(QDialog *)> keys, bool *typed)
{
    *typed = false;
    auto *poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, keys = std::move(keys), typed] {
        auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        if (!dialog || !dialog->isVisible())
            return;
        poll->stop();
        poll->deleteLater();
        if (!holdActivation(dialog))
            qWarning("the dialog did not keep the keyboard");
        QPointer<QDialog> guard(dialog);
        QTimer::singleShot(10000, dialog, [guard] {
            if (guard && guard->isVisible())
                guard->reject();
        });
        keys(dialog);
        *typed = true;
    });
    poll->start();
}

QString caseNoteIn(const QDialog *dialog)
{
    const auto *text = qobject_cast<const QPlainTextEdit *>(QApplication::focusWidget());
    return text && text->window() == dialog ? text->objectName() : QString();
}

} // namespace

/// The desk from the keyboard alone, as the walkthrough goes: open a case from the Overview,
/// claim it, note on it, dismiss it, and back to where it was opened from; Alt+Left and
/// Alt+Right between the places drill-downs took the desk to; the Case menu and Help's list
/// of shortcuts. Only key events: no slot is called to do what a key should.
class TestUiKeyboard : public QObject
{
    Q_OBJECT

    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::string m_conninfo;
    qint64 m_oldest = 0; ///< renewal not allowed for the status: the oldest open case
    qint64 m_gap = 0; ///< a renewal period that does not continue the current one
    qint64 m_cancel = 0; ///< set to cancel at the period's end

    std::string sql(const std::string &query) { return rdtest::text(*m_db, query); }

    qint64 openCase(const std::string &kind, const std::string &sub)
    {
        return rdtest::openCaseOfKind(*m_db, kind, sub);
    }

    static bool showsCase(MainWindow &window, qint64 id)
    {
        CasesPage *cases = window.casesPage();
        const QModelIndex current = cases->table()->currentIndex();
        return window.findChild<QStackedWidget *>()->currentWidget() == cases
            && cases->currentCase() == id && current.isValid()
            && cases->model()->row(current.row())[CasesPage::Id].toLongLong() == id
            && cases->table()->selectionModel()->isRowSelected(current.row(), {});
    }

    static QWidget *shownPage(MainWindow &window)
    {
        return window.findChild<QStackedWidget *>()->currentWidget();
    }

    void waitForOverview(MainWindow &window)
    {
        QVERIFY(QTest::qWaitFor(
            [&] {
                auto *oldest = window.overviewPage()->findChild<QPushButton *>(u"oldest-case"_qs);
                return oldest && oldest->isVisible()
                    && oldest->text().contains(u"(case %1)"_qs.arg(m_oldest));
            },
            15000));
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"renewal-desk-tests"_qs);
        QCoreApplication::setApplicationName(u"tst_ui_keyboard"_qs);
        QSettings().clear();
    }

    void init()
    {
        m_db = std::make_unique<rdtest::TestDatabase>(QTest::currentTestFunction());
        // Demo-like: three open cases of three reasons, the oldest first; the desk of an
        // operator.
        m_oldest = openCase("status", "sub_status");
        m_gap = openCase("gap", "sub_gap");
        m_cancel = openCase("cancel", "sub_cancel");
        m_conninfo = rdtest::loginAs(*m_db, "alice", "operator");
    }

    void cleanup()
    {
        QSettings().clear(); // no window layout carried from one test to the next
        m_db.reset();
    }

    /// Open a case, claim, note, dismiss, back: every step by a key, as the database records it.
    void walkthroughByKeyboardAlone()
    {
        MainWindow window(QString::fromStdString(m_conninfo), u"test"_qs);
        window.resize(1280, 820);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QCOMPARE(shownPage(window), window.overviewPage());
        waitForOverview(window);

        // Open: Tab to the Overview's "oldest … (case N)", Space.
        for (int i = 0; i < 80 && focused(&window)->objectName() != u"oldest-case"; ++i)
            QTest::keyClick(focused(&window), Qt::Key_Tab);
        // The figures are read again every 2 s: the one tabbed to keeps the focus.
        QTest::qWait(2500);
        QCOMPARE(focused(&window)->objectName(), u"oldest-case"_qs);
        QTest::keyClick(focused(&window), Qt::Key_Space);
        QVERIFY2(QTest::qWaitFor([&] { return showsCase(window, m_oldest); }, 15000),
            "the oldest case is shown and selected");

        // Tab into the queue, and out of it again: the selected case stays the same; on to
        // the case's Claim, Space.
        CasesPage *cases = window.casesPage();
        for (int i = 0; i < 60 && !cases->table()->hasFocus(); ++i)
            QTest::keyClick(focused(&window), Qt::Key_Tab);
        QVERIFY(cases->table()->hasFocus());
        QTest::keyClick(cases->table(), Qt::Key_Tab);
        QVERIFY(!cases->table()->hasFocus());
        QCOMPARE(cases->currentCase(), m_oldest);
        auto isClaim = [](QWidget *w) {
            auto *b = qobject_cast<QPushButton *>(w);
            return b && b->text() == u"Claim"_qs;
        };
        for (int i = 0; i < 60 && !isClaim(focused(&window)); ++i)
            QTest::keyClick(focused(&window), Qt::Key_Tab);
        QVERIFY2(isClaim(focused(&window)), qPrintable(focused(&window)->objectName()));
        QCOMPARE(cases->currentCase(), m_oldest);
        const std::string id = std::to_string(m_oldest);
        QTest::keyClick(focused(&window), Qt::Key_Space);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return sql("SELECT assigned_to FROM reconciliation_cases WHERE id = " + id)
                    == m_db->name() + "_alice";
            },
            15000));
        QTRY_VERIFY_WITH_TIMEOUT(cases->titleText().contains(u"assigned to <b>you"_qs), 15000);
        // Release (Ctrl+Shift+M) and claim again (Ctrl+M): the Case menu's shortcuts.
        QTest::keyClick(focused(&window), Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return sql("SELECT coalesce(assigned_to, '-') FROM reconciliation_cases WHERE id = "
                           + id)
                    == "-";
            },
            15000));
        QTRY_VERIFY_WITH_TIMEOUT(cases->titleText().contains(u"unassigned"_qs), 15000);
        // The title follows the case at once; the actions once the page has re-read it.
        auto *claimAction = window.findChild<QAction *>(u"case-action-claim"_qs);
        QVERIFY(claimAction);
        QTRY_VERIFY_WITH_TIMEOUT(claimAction->isEnabled(), 15000);
        QTest::keyClick(focused(&window), Qt::Key_M, Qt::ControlModifier);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return sql("SELECT assigned_to FROM reconciliation_cases WHERE id = " + id)
                    == m_db->name() + "_alice";
            },
            15000));
        QTRY_VERIFY_WITH_TIMEOUT(cases->titleText().contains(u"assigned to <b>you"_qs), 15000);

        // Note: Ctrl+N, type, Tab leaves the box (no tab typed), Shift+Tab back, Ctrl+Return.
        bool typed = false;
        QString noteBox;
        QString noteAfterTab;
        typeIntoNextDialog(
            [&](QDialog *dialog) {
                noteBox = caseNoteIn(dialog);
                QWidget *box = QApplication::focusWidget();
                QTest::keyClicks(box, u"called the customer"_qs);
                QTest::keyClick(box, Qt::Key_Tab);
                noteAfterTab = static_cast<QPlainTextEdit *>(box)->toPlainText();
                QTest::keyClick(focused(dialog), Qt::Key_Backtab, Qt::ShiftModifier);
                QTest::keyClick(focused(dialog), Qt::Key_Return); // a new line, not submitted
                QTest::keyClicks(focused(dialog), u"refund on Monday"_qs);
                QTest::keyClick(focused(dialog), Qt::Key_Return, Qt::ControlModifier);
            },
            &typed);
        QTest::keyClick(focused(&window), Qt::Key_N, Qt::ControlModifier);
        QVERIFY(typed);
        // The offscreen platform has no window manager to give the focus back to the window.
        QVERIFY(holdActivation(&window));
        QCOMPARE(noteBox, u"case-note-text"_qs);
        QCOMPARE(noteAfterTab, u"called the customer"_qs);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return sql("SELECT coalesce(string_agg(comment, '|'), '') FROM "
                           "reconciliation_case_history WHERE action = 'noted' AND case_id = "
                           + id)
                    == "called the customer\nrefund on Monday";
            },
            15000));

        // Dismiss: Ctrl+Shift+D; a reason by the arrows, Tab to the note, Ctrl+Return.
        QString dismissBoxAfterTab;
        typeIntoNextDialog(
            [&](QDialog *dialog) {
                auto *reason = dialog->findChild<QComboBox *>(u"note-reason"_qs);
                if (!reason || !reason->hasFocus())
                    return;
                QTest::keyClick(reason, Qt::Key_Down);
                QTest::keyClick(reason, Qt::Key_Tab);
                dismissBoxAfterTab = caseNoteIn(dialog);
                QTest::keyClicks(focused(dialog), u"duplicate of a paid renewal"_qs);
                QTest::keyClick(focused(dialog), Qt::Key_Return, Qt::ControlModifier);
            },
            &typed);
        auto *dismissAction = window.findChild<QAction *>(u"case-action-dismiss"_qs);
        QVERIFY(dismissAction);
        QTRY_VERIFY_WITH_TIMEOUT(dismissAction->isEnabled(), 15000);
        QTest::keyClick(focused(&window), Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY2(typed, qPrintable(focused(&window)->objectName()));
        QVERIFY(holdActivation(&window));
        QCOMPARE(dismissBoxAfterTab, u"note-comment"_qs);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return sql("SELECT status || ' ' || resolution_comment FROM reconciliation_cases "
                           "WHERE id = "
                           + id)
                    == "dismissed duplicate of a paid renewal";
            },
            15000));

        // Back: Alt+Left returns to the Overview; Alt+Right to the case again.
        QTest::keyClick(focused(&window), Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(shownPage(window), window.overviewPage());
        QTest::keyClick(focused(&window), Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(shownPage(window), cases);
        QTRY_COMPARE_WITH_TIMEOUT(cases->currentCase(), m_oldest, 15000);
        QVERIFY(!window.forwardAction()->isEnabled());
        QVERIFY(window.backAction()->isEnabled());
    }

    /// The Overview's "oldest … (case N)" over a queue filtered to another reason: the filter
    /// goes, the case is listed and selected (it was shown over the other reason's cases, with
    /// nothing selected). Back returns to the filtered list, with its case selected.
    void drillDownLeavesNoStaleFilter()
    {
        MainWindow window(QString::fromStdString(m_conninfo), u"test"_qs);
        window.resize(1280, 820);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        waitForOverview(window);
        CasesPage *cases = window.casesPage();
        // The queue of one reason, from the Overview's bars (as a click on "Gap or overlap").
        emit window.overviewPage()->openCasesRequested(
            u"renewal_period_is_not_contiguous"_qs, -1, -1);
        QCOMPARE(shownPage(window), cases);
        QVERIFY2(QTest::qWaitFor([&] { return showsCase(window, m_gap); }, 15000),
            qPrintable(u"case %1, current row %2, %3 rows"_qs.arg(cases->currentCase())
                           .arg(cases->table()->currentIndex().row())
                           .arg(cases->model()->rowCount())));
        QCOMPARE(cases->model()->rowCount(), 1);

        window.showPage(window.overviewPage());
        auto *oldest = window.overviewPage()->findChild<QPushButton *>(u"oldest-case"_qs);
        QVERIFY(oldest);
        QTest::mouseClick(oldest, Qt::LeftButton);
        QCOMPARE(shownPage(window), cases);
        QVERIFY2(QTest::qWaitFor([&] { return showsCase(window, m_oldest); }, 15000),
            qPrintable(u"case %1 shown, reason filter '%2', %3 rows"_qs.arg(cases->currentCase())
                           .arg(cases->reasonFilter())
                           .arg(cases->model()->rowCount())));
        QCOMPARE(cases->reasonFilter(), QString());

        // Back: the Overview; back again: the list of one reason with its case.
        QTest::keyClick(focused(&window), Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(shownPage(window), window.overviewPage());
        QTest::keyClick(focused(&window), Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(shownPage(window), cases);
        QCOMPARE(cases->reasonFilter(), u"renewal_period_is_not_contiguous"_qs);
        QVERIFY(QTest::qWaitFor([&] { return showsCase(window, m_gap); }, 15000));
        QTest::keyClick(focused(&window), Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(shownPage(window), window.overviewPage());
        QVERIFY(!window.backAction()->isEnabled());
        // Forward to the last place, and once more past it (nothing further): the oldest
        // case, over the whole queue.
        QTest::keyClick(focused(&window), Qt::Key_Right, Qt::AltModifier);
        QTest::keyClick(focused(&window), Qt::Key_Right, Qt::AltModifier);
        QTest::keyClick(focused(&window), Qt::Key_Right, Qt::AltModifier);
        QVERIFY(QTest::qWaitFor([&] { return showsCase(window, m_oldest); }, 15000));
        QVERIFY(!window.forwardAction()->isEnabled());
        QCOMPARE(cases->reasonFilter(), QString());
        // The mouse's Back and Forward buttons, over the queue (which would take any click).
        QTest::mouseClick(cases->table()->viewport(), Qt::BackButton);
        QCOMPARE(shownPage(window), window.overviewPage());
        QTest::mouseClick(window.overviewPage(), Qt::ForwardButton);
        QCOMPARE(shownPage(window), cases);
    }

    /// The keyboard comes back to the page's list after Find anything opened a result and
    /// after a note dialog: Ctrl+K and Ctrl+Shift+D work at once, with no click (they did
    /// nothing: no window had the keyboard). No holdActivation here: the desk gives it back.
    void focusReturnsAfterFindAndDialogs()
    {
        MainWindow window(QString::fromStdString(m_conninfo), u"test"_qs);
        window.resize(1280, 820);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        waitForOverview(window);

        // Ctrl+K, a subscription's id, Return: its page, its list has the keyboard.
        QTest::keyClick(focused(&window), Qt::Key_K, Qt::ControlModifier);
        auto *find = window.findChild<rd::ui::FindDialog *>();
        QVERIFY(find);
        QTRY_VERIFY(find->isVisible());
        QVERIFY(holdActivation(find));
        QTest::keyClicks(find->input(), u"sub_gap"_qs);
        QTest::keyClick(find->input(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!find->isVisible(), 15000);
        QCOMPARE(shownPage(window), window.subscriptionsPage());
        QTRY_VERIFY_WITH_TIMEOUT(
            QApplication::focusWidget() == window.subscriptionsPage()->table(), 5000);
        QCOMPARE(window.mainView(), window.subscriptionsPage()->table());
        // Ctrl+K again, typed where the focus is: Find anything opens; Esc closes it, and the
        // list has the keyboard again.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_K, Qt::ControlModifier);
        QTRY_VERIFY(find->isVisible() && find->isActiveWindow());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QTRY_VERIFY(!find->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(
            QApplication::focusWidget() == window.subscriptionsPage()->table(), 5000);

        // The Cases page by its shortcut: its queue has the keyboard.
        CasesPage *cases = window.casesPage();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_4, Qt::ControlModifier);
        QCOMPARE(shownPage(window), cases);
        QTRY_VERIFY_WITH_TIMEOUT(QApplication::focusWidget() == cases->table(), 5000);
        QVERIFY(QTest::qWaitFor([&] { return cases->currentCase() != 0; }, 15000));
        auto *noteAction = window.findChild<QAction *>(u"case-action-note"_qs);
        QVERIFY(noteAction);
        QTRY_VERIFY_WITH_TIMEOUT(noteAction->isEnabled(), 15000);
        // A note, from the panel's button (the focus on it): then the queue has the keyboard.
        bool typed = false;
        typeIntoNextDialog(
            [&](QDialog *dialog) {
                QTest::keyClicks(focused(dialog), u"called the customer"_qs);
                QTest::keyClick(focused(dialog), Qt::Key_Return, Qt::ControlModifier);
            },
            &typed);
        QPushButton *noteButton = nullptr;
        for (auto *b : cases->findChildren<QPushButton *>())
            if (b->text() == noteAction->text().replace(u"&&"_qs, u"&"_qs))
                noteButton = b;
        QVERIFY(noteButton);
        noteButton->setFocus();
        QTest::keyClick(noteButton, Qt::Key_Space);
        QVERIFY(typed);
        QTRY_VERIFY_WITH_TIMEOUT(QApplication::focusWidget() == cases->table(), 5000);
        QTRY_VERIFY(window.isActiveWindow());
        // Ctrl+Shift+D where the focus is: the Dismiss dialog opens (and is cancelled).
        auto *dismissAction = window.findChild<QAction *>(u"case-action-dismiss"_qs);
        QVERIFY(dismissAction);
        QTRY_VERIFY_WITH_TIMEOUT(dismissAction->isEnabled(), 15000);
        typeIntoNextDialog([&](QDialog *dialog) { dialog->reject(); }, &typed);
        QTest::keyClick(
            QApplication::focusWidget(), Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(typed);
        QTRY_VERIFY_WITH_TIMEOUT(QApplication::focusWidget() == cases->table(), 5000);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_K, Qt::ControlModifier);
        QTRY_VERIFY(find->isVisible());
        find->hide();
    }

    /// Help › Keyboard shortcuts in the smallest window: within it, the list scrolls; Esc
    /// closes it (it ran off a 700-pixel screen, and Esc did nothing).
    void shortcutsWindowFitsAndEscCloses()
    {
        MainWindow window(QString::fromStdString(m_conninfo), u"test"_qs);
        window.resize(1024, 700);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(focused(&window), Qt::Key_F1, Qt::ControlModifier);
        QPointer<QDialog> dialog = window.findChild<QDialog *>(u"keyboard-shortcuts"_qs);
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        QVERIFY2(dialog->height() <= window.height() && dialog->width() <= window.width(),
            qPrintable(u"%1×%2 in %3×%4"_qs.arg(dialog->width())
                           .arg(dialog->height())
                           .arg(window.width())
                           .arg(window.height())));
        // Its frame too (the window manager's, beside and above it).
        QVERIFY(dialog->screen()->availableGeometry().contains(dialog->frameGeometry()));
        auto *close = dialog->findChild<QPushButton *>();
        QVERIFY(close && close->isVisible());
        QVERIFY(holdActivation(dialog));
        QTest::keyClick(focused(dialog), Qt::Key_Escape);
        QTRY_VERIFY(dialog.isNull() || !dialog->isVisible());
    }

    /// The Case menu holds the case actions with their shortcuts, shown in the menu and
    /// enabled as their buttons are; Help lists every menu shortcut, read from the menus.
    void caseMenuAndShortcutList()
    {
        MainWindow window(QString::fromStdString(m_conninfo), u"test"_qs);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QMenu *caseMenu = window.findChild<QMenu *>(u"case-menu"_qs);
        QVERIFY(caseMenu);
        QStringList entries;
        for (QAction *a : caseMenu->actions())
            if (!a->isSeparator())
                entries << a->text() + u'\t' + a->shortcut().toString();
        for (const QString &wanted : {u"Claim\tCtrl+M"_qs, u"Add note…\tCtrl+N"_qs,
                 u"Re-apply…\tCtrl+Shift+R"_qs, u"Dismiss…\tCtrl+Shift+D"_qs,
                 u"Open subscription\tCtrl+O"_qs, u"Attach provider snapshot…\tCtrl+Shift+A"_qs})
            QVERIFY2(entries.contains(wanted), qPrintable(entries.join(u" | "_qs)));
        // Not on the Cases page: nothing to act on.
        for (QAction *a : caseMenu->actions())
            QVERIFY2(a->isSeparator() || !a->isEnabled(), qPrintable(a->text()));
        window.showPage(window.casesPage());
        QVERIFY(QTest::qWaitFor([&] { return window.casesPage()->currentCase() != 0; }, 15000));
        auto *claim = window.findChild<QAction *>(u"case-action-claim"_qs);
        QVERIFY(claim);
        QPushButton *claimButton = nullptr;
        for (auto *b : window.casesPage()->findChildren<QPushButton *>())
            if (b->text() == claim->text())
                claimButton = b;
        QVERIFY(claimButton);
        QTRY_COMPARE_WITH_TIMEOUT(claim->isEnabled(), claimButton->isEnabled(), 5000);
        QVERIFY(claim->isEnabled());
        if (const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR"); !dir.isEmpty()) {
            caseMenu->popup(window.mapToGlobal(QPoint(40, 20)));
            QTRY_VERIFY(caseMenu->isVisible());
            QVERIFY(caseMenu->grab().save(dir + u"/case-menu.png"_qs));
            caseMenu->close();
        }

        // Every shortcut once: two actions with the same keys would both be dead.
        const auto list = window.keyboardShortcuts();
        QStringList keys;
        QStringList said;
        for (const auto &[k, what] : list) {
            said << k + u" = "_qs + what;
            if (what.contains(u" › "_qs)) {
                for (const QString &one : k.split(u" or "_qs)) {
                    QVERIFY2(!keys.contains(one), qPrintable(one));
                    keys << one;
                }
            }
        }
        for (const QString &wanted :
            {u"Ctrl+M = Case › Claim"_qs, u"Alt+Left or Back = View › Back"_qs,
                u"Ctrl+K = View › Find anything (any id)…"_qs,
                u"Ctrl+Shift+D = Case › Dismiss…"_qs})
            QVERIFY2(said.contains(wanted), qPrintable(said.join(u"\n"_qs)));
        QTest::keyClick(focused(&window), Qt::Key_F1, Qt::ControlModifier);
        auto *dialog = window.findChild<QDialog *>(u"keyboard-shortcuts"_qs);
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        if (const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(dialog->grab().save(dir + u"/keyboard-shortcuts.png"_qs));
        dialog->close();
    }
};

QTEST_MAIN(TestUiKeyboard)
#include "tst_ui_keyboard.moc"
