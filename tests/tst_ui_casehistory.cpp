#include "ui/models/casehistory.h"

#include <QtTest>

using rd::ui::CaseHistoryRow;
using rd::ui::CaseHistoryStep;

/// A case's history in the desk's words (ui/models/casehistory: pure, no database, no window):
/// who did each step, what was done, what came of it.
class TestUiCaseHistory : public QObject
{
    Q_OBJECT

private slots:
    void stepInWords_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("errorCode");
        QTest::addColumn<QString>("role");
        QTest::addColumn<QString>("snapshotId");
        QTest::addColumn<bool>("automatic");
        QTest::addColumn<QString>("otherRole");
        QTest::addColumn<QString>("recordedBy");
        QTest::addColumn<QString>("why");
        QTest::addColumn<bool>("fromSnapshot");
        QTest::addColumn<QString>("actor");
        QTest::addColumn<QString>("did");
        QTest::addColumn<QString>("cameOf");

        const QString gap = u"renewal_period_is_not_contiguous"_qs;
        const QString gapWords = u"Renewal period is not contiguous"_qs;
        // Who handed the rejected renewal in.
        QTest::newRow("opened by a delivery")
            << u"opened"_qs << u"rejected"_qs << gap << u"rd_ingest"_qs << QString() << false
            << QString() << QString() << QString() << false << u"webhook delivery"_qs
            << u"renewal rejected"_qs << u"case opened: "_qs + gapWords;
        QTest::newRow("opened by renewalctl apply")
            << u"opened"_qs << u"rejected"_qs << gap << u"alice"_qs << QString() << false
            << QString() << u"cli"_qs << QString() << false << u"renewalctl apply"_qs
            << u"renewal rejected"_qs << u"case opened: "_qs + gapWords;
        QTest::newRow("opened by a statement import")
            << u"opened"_qs << u"rejected"_qs << gap << u"alice"_qs << QString() << false
            << QString() << u"statement"_qs << QString() << false << u"statement import"_qs
            << u"renewal rejected"_qs << u"case opened: "_qs + gapWords;
        QTest::newRow("delivered again")
            << u"occurrence"_qs << u"rejected"_qs << gap << u"rd_ingest"_qs << QString() << false
            << QString() << QString() << QString() << false << u"webhook delivery"_qs
            << u"delivered again"_qs << u"still open: "_qs + gapWords;
        QTest::newRow("delivered again, no code")
            << u"occurrence"_qs << u"rejected"_qs << QString() << u"rd_ingest"_qs << QString()
            << false << QString() << QString() << QString() << false << u"webhook delivery"_qs
            << u"delivered again"_qs << u"still open"_qs;
        // Claims and notes.
        QTest::newRow("claimed") << u"claimed"_qs << u"claimed"_qs << QString() << u"alice"_qs
                                 << QString() << false << QString() << QString() << QString()
                                 << false << u"operator"_qs << u"claimed"_qs
                                 << u"assigned to alice"_qs;
        QTest::newRow("taken over")
            << u"claimed"_qs << u"claimed"_qs << QString() << u"alice"_qs << QString() << false
            << u"bob"_qs << QString() << QString() << false << u"operator"_qs
            << u"claimed, taken over from bob"_qs << u"assigned to alice"_qs;
        QTest::newRow("released own claim")
            << u"released"_qs << u"released"_qs << QString() << u"alice"_qs << QString() << false
            << u"alice"_qs << QString() << QString() << false << u"operator"_qs << u"released"_qs
            << u"back in the queue, unassigned"_qs;
        QTest::newRow("released another's claim")
            << u"released"_qs << u"released"_qs << QString() << u"alice"_qs << QString() << false
            << u"bob"_qs << QString() << QString() << false << u"operator"_qs
            << u"released bob's claim"_qs << u"back in the queue, unassigned"_qs;
        QTest::newRow("note") << u"noted"_qs << u"noted"_qs << QString() << u"alice"_qs << QString()
                              << false << QString() << QString() << QString() << false
                              << u"operator"_qs << u"note"_qs << u"noted (no action)"_qs;
        // Re-applies and snapshots.
        QTest::newRow("re-applied")
            << u"reapply"_qs << u"applied"_qs << QString() << u"alice"_qs << QString() << false
            << QString() << QString() << QString() << false << u"operator"_qs << u"re-applied"_qs
            << u"renewal applied: case resolved"_qs;
        QTest::newRow("re-applied by the core")
            << u"reapply"_qs << u"applied"_qs << QString() << u"system"_qs << QString() << true
            << QString() << QString() << QString() << false << u"automatic (renewal core)"_qs
            << u"re-applied automatically"_qs << u"renewal applied: case resolved"_qs;
        QTest::newRow("re-applied after a snapshot, already recorded")
            << u"reapply"_qs << u"duplicate"_qs << QString() << u"alice"_qs << u"7"_qs << false
            << QString() << QString() << QString() << false << u"operator"_qs
            << u"re-applied after snapshot 7"_qs << u"renewal already recorded: case resolved"_qs;
        QTest::newRow("still rejected")
            << u"reapply"_qs << u"rejected"_qs << gap << u"alice"_qs << QString() << false
            << QString() << QString() << QString() << false << u"operator"_qs << u"re-applied"_qs
            << u"still rejected: "_qs + gapWords;
        QTest::newRow("snapshot left it rejected, why")
            << u"snapshot_attached"_qs << u"rejected"_qs << gap << u"alice"_qs << u"3"_qs << false
            << QString() << QString() << u"the period ends before it starts"_qs << false
            << u"operator"_qs << u"provider snapshot 3 attached"_qs
            << u"still rejected: "_qs + gapWords + u"; the period ends before it starts"_qs;
        QTest::newRow("snapshot recorded the renewal")
            << u"snapshot_attached"_qs << u"duplicate"_qs << QString() << u"alice"_qs << u"4"_qs
            << false << QString() << QString() << QString() << true << u"operator"_qs
            << u"provider snapshot 4 attached"_qs
            << u"renewal recorded with the snapshot: case resolved"_qs;
        QTest::newRow("snapshot attached, no id")
            << u"snapshot_attached"_qs << u"attached"_qs << QString() << u"alice"_qs << QString()
            << false << QString() << QString() << QString() << false << u"operator"_qs
            << u"provider snapshot attached"_qs << u"subscription brought to the snapshot"_qs;
        QTest::newRow("same snapshot again")
            << u"snapshot_attached"_qs << u"unchanged"_qs << QString() << u"alice"_qs << u"5"_qs
            << false << QString() << QString() << QString() << false << u"operator"_qs
            << u"provider snapshot 5 attached"_qs
            << u"the same snapshot was attached before: nothing changed"_qs;
        QTest::newRow("snapshot created the subscription")
            << u"snapshot_attached"_qs << u"created"_qs << QString() << u"alice"_qs << u"6"_qs
            << false << QString() << QString() << QString() << false << u"operator"_qs
            << u"provider snapshot 6 attached"_qs << u"subscription created from the snapshot"_qs;
        // Closing and opening again.
        QTest::newRow("dismissed")
            << u"dismissed"_qs << u"dismissed"_qs << QString() << u"alice"_qs << QString() << false
            << QString() << QString() << QString() << false << u"operator"_qs << u"dismissed"_qs
            << u"case dismissed"_qs;
        QTest::newRow("reopened") << u"reopened"_qs << u"reopened"_qs << QString() << u"alice"_qs
                                  << QString() << false << QString() << QString() << QString()
                                  << false << u"operator"_qs << u"reopened"_qs
                                  << u"case open again"_qs;
        // A step a later migration adds reads as its codes in words, not as nothing.
        QTest::newRow("unknown step")
            << u"escalated_to_billing"_qs << u"ticket_filed"_qs << QString() << u"alice"_qs
            << QString() << false << QString() << QString() << QString() << false << u"operator"_qs
            << u"Escalated to billing"_qs << u"Ticket filed"_qs;
    }

    void stepInWords()
    {
        CaseHistoryStep step;
        QFETCH(QString, action);
        QFETCH(QString, outcome);
        QFETCH(QString, errorCode);
        QFETCH(QString, role);
        QFETCH(QString, snapshotId);
        QFETCH(bool, automatic);
        QFETCH(QString, otherRole);
        QFETCH(QString, recordedBy);
        QFETCH(QString, why);
        QFETCH(bool, fromSnapshot);
        step.action = action;
        step.outcome = outcome;
        step.errorCode = errorCode;
        step.role = role;
        step.snapshotId = snapshotId;
        step.automatic = automatic;
        step.otherRole = otherRole;
        step.recordedBy = recordedBy;
        step.why = why;
        step.renewalFromSnapshot = fromSnapshot;
        QTEST(rd::ui::caseStepActor(step), "actor");
        QTEST(rd::ui::caseStepAction(step), "did");
        QTEST(rd::ui::caseStepOutcome(step), "cameOf");
    }

    /// The table's rows: one a step, in the order given, each field where the page's columns
    /// read it; the reason in words beside its code; an unreadable time stays empty.
    void cellsFollowTheColumns()
    {
        CaseHistoryStep opened;
        opened.seq = 1;
        opened.at = qint64(1767225600000000); // 2026-01-01T00:00:00Z
        opened.action = u"opened"_qs;
        opened.outcome = u"rejected"_qs;
        opened.errorCode = u"needs_snapshot"_qs;
        opened.role = u"rd_ingest"_qs;
        CaseHistoryStep dismissed;
        dismissed.seq = 2;
        dismissed.action = u"dismissed"_qs;
        dismissed.outcome = u"dismissed"_qs;
        dismissed.role = u"alice"_qs;
        dismissed.reason = u"data_correction"_qs;
        dismissed.comment = u"seen twice"_qs;

        const QVector<QVariant> cells = rd::ui::caseHistoryCells({opened, dismissed});
        constexpr int n = CaseHistoryRow::StepFieldCount;
        QCOMPARE(cells.size(), 2 * n);
        QCOMPARE(cells[CaseHistoryRow::StepSeq].toLongLong(), 1);
        QCOMPARE(cells[CaseHistoryRow::StepAt].toLongLong(), 1767225600000000);
        QCOMPARE(cells[CaseHistoryRow::StepActor].toString(), u"webhook delivery"_qs);
        QCOMPARE(cells[CaseHistoryRow::StepRole].toString(), u"rd_ingest"_qs);
        QCOMPARE(cells[CaseHistoryRow::StepAction].toString(), u"renewal rejected"_qs);
        QCOMPARE(cells[CaseHistoryRow::StepOutcome].toString(), u"case opened: Needs snapshot"_qs);
        QVERIFY(cells[CaseHistoryRow::StepReason].toString().isEmpty());
        QVERIFY(cells[CaseHistoryRow::StepComment].toString().isEmpty());

        QCOMPARE(cells[n + CaseHistoryRow::StepSeq].toLongLong(), 2);
        QVERIFY(cells[n + CaseHistoryRow::StepAt].isNull());
        QCOMPARE(cells[n + CaseHistoryRow::StepActor].toString(), u"operator"_qs);
        QCOMPARE(cells[n + CaseHistoryRow::StepAction].toString(), u"dismissed"_qs);
        QCOMPARE(cells[n + CaseHistoryRow::StepReason].toString(), u"Data correction"_qs);
        QCOMPARE(cells[n + CaseHistoryRow::StepReasonCode].toString(), u"data_correction"_qs);
        QCOMPARE(cells[n + CaseHistoryRow::StepComment].toString(), u"seen twice"_qs);

        QVERIFY(rd::ui::caseHistoryCells({}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestUiCaseHistory)
#include "tst_ui_casehistory.moc"
