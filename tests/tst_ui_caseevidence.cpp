#include "ui/models/caseevidence.h"

#include "domain/core/case_next_step.h"
#include "domain/core/rejection_code.h"

#include <QtTest>

#include <algorithm>

/// A case's evidence side by side: the finding in words, the differing lines marked.
class TestUiCaseEvidence : public QObject
{
    Q_OBJECT

private slots:
    void evidenceStatesTheGap()
    {
        const auto ev = rd::ui::buildCaseEvidence(u"renewal_period_is_not_contiguous"_qs,
            QString::fromUtf8(
                "{\"providerEventId\":\"evt_9\",\"period\":{\"start\":\"2026-03-30T00:00:00Z\","
                "\"end\":\"2026-04-30T00:00:00Z\"},\"paidAmountMinor\":2000,\"currency\":\"USD\"}"),
            QString::fromUtf8(
                "{\"status\":\"active\",\"cancelAtPeriodEnd\":false,\"currentPeriod\":{\"start\":"
                "\"2026-01-01T00:00:00.000000Z\",\"end\":\"2026-03-01T00:00:00.000000Z\"}}"));
        QVERIFY2(ev.finding.contains(u"gap of 29 days"_qs), qPrintable(ev.finding));
        // The continuity line marks the gap itself, beside the two instants.
        const auto continuity = std::find_if(ev.lines.cbegin(), ev.lines.cend(),
            [](const rd::ui::ComparisonLine &l) { return l.field == u"continuity"_qs; });
        QVERIFY(continuity != ev.lines.cend());
        QVERIFY(continuity->differs);
        QCOMPARE(continuity->note, u"gap of 29 days"_qs);
        const auto conflict = rd::ui::buildCaseEvidence(u"provider_renewal_key_payload_conflict"_qs,
            QString::fromUtf8("{\"providerEventId\":\"evt_2\",\"providerRenewalKey\":\"in_1\","
                              "\"period\":{\"start\":\"2026-02-01T00:00:00Z\",\"end\":\"2026-03-"
                              "01T00:00:00Z\"},\"paidAmountMinor\":2400,\"currency\":\"USD\"}"),
            QString::fromUtf8(
                "{\"subscriptionId\":\"u1\",\"conflictingBillingPeriod\":{\"subscriptionId\":"
                "\"u1\",\"providerRenewalKey\":\"in_1\",\"period\":{\"start\":\"2026-02-01T00:00:"
                "00.000000Z\",\"end\":\"2026-03-01T00:00:00.000000Z\"},\"paidAmountMinor\":2000,"
                "\"currency\":\"USD\"}}"));
        QStringList differing;
        for (const auto &l : conflict.lines) {
            if (l.differs)
                differing << l.field;
        }
        QCOMPARE(differing, QStringList {u"amount"_qs});
        QCOMPARE(conflict.lines[4].local, u"$20.00"_qs);
        QCOMPARE(conflict.lines[4].other, u"$24.00"_qs);
    }

    /// A finding that only repeated the reason ("Needs snapshot.") says what to do instead.
    void findingSaysWhatToDo_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("event");
        QTest::addColumn<QStringList>("mustSay");
        QTest::newRow("needs_snapshot")
            << u"needs_snapshot"_qs
            << u"{\"providerEventId\":\"evt_1\",\"paidAmountMinor\":900,\"currency\":\"USD\"}"_qs
            << QStringList {u"provider snapshot"_qs, u"dashboard"_qs};
        QTest::newRow("invalid_provider_billing_period")
            << u"invalid_provider_billing_period"_qs
            << u"{\"providerEventId\":\"evt_2\",\"period\":{\"start\":\"2026-05-01T00:00:00Z\","
               "\"end\":\"2026-04-01T00:00:00Z\"}}"_qs
            << QStringList {u"ends before it starts"_qs, u"snapshot"_qs, u"dismiss"_qs};
        // #39, 15: an object a statement lists and nobody could read says which and why.
        QTest::newRow("statement_object_unreadable")
            << u"statement_object_unreadable"_qs
            << u"{\"providerEventId\":\"statement:ab\",\"providerRenewalKey\":\"in_odd\","
               "\"unreadable\":{\"file\":\"odd.json\",\"index\":2,\"where\":\"odd.json "
               "object 2: data[2]\",\"problem\":\"the invoice contradicts itself\"}}"_qs
            << QStringList {u"in_odd"_qs, u"the invoice contradicts itself"_qs, u"dashboard"_qs,
                   u"snapshot"_qs, u"dismiss"_qs};
    }

    void findingSaysWhatToDo()
    {
        QFETCH(QString, code);
        QFETCH(QString, event);
        QFETCH(QStringList, mustSay);
        const auto ev = rd::ui::buildCaseEvidence(code, event,
            u"{\"status\":\"active\",\"cancelAtPeriodEnd\":false,\"currentPeriod\":{\"start\":"
            "\"2026-01-01T00:00:00.000000Z\",\"end\":\"2026-03-01T00:00:00.000000Z\"}}"_qs);
        // Not the reason again (the queue's Reason column says that already).
        QString reason = code;
        reason.replace(u'_', u' ');
        QVERIFY2(!ev.finding.toLower().startsWith(reason), qPrintable(ev.finding));
        const QString said = ev.finding + u' ' + ev.nextStep;
        for (const QString &words : mustSay)
            QVERIFY2(said.contains(words, Qt::CaseInsensitive), qPrintable(said));
    }

    /// #28, 21: every reason a case can have says what to do next, in words that name an
    /// action. The list is every code the programs know (the core's rejections and the
    /// statement findings); tst_reconciliation checks that it is every code the database's
    /// functions can open a case with.
    void everyReasonSaysWhatToDoNext_data()
    {
        QTest::addColumn<QString>("code");
        for (const std::string_view code : rd::caseReasonCodes())
            QTest::newRow(std::string(code).c_str()) << QString::fromUtf8(code.data(), code.size());
        // The core's own list too, should the two ever drift apart.
        for (int i = 0; i <= int(rd::RejectionCode::ScheduledCancellation); ++i) {
            const auto code = rd::toString(rd::RejectionCode(i));
            QTest::newRow(("core: " + std::string(code)).c_str())
                << QString::fromUtf8(code.data(), code.size());
        }
    }

    void everyReasonSaysWhatToDoNext()
    {
        QFETCH(QString, code);
        const auto ev = rd::ui::buildCaseEvidence(code, u"{}"_qs, u"{}"_qs);
        QVERIFY2(!ev.nextStep.isEmpty(), qPrintable(code));
        static const QStringList actions {
            u"snapshot"_qs, u"re-apply"_qs, u"dismiss"_qs, u"wait"_qs, u"import"_qs};
        QVERIFY2(
            std::any_of(actions.cbegin(), actions.cend(),
                [&](const QString &a) { return ev.nextStep.contains(a, Qt::CaseInsensitive); }),
            qPrintable(ev.nextStep));
        // Not the finding again.
        QVERIFY(ev.nextStep != ev.finding);
        // The desk's English (translated on screen) is the CLI's, word for word.
        QCOMPARE(ev.nextStep, QString::fromUtf8(rd::caseNextStep(code.toStdString())));
    }

    /// #28, 21: a subscription the desk does not hold has no status and no "cancels at period
    /// end: no".
    void aMissingSubscriptionShowsNoStateOfItsOwn()
    {
        const auto ev = rd::ui::buildCaseEvidence(u"subscription_not_found"_qs,
            u"{\"providerKey\":\"stripe-main\",\"providerSubscriptionId\":\"sub_9\","
            "\"providerEventId\":\"evt_9\",\"period\":{\"start\":\"2026-03-01T00:00:00Z\","
            "\"end\":\"2026-04-01T00:00:00Z\"},\"paidAmountMinor\":2900,\"currency\":\"USD\"}"_qs,
            u"{\"subscriptionId\":null}"_qs);
        for (const auto &line : ev.lines) {
            QVERIFY2(line.field != u"cancels at period end"_qs && line.field != u"status"_qs,
                qPrintable(line.field + u": "_qs + line.local));
        }
        QCOMPARE(ev.localTitle, u"no subscription in the desk"_qs);
        QVERIFY2(ev.finding.contains(u"sub_9"_qs), qPrintable(ev.finding));
        QVERIFY2(ev.nextStep.contains(u"snapshot"_qs), qPrintable(ev.nextStep));
        // #42, 12: once its snapshot created the subscription, the case no longer says there is
        // none (the demo's case 5).
        const auto created = rd::ui::buildCaseEvidence(
            u"subscription_not_found"_qs, u"{}"_qs, u"{\"subscriptionId\":null}"_qs, true);
        QCOMPARE(
            created.localTitle, u"no subscription in the desk when the case opened (it is now)"_qs);
        // A subscription the desk holds still shows its state.
        const auto held
            = rd::ui::buildCaseEvidence(u"renewal_conflicts_with_scheduled_cancellation"_qs,
                u"{}"_qs, u"{\"status\":\"active\",\"cancelAtPeriodEnd\":true}"_qs);
        QVERIFY(std::any_of(held.lines.cbegin(), held.lines.cend(), [](const auto &l) {
            return l.field == u"cancels at period end"_qs && l.local == u"yes"_qs && l.differs;
        }));
    }
};

QTEST_MAIN(TestUiCaseEvidence)
#include "tst_ui_caseevidence.moc"
