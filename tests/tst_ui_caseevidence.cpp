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
};

QTEST_MAIN(TestUiCaseEvidence)
#include "tst_ui_caseevidence.moc"
