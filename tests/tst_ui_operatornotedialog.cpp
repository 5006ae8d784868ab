#include "ui/widgets/operatornotedialog.h"

#include "domain/core/operator_note.h"

#include <QApplication>
#include <QComboBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QtTest>

/// The note asked for before a case action: Dismiss is not clickable without a comment, and
/// says why while it is not; the reasons offered are the standard list.
class TestUiOperatorNoteDialog : public QObject
{
    Q_OBJECT

    /// RD_SCREENSHOT_DIR=DIR keeps the dialog's pictures (for docs/screenshots).
    static void saveScreenshot(QWidget *widget, const char *name)
    {
        const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            QVERIFY(widget->grab().save(dir + u'/' + QString::fromLatin1(name)));
    }

private slots:
    void dismissNeedsANoteBeforeItCanBeClicked()
    {
        rd::ui::OperatorNoteDialog dialog(u"Dismiss"_qs, 7, /*commentRequired=*/true);
        dialog.show();
        QPushButton *dismiss = dialog.actionButton();
        QCOMPARE(dismiss->text(), u"Dismiss"_qs);
        QVERIFY(!dismiss->isEnabled());
        QVERIFY(!dialog.blockedBecause().isEmpty());
        dialog.setReason(u"duplicate_charge"_qs);
        saveScreenshot(&dialog, "dismiss-needs-a-note.png");
        auto *comment = dialog.findChild<QPlainTextEdit *>(u"note-comment"_qs);
        QVERIFY(comment);

        // Blanks are no note.
        QTest::keyClicks(comment, u"   "_qs);
        QVERIFY(!dismiss->isEnabled());
        QTest::mouseClick(dismiss, Qt::LeftButton);
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));

        QTest::keyClicks(comment, u"duplicate of case 6"_qs);
        QVERIFY(dismiss->isEnabled());
        QVERIFY(dialog.blockedBecause().isEmpty());
        saveScreenshot(&dialog, "dismiss-with-a-note.png");
        QTest::mouseClick(dismiss, Qt::LeftButton);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.comment().trimmed(), u"duplicate of case 6"_qs);

        comment->clear();
        QVERIFY(!dismiss->isEnabled());
    }

    // What a QString's trimmed() keeps is not always something to read: a zero-width space,
    // a word joiner or a Hangul filler pasted from a chat. The database refuses them (0027), so the
    // dialog must not offer to send them.
    void invisibleCharactersAreNoNote_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::newRow("zero-width space") << QString::fromUtf8("\u200b");
        QTest::newRow("zero-width space and BOM") << QString::fromUtf8("\u200b\ufeff");
        QTest::newRow("word joiner") << QString::fromUtf8("\u2060");
        QTest::newRow("Hangul filler") << QString::fromUtf8("\u3164");
    }

    void invisibleCharactersAreNoNote()
    {
        QFETCH(QString, typed);
        rd::ui::OperatorNoteDialog dialog(u"Dismiss"_qs, 7, /*commentRequired=*/true);
        auto *comment = dialog.findChild<QPlainTextEdit *>(u"note-comment"_qs);
        QVERIFY(comment);
        dialog.setReason(u"other"_qs);
        comment->setPlainText(typed);
        QVERIFY(!typed.trimmed().isEmpty()); // what the dialog checked before
        QVERIFY(!dialog.actionButton()->isEnabled());
        QVERIFY(!dialog.blockedBecause().isEmpty());
        comment->setPlainText(typed + u"refund confirmed"_qs);
        QVERIFY(dialog.actionButton()->isEnabled());
    }

    void reapplyTakesAnEmptyComment()
    {
        rd::ui::OperatorNoteDialog dialog(u"Re-apply"_qs, 7, /*commentRequired=*/false);
        dialog.setReason(u"provider_confirmed"_qs);
        QVERIFY(dialog.actionButton()->isEnabled());
        QVERIFY(dialog.blockedBecause().isEmpty());
    }

    /// #28, 17: no reason is chosen for the operator (a bulk dismissal of test data was
    /// recorded as provider_confirmed, the default): the action waits for one, and says so.
    void noReasonIsChosenInAdvance_data()
    {
        QTest::addColumn<bool>("commentRequired");
        QTest::newRow("dismiss") << true;
        QTest::newRow("re-apply") << false;
    }

    void noReasonIsChosenInAdvance()
    {
        QFETCH(bool, commentRequired);
        rd::ui::OperatorNoteDialog dialog(u"Act"_qs, 7, commentRequired);
        dialog.show();
        auto *comment = dialog.findChild<QPlainTextEdit *>(u"note-comment"_qs);
        comment->setPlainText(u"test data from the staging account"_qs);
        QCOMPARE(dialog.reason(), QString());
        QVERIFY(!dialog.actionButton()->isEnabled());
        QVERIFY2(
            dialog.blockedBecause().contains(u"reason"_qs), qPrintable(dialog.blockedBecause()));
        auto *reason = dialog.findChild<QComboBox *>(u"note-reason"_qs);
        QCOMPARE(reason->currentIndex(), -1);
        saveScreenshot(&dialog, "note-no-reason-chosen.png");
        reason->setCurrentIndex(reason->findData(u"test_data"_qs));
        QCOMPARE(dialog.reason(), u"test_data"_qs);
        QVERIFY(dialog.actionButton()->isEnabled());
        QVERIFY(dialog.blockedBecause().isEmpty());
    }

    /// Submitted from the keyboard: Ctrl+Return (or the keypad's Ctrl+Enter) accepts, Return
    /// is a new line, Tab moves on to the next control instead of typing a tab. A dismissal
    /// without its note is not submitted by the keys either.
    void submittedFromTheKeyboard_data()
    {
        QTest::addColumn<Qt::Key>("key");
        QTest::newRow("Ctrl+Return") << Qt::Key_Return;
        QTest::newRow("Ctrl+Enter") << Qt::Key_Enter;
    }

    void submittedFromTheKeyboard()
    {
        QFETCH(Qt::Key, key);
        rd::ui::OperatorNoteDialog dialog(u"Dismiss"_qs, 7, /*commentRequired=*/true);
        dialog.show();
        dialog.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        auto *comment = dialog.findChild<QPlainTextEdit *>(u"note-comment"_qs);
        QVERIFY(comment);
        comment->setFocus(Qt::TabFocusReason);
        const Qt::KeyboardModifiers ctrl
            = Qt::ControlModifier | (key == Qt::Key_Enter ? Qt::KeypadModifier : Qt::NoModifier);
        QTest::keyClick(comment, key, ctrl);
        QVERIFY(dialog.isVisible()); // no note yet: not submitted
        QTest::keyClicks(comment, u"refund confirmed"_qs);
        QTest::keyClick(comment, Qt::Key_Return);
        QVERIFY(dialog.isVisible());
        QTest::keyClicks(comment, u"by phone"_qs);
        QTest::keyClick(comment, Qt::Key_Tab);
        QVERIFY(!comment->hasFocus());
        QCOMPARE(comment->toPlainText(), u"refund confirmed\nby phone"_qs);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab, Qt::ShiftModifier);
        QVERIFY(comment->hasFocus());
        QTest::keyClick(comment, key, ctrl);
        QVERIFY(dialog.isVisible()); // a note but no reason chosen yet: not submitted either
        auto *reason = dialog.findChild<QComboBox *>(u"note-reason"_qs);
        QVERIFY(reason);
        reason->setCurrentIndex(1);
        comment->setFocus(Qt::TabFocusReason);
        QTest::keyClick(comment, key, ctrl);
        QVERIFY(!dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.comment(), u"refund confirmed\nby phone"_qs);
        QVERIFY2(dialog.actionButton()->toolTip().contains(u"Ctrl+Return"_qs),
            qPrintable(dialog.actionButton()->toolTip()));
    }

    void reasonsAreTheStandardList()
    {
        rd::ui::OperatorNoteDialog dialog(u"Dismiss"_qs, 7, true);
        auto *reason = dialog.findChild<QComboBox *>(u"note-reason"_qs);
        QVERIFY(reason);
        QStringList offered;
        for (int i = 0; i < reason->count(); ++i)
            offered << reason->itemData(i).toString();
        QStringList standard;
        for (const std::string &code : rd::standardReasonCodes())
            standard << QString::fromStdString(code);
        QCOMPARE(offered, standard);
        QCOMPARE(dialog.reason(), QString()); // none chosen in advance (#28, 17)
    }
};

QTEST_MAIN(TestUiOperatorNoteDialog)
#include "tst_ui_operatornotedialog.moc"
