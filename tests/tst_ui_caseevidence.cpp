#include "ui/models/caseevidence.h"

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
            << QStringList {u"Attach provider snapshot"_qs, u"dashboard"_qs};
        QTest::newRow("invalid_provider_billing_period")
            << u"invalid_provider_billing_period"_qs
            << u"{\"providerEventId\":\"evt_2\",\"period\":{\"start\":\"2026-05-01T00:00:00Z\","
               "\"end\":\"2026-04-01T00:00:00Z\"}}"_qs
            << QStringList {u"ends before it starts"_qs, u"snapshot"_qs, u"dismiss"_qs};
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
        for (const QString &words : mustSay)
            QVERIFY2(ev.finding.contains(words, Qt::CaseInsensitive), qPrintable(ev.finding));
    }
};

QTEST_MAIN(TestUiCaseEvidence)
#include "tst_ui_caseevidence.moc"
