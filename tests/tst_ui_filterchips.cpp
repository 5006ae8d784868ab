#include "tests/support/gap_case.h"
#include "tests/support/test_database.h"
#include "ui/models/format.h"
#include "ui/models/ledgermodel.h"
#include "ui/models/subscriptionsmodel.h"
#include "ui/widgets/auditlogpage.h"
#include "ui/widgets/casespage.h"
#include "ui/widgets/deskpages.h"
#include "ui/widgets/filterchips.h"
#include "ui/widgets/inboxpage.h"
#include "ui/widgets/ledgerpage.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/overviewpage.h"
#include "ui/widgets/subscriptionspage.h"
#include "ui/widgets/tableview.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QListWidget>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QToolButton>
#include <QtTest>

#include <memory>

using rd::ui::FilterChips;
using rd::ui::MainWindow;

namespace {

QStringList chipTexts(const FilterChips *chips)
{
    QStringList texts;
    for (const FilterChips::Chip &c : chips->chips())
        texts << c.text;
    return texts;
}

/// A click on `page`'s entry in the sidebar, as a person's.
void clickSidebar(MainWindow &window, QWidget *page)
{
    auto *nav = window.findChild<QListWidget *>(u"navigation"_qs);
    QVERIFY(nav);
    const int row = window.pages()->slotOf(page);
    const QRect rect = nav->visualItemRect(nav->item(row));
    QTest::mouseClick(nav->viewport(), Qt::LeftButton, {}, rect.center());
}

} // namespace

/// Drill-down filters in sight (#42 item 7): the ones a drill-down set show as chips, each
/// removes its filter; a click on the page in the sidebar drops them; a subscription opened
/// from elsewhere is always listed and selected, the filters that hid it cleared (and said).
class TestUiFilterChips : public QObject
{
    Q_OBJECT

    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::string m_conninfo;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"renewal-desk-tests"_qs);
        QCoreApplication::setApplicationName(u"tst_ui_filterchips"_qs);
        QSettings().clear();
        m_db = std::make_unique<rdtest::TestDatabase>("tst_ui_filterchips");
        rdtest::openCaseOfKind(*m_db, "gap", "sub_gap");
        rdtest::openCaseOfKind(*m_db, "status", "sub_status");
        m_conninfo = m_db->conninfo();
    }

    void cleanupTestCase()
    {
        QSettings().clear();
        m_db.reset();
    }

    /// The Overview's renewals of one provider on one day: the Ledger shows both as chips;
    /// a chip removes its filter alone; the sidebar drops the rest (the ledger still showed one
    /// provider on one day).
    void ledgerDrillDownChipsAndSidebar()
    {
        MainWindow window(QString::fromStdString(m_conninfo), u"test"_qs);
        window.resize(1280, 820);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        rd::ui::LedgerPage *ledger = window.ledgerPage();
        QCOMPARE(ledger->filter(), rd::ui::LedgerPage::defaultFilter());
        QVERIFY(ledger->chips()->chips().isEmpty());
        QVERIFY(!ledger->chips()->isVisible());

        const QDate day(2026, 2, 1);
        emit window.overviewPage()->ledgerRequested(day, day.addDays(1), u"stripe-main"_qs, {});
        QCOMPARE(window.pages()->current(), ledger);
        QCOMPARE(ledger->filter().provider, u"stripe-main"_qs);
        QVERIFY(ledger->isDrilledDown());
        const QStringList shown = chipTexts(ledger->chips());
        QCOMPARE(shown.size(), 2);
        QVERIFY2(shown.contains(u"Provider: stripe-main"_qs), qPrintable(shown.join(u" | "_qs)));
        QVERIFY2(shown.contains(u"Paid at: 1 Feb 2026"_qs), qPrintable(shown.join(u" | "_qs)));
        QVERIFY(ledger->chips()->isVisible());
        // By the keyboard: the chip takes the focus; Space removes the provider alone.
        QToolButton *provider = ledger->chips()->chipButton(u"provider"_qs);
        QVERIFY(provider);
        QVERIFY(provider->focusPolicy() & Qt::TabFocus);
        provider->setFocus();
        QTest::keyClick(provider, Qt::Key_Space);
        QCOMPARE(ledger->filter().provider, QString());
        QCOMPARE(ledger->filter().from, day);
        QCOMPARE(chipTexts(ledger->chips()), QStringList({u"Paid at: 1 Feb 2026"_qs}));

        // Elsewhere, and back by the sidebar: the page as it opens.
        window.showPage(window.overviewPage());
        clickSidebar(window, ledger);
        QCOMPARE(window.pages()->current(), ledger);
        QCOMPARE(ledger->filter(), rd::ui::LedgerPage::defaultFilter());
        QVERIFY(ledger->chips()->chips().isEmpty());
        QVERIFY(!ledger->isDrilledDown());

        // A filter a person chose stays: the sidebar drops only a drill-down's.
        auto filter = rd::ui::LedgerPage::defaultFilter();
        filter.currency = u"EUR"_qs;
        ledger->setFilter(filter);
        QCOMPARE(chipTexts(ledger->chips()), QStringList({u"Currency: EUR"_qs}));
        clickSidebar(window, ledger);
        QCOMPARE(ledger->filter().currency, u"EUR"_qs);
        // "Clear all" (two chips or more) drops every one.
        emit window.overviewPage()->ledgerRequested(day, day.addDays(1), u"stripe-main"_qs, {});
        QVERIFY(ledger->chips()->clearAllButton()->isVisible());
        ledger->chips()->clearAllButton()->click();
        QCOMPARE(ledger->filter(), rd::ui::LedgerPage::defaultFilter());
    }

    /// Subscriptions filtered to Overdue (the Overview's tile), then an audit break opens one
    /// that is not overdue: the filter goes, the chips' note says why, its row is selected and
    /// in view. The sidebar drops the Overdue filter too.
    void openedSubscriptionIsAlwaysListed()
    {
        const QString gap = /* past due: never overdue */ QString::fromStdString(rdtest::text(
            *m_db, "SELECT id FROM subscriptions WHERE provider_subscription_id = 'sub_status'"));
        QVERIFY(!gap.isEmpty());
        MainWindow window(QString::fromStdString(m_conninfo), u"test"_qs);
        window.resize(1280, 820);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        rd::ui::SubscriptionsPage *subs = window.subscriptionsPage();
        emit window.overviewPage()->overdueRequested();
        QCOMPARE(window.pages()->current(), subs);
        QVERIFY(subs->overdueFilter()->isChecked());
        QCOMPARE(chipTexts(subs->chips()), QStringList({u"Overdue"_qs}));
        QVERIFY(QTest::qWaitFor([&] { return !subs->model()->isLoading(); }, 15000));
        QCOMPARE(subs->model()->rowOfKey(gap), -1); // not overdue: not listed

        emit window.auditLogPage()->subscriptionOpenRequested(gap);
        QCOMPARE(window.pages()->current(), subs);
        auto selected = [&] {
            const QModelIndex current = subs->table()->currentIndex();
            return current.isValid() && current.data(int(rd::ui::Role::Key)).toString() == gap
                && subs->table()->selectionModel()->isRowSelected(current.row(), {});
        };
        QVERIFY2(QTest::qWaitFor(selected, 15000),
            qPrintable(u"overdue %1, rows %2, note '%3'"_qs.arg(subs->overdueFilter()->isChecked())
                           .arg(subs->model()->loadedRows())
                           .arg(subs->chips()->note())));
        QVERIFY(!subs->overdueFilter()->isChecked());
        QVERIFY2(
            subs->chips()->note().contains(u"sub_status"_qs), qPrintable(subs->chips()->note()));
        QCOMPARE(subs->currentSubscriptionId(), gap);
        const QRect row = subs->table()->visualRect(subs->table()->currentIndex());
        QVERIFY(subs->table()->viewport()->rect().intersects(row));

        // The Overdue tile again, then the sidebar: every subscription.
        emit window.overviewPage()->overdueRequested();
        QVERIFY(subs->overdueFilter()->isChecked());
        clickSidebar(window, subs);
        QVERIFY(!subs->overdueFilter()->isChecked());
        QVERIFY(subs->chips()->chips().isEmpty());
        QCOMPARE(subs->model()->startPosition(), QString());
        // Removing a chip removes its filter.
        subs->overdueFilter()->setChecked(true);
        QCOMPARE(chipTexts(subs->chips()), QStringList({u"Overdue"_qs}));
        subs->chips()->chipButton(u"overdue"_qs)->click();
        QVERIFY(!subs->overdueFilter()->isChecked());
        QVERIFY(subs->chips()->chips().isEmpty());
    }

    /// The Overview's "Open cases by reason" (and "by age"), then a day of its chart: Cases
    /// shows what narrows the queue as chips; a chip removes its filter alone; the sidebar
    /// drops a drill-down's filters and keeps a person's.
    void casesDrillDownChipsAndSidebar()
    {
        using Scope = rd::ui::CasesPage::Scope;
        using Assignee = rd::ui::CasesPage::Assignee;
        MainWindow window(QString::fromStdString(m_conninfo), u"test"_qs);
        window.resize(1280, 820);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        rd::ui::CasesPage *cases = window.casesPage();
        QVERIFY(cases->chips()->chips().isEmpty());
        QVERIFY(!cases->isDrilledDown());

        const QString reason = u"renewal_gap"_qs;
        emit window.overviewPage()->openCasesRequested(reason, 24 * 3600, -1);
        QCOMPARE(window.pages()->current(), cases);
        QVERIFY(cases->isDrilledDown());
        QCOMPARE(chipTexts(cases->chips()),
            QStringList({u"Reason: %1"_qs.arg(rd::ui::format::humanize(reason)),
                u"Age: Older than 1 day"_qs}));
        QVERIFY(cases->chips()->isVisible());
        // The reason's chip removes the reason alone.
        cases->chips()->chipButton(u"reason"_qs)->click();
        QCOMPARE(cases->reasonFilter(), QString());
        QCOMPARE(cases->minAgeSecs(), 24 * 3600);
        QCOMPARE(chipTexts(cases->chips()), QStringList({u"Age: Older than 1 day"_qs}));

        // Elsewhere, and back by the sidebar: the queue as it opens.
        window.showPage(window.overviewPage());
        clickSidebar(window, cases);
        QCOMPARE(window.pages()->current(), cases);
        QCOMPARE(cases->minAgeSecs(), -1);
        QVERIFY(cases->chips()->chips().isEmpty());
        QVERIFY(!cases->isDrilledDown());

        // A day of the chart: every case of the day (its own chip in the bar); the sidebar
        // drops both.
        emit window.overviewPage()->casesOfDayRequested(QDate(2026, 2, 1), false);
        QCOMPARE(chipTexts(cases->chips()), QStringList({u"Show: All cases"_qs}));
        QVERIFY(cases->dayUtc().isValid());
        clickSidebar(window, cases);
        QCOMPARE(cases->scope(), Scope::Open);
        QVERIFY(!cases->dayUtc().isValid());
        QVERIFY(cases->chips()->chips().isEmpty());

        // A filter a person chose stays; its chip removes it.
        cases->setAssignee(Assignee::Mine);
        QCOMPARE(chipTexts(cases->chips()), QStringList({u"Assigned: Mine"_qs}));
        clickSidebar(window, cases);
        QCOMPARE(cases->assignee(), Assignee::Mine);
        cases->chips()->chipButton(u"assignee"_qs)->click();
        QCOMPARE(cases->assignee(), Assignee::All);
        QVERIFY(cases->chips()->chips().isEmpty());
    }

    /// The Overview's "Deliveries by outcome" (and "1 invalid to review"): the Inbox shows the
    /// outcome and the time as chips; a chip removes its filter alone; the sidebar drops a
    /// drill-down's filters and keeps a person's; "Clear all" drops every one.
    void inboxDrillDownChipsAndSidebar()
    {
        MainWindow window(QString::fromStdString(m_conninfo), u"test"_qs);
        window.resize(1280, 820);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        rd::ui::InboxPage *inbox = window.inboxPage();
        auto *outcome = inbox->findChild<QComboBox *>(u"inbox-outcome"_qs);
        auto *received = inbox->findChild<QComboBox *>(u"inbox-received"_qs);
        QVERIFY(outcome && received);
        QVERIFY(inbox->chips()->chips().isEmpty());

        emit window.overviewPage()->inboxRequested(u"invalid_to_review"_qs, u"1 day"_qs);
        QCOMPARE(window.pages()->current(), inbox);
        QVERIFY(inbox->isDrilledDown());
        QCOMPARE(chipTexts(inbox->chips()),
            QStringList({u"Outcome: Invalid, to review"_qs, u"In the last 24 hours"_qs}));
        QVERIFY(inbox->chips()->isVisible());
        inbox->chips()->chipButton(u"received"_qs)->click();
        QCOMPARE(received->currentData().toString(), QString());
        QCOMPARE(outcome->currentData().toString(), u"invalid_to_review"_qs);
        QCOMPARE(chipTexts(inbox->chips()), QStringList({u"Outcome: Invalid, to review"_qs}));

        window.showPage(window.overviewPage());
        clickSidebar(window, inbox);
        QCOMPARE(window.pages()->current(), inbox);
        QCOMPARE(outcome->currentData().toString(), QString());
        QVERIFY(inbox->chips()->chips().isEmpty());
        QVERIFY(!inbox->isDrilledDown());

        // A filter a person chose stays.
        outcome->setCurrentIndex(outcome->findData(u"problems"_qs));
        QCOMPARE(chipTexts(inbox->chips()), QStringList({u"Outcome: Problems"_qs}));
        clickSidebar(window, inbox);
        QCOMPARE(outcome->currentData().toString(), u"problems"_qs);
        // "Clear all" (two chips or more) drops every one.
        emit window.overviewPage()->inboxRequested(u"invalid_to_review"_qs, u"1 day"_qs);
        QVERIFY(inbox->chips()->clearAllButton()->isVisible());
        inbox->chips()->clearAllButton()->click();
        QCOMPARE(outcome->currentData().toString(), QString());
        QCOMPARE(received->currentData().toString(), QString());
        QVERIFY(inbox->chips()->chips().isEmpty());
    }
};

QTEST_MAIN(TestUiFilterChips)
#include "tst_ui_filterchips.moc"
