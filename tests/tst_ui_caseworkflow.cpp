#include "tests/support/gap_case.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"
#include "ui/actions/bulkcaserun.h"
#include "ui/actions/caseactions.h"
#include "ui/models/databasepool.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/applicabledialog.h"
#include "ui/widgets/bulkcasedialog.h"
#include "ui/widgets/casespage.h"
#include "ui/widgets/operatornotedialog.h"
#include "ui/widgets/snapshotdialog.h"
#include "ui/widgets/tableview.h"

#include "domain/core/provider_snapshot.h"

#include <nlohmann/json.hpp>

#include <pqxx/pqxx>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>
#include <QtTest>
#include <algorithm>

#include <memory>

using Kind = rd::ui::ActionResult::Kind;
using Action = rd::ui::CaseActions::Action;
using rd::ui::CasesPage;

namespace {

/// The queue's "Assigned to" and "Age" columns.
constexpr int kAgeColumn = 5;
constexpr int kAssignedColumn = 9;

/// One operator's desk: its own connections, as its own login role.
struct Desk
{
    explicit Desk(const std::string &conninfo)
        : pool(std::make_unique<rd::ui::DatabasePool>(QString::fromStdString(conninfo)))
        , actions(rd::ui::makeDomainCaseActions(QString::fromStdString(conninfo)))
        , page(std::make_unique<CasesPage>(pool.get(), actions.get()))
        , queueTester(page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest)
        , historyTester(
              page->historyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest)
    { }

    std::unique_ptr<rd::ui::DatabasePool> pool;
    std::unique_ptr<rd::ui::CaseActions> actions;
    std::unique_ptr<CasesPage> page;
    QAbstractItemModelTester queueTester;
    QAbstractItemModelTester historyTester;
};

QList<qint64> queueIds(const CasesPage &page)
{
    QList<qint64> ids;
    for (int r = 0; r < page.model()->rowCount(); ++r)
        ids << page.model()->row(r)[CasesPage::Id].toLongLong();
    return ids;
}

QString cell(const QAbstractItemModel *m, int row, int column, int role = Qt::DisplayRole)
{
    return m->data(m->index(row, column), role).toString();
}

QStringList historyLines(const CasesPage &page)
{
    QStringList lines;
    const auto *m = page.historyModel();
    for (int r = 0; r < m->rowCount(); ++r) {
        QStringList cells;
        for (int c = 1; c < m->columnCount(); ++c) // without the time
            cells << cell(m, r, c);
        lines << cells.join(u" | "_qs);
    }
    return lines;
}

QList<qint64> idsOf(const std::string &csv)
{
    QList<qint64> ids;
    if (csv == "<null>" || csv.empty())
        return ids;
    for (const QString &id : QString::fromStdString(csv).split(u','))
        ids << id.toLongLong();
    return ids;
}

QString joined(const QList<qint64> &ids)
{
    QStringList parts;
    for (qint64 id : ids)
        parts << QString::number(id);
    return parts.join(u',');
}

} // namespace

/// The support workflow on the Cases page: claims, notes, whose and how old, bulk actions, as
/// the desk shows them and as the database records them.
class TestUiCaseWorkflow : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

    std::string sql(const std::string &query) { return rdtest::text(*m_db, query); }

    void exec(const std::string &statement)
    {
        auto conn = m_db->connect();
        pqxx::work tx(*conn);
        tx.exec0(statement);
        tx.commit();
    }

    std::string role(const std::string &who) { return m_db->name() + "_" + who; }

    qint64 openCase(const std::string &kind, const std::string &sub)
    {
        return rdtest::openCaseOfKind(*m_db, kind, sub);
    }

    /// What makes each kind of case applicable: the fact the operator was waiting for.
    void makeApplicable(const std::string &kind, const std::string &sub)
    {
        const std::string where = " WHERE provider_subscription_id = '" + sub + "'";
        if (kind == "status")
            exec("UPDATE subscriptions SET status = 'active'" + where);
        else if (kind == "gap")
            exec("UPDATE subscriptions SET current_period_start = '2026-02-01T00:00:00Z', "
                 "current_period_end = '2026-03-01T00:00:00Z'"
                + where);
        else
            exec("UPDATE subscriptions SET cancel_at_period_end = false" + where);
    }

    static void waitForQueue(const CasesPage &page, const QList<qint64> &ids)
    {
        QTRY_VERIFY2_WITH_TIMEOUT(queueIds(page) == ids,
            qPrintable(u"queue "_qs + joined(queueIds(page)) + u", expected "_qs + joined(ids)),
            15000);
    }

    static rd::ui::ActionResult act(
        CasesPage &page, qint64 caseId, Action action, const QString &comment = {})
    {
        if (!page.openCase(caseId))
            (void)QTest::qWaitFor([&] { return page.currentCase() == caseId; }, 10000);
        QSignalSpy finished(&page, &CasesPage::actionFinished);
        page.runAction(action, {}, comment);
        if (!finished.wait(20000))
            return {Kind::Failed, u"no outcome"_qs, u"timeout"_qs};
        return finished.first().first().value<rd::ui::ActionResult>();
    }

    static QString waitForBulk(CasesPage &page, rd::ui::BulkCaseDialog *dialog)
    {
        if (!dialog)
            return u"no bulk dialog"_qs;
        QSignalSpy done(&page, &CasesPage::bulkFinished);
        if (dialog->run()->isRunning() && !done.wait(60000))
            return u"bulk run did not finish"_qs;
        return dialog->summaryText();
    }

    /// The results table of a bulk run: "case: result" per row.
    static QStringList results(const rd::ui::BulkCaseDialog *dialog)
    {
        QStringList lines;
        const auto *m = dialog->run()->results();
        for (int r = 0; r < m->rowCount(); ++r)
            lines << cell(m, r, 0) + u": "_qs + cell(m, r, 2);
        return lines;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"renewal-desk-tests"_qs);
        QCoreApplication::setApplicationName(u"tst_ui_caseworkflow"_qs);
        QSettings().clear();
    }

    void init() { m_db = std::make_unique<rdtest::TestDatabase>(QTest::currentTestFunction()); }

    void cleanup() { m_db.reset(); }

    // #28 item 3: the history says who handed the rejected renewal in: `renewalctl apply`, or a
    // webhook delivery. Item 1: the desk's preview says, before anything is written, that a
    // snapshot making the case's renewal period current records the case's renewal.
    void historySaysWhoHandedTheRenewalIn()
    {
        qint64 ids[2] = {};
        const rd::RenewalSource sources[2]
            = {rd::RenewalSource::Cli, rd::RenewalSource::WebhookDelivery};
        for (int i = 0; i < 2; ++i) {
            const std::string sub = i == 0 ? "sub_cli" : "sub_hook";
            rdtest::importSubscriptions(m_db->conninfo(),
                rdtest::subscriptionLine("stripe-main", sub, "active", "2026-01-01T00:00:00Z",
                    "2026-02-01T00:00:00Z", true));
            rd::RenewalApplier applier(m_db->conninfo(), {}, sources[i]);
            const auto out = applier.apply(rdtest::februaryRenewal(sub, "evt_" + sub, "in_" + sub));
            QVERIFY(out.caseId);
            ids[i] = *out.caseId;
        }
        Desk desk(m_db->conninfo());
        desk.page->refresh();
        const QString expected[2] = {u"renewalctl apply"_qs, u"webhook delivery"_qs};
        for (int i = 0; i < 2; ++i) {
            QTRY_VERIFY_WITH_TIMEOUT(desk.page->model()->rowCount() == 2, 15000);
            QVERIFY(desk.page->openCase(ids[i])
                || QTest::qWaitFor([&] { return desk.page->currentCase() == ids[i]; }, 10000));
            QTRY_COMPARE_WITH_TIMEOUT(desk.page->historyModel()->rowCount(), 1, 10000);
            QTRY_VERIFY2_WITH_TIMEOUT(
                historyLines(*desk.page).value(0).startsWith(expected[i] + u" | "_qs),
                qPrintable(historyLines(*desk.page).value(0)), 10000);
        }

        const QString snapshot = QString::fromStdString(nlohmann::json {
            {"providerKey", "stripe-main"}, {"providerSubscriptionId", "sub_cli"},
            {"status", "active"},
            {"currentPeriod", {{"start", "2026-02-01T00:00:00Z"}, {"end", "2026-03-01T00:00:00Z"}}},
            {"cancelAtPeriodEnd", false}, {"providerVersion", nullptr},
            {"capturedAt", rdtest::capturedNow()},
            {"latestRenewal", nullptr}}.dump());
        const auto verdict = rd::ui::previewSnapshot(m_db->conninfo(), ids[0], snapshot);
        QCOMPARE(int(verdict.kind), int(rd::ui::SnapshotVerdict::Kind::Verdict));
        QVERIFY2(verdict.text.contains(u"Case %1 will be resolved"_qs.arg(ids[0]))
                && verdict.text.contains(
                    u"Renewal in_sub_cli of case %1 (2026-02-01T00:00:00Z - 2026-03-01T00:00:00Z, "
                    "19.99 USD) would be recorded"_qs.arg(ids[0])),
            qPrintable(verdict.text));
        QCOMPARE(sql("SELECT count(*) FROM subscription_billing_periods"), std::string("0"));
    }

    // Alice claims; bob takes over only with the note the database requires; alice notes;
    // bob releases. The queue shows who holds the case, the history each step, as SQL has it.
    void claimReleaseAndNoteAreShownInQueueAndHistory()
    {
        const qint64 id = openCase("status", "sub_1");
        const std::string caseId = std::to_string(id);
        Desk alice(rdtest::loginAs(*m_db, "alice", "operator"));
        Desk bob(rdtest::loginAs(*m_db, "bob", "operator"));
        alice.page->refresh();
        bob.page->refresh();
        waitForQueue(*alice.page, {id});
        waitForQueue(*bob.page, {id});
        QCOMPARE(cell(alice.page->model(), 0, kAssignedColumn), u"—"_qs);

        auto out = act(*alice.page, id, Action::Claim);
        QCOMPARE(int(out.kind), int(Kind::Done));
        QCOMPARE(out.summary, u"Case %1 is assigned to you."_qs.arg(id));
        QCOMPARE(sql("SELECT assigned_to FROM reconciliation_cases WHERE id = " + caseId),
            role("alice"));
        QTRY_COMPARE_WITH_TIMEOUT(cell(alice.page->model(), 0, kAssignedColumn),
            QString::fromStdString(role("alice") + " (you)"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(alice.page->titleText().contains(u"assigned to <b>you"_qs), 10000);

        // Bob sees alice's claim; the desk asks him for a note, and the database refuses a
        // takeover without one.
        bob.page->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(cell(bob.page->model(), 0, kAssignedColumn),
            QString::fromStdString(role("alice")), 10000);
        QVERIFY(bob.page->openCase(id));
        QPushButton *takeOver = nullptr;
        for (auto *b : bob.page->findChildren<QPushButton *>())
            if (b->text() == u"Take over…"_qs)
                takeOver = b;
        QVERIFY(takeOver);
        QVERIFY(takeOver->isEnabled());
        QVERIFY2(takeOver->toolTip().contains(u"needs a note"_qs), qPrintable(takeOver->toolTip()));
        out = act(*bob.page, id, Action::Claim);
        QCOMPARE(int(out.kind), int(Kind::Refused));
        QCOMPARE(out.code, u"note_required"_qs);
        out = act(*bob.page, id, Action::Claim, u"alice is out this week"_qs);
        QCOMPARE(int(out.kind), int(Kind::Done));
        QVERIFY2(out.summary.contains(QString::fromStdString("taken over from " + role("alice"))),
            qPrintable(out.summary));
        QCOMPARE(
            sql("SELECT assigned_to FROM reconciliation_cases WHERE id = " + caseId), role("bob"));

        // Nor may alice give bob's claim back to the queue without a note.
        alice.page->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(cell(alice.page->model(), 0, kAssignedColumn),
            QString::fromStdString(role("bob")), 10000);
        QVERIFY(alice.page->openCase(id));
        QPushButton *release = nullptr;
        for (auto *b : alice.page->findChildren<QPushButton *>())
            if (b->text() == u"Release…"_qs)
                release = b;
        QVERIFY(release);
        QVERIFY2(release->toolTip().contains(u"needs a note"_qs), qPrintable(release->toolTip()));
        out = act(*alice.page, id, Action::Release);
        QCOMPARE(int(out.kind), int(Kind::Refused));
        QCOMPARE(out.code, u"note_required"_qs);
        QCOMPARE(
            sql("SELECT assigned_to FROM reconciliation_cases WHERE id = " + caseId), role("bob"));

        out = act(*alice.page, id, Action::Note, u"customer says the card was charged twice"_qs);
        QCOMPARE(int(out.kind), int(Kind::Done));
        out = act(*bob.page, id, Action::Release);
        QCOMPARE(int(out.kind), int(Kind::Done));
        QCOMPARE(sql("SELECT coalesce(assigned_to, 'nobody') FROM reconciliation_cases WHERE id = "
                     + caseId),
            std::string("nobody"));
        QTRY_COMPARE_WITH_TIMEOUT(cell(bob.page->model(), 0, kAssignedColumn), u"—"_qs, 10000);

        // The history: one row per entry of reconciliation_case_history, in its order.
        const long long steps = rdtest::scalar(
            *m_db, "SELECT count(*) FROM reconciliation_case_history WHERE case_id = " + caseId);
        QCOMPARE(steps, 5LL);
        QTRY_COMPARE_WITH_TIMEOUT(bob.page->historyModel()->rowCount(), int(steps), 10000);
        const QStringList h = historyLines(*bob.page);
        const QString a = QString::fromStdString(role("alice"));
        const QString b = QString::fromStdString(role("bob"));
        QCOMPARE(h[1], u"operator | %1 | claimed | assigned to %1 |  | "_qs.arg(a));
        QCOMPARE(h[2],
            u"operator | %1 | claimed, taken over from %2 | assigned to %1 |  | alice is out "
            "this week"_qs.arg(b, a));
        QCOMPARE(h[3],
            u"operator | %1 | note | noted (no action) |  | customer says the card was charged "
            "twice"_qs.arg(a));
        QCOMPARE(h[4], u"operator | %1 | released | back in the queue, unassigned |  | "_qs.arg(b));
        QCOMPARE(sql("SELECT string_agg(action || '/' || actor, ',' ORDER BY chain_seq) FROM "
                     "reconciliation_case_history WHERE action <> 'opened' AND case_id = "
                     + caseId),
            "claimed/" + role("alice") + ",claimed/" + role("bob") + ",noted/" + role("alice")
                + ",released/" + role("bob"));
    }

    // "Mine" and "Unassigned" for two operators, each list as SQL selects it.
    void mineAndUnassignedFilters()
    {
        const qint64 c1 = openCase("status", "sub_1");
        const qint64 c2 = openCase("status", "sub_2");
        const qint64 c3 = openCase("status", "sub_3");
        const std::string aliceInfo = rdtest::loginAs(*m_db, "alice", "operator");
        const std::string bobInfo = rdtest::loginAs(*m_db, "bob", "operator");
        QCOMPARE(int(rd::ui::runCaseAction(aliceInfo, Action::Claim, {c1, {}, {}, {}}).kind),
            int(Kind::Done));
        QCOMPARE(int(rd::ui::runCaseAction(bobInfo, Action::Claim, {c2, {}, {}, {}}).kind),
            int(Kind::Done));
        Desk alice(aliceInfo);
        Desk bob(bobInfo);
        const auto idsWhere = [&](const std::string &condition) {
            return idsOf(sql("SELECT string_agg(id::text, ',' ORDER BY last_seen_at DESC, id) "
                             "FROM reconciliation_cases WHERE status = 'open' AND "
                + condition));
        };
        alice.page->refresh();
        waitForQueue(*alice.page, idsWhere("true"));
        QCOMPARE(queueIds(*alice.page).size(), 3);
        alice.page->setAssignee(CasesPage::Assignee::Mine);
        waitForQueue(*alice.page, idsWhere("assigned_to = '" + role("alice") + "'"));
        QCOMPARE(queueIds(*alice.page), QList<qint64> {c1});
        bob.page->setAssignee(CasesPage::Assignee::Mine);
        waitForQueue(*bob.page, idsWhere("assigned_to = '" + role("bob") + "'"));
        QCOMPARE(queueIds(*bob.page), QList<qint64> {c2});
        alice.page->setAssignee(CasesPage::Assignee::Unassigned);
        waitForQueue(*alice.page, idsWhere("assigned_to IS NULL"));
        QCOMPARE(queueIds(*alice.page), QList<qint64> {c3});
        // The box says the same as the page.
        auto *box = alice.page->findChild<QComboBox *>(u"case-assignee"_qs);
        QVERIFY(box);
        QCOMPARE(box->currentText(), u"Unassigned"_qs);
        box->setCurrentIndex(box->findData(int(CasesPage::Assignee::All)));
        waitForQueue(*alice.page, idsWhere("true"));
    }

    /// A case selected after Show changed (the list reloaded under the selection) offers its
    /// actions as one selected before does; so does the case the panel keeps showing when it
    /// is the new list's first row (the row already selected: the table signals nothing).
    void actionsFollowTheSelectionAcrossScopes()
    {
        const qint64 c1 = openCase("status", "sub_1");
        const qint64 c2 = openCase("status", "sub_2");
        Desk alice(rdtest::loginAs(*m_db, "alice", "operator"));
        CasesPage &page = *alice.page;
        const auto button = [&](const QString &text) {
            for (auto *b : page.findChildren<QPushButton *>())
                if (b->text() == text)
                    return b;
            return static_cast<QPushButton *>(nullptr);
        };
        const auto verifyActionsOffered = [&](qint64 id) {
            QTRY_VERIFY_WITH_TIMEOUT(page.queueIsCurrent(), 10000);
            QTRY_COMPARE_WITH_TIMEOUT(page.currentCase(), id, 10000);
            QVERIFY(page.titleText().contains(u"Case %1"_qs.arg(id)));
            for (const QString &text : {u"Claim"_qs, u"Add note…"_qs, u"Open subscription"_qs,
                     u"Dismiss…"_qs, u"Re-apply…"_qs})
                QTRY_VERIFY2_WITH_TIMEOUT(
                    button(text) && button(text)->isEnabled(), qPrintable(text), 10000);
        };
        page.refresh();
        const auto ids = idsOf(sql("SELECT string_agg(id::text, ',' ORDER BY last_seen_at DESC, "
                                   "id) FROM reconciliation_cases"));
        waitForQueue(page, ids);
        QCOMPARE(ids, (QList<qint64> {c2, c1}));
        QTRY_VERIFY_WITH_TIMEOUT(page.queueIsCurrent(), 10000);
        QVERIFY(page.openCase(c1));
        verifyActionsOffered(c1);

        // Another case selected in the new list.
        page.setScope(CasesPage::Scope::All);
        QTRY_VERIFY_WITH_TIMEOUT(page.queueIsCurrent(), 10000);
        page.table()->selectRow(page.model()->rowOfKey(QString::number(c2)));
        verifyActionsOffered(c2);

        // The case shown is the new list's first row.
        page.setScope(CasesPage::Scope::Open);
        verifyActionsOffered(c2);
        page.setScope(CasesPage::Scope::All);
        verifyActionsOffered(c2);
    }

    void ageSortFilterAndMarker_data()
    {
        QTest::addColumn<QString>("reason");
        QTest::addColumn<qint64>("minAge");
        QTest::addColumn<qint64>("maxAge");
        QTest::addColumn<qint64>("markAfter");
        // Indexes into the cases made by the test: 0: 30 min old, 1: 3 h, 2: 2 days, 3: 10 days
        // (0 and 2 are gaps, 1 and 3 past-due subscriptions).
        QTest::addColumn<QList<int>>("listed"); // oldest first
        QTest::addColumn<QList<int>>("marked");
        const qint64 hour = 3600, day = 24 * hour, week = 7 * day;
        QTest::newRow("any age, 24 h")
            << QString() << -1LL << -1LL << day << QList<int> {3, 2, 1, 0} << QList<int> {3, 2};
        QTest::newRow("older than 1 h, 1 h")
            << QString() << hour << -1LL << hour << QList<int> {3, 2, 1} << QList<int> {3, 2, 1};
        QTest::newRow("older than 1 day, 1 week")
            << QString() << day << -1LL << week << QList<int> {3, 2} << QList<int> {3};
        QTest::newRow("older than 1 week, 30 days")
            << QString() << week << -1LL << 30 * day << QList<int> {3} << QList<int> {};
        QTest::newRow("1 h to 1 day")
            << QString() << hour << day << day << QList<int> {1} << QList<int> {};
        QTest::newRow("newer than 1 h, 1 h")
            << QString() << -1LL << hour << hour << QList<int> {0} << QList<int> {};
        QTest::newRow("gaps older than 1 h, 24 h")
            << u"renewal_period_is_not_contiguous"_qs << hour << -1LL << day << QList<int> {2}
            << QList<int> {2};
        QTest::newRow("past due, any age, 4 h")
            << u"renewal_not_allowed_for_subscription_status"_qs << -1LL << -1LL << 4 * hour
            << QList<int> {3, 1} << QList<int> {3};
    }

    // Ages set by SQL; the drill-down (showOpenCases) lists them oldest first, filtered, the
    // threshold marks the old ones with a visible ⚠ (not colour alone) and is remembered.
    void ageSortFilterAndMarker()
    {
        QFETCH(QString, reason);
        QFETCH(qint64, minAge);
        QFETCH(qint64, maxAge);
        QFETCH(qint64, markAfter);
        QFETCH(QList<int>, listed);
        QFETCH(QList<int>, marked);
        const QList<qint64> cases {openCase("gap", "sub_a"), openCase("status", "sub_b"),
            openCase("gap", "sub_c"), openCase("status", "sub_d")};
        // A case's age is since it was first seen; each was seen again lately, the oldest
        // most lately, so that an age read from last_seen_at lists and marks other cases.
        const char *ages[] = {"30 minutes", "3 hours", "2 days", "10 days"};
        const char *seenAgain[] = {"20 minutes", "10 minutes", "5 minutes", "1 minute"};
        for (int i = 0; i < 4; ++i)
            exec("UPDATE reconciliation_cases SET first_seen_at = now() - interval '"
                + std::string(ages[i]) + "', last_seen_at = now() - interval '" + seenAgain[i]
                + "' WHERE id = " + std::to_string(cases[i]));

        Desk desk(m_db->conninfo());
        desk.page->setMarkAgedAfterSecs(markAfter);
        QCOMPARE(QSettings().value(u"cases/markOlderThanSecs"_qs).toLongLong(), markAfter);
        desk.page->showOpenCases(reason, minAge, maxAge);
        QCOMPARE(desk.page->sort(), CasesPage::Sort::OldestFirst);
        QList<qint64> expected;
        for (int i : listed)
            expected << cases[i];
        waitForQueue(*desk.page, expected);
        // The same list, by SQL.
        std::string where = "status = 'open'";
        if (!reason.isEmpty())
            where += " AND error_code = '" + reason.toStdString() + "'";
        if (minAge >= 0)
            where += " AND first_seen_at <= now() - interval '" + std::to_string(minAge) + " s'";
        if (maxAge >= 0)
            where += " AND first_seen_at > now() - interval '" + std::to_string(maxAge) + " s'";
        QCOMPARE(queueIds(*desk.page),
            idsOf(sql("SELECT string_agg(id::text, ',' ORDER BY first_seen_at, id) FROM "
                      "reconciliation_cases WHERE "
                + where)));
        for (int r = 0; r < desk.page->model()->rowCount(); ++r) {
            const qint64 id = queueIds(*desk.page)[r];
            const bool shouldMark = marked.contains(int(cases.indexOf(id)));
            const QString age = cell(desk.page->model(), r, kAgeColumn);
            QVERIFY2(age.startsWith(u"⚠ "_qs) == shouldMark, qPrintable(age));
            QCOMPARE(desk.page->isAged(desk.page->model()->row(r)), shouldMark);
            if (shouldMark)
                QVERIFY(cell(desk.page->model(), r, kAgeColumn, Qt::ToolTipRole)
                            .startsWith(u"Open for more than"_qs));
        }
        // Newest first is the same list the other way round.
        desk.page->setSort(CasesPage::Sort::NewestFirst);
        QList<qint64> reversed(expected.rbegin(), expected.rend());
        waitForQueue(*desk.page, reversed);
        // A new desk starts with the remembered threshold.
        Desk again(m_db->conninfo());
        QCOMPARE(again.page->markAgedAfterSecs(), markAfter);
    }

    // Re-apply of several selected cases: each through the core, one by one, each result in
    // the results list; one billing period, one audit, one outbox intent per applied renewal.
    void bulkReapplyShowsEachOutcome()
    {
        const qint64 applies = openCase("status", "sub_1"); // reactivated: applies
        const qint64 refused = openCase("status", "sub_2"); // still past due
        const qint64 gap = openCase("gap", "sub_3"); // its predecessor recorded by hand
        const qint64 closed = openCase("status", "sub_4"); // dismissed before the run
        makeApplicable("status", "sub_1");
        makeApplicable("gap", "sub_3");
        const std::string op = rdtest::loginAs(*m_db, "alice", "operator");
        Desk desk(op);
        desk.page->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->model()->rowCount(), 4, 15000);
        // Selecting rows enables the bulk buttons and says how many.
        desk.page->table()->selectAll();
        QCOMPARE(desk.page->selectedCaseIds().size(), 4);
        auto *bulk = desk.page->findChild<QPushButton *>(u"case-bulk-reapply"_qs);
        QVERIFY(bulk && bulk->isEnabled());
        QCOMPARE(int(rd::ui::runCaseAction(
                     op, Action::Dismiss, {closed, u"other"_qs, u"handled by phone"_qs, {}})
                         .kind),
            int(Kind::Resolved));

        auto *dialog = desk.page->runBulk(Action::Reapply, {applies, refused, gap, closed},
            u"data_correction"_qs, u"after the provider's fix"_qs);
        QVERIFY(dialog);
        QAbstractItemModelTester tester(
            dialog->run()->results(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(!bulk->isEnabled()); // one bulk run at a time
        const QString summary = waitForBulk(*desk.page, dialog);
        // Counted in the order each result first appeared.
        QCOMPARE(summary, u"2 applied, 1 still refused, 1 refused"_qs);
        QCOMPARE(results(dialog),
            (QStringList {u"%1: applied"_qs.arg(applies), u"%1: still refused"_qs.arg(refused),
                u"%1: applied"_qs.arg(gap), u"%1: refused"_qs.arg(closed)}));
        const auto *m = dialog->run()->results();
        QVERIFY2(cell(m, 1, 3).contains(u"Renewal not allowed for subscription status"_qs),
            qPrintable(cell(m, 1, 3)));
        QVERIFY2(cell(m, 3, 3).contains(u"dismissed"_qs), qPrintable(cell(m, 3, 3)));
        QCOMPARE(cell(m, 0, 1), u"sub_1"_qs);

        // Each result as the database has it.
        for (const auto &[id, status] :
            {std::pair {applies, "resolved/reapplied"}, std::pair {refused, "open/-"},
                std::pair {gap, "resolved/reapplied"}, std::pair {closed, "dismissed/dismissed"}})
            QCOMPARE(sql("SELECT status || '/' || coalesce(resolution, '-') FROM "
                         "reconciliation_cases WHERE id = "
                         + std::to_string(id)),
                std::string(status));
        auto conn = m_db->connect();
        for (const char *sub : {"sub_1", "sub_3"}) {
            const auto seen = rdtest::observe(*conn, sub);
            QCOMPARE(seen.billingPeriods, 1LL);
            QCOMPARE(seen.renewalAudits, 1LL);
            QCOMPARE(seen.outbox, 1LL);
        }
        for (const char *sub : {"sub_2", "sub_4"}) {
            const auto seen = rdtest::observe(*conn, sub);
            QCOMPARE(seen.billingPeriods, 0LL);
            QCOMPARE(seen.renewalAudits, 0LL);
            QCOMPARE(seen.outbox, 0LL);
        }
        // Each attempt is in its case's history with the one note.
        QCOMPARE(sql("SELECT string_agg(case_id::text || ':' || outcome, ',' ORDER BY case_id) "
                     "FROM reconciliation_case_history WHERE action = 'reapply' AND comment = "
                     "'after the provider''s fix'"),
            std::to_string(applies) + ":applied," + std::to_string(refused) + ":rejected,"
                + std::to_string(gap) + ":applied");
        // The queue keeps only what is still open.
        waitForQueue(*desk.page, {refused});
    }

    // #42, 9: a case whose renewal names no period (needs_snapshot) cannot be re-applied (the
    // single Re-apply… is disabled on it): the bulk re-apply leaves it out and says so, instead
    // of running it to "refused"; nothing is written to its history.
    void bulkReapplyLeavesOutCasesThatNeedASnapshot()
    {
        rdtest::importSubscriptions(
            m_db->conninfo(), rdtest::subscriptionLine("stripe-main", "sub_9"));
        const qint64 needsSnapshot = rdtest::scalar(*m_db,
            "SELECT record_reconciliation_case(jsonb_build_object('providerKey', 'stripe-main', "
            "'providerSubscriptionId', 'sub_9', 'providerRenewalKey', 'in_ls', "
            "'providerEventId', 'evt_ls', 'paidAmountMinor', 900, 'currency', 'USD'), "
            "'needs_snapshot', '{}')");
        const qint64 applies = openCase("status", "sub_1");
        makeApplicable("status", "sub_1");
        Desk desk(rdtest::loginAs(*m_db, "alice", "operator"));
        desk.page->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->model()->rowCount(), 2, 15000);
        auto *dialog = desk.page->runBulk(Action::Reapply, {needsSnapshot, applies},
            u"data_correction"_qs, u"after the provider's fix"_qs);
        QVERIFY(dialog);
        QCOMPARE(dialog->windowTitle(), u"Re-apply 1 case"_qs);
        QCOMPARE(waitForBulk(*desk.page, dialog),
            u"1 applied; 1 case needs a snapshot and is left out"_qs);
        QCOMPARE(results(dialog), QStringList {u"%1: applied"_qs.arg(applies)});
        QCOMPARE(dialog->run()->leftOut(), 1);
        QCOMPARE(rdtest::scalar(*m_db,
                     "SELECT count(*) FROM reconciliation_case_history WHERE case_id = "
                         + std::to_string(needsSnapshot)),
            1LL); // opened, and nothing since
        if (const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR"); !dir.isEmpty())
            dialog->grab().save(dir + u"/bulk-reapply-left-out.png"_qs);
        dialog->close();
        // Only cases that need a snapshot: nothing runs, and the summary says why.
        dialog = desk.page->runBulk(Action::Reapply, {needsSnapshot}, u"data_correction"_qs,
            u"after the provider's fix"_qs);
        QVERIFY(dialog);
        QCOMPARE(waitForBulk(*desk.page, dialog), u"1 case needs a snapshot and is left out"_qs);
    }

    // Dismiss the selected cases with one note: each through dismiss_case, each in its
    // history; the case not selected is left alone.
    void bulkDismissWithOneNote()
    {
        const QList<qint64> ids {
            openCase("status", "sub_1"), openCase("gap", "sub_2"), openCase("cancel", "sub_3")};
        Desk desk(rdtest::loginAs(*m_db, "alice", "operator"));
        desk.page->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->model()->rowCount(), 3, 15000);
        // Rows 0 and 2 (Ctrl+click): the one between them is not selected.
        auto *selection = desk.page->table()->selectionModel();
        const auto flags = QItemSelectionModel::Select | QItemSelectionModel::Rows;
        selection->select(desk.page->model()->index(0, 0), flags);
        selection->select(desk.page->model()->index(2, 0), flags);
        const QList<qint64> queue = queueIds(*desk.page);
        const QList<qint64> selected = desk.page->selectedCaseIds();
        QCOMPARE(selected, (QList<qint64> {queue[0], queue[2]}));
        const qint64 left = queue[1];
        QVERIFY(desk.page->findChild<QPushButton *>(u"case-bulk-dismiss"_qs)->isEnabled());
        auto *dialog = desk.page->runBulk(
            Action::Dismiss, selected, u"duplicate_charge"_qs, u"refunded in the provider"_qs);
        QCOMPARE(waitForBulk(*desk.page, dialog), u"2 dismissed"_qs);
        QCOMPARE(
            sql("SELECT string_agg(id::text || '/' || status || '/' || "
                "coalesce(resolution_comment, '-') || '/' || "
                "coalesce((resolved_by = '"
                + role("alice") + "')::text, '-'), ',' ORDER BY id) FROM reconciliation_cases"),
            [&] {
                std::string want;
                for (qint64 id : ids)
                    want += (want.empty() ? "" : ",") + std::to_string(id)
                        + (id == left ? "/open/-/-" : "/dismissed/refunded in the provider/true");
                return want;
            }());
        QCOMPARE(idsOf(sql("SELECT string_agg(case_id::text, ',' ORDER BY case_id) FROM (SELECT "
                           "DISTINCT case_id FROM reconciliation_case_history WHERE action = "
                           "'dismissed' AND reason = 'duplicate_charge' AND comment = 'refunded in "
                           "the provider') d")),
            [&] {
                QList<qint64> sorted = selected;
                std::sort(sorted.begin(), sorted.end());
                return sorted;
            }());
        waitForQueue(*desk.page, {left});
        // Without a note the database refuses each one, and each refusal is shown.
        dialog = desk.page->runBulk(Action::Dismiss, {left}, u"other"_qs, {});
        QCOMPARE(waitForBulk(*desk.page, dialog), u"1 refused"_qs);
        QVERIFY(cell(dialog->run()->results(), 0, 3).contains(u"note"_qs));
        QCOMPARE(sql("SELECT status FROM reconciliation_cases WHERE id = " + std::to_string(left)),
            std::string("open"));
    }

    // "Re-apply every open case applicable now" for a reason: the preview lists exactly what
    // then applies.
    void applicableNowPreviewIsWhatApplies()
    {
        QList<qint64> gaps;
        for (int i = 1; i <= 5; ++i)
            gaps << openCase("gap", "sub_g" + std::to_string(i));
        const qint64 status = openCase("status", "sub_s");
        const qint64 cancel = openCase("cancel", "sub_c");
        for (const char *sub : {"sub_g1", "sub_g3", "sub_g4"})
            makeApplicable("gap", sub);
        makeApplicable("status", "sub_s");
        makeApplicable("cancel", "sub_c");
        const QList<qint64> expected {gaps[0], gaps[2], gaps[3]};

        Desk desk(rdtest::loginAs(*m_db, "alice", "operator"));
        desk.page->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->model()->rowCount(), 7, 15000);
        auto *dialog = desk.page->openApplicableDialog(u"renewal_period_is_not_contiguous"_qs);
        QVERIFY(dialog);
        QAbstractItemModelTester tester(
            dialog->previewModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog->isReady() && dialog->previewModel()->rowCount() == 3, 15000);
        QList<qint64> previewed;
        for (const auto &c : dialog->preview())
            previewed << c.caseId;
        QCOMPARE(previewed, expected);
        QCOMPARE(cell(dialog->previewModel(), 0, 1), u"sub_g1"_qs);
        QCOMPARE(dialog->previewText(),
            u"3 open cases (Renewal period is not contiguous) would be applied now:"_qs);
        QCOMPARE(dialog->runButton()->text(), u"Re-apply 3 cases"_qs);
        // Every reason: the reactivated and the no-longer-cancelling ones too.
        dialog->setReason({});
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog->isReady() && dialog->previewModel()->rowCount() == 5, 15000);
        dialog->setReason(u"renewal_period_is_not_contiguous"_qs);
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog->isReady() && dialog->previewModel()->rowCount() == 3, 15000);
        // No reason chosen in advance (#28, 17): Re-apply waits for one.
        QCOMPARE(dialog->noteReason(), QString());
        QVERIFY(!dialog->runButton()->isEnabled());
        dialog->setNoteReason(u"data_correction"_qs);
        QVERIFY(dialog->runButton()->isEnabled());
        dialog->setComment(u"the January periods were recorded late"_qs);
        QSignalSpy done(desk.page.get(), &CasesPage::bulkFinished);
        // Run from the keyboard: Ctrl+Return in the comment.
        dialog->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(dialog));
        auto *comment = dialog->findChild<QPlainTextEdit *>(u"applicable-comment"_qs);
        QVERIFY(comment);
        QTest::keyClick(comment, Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(done.wait(60000));
        auto *bulk = desk.page->bulkDialog();
        QVERIFY(bulk);
        QCOMPARE(bulk->summaryText(), u"3 applied"_qs);
        QList<qint64> applied;
        for (int r = 0; r < bulk->run()->results()->rowCount(); ++r)
            applied << bulk->run()->results()->row(r)[rd::ui::BulkCaseRun::CaseId].toLongLong();
        QCOMPARE(applied, expected);
        QCOMPARE(idsOf(sql("SELECT string_agg(id::text, ',' ORDER BY id) FROM reconciliation_cases "
                           "WHERE status = 'resolved' AND resolution = 'reapplied'")),
            expected);
        QCOMPARE(rdtest::scalar(*m_db, "SELECT count(*) FROM subscription_billing_periods"), 3LL);
        QCOMPARE(rdtest::scalar(*m_db,
                     "SELECT count(*) FROM subscription_transition_audits WHERE transition = "
                     "'subscription_renewed'"),
            3LL);
        QCOMPARE(rdtest::scalar(*m_db, "SELECT count(*) FROM subscription_outbox"), 3LL);
        // The other reasons were left alone.
        QCOMPARE(sql("SELECT string_agg(status, ',' ORDER BY id) FROM reconciliation_cases WHERE "
                     "id IN ("
                     + std::to_string(status) + "," + std::to_string(cancel) + ")"),
            std::string("open,open"));
    }

    // A viewer sees every action disabled with the reason, and the database refuses them when
    // they are asked for anyway.
    void aViewerIsRefusedByTheDatabase()
    {
        const qint64 id = openCase("status", "sub_1");
        makeApplicable("status", "sub_1");
        const std::string caseId = std::to_string(id);
        const long long steps = rdtest::scalar(
            *m_db, "SELECT count(*) FROM reconciliation_case_history WHERE case_id = " + caseId);
        Desk viewer(rdtest::loginAs(*m_db, "vera", "viewer"));
        viewer.page->refresh();
        waitForQueue(*viewer.page, {id});
        QVERIFY(viewer.page->openCase(id));
        viewer.page->table()->selectAll();
        QVERIFY(!viewer.page->canOperate());
        int checked = 0;
        for (auto *b : viewer.page->findChildren<QPushButton *>()) {
            const QString text = b->text();
            if (text == u"Open subscription"_qs)
                continue;
            QVERIFY2(!b->isEnabled(), qPrintable(text));
            QVERIFY2(b->toolTip().contains(u"may only look"_qs),
                qPrintable(text + u": "_qs + b->toolTip()));
            ++checked;
        }
        QCOMPARE(checked, 10); // Reopen… too (hidden: the case is open)

        for (const Action action : {Action::Claim, Action::Note, Action::Release}) {
            const auto out = act(*viewer.page, id, action, u"viewer's note"_qs);
            QCOMPARE(int(out.kind), int(Kind::Failed));
            QVERIFY2(out.summary.contains(u"permission denied"_qs), qPrintable(out.summary));
        }
        auto *dialog = viewer.page->runBulk(Action::Reapply, {id}, u"other"_qs, u"x"_qs);
        QCOMPARE(waitForBulk(*viewer.page, dialog), u"1 error"_qs);
        QVERIFY(cell(dialog->run()->results(), 0, 3).contains(u"permission denied"_qs));
        dialog->close();
        QTRY_VERIFY(!viewer.page->bulkDialog());
        dialog = viewer.page->runBulk(Action::Dismiss, {id}, u"other"_qs, u"x"_qs);
        QCOMPARE(waitForBulk(*viewer.page, dialog), u"1 error"_qs);
        QCOMPARE(sql("SELECT status || '/' || coalesce(assigned_to, '-') FROM reconciliation_cases "
                     "WHERE id = "
                     + caseId),
            std::string("open/-"));
        QCOMPARE(rdtest::scalar(*m_db,
                     "SELECT count(*) FROM reconciliation_case_history WHERE case_id = " + caseId),
            steps);
        QCOMPARE(rdtest::scalar(*m_db, "SELECT count(*) FROM subscription_billing_periods"), 0LL);
    }

    // #28, 20: a case dismissed by mistake is put back in the queue, open and counted, with
    // the note in its history; Reopen… replaces Dismiss… on a dismissed case only.
    void reopenADismissedCase()
    {
        const qint64 id = openCase("gap", "sub_1");
        const std::string caseId = std::to_string(id);
        Desk desk(rdtest::loginAs(*m_db, "alice", "operator"));
        desk.page->refresh();
        waitForQueue(*desk.page, {id});
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->openCount(), 1, 10000);
        auto *reopen = desk.page->findChild<QPushButton *>(u"case-reopen"_qs);
        QVERIFY(reopen);
        QVERIFY(desk.page->openCase(id));
        QVERIFY(!reopen->isVisibleTo(desk.page.get()));
        QVERIFY(!reopen->isEnabled());

        QSignalSpy finished(desk.page.get(), &CasesPage::actionFinished);
        desk.page->runAction(Action::Dismiss, u"test_data"_qs, u"looked like test data"_qs);
        QVERIFY(finished.wait(20000));
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->openCount(), 0, 10000);
        // The panel keeps the dismissed case: Reopen… is offered in Dismiss's place.
        QTRY_VERIFY_WITH_TIMEOUT(
            reopen->isVisibleTo(desk.page.get()) && reopen->isEnabled(), 10000);
        QPushButton *dismiss = nullptr;
        for (auto *b : desk.page->findChildren<QPushButton *>())
            if (b->text() == u"Dismiss…"_qs)
                dismiss = b;
        QVERIFY(dismiss && !dismiss->isVisibleTo(desk.page.get()));
        if (const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR"); !dir.isEmpty()) {
            desk.page->resize(1024, 640);
            desk.page->show();
            QTRY_COMPARE_WITH_TIMEOUT(desk.page->historyModel()->rowCount(), 2, 10000);
            desk.page->grab().save(dir + u"/cases-dismissed-reopen.png"_qs);
        }

        // A reopen without a note is refused by the database, and changes nothing.
        auto out = act(*desk.page, id, Action::Reopen, u" "_qs);
        QCOMPARE(int(out.kind), int(Kind::Refused));
        QCOMPARE(out.code, u"note_required"_qs);
        QCOMPARE(sql("SELECT status FROM reconciliation_cases WHERE id = " + caseId),
            std::string("dismissed"));

        out = act(*desk.page, id, Action::Reopen, u"sub_1 is a real customer"_qs);
        QCOMPARE(int(out.kind), int(Kind::Done));
        QVERIFY2(out.summary.contains(u"open again"_qs), qPrintable(out.summary));
        QCOMPARE(sql("SELECT status || '/' || coalesce(resolution, '-') || '/' || "
                     "coalesce(resolved_by, '-') FROM reconciliation_cases WHERE id = "
                     + caseId),
            std::string("open/-/-"));
        // Back in the queue of open cases, counted, and Dismiss… is offered again.
        desk.page->setScope(CasesPage::Scope::Open);
        waitForQueue(*desk.page, {id});
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->openCount(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!reopen->isVisibleTo(desk.page.get()), 10000);
        QVERIFY(dismiss->isVisibleTo(desk.page.get()) && dismiss->isEnabled());
        // The history says who reopened it and why, after the dismissal it undoes.
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->historyModel()->rowCount(), 3, 10000);
        const QStringList h = historyLines(*desk.page);
        QCOMPARE(h[2],
            u"operator | %1 | reopened | case open again |  | sub_1 is a real customer"_qs.arg(
                QString::fromStdString(role("alice"))));
        QCOMPARE(rdtest::scalar(*m_db, "SELECT count(*) FROM audit_chain_breaks()"), 0LL);
    }

    // #42, 5: Reopen… is offered where the database would reopen (a payload conflict, whose
    // renewal was recorded before its case opened), and not where it would refuse (a renewal
    // recorded since the dismissal): disabled, the database's refusal its tooltip.
    void reopenIsOfferedWhereTheDatabaseWouldReopen()
    {
        rdtest::importSubscriptions(
            m_db->conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
        rd::RenewalApplier applier(m_db->conninfo());
        QVERIFY(applier.apply(rdtest::februaryRenewal()).outcome == rd::ApplyOutcome::Applied);
        auto corrected = rdtest::februaryRenewal("sub_1", "evt_corrected");
        corrected.paidAmountMinor = 2499;
        const qint64 conflict = *applier.apply(corrected).caseId;
        const qint64 recorded = openCase("gap", "sub_2");
        for (qint64 id : {conflict, recorded})
            sql("SELECT dismiss_case(" + std::to_string(id) + ", 'test_data', 'test data')");
        // sub_2's March renewal delivered again once February is current: recorded.
        makeApplicable("gap", "sub_2");
        auto again = rdtest::februaryRenewal("sub_2", "evt_sub_2_again", "in_sub_2");
        again.period = {rdtest::ts("2026-03-01T00:00:00Z"), rdtest::ts("2026-04-01T00:00:00Z")};
        QVERIFY(applier.apply(again).outcome == rd::ApplyOutcome::Applied);

        Desk desk(rdtest::loginAs(*m_db, "alice", "operator"));
        desk.page->setScope(CasesPage::Scope::Dismissed);
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->model()->rowCount(), 2, 15000);
        auto *reopen = desk.page->findChild<QPushButton *>(u"case-reopen"_qs);
        QVERIFY(desk.page->openCase(recorded));
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->currentCase(), recorded, 10000);
        QVERIFY(reopen->isVisibleTo(desk.page.get()));
        QVERIFY(!reopen->isEnabled());
        QVERIFY2(reopen->toolTip().contains(u"has been recorded since it was dismissed"_qs),
            qPrintable(reopen->toolTip()));
        if (const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR"); !dir.isEmpty()) {
            desk.page->resize(1024, 640);
            desk.page->show();
            QTest::qWait(200);
            desk.page->grab().save(dir + u"/cases-reopen-refused.png"_qs);
        }

        QVERIFY(desk.page->openCase(conflict));
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->currentCase(), conflict, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(reopen->isEnabled(), 10000);
        const auto out = act(*desk.page, conflict, Action::Reopen, u"the amount did change"_qs);
        QVERIFY2(out.kind == Kind::Done, qPrintable(out.summary));
        QCOMPARE(
            sql("SELECT status FROM reconciliation_cases WHERE id = " + std::to_string(conflict)),
            std::string("open"));
    }

    // #28, 18: Re-apply cannot work without the renewal's period; the button says so instead
    // of asking for a note and then being refused.
    void reapplyIsDisabledOnANeedsSnapshotCase()
    {
        rdtest::importSubscriptions(
            m_db->conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1"));
        const long long needsSnapshot = rdtest::scalar(*m_db,
            "SELECT record_reconciliation_case(jsonb_build_object('providerKey', 'stripe-main', "
            "'providerSubscriptionId', 'sub_1', 'providerRenewalKey', 'in_ls', "
            "'providerEventId', 'evt_ls', 'paidAmountMinor', 900, 'currency', 'USD'), "
            "'needs_snapshot', '{}')");
        const qint64 gap = openCase("gap", "sub_2");
        Desk desk(rdtest::loginAs(*m_db, "alice", "operator"));
        desk.page->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->model()->rowCount(), 2, 15000);
        QPushButton *reapply = nullptr;
        for (auto *b : desk.page->findChildren<QPushButton *>())
            if (b->text() == u"Re-apply…"_qs)
                reapply = b;
        QVERIFY(reapply);
        QVERIFY(desk.page->openCase(needsSnapshot));
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->currentCase(), qint64(needsSnapshot), 10000);
        QVERIFY(!reapply->isEnabled());
        QVERIFY2(reapply->toolTip().contains(u"does not say which period was paid"_qs)
                && reapply->toolTip().contains(u"Attach provider snapshot"_qs),
            qPrintable(reapply->toolTip()));
        // Every other action stays: a snapshot is the way out.
        QPushButton *snapshot = nullptr;
        for (auto *b : desk.page->findChildren<QPushButton *>())
            if (b->text() == u"Attach provider snapshot…"_qs)
                snapshot = b;
        QVERIFY(snapshot && snapshot->isEnabled());
        QVERIFY2(desk.page->findingText().contains(u"Next step: Look the subscription up"_qs),
            qPrintable(desk.page->findingText()));
        if (const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR"); !dir.isEmpty()) {
            desk.page->resize(1024, 640);
            desk.page->show();
            QTest::qWait(200);
            desk.page->grab().save(dir + u"/cases-needs-snapshot.png"_qs);
        }
        // A case with its period may be re-applied.
        QVERIFY(desk.page->openCase(gap));
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->currentCase(), gap, 10000);
        QVERIFY(reapply->isEnabled());
        QVERIFY(reapply->toolTip().isEmpty());
    }

    // #28, 19 and 17: bulk dismiss lists the cases it will close, with their count, before the
    // note, and picks no reason for the operator.
    void bulkDismissListsTheCasesItCloses()
    {
        const QList<qint64> ids {
            openCase("status", "sub_1"), openCase("gap", "sub_2"), openCase("cancel", "sub_3")};
        Desk desk(rdtest::loginAs(*m_db, "alice", "operator"));
        desk.page->resize(1024, 700);
        desk.page->show();
        desk.page->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(desk.page->model()->rowCount(), 3, 15000);
        desk.page->table()->selectAll();
        QCOMPARE(desk.page->selectedCaseIds().size(), 3);
        QStringList listed;
        QString title, button, blocked;
        bool buttonEnabled = true;
        // The dialog is modal (exec()): read it once it is up, then cancel it.
        QTimer::singleShot(0, this, [&] {
            auto *dialog
                = qobject_cast<rd::ui::OperatorNoteDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            listed = dialog->listedCases();
            title = dialog->findChild<QLabel *>(u"note-cases-title"_qs)->text();
            button = dialog->actionButton()->text();
            buttonEnabled = dialog->actionButton()->isEnabled();
            blocked = dialog->blockedBecause();
            if (const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR"); !dir.isEmpty())
                dialog->grab().save(dir + u"/bulk-dismiss.png"_qs);
            dialog->reject();
        });
        desk.page->findChild<QPushButton *>(u"case-bulk-dismiss"_qs)->click();
        QCOMPARE(title, u"Dismissing closes these 3 cases, without recording their renewals:"_qs);
        QCOMPARE(button, u"Dismiss 3 cases"_qs);
        QCOMPARE(listed.size(), 3);
        for (const qint64 id : ids)
            QVERIFY2(std::any_of(listed.cbegin(), listed.cend(),
                         [id](const QString &l) {
                             return l.startsWith(u"case %1 · stripe-main/"_qs.arg(id));
                         }),
                qPrintable(listed.join(u'\n')));
        QVERIFY2(listed.join(u'\n').contains(u"Renewal period is not contiguous"_qs),
            qPrintable(listed.join(u'\n')));
        // No reason chosen in advance: the button waits for one.
        QVERIFY(!buttonEnabled);
        QVERIFY2(blocked.contains(u"reason"_qs), qPrintable(blocked));
        QCOMPARE(sql("SELECT count(*) FROM reconciliation_cases WHERE status = 'open'"),
            std::string("3"));
    }

    // #28, 22: "Start from current state" fills Renewal Desk's form from the subscription and
    // the case's renewal; the database's preview judges it; the format is described.
    void snapshotStartsFromTheCurrentState()
    {
        const qint64 id = openCase("cancel", "sub_1");
        Desk desk(rdtest::loginAs(*m_db, "alice", "operator"));
        desk.page->refresh();
        waitForQueue(*desk.page, {id});
        QVERIFY(desk.page->openCase(id));
        rd::ui::SnapshotDialog *dialog = desk.page->openSnapshotDialog();
        QVERIFY(dialog);
        auto *format = dialog->findChild<QLabel *>(u"snapshot-format"_qs);
        QVERIFY(format);
        QVERIFY2(
            format->text().contains(u"providerVersion a string"_qs), qPrintable(format->text()));
        QCOMPARE(dialog->reason(), QString());
        QSignalSpy filled(dialog, &rd::ui::SnapshotDialog::startFilled);
        dialog->findChild<QPushButton *>(u"snapshot-start"_qs)->click();
        QVERIFY(filled.wait(10000));
        // In the form's order (not alphabetical): whose subscription first.
        QVERIFY2(dialog->snapshotText().startsWith(u"{\n  \"providerKey\": \"stripe-main\",\n  "
                                                   "\"providerSubscriptionId\": \"sub_1\""_qs),
            qPrintable(dialog->snapshotText()));
        if (const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR"); !dir.isEmpty())
            dialog->grab().save(dir + u"/attach-snapshot-started.png"_qs);
        const auto json = nlohmann::ordered_json::parse(dialog->snapshotText().toStdString());
        // Our form, read back by the strict parser; the case's renewal, its period current.
        const auto snapshot = rd::providerSnapshotFromJson(nlohmann::json::parse(json.dump()));
        QCOMPARE(snapshot.providerSubscriptionId, std::string("sub_1"));
        QCOMPARE(snapshot.status, std::string("active"));
        QVERIFY(snapshot.cancelAtPeriodEnd); // as the desk holds it, to correct
        QVERIFY(snapshot.latestRenewal);
        QCOMPARE(snapshot.latestRenewal->providerRenewalKey, std::string("in_sub_1"));
        QVERIFY(
            snapshot.currentPeriod && *snapshot.currentPeriod == snapshot.latestRenewal->period);
        QVERIFY(json["providerVersion"].is_null() || json["providerVersion"].is_string());
        // The operator corrects what the provider shows (the cancellation was withdrawn): the
        // database's preview says the case's renewal is then recorded.
        auto edited = json;
        edited["cancelAtPeriodEnd"] = false;
        dialog->findChild<QPlainTextEdit *>(u"snapshot-text"_qs)
            ->setPlainText(QString::fromStdString(edited.dump(2)));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isReady(), 10000);
        QVERIFY2(dialog->verdict().startsWith(u"Case %1 will be resolved"_qs.arg(id)),
            qPrintable(dialog->verdict()));
        dialog->resize(1024, 700);
        if (const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR"); !dir.isEmpty())
            dialog->grab().save(dir + u"/attach-snapshot-start.png"_qs);
        dialog->reject();
    }
};

QTEST_MAIN(TestUiCaseWorkflow)
#include "tst_ui_caseworkflow.moc"
