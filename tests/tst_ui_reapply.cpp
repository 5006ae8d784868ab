#include "domain/store/case_actions.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"
#include "ui/actions/caseactions.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/recordtablemodel.h"
#include "ui/models/subscriptiondetail.h"
#include "ui/widgets/casespage.h"
#include "ui/widgets/snapshotdialog.h"
#include "ui/widgets/subscriptiondetailwidget.h"
#include "ui/widgets/tableview.h"
#include "ui/widgets/timelinewidget.h"

#include "domain/core/provider_snapshot.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using Kind = rd::ui::ActionResult::Kind;
using Action = rd::ui::CaseActions::Action;
using rdtest::outcomeName;

/// Re-apply from the reconciliation queue, through the desk's widgets and action layer.
class TestUiReapply : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::unique_ptr<rd::ui::DatabasePool> m_pool;
    std::unique_ptr<rd::ui::CaseActions> m_actions;
    qint64 m_caseId = 0;

    static bool waitForRows(rd::ui::CasesPage &page, int rows)
    {
        return QTest::qWaitFor([&] { return page.model()->rowCount() == rows; }, 10000);
    }

    rd::ui::SubscriptionDetail detail()
    {
        const QString id = QString::fromStdString(
            scalar("SELECT id::text FROM subscriptions WHERE provider_subscription_id = 'sub_1'"));
        auto future = m_pool->run(
            [id](QSqlDatabase &db) { return rd::ui::loadSubscriptionDetail(db, id); });
        future.waitForFinished();
        return future.result().value();
    }

    /// sub_1 as Stripe reports it once the customer paid: active, February, the renewal paid.
    static rd::ProviderSnapshot paidFebruarySnapshot()
    {
        rd::ProviderSnapshot s;
        s.providerKey = "stripe-main";
        s.providerSubscriptionId = "sub_1";
        s.status = "active";
        s.currentPeriod = rdtest::februaryRenewal().period;
        // Captured just now: a capture before the subscription's import would be stale.
        s.capturedAt = rd::Timestamp::now();
        s.latestRenewal = rdtest::februaryRenewal();
        return s;
    }

    /// RD_SCREENSHOT_DIR=DIR keeps the dialog's pictures (for docs/screenshots).
    static void saveScreenshot(QWidget *widget, const char *name)
    {
        const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            QVERIFY(widget->grab().save(dir + u'/' + QString::fromLatin1(name)));
    }

    static QString writeFile(const QTemporaryDir &dir, const char *name, const std::string &text)
    {
        const QString path = dir.filePath(QString::fromLatin1(name));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) < 0)
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

    /// The history table's rows, one a line: its shown cells joined with " | ".
    static QStringList historyLines(rd::ui::CasesPage &page)
    {
        QStringList lines;
        const auto *m = page.historyModel();
        for (int r = 0; r < m->rowCount(); ++r) {
            QStringList cells;
            for (int c = 0; c < m->columnCount(); ++c)
                cells << m->data(m->index(r, c)).toString();
            lines << cells.join(u" | "_qs);
        }
        return lines;
    }

    /// The case ids of the queue, top to bottom.
    static QList<qint64> queueIds(rd::ui::CasesPage &page)
    {
        QList<qint64> ids;
        for (int r = 0; r < page.model()->rowCount(); ++r)
            ids << page.model()->row(r)[rd::ui::CasesPage::Id].toLongLong();
        return ids;
    }

    void exec(const std::string &sql)
    {
        auto conn = m_db->connect();
        pqxx::work tx(*conn);
        tx.exec0(sql);
        tx.commit();
    }

    std::string scalar(const std::string &sql)
    {
        auto conn = m_db->connect();
        pqxx::read_transaction tx(*conn);
        const auto f = tx.exec1(sql)[0];
        return f.is_null() ? std::string("NULL") : f.as<std::string>();
    }

private slots:
    void init()
    {
        m_db = std::make_unique<rdtest::TestDatabase>(QTest::currentTestFunction());
        // sub_1 is past_due: its February renewal is refused and becomes a case.
        rdtest::importSubscriptions(
            m_db->conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1", "past_due"));
        rd::RenewalApplier applier(m_db->conninfo());
        const auto outcome = applier.apply(rdtest::februaryRenewal());
        QCOMPARE(outcomeName(outcome.outcome), outcomeName(rd::ApplyOutcome::Rejected));
        QVERIFY(outcome.caseId.has_value());
        m_caseId = *outcome.caseId;
        const QString conninfo = QString::fromStdString(m_db->conninfo());
        m_pool = std::make_unique<rd::ui::DatabasePool>(conninfo);
        m_actions = rd::ui::makeDomainCaseActions(conninfo);
    }

    void cleanup()
    {
        m_actions.reset();
        m_pool.reset();
        m_db.reset();
    }

    // A renewal that arrived before its predecessor healed itself: the queue no longer holds
    // it, "Healed automatically" lists it, its history says who resolved it and after which
    // renewal, and no action is offered on it.
    void healedCasesAreListedWithTheirHistory()
    {
        rdtest::importSubscriptions(
            m_db->conninfo(), rdtest::subscriptionLine("stripe-main", "sub_h"));
        rd::RenewalApplier applier(m_db->conninfo());
        auto march = rdtest::februaryRenewal("sub_h", "evt_h_march", "in_h_march");
        march.period = {
            *rd::parseRfc3339("2026-03-01T00:00:00Z"), *rd::parseRfc3339("2026-04-01T00:00:00Z")};
        const auto gap = applier.apply(march);
        QVERIFY(gap.caseId);
        QCOMPARE(
            outcomeName(
                applier.apply(rdtest::februaryRenewal("sub_h", "evt_h_feb", "in_h_feb")).outcome),
            outcomeName(rd::ApplyOutcome::Applied));

        rd::ui::CasesPage page(m_pool.get(), m_actions.get());
        QAbstractItemModelTester tester(
            page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.refresh();
        QVERIFY(waitForRows(page, 1)); // only sub_1's case is open
        page.setScope(rd::ui::CasesPage::Scope::HealedAutomatically);
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->rowCount() == 1
                && page.model()->row(0)[rd::ui::CasesPage::Id].toLongLong() == *gap.caseId,
            10000);
        QVERIFY(page.openCase(*gap.caseId));
        QCOMPARE(page.model()->data(page.model()->index(0, 8)).toString(),
            u"re-applied automatically"_qs);
        // Its history under the evidence: when | actor | database role | action | outcome |
        // reason | comment.
        QTRY_COMPARE_WITH_TIMEOUT(page.historyModel()->rowCount(), 2, 10000);
        const QStringList history = historyLines(page);
        QVERIFY2(history[0].contains(u" | webhook delivery | "_qs)
                && history[0].contains(u" | renewal rejected | case opened: Renewal period is "
                                       "not contiguous | "_qs),
            qPrintable(history.join(u'\n')));
        QVERIFY2(history[1].endsWith(u" | automatic (renewal core) | system | re-applied "
                                     "automatically | renewal applied: case resolved |  | "
                                     "re-applied automatically after in_h_feb arrived"_qs),
            qPrintable(history.join(u'\n')));
        page.resize(1200, 720);
        saveScreenshot(&page, "cases-healed.png");
        for (const char *name : {"Re-apply…", "Dismiss…", "Attach provider snapshot…"}) {
            bool found = false;
            for (auto *b : page.findChildren<QPushButton *>())
                if (b->text() == QString::fromUtf8(name)) {
                    found = true;
                    QVERIFY2(!b->isEnabled(), name);
                }
            QVERIFY(found);
        }
        page.setScope(rd::ui::CasesPage::Scope::All);
        QVERIFY(waitForRows(page, 2));
    }

    void reapplyResolvesTheCaseAndAdvancesThePeriod()
    {
        rd::ui::CasesPage page(m_pool.get(), m_actions.get());
        QAbstractItemModelTester tester(
            page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.refresh();
        QVERIFY(waitForRows(page, 1));
        QCOMPARE(page.openCount(), 1);
        QVERIFY(page.canOperate());
        QVERIFY(page.openCase(m_caseId));

        // Support reactivated the subscription; the operator re-applies the provider's event.
        {
            auto conn = m_db->connect();
            pqxx::work tx(*conn);
            tx.exec0("UPDATE subscriptions SET status = 'active' WHERE provider_subscription_id = "
                     "'sub_1'");
            tx.commit();
        }
        QSignalSpy finished(&page, &rd::ui::CasesPage::actionFinished);
        page.runAction(rd::ui::CaseActions::Action::Reapply, u"data_correction"_qs,
            u"customer paid by card"_qs);
        QVERIFY(finished.wait(20000));
        const auto outcome = finished.first().first().value<rd::ui::ActionResult>();
        QCOMPARE(outcome.code, u"applied"_qs);
        QCOMPARE(int(outcome.kind), int(Kind::Resolved));
        QVERIFY2(outcome.summary.startsWith(u"Applied: period now 1 Feb → 1 Mar 2026"_qs),
            qPrintable(outcome.summary));
        QCOMPARE(page.outcomeText(), outcome.summary);

        QVERIFY2(!outcome.summary.contains(u'{'), qPrintable(outcome.summary));

        // The queue empties; the database says the same.
        QVERIFY(waitForRows(page, 0));
        QCOMPARE(page.openCount(), 0);
        // The panel shows the case as it now is: resolved, by whom, the re-apply in its
        // history; nothing left to act on.
        QCOMPARE(page.currentCase(), m_caseId);
        QTRY_VERIFY_WITH_TIMEOUT(page.titleText().contains(u"reapplied by"_qs), 10000);
        QVERIFY2(page.findingText().startsWith(u"Closed: reapplied by"_qs),
            qPrintable(page.findingText()));
        QTRY_COMPARE_WITH_TIMEOUT(page.historyModel()->rowCount(), 2, 10000);
        QVERIFY2(historyLines(page)[1].contains(
                     u" | re-applied | renewal applied: case resolved | Data correction | "
                     "customer paid by card"_qs),
            qPrintable(historyLines(page).join(u'\n')));
        for (auto *b : page.findChildren<QPushButton *>())
            if (b->text() == u"Re-apply…"_qs || b->text() == u"Dismiss…"_qs)
                QVERIFY(!b->isEnabled());
        const std::string id = std::to_string(m_caseId);
        QCOMPARE(scalar("SELECT status || '/' || resolution || '/' || (resolved_by = session_user) "
                        "FROM reconciliation_cases WHERE id = "
                     + id),
            std::string("resolved/reapplied/true"));
        auto conn = m_db->connect();
        const auto seen = rdtest::observe(*conn);
        QCOMPARE(seen.periodStart, std::string("2026-02-01T00:00:00.000000Z"));
        QCOMPARE(seen.periodEnd, std::string("2026-03-01T00:00:00.000000Z"));
        QCOMPARE(seen.billingPeriods, 1LL);
        QCOMPARE(seen.outbox, 1LL);
        QCOMPARE(scalar("SELECT actor_type || '/' || (actor_id = session_user) "
                        "FROM subscription_transition_audits "
                        "WHERE transition = 'subscription_renewed'"),
            std::string("operator/true"));
        // The operator's reason and comment are kept in the case's hash-chained history.
        QCOMPARE(scalar("SELECT reason || '/' || comment || '/' || (actor = session_user) "
                        "FROM reconciliation_case_history WHERE action = 'reapply' AND case_id = "
                     + id),
            std::string("data_correction/customer paid by card/true"));
    }

    void reapplyStillRejectedKeepsTheCaseOpen()
    {
        const auto outcome = rd::ui::runCaseAction(
            m_db->conninfo(), Action::Reapply, {m_caseId, u"other"_qs, {}, {}});
        QCOMPARE(int(outcome.kind), int(Kind::StillOpen));
        // The rejection that keeps it open, as the database names it: the kind says "still
        // rejected", the code says why (no "rejected:<code>" to take apart).
        QCOMPARE(outcome.code, u"renewal_not_allowed_for_subscription_status"_qs);
        QVERIFY2(outcome.summary.contains(u"Renewal not allowed for subscription status"_qs),
            qPrintable(outcome.summary));
        const std::string id = std::to_string(m_caseId);
        QCOMPARE(scalar("SELECT status FROM reconciliation_cases WHERE id = " + id),
            std::string("open"));
        // The attempt is in the case's history, with its outcome.
        QCOMPARE(scalar("SELECT string_agg(action || ':' || outcome, ',' ORDER BY chain_seq) "
                        "FROM reconciliation_case_history WHERE case_id = "
                     + id),
            std::string("opened:open,reapply:rejected"));
    }

    void reapplyOfAnAppliedRenewalSaysAlreadyApplied()
    {
        {
            auto conn = m_db->connect();
            pqxx::work tx(*conn);
            tx.exec0("UPDATE subscriptions SET status = 'active'");
            tx.commit();
        }
        // The provider's retry got through on its own before anyone looked at the case.
        rd::RenewalApplier applier(m_db->conninfo());
        QCOMPARE(outcomeName(applier.apply(rdtest::februaryRenewal()).outcome),
            outcomeName(rd::ApplyOutcome::Applied));
        const auto outcome = rd::ui::runCaseAction(
            m_db->conninfo(), Action::Reapply, {m_caseId, u"other"_qs, {}, {}});
        QCOMPARE(outcome.code, u"duplicate"_qs);
        QVERIFY(outcome.summary.startsWith(u"Already applied"_qs));
        QCOMPARE(scalar("SELECT resolution FROM reconciliation_cases WHERE id = "
                     + std::to_string(m_caseId)),
            std::string("already_applied"));
        // A second re-apply is refused: the case is closed.
        const auto again = rd::ui::runCaseAction(
            m_db->conninfo(), Action::Reapply, {m_caseId, u"other"_qs, {}, {}});
        QCOMPARE(int(again.kind), int(Kind::Refused));
    }

    void operatorHasEveryActionAndDismissNeedsANote()
    {
        rd::ui::CasesPage page(m_pool.get(), m_actions.get());
        page.refresh();
        QVERIFY(waitForRows(page, 1));
        QVERIFY(page.openCase(m_caseId));
        int enabled = 0;
        for (auto *b : page.findChildren<QPushButton *>()) {
            // The case's own actions (the bulk ones are tst_ui_caseworkflow's).
            if (b->text() == u"Dismiss…"_qs || b->text() == u"Re-apply…"_qs
                || b->text() == u"Attach provider snapshot…"_qs)
                enabled += b->isEnabled() ? 1 : 0;
        }
        QCOMPARE(enabled, 3);

        auto noNote = m_actions->run(
            rd::ui::CaseActions::Action::Dismiss, {m_caseId, u"provider_confirmed"_qs, {}, {}});
        noNote.waitForFinished();
        QCOMPARE(int(noNote.result().kind), int(Kind::Refused));
        QCOMPARE(noNote.result().code, u"note_required"_qs);

        auto dismissed = m_actions->run(rd::ui::CaseActions::Action::Dismiss,
            {m_caseId, u"provider_confirmed"_qs, u"refunded in the provider"_qs, {}});
        dismissed.waitForFinished();
        QCOMPARE(int(dismissed.result().kind), int(Kind::Resolved));
        QCOMPARE(scalar("SELECT status || '/' || resolution_comment FROM reconciliation_cases "
                        "WHERE id = "
                     + std::to_string(m_caseId)),
            std::string("dismissed/refunded in the provider"));
    }

    // "Open subscription" opens the case's own subscription; a case whose subscription is not
    // in the desk (subscription_not_found) offers nothing to open and says why, on the button
    // and on Enter, instead of showing whatever subscription was open before.
    void openSubscriptionOpensTheCasesOwnOrSaysThereIsNone()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        const auto unknown = applier.apply(rdtest::februaryRenewal("sub_unknown", "evt_u", "in_u"));
        QCOMPARE(rdtest::rejectionOf(unknown), std::string("subscription_not_found"));

        rd::ui::CasesPage page(m_pool.get(), m_actions.get());
        QSignalSpy opened(&page, &rd::ui::CasesPage::subscriptionOpenRequested);
        QSignalSpy said(&page, &rd::ui::CasesPage::statusMessage);
        page.refresh();
        QVERIFY(waitForRows(page, 2));
        QPushButton *open = nullptr;
        for (auto *b : page.findChildren<QPushButton *>()) {
            if (b->text() == u"Open subscription"_qs)
                open = b;
        }
        QVERIFY(open);

        QVERIFY(page.openCase(m_caseId));
        QVERIFY(open->isEnabled());
        open->click();
        QCOMPARE(opened.size(), 1);
        QCOMPARE(opened.at(0).at(0).toString().toStdString(),
            scalar("SELECT id::text FROM subscriptions WHERE provider_subscription_id = 'sub_1'"));

        QVERIFY(page.openCase(*unknown.caseId));
        QVERIFY(!open->isEnabled());
        QVERIFY2(open->toolTip().contains(u"sub_unknown"_qs), qPrintable(open->toolTip()));
        emit page.table()->openRequested(page.table()->currentIndex());
        QCOMPARE(opened.size(), 1); // nothing opened
        QVERIFY(!said.isEmpty());
        QVERIFY(said.last().at(0).toString().contains(u"not in the desk"_qs));

        // #28 item 2: the snapshot that creates the subscription links the case to it.
        auto created = paidFebruarySnapshot();
        created.providerSubscriptionId = "sub_unknown";
        created.latestRenewal.reset();
        // March: past the case's February renewal, which stays open (and listed).
        created.currentPeriod = rd::Period {
            *rd::parseRfc3339("2026-03-01T00:00:00Z"), *rd::parseRfc3339("2026-04-01T00:00:00Z")};
        auto conn = m_db->connect();
        rd::attachSnapshot(*conn, created, *unknown.caseId,
            rd::OperatorNote {"provider_confirmed", "fetched from the provider"});
        page.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(page.openCase(*unknown.caseId) && open->isEnabled(), 10000);
        open->click();
        QCOMPARE(opened.size(), 2);
        QCOMPARE(opened.at(1).at(0).toString().toStdString(),
            scalar("SELECT id::text FROM subscriptions "
                   "WHERE provider_subscription_id = 'sub_unknown'"));
    }

    // #28 item 1: a snapshot whose current period is the case's renewal's, and that names no
    // renewal of its own (Stripe's object unexpanded), records the case's renewal: the preview
    // says so in words before anything is written.
    void previewSaysTheSnapshotRecordsTheCasesRenewal()
    {
        rd::ui::CasesPage page(m_pool.get(), m_actions.get());
        page.refresh();
        QVERIFY(waitForRows(page, 1));
        QVERIFY(page.openCase(m_caseId));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto snapshot = paidFebruarySnapshot();
        snapshot.latestRenewal.reset();
        rd::ui::SnapshotDialog *dialog = page.openSnapshotDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->loadFile(writeFile(dir, "sub_1.json", rd::toJson(snapshot).dump(2))));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isReady(), 10000);
        const QString expected
            = u"Case %1 will be resolved: the snapshot records its renewal. "
              "Renewal in_1 of case %1 (2026-02-01T00:00:00Z - "
              "2026-03-01T00:00:00Z, 19.99 USD) would be recorded: it is the "
              "renewal of the period the snapshot makes current."_qs.arg(m_caseId);
        QVERIFY2(dialog->verdict().startsWith(expected), qPrintable(dialog->verdict()));
        saveScreenshot(dialog, "attach-snapshot-records-the-case-renewal.png");
        QCOMPARE(scalar("SELECT count(*) FROM subscription_billing_periods"), std::string("0"));
        dialog->reject();
    }

    void aViewerSeesTheSameDeskWithActionsDisabled()
    {
        // A login role that may read but not change cases: a member of renewal_viewer (a bare
        // login granted SELECT on the tables is no longer enough to read the desk: the read
        // helpers are granted to renewal_viewer, not to PUBLIC, since 0027).
        {
            const QString conninfo
                = QString::fromStdString(rdtest::loginAs(*m_db, "viewer", "viewer"));
            rd::ui::DatabasePool pool(conninfo);
            auto actions = rd::ui::makeDomainCaseActions(conninfo);
            rd::ui::CasesPage page(&pool, actions.get());
            page.refresh();
            QVERIFY(waitForRows(page, 1));
            QVERIFY(page.openCase(m_caseId));
            QVERIFY(!page.canOperate());
            for (auto *b : page.findChildren<QPushButton *>()) {
                if (!b->text().startsWith(u"Re-apply"_qs))
                    continue;
                QVERIFY(!b->isEnabled());
                QVERIFY2(b->toolTip().contains(u"may only look"_qs), qPrintable(b->toolTip()));
            }
        }
    }

    void attachSnapshotFromAFileThroughThePreview()
    {
        rd::ui::CasesPage page(m_pool.get(), m_actions.get());
        page.refresh();
        QVERIFY(waitForRows(page, 1));
        QVERIFY(page.openCase(m_caseId));

        // Before: January is current, February waits in the case (drawn hatched, not paid).
        rd::ui::SubscriptionDetailWidget before;
        before.setDetail(detail());
        QCOMPARE(before.timeline()->paidSpans().size(), 0);
        QCOMPARE(before.timeline()->pendingSpans().size(), 1);
        QCOMPARE(detail().periodEnd.toLongLong(), rdtest::februaryRenewal().period.start.micros);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // First a snapshot the parser refuses: the dialog names the field, and will not attach.
        auto broken = rd::toJson(paidFebruarySnapshot());
        broken["currentPeriod"]["end"] = "2026-01-15T00:00:00Z";
        rd::ui::SnapshotDialog *dialog = page.openSnapshotDialog();
        QVERIFY(dialog);
        QCOMPARE(dialog->windowModality(), Qt::WindowModal);
        auto *confirm = dialog->findChild<QPushButton *>(u"snapshot-confirm"_qs);
        QVERIFY(confirm);
        QVERIFY(dialog->loadFile(writeFile(dir, "broken.json", broken.dump(2))));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->problem().isEmpty(), 10000);
        QVERIFY2(
            dialog->problem().contains(u"currentPeriod.end"_qs), qPrintable(dialog->problem()));
        QVERIFY(!confirm->isEnabled());
        QVERIFY(!dialog->isReady());
        saveScreenshot(dialog, "attach-snapshot-refused.png");

        // Readable, but stale or about another subscription: the desk does not judge that
        // itself, the database's preview refuses it and the dialog shows the refusal.
        auto stale = paidFebruarySnapshot();
        stale.capturedAt = *rd::parseRfc3339("2020-01-01T00:00:00Z");
        QVERIFY(dialog->loadFile(writeFile(dir, "stale.json", rd::toJson(stale).dump(2))));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->problem().isEmpty(), 10000);
        QVERIFY2(dialog->problem().startsWith(u"The database would refuse it: stale_snapshot"_qs),
            qPrintable(dialog->problem()));
        QVERIFY(!confirm->isEnabled());
        auto other = paidFebruarySnapshot();
        other.providerSubscriptionId = "sub_2";
        other.latestRenewal.reset();
        QVERIFY(dialog->loadFile(writeFile(dir, "other.json", rd::toJson(other).dump(2))));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->problem().isEmpty(), 10000);
        QVERIFY2(dialog->problem().contains(u"snapshot_case_mismatch"_qs),
            qPrintable(dialog->problem()));
        QVERIFY(!dialog->isReady());

        // The good one: the preview shows what will change before anyone confirms.
        QVERIFY(dialog->loadFile(
            writeFile(dir, "sub_1.json", rd::toJson(paidFebruarySnapshot()).dump(2))));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isReady(), 10000);
        // Ready, but no reason is chosen for the operator (#28, 17): Attach waits for one.
        QVERIFY(!confirm->isEnabled());
        dialog->setReason(u"provider_confirmed"_qs);
        QVERIFY(confirm->isEnabled());
        // The database's own judgment of the case, before anything is written.
        QCOMPARE(dialog->verdict(),
            u"Case %1 will be resolved: its renewal is recorded."_qs.arg(m_caseId));
        QStringList changed;
        for (const auto &line : dialog->preview()->lines()) {
            if (line.differs)
                changed << line.field;
        }
        QCOMPARE(changed,
            (QStringList {
                u"status"_qs, u"period start"_qs, u"period end"_qs, u"latest renewal"_qs}));
        QCOMPARE(dialog->preview()->lines().at(0).local, u"past_due"_qs);
        QCOMPARE(dialog->preview()->lines().at(0).other, u"active"_qs);
        QCOMPARE(
            dialog->preview()->headerData(1, Qt::Horizontal).toString(), u"current (local)"_qs);
        saveScreenshot(dialog, "attach-snapshot-preview.png");

        dialog->setComment(u"fetched from the Stripe dashboard"_qs);
        QSignalSpy finished(&page, &rd::ui::CasesPage::actionFinished);
        // Confirmed from the keyboard: Ctrl+Return in the comment (Tab left the JSON box).
        dialog->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(dialog));
        auto *json = dialog->findChild<QPlainTextEdit *>(u"snapshot-text"_qs);
        auto *comment = dialog->findChild<QPlainTextEdit *>(u"snapshot-comment"_qs);
        QVERIFY(json && comment);
        json->setFocus(Qt::TabFocusReason);
        QTest::keyClick(json, Qt::Key_Tab);
        QVERIFY(!json->hasFocus());
        QVERIFY(!json->toPlainText().contains(u'\t'));
        QTest::keyClick(comment, Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(finished.wait(20000));
        const auto outcome = finished.first().first().value<rd::ui::ActionResult>();
        QCOMPARE(int(outcome.kind), int(Kind::Resolved));
        QCOMPARE(outcome.code, u"attached"_qs);
        QVERIFY2(outcome.summary.startsWith(u"Snapshot attached: period now 1 Feb → 1 Mar 2026"_qs),
            qPrintable(outcome.summary));
        // What changed, in the desk's words: no JSON.
        QVERIFY2(!outcome.summary.contains(u'{') && !outcome.summary.contains(u'"'),
            qPrintable(outcome.summary));
        QVERIFY2(outcome.summary.contains(u"current period was 1 Jan → 1 Feb 2026, now 1 Feb → "
                                          "1 Mar 2026"_qs)
                && outcome.summary.contains(u"status was past_due, now active"_qs),
            qPrintable(outcome.summary));
        QVERIFY(waitForRows(page, 0));

        // After: February is paid and current, and nothing is pending any more.
        const auto after = detail();
        rd::ui::SubscriptionDetailWidget widget;
        widget.setDetail(after);
        QCOMPARE(widget.timeline()->paidSpans().size(), 1);
        QCOMPARE(widget.timeline()->paidSpans().first().startMicros,
            rdtest::februaryRenewal().period.start.micros);
        QCOMPARE(widget.timeline()->pendingSpans().size(), 0);
        QCOMPARE(after.status, u"active"_qs);
        QCOMPARE(after.periodEnd.toLongLong(), rdtest::februaryRenewal().period.end.micros);
        QCOMPARE(scalar("SELECT status || '/' || resolution || '/' || resolution_comment "
                        "FROM reconciliation_cases WHERE id = "
                     + std::to_string(m_caseId)),
            std::string("resolved/snapshot_attached/fetched from the Stripe dashboard"));
        QCOMPARE(scalar("SELECT recorded_by FROM subscription_billing_periods"),
            std::string("snapshot"));
    }

    // A case re-applied (still rejected) and then dismissed: every step is in its history
    // under the evidence, with who did it, as which database role, why and with what comment;
    // after the dismissal the panel still shows the case, closed.
    void historyShowsEveryStepOfAReappliedThenDismissedCase()
    {
        rd::ui::CasesPage page(m_pool.get(), m_actions.get());
        QAbstractItemModelTester tester(
            page.historyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.refresh();
        QVERIFY(waitForRows(page, 1));
        QVERIFY(page.openCase(m_caseId));
        QTRY_COMPARE_WITH_TIMEOUT(page.historyModel()->rowCount(), 1, 10000);
        QVERIFY(page.historyTable()->isVisibleTo(&page));

        QSignalSpy finished(&page, &rd::ui::CasesPage::actionFinished);
        page.runAction(rd::ui::CaseActions::Action::Reapply, u"provider_confirmed"_qs,
            u"Stripe says it is paid"_qs);
        QVERIFY(finished.wait(20000));
        // Still rejected: the attempt appears in the open case's history.
        QTRY_COMPARE_WITH_TIMEOUT(page.historyModel()->rowCount(), 2, 10000);
        page.runAction(rd::ui::CaseActions::Action::Dismiss, u"duplicate_charge"_qs,
            u"refunded in Stripe, ticket 1234"_qs);
        QVERIFY(finished.wait(20000));
        QVERIFY(waitForRows(page, 0));
        QTRY_COMPARE_WITH_TIMEOUT(page.historyModel()->rowCount(), 3, 10000);

        const QString user = QString::fromStdString(scalar("SELECT session_user::text"));
        const QStringList h = historyLines(page);
        QVERIFY2(h[0].contains(u" | webhook delivery | %1 | renewal rejected | case opened: "
                               "Renewal not allowed for subscription status"_qs.arg(user)),
            qPrintable(h.join(u'\n')));
        QVERIFY2(h[1].contains(u" | operator | %1 | re-applied | still rejected: Renewal not "
                               "allowed for subscription status | Provider confirmed | Stripe "
                               "says it is paid"_qs.arg(user)),
            qPrintable(h.join(u'\n')));
        QVERIFY2(h[2].contains(u" | operator | %1 | dismissed | case dismissed | Duplicate "
                               "charge | refunded in Stripe, ticket 1234"_qs.arg(user)),
            qPrintable(h.join(u'\n')));
        // The time is local, the zone and UTC in its tooltip; the reason's code is kept.
        const auto *m = page.historyModel();
        QVERIFY(m->data(m->index(2, 0), Qt::ToolTipRole).toString().contains(u"UTC"_qs));
        QCOMPARE(m->row(2)[rd::ui::CasesPage::StepReasonCode].toString(), u"duplicate_charge"_qs);
        QCOMPARE(page.currentCase(), m_caseId);
        QTRY_VERIFY_WITH_TIMEOUT(page.titleText().contains(u"dismissed by %1"_qs.arg(user)), 10000);
        page.resize(1200, 760);
        saveScreenshot(&page, "cases-history.png");
    }

    // Resolved cases are listed under "Resolved" and "All", not under "Open"; the queue sorts
    // by age (when the case was opened) and by last seen.
    void statusFilterAndSorting()
    {
        rdtest::importSubscriptions(m_db->conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_2", "past_due") + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_3", "past_due"));
        rd::RenewalApplier applier(m_db->conninfo());
        const auto c2 = applier.apply(rdtest::februaryRenewal("sub_2", "evt_2", "in_2")).caseId;
        const auto c3 = applier.apply(rdtest::februaryRenewal("sub_3", "evt_3", "in_3")).caseId;
        QVERIFY(c2 && c3);
        const qint64 c1 = m_caseId;
        // Opened: case 3 first, then 1, then 2; last seen: 2, then 3, then 1.
        const auto at = [&](qint64 id, const char *first, const char *last) {
            exec("UPDATE reconciliation_cases SET first_seen_at = '" + std::string(first)
                + "', last_seen_at = '" + last + "' WHERE id = " + std::to_string(id));
        };
        at(*c3, "2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z");
        at(c1, "2026-01-02T00:00:00Z", "2026-02-01T00:00:00Z");
        at(*c2, "2026-01-03T00:00:00Z", "2026-04-01T00:00:00Z");
        // sub_3's case is resolved: its subscription was reactivated and it was re-applied.
        exec("UPDATE subscriptions SET status = 'active' WHERE provider_subscription_id = 'sub_3'");
        QCOMPARE(
            int(rd::ui::runCaseAction(m_db->conninfo(), Action::Reapply, {*c3, u"other"_qs, {}, {}})
                    .kind),
            int(Kind::Resolved));

        rd::ui::CasesPage page(m_pool.get(), m_actions.get());
        QAbstractItemModelTester tester(
            page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(page.scope(), rd::ui::CasesPage::Scope::Open); // the default
        page.refresh();
        QVERIFY(waitForRows(page, 2));
        QCOMPARE(queueIds(page), (QList<qint64> {*c2, c1})); // last seen, newest first
        QVERIFY(!queueIds(page).contains(*c3));

        page.setScope(rd::ui::CasesPage::Scope::Resolved);
        QTRY_COMPARE_WITH_TIMEOUT(queueIds(page), QList<qint64> {*c3}, 10000);
        page.setScope(rd::ui::CasesPage::Scope::Dismissed);
        QVERIFY(waitForRows(page, 0));
        page.setScope(rd::ui::CasesPage::Scope::All);
        QTRY_COMPARE_WITH_TIMEOUT(queueIds(page), (QList<qint64> {*c2, *c3, c1}), 10000);

        page.setSort(rd::ui::CasesPage::Sort::OldestFirst);
        QTRY_COMPARE_WITH_TIMEOUT(queueIds(page), (QList<qint64> {*c3, c1, *c2}), 10000);
        page.setSort(rd::ui::CasesPage::Sort::NewestFirst);
        QTRY_COMPARE_WITH_TIMEOUT(queueIds(page), (QList<qint64> {*c2, c1, *c3}), 10000);
        page.setSort(rd::ui::CasesPage::Sort::LastSeenOldest);
        QTRY_COMPARE_WITH_TIMEOUT(queueIds(page), (QList<qint64> {c1, *c3, *c2}), 10000);
        page.setScope(rd::ui::CasesPage::Scope::Open);
        page.setSort(rd::ui::CasesPage::Sort::OldestFirst);
        QTRY_COMPARE_WITH_TIMEOUT(queueIds(page), (QList<qint64> {c1, *c2}), 10000);

        // The combo boxes say the same.
        auto *scopeBox = page.findChild<QComboBox *>(u"case-scope"_qs);
        auto *sortBox = page.findChild<QComboBox *>(u"case-sort"_qs);
        QVERIFY(scopeBox && sortBox);
        QCOMPARE(sortBox->currentText(), u"Age, oldest first"_qs);
        scopeBox->setCurrentIndex(scopeBox->findText(u"All cases"_qs));
        QTRY_COMPARE_WITH_TIMEOUT(queueIds(page), (QList<qint64> {*c3, c1, *c2}), 10000);

        // Each order is read off an index.
        auto conn = m_db->connect();
        pqxx::work tx(*conn);
        tx.exec0("SET LOCAL enable_seqscan = off");
        for (const char *order : {"last_seen_at DESC, id", "last_seen_at, id DESC",
                 "first_seen_at, id", "first_seen_at DESC, id DESC"}) {
            std::string plan;
            for (const auto &row : tx.exec("EXPLAIN SELECT * FROM reconciliation_cases "
                                           "WHERE status = 'open' ORDER BY "
                     + std::string(order) + " LIMIT 1000"))
                plan += row[0].as<std::string>() + "\n";
            QVERIFY2(plan.find("Index Scan") != std::string::npos
                    && plan.find("Sort") == std::string::npos,
                plan.c_str());
        }
    }

    void evidenceExportsAndCopiesLikeEveryTable()
    {
        rd::ui::CasesPage page(m_pool.get(), m_actions.get());
        page.refresh();
        QVERIFY(waitForRows(page, 1));
        QVERIFY(page.openCase(m_caseId));
        rd::ui::TableView *evidence = page.evidenceTable();
        QTRY_COMPARE(evidence->model()->rowCount(), 6);
        QAbstractItemModelTester tester(
            evidence->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(u"evidence.csv"_qs);
        QString error;
        QVERIFY2(evidence->exportCsv(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const auto when = [](const char *rfc3339) {
            return rd::ui::format::localDateTime(
                rd::ui::format::instant(QString::fromLatin1(rfc3339)));
        };
        const QString expected = u"Field,current period,incoming event,Note\n"_qs
            + u"status,past_due,,◀ blocks the renewal\n"_qs + u"cancels at period end,no,,\n"_qs
            + u"period start,%1,%2,\n"_qs.arg(
                when("2026-01-01T00:00:00Z"), when("2026-02-01T00:00:00Z"))
            + u"period end,%1,%2,\n"_qs.arg(
                when("2026-02-01T00:00:00Z"), when("2026-03-01T00:00:00Z"))
            + u"amount,,$19.99,\n"_qs + u"provider event,,evt_1,\n"_qs;
        QCOMPARE(QString::fromUtf8(file.readAll()), expected);

        // Ctrl+C: the selected lines with the header, tab-separated.
        evidence->selectRow(0);
        QCOMPARE(evidence->selectionAsText(),
            u"Field\tcurrent period\tincoming event\tNote\n"
            "status\tpast_due\t\t◀ blocks the renewal"_qs);
    }
};

QTEST_MAIN(TestUiReapply)
#include "tst_ui_reapply.moc"
