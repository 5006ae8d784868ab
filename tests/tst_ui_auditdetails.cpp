#include "ui/models/auditdetails.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/subscriptiondetail.h"
#include "ui/widgets/subscriptiondetailwidget.h"
#include "ui/widgets/tableview.h"

#include <QLabel>
#include <QtTest>

using D = rd::ui::SubscriptionDetail;

namespace {

const char *kBefore = R"({"subscriptionId":"u1","status":"active","currentPeriod":{"start":
"2026-09-18T11:00:00.000000Z","end":"2026-10-18T11:00:00.000000Z"},"cancelAtPeriodEnd":false,
"providerVersion":null,"revision":3})";

qint64 micros(const char *rfc3339)
{
    return QDateTime::fromString(QString::fromUtf8(rfc3339), Qt::ISODate).toMSecsSinceEpoch()
        * 1000;
}

QString renewedDetails()
{
    return u"{\"before\":"_qs + QString::fromUtf8(kBefore)
        + u",\"paidAmountMinor\":900,\"currency\":\"USD\"}"_qs;
}

QString reconciledDetails()
{
    QString after = QString::fromUtf8(kBefore);
    after.replace(u"\"active\""_qs, u"\"canceled\""_qs)
        .replace(u"\"cancelAtPeriodEnd\":false"_qs, u"\"cancelAtPeriodEnd\":true"_qs);
    return u"{\"before\":"_qs + QString::fromUtf8(kBefore) + u",\"after\":"_qs + after
        + u",\"changes\":{\"status\":{},\"cancelAtPeriodEnd\":{}},\"snapshotId\":7,"
          "\"caseId\":42}"_qs;
}

QVector<QVariant> auditRow(qint64 id, const QString &transition, const QString &details,
    const QVariant &start = {}, const QVariant &end = {})
{
    QVector<QVariant> row(D::AuditFieldCount);
    row[D::AId] = id;
    row[D::ATransition] = transition;
    row[D::AActorType] = u"operator"_qs;
    row[D::AActorId] = u"alice"_qs;
    row[D::ADbRole] = u"alice"_qs;
    row[D::ADetails] = details;
    row[D::ACreatedAt] = micros("2026-10-18T11:05:00Z");
    row[D::APeriodStart] = start;
    row[D::APeriodEnd] = end;
    return row;
}

/// A subscription u1 (stripe-main sub_1) in `status`, at revision 5, without audits yet.
D subscription(const QString &status)
{
    D d;
    d.id = u"u1"_qs;
    d.provider = u"stripe-main"_qs;
    d.subscriptionId = u"sub_1"_qs;
    d.status = status;
    d.revision = 5;
    return d;
}

} // namespace

/// An audit record's details read as a before → after table in words, following the selected
/// record (issue #13, wording): never the raw JSON.
class TestUiAuditDetails : public QObject
{
    Q_OBJECT

private slots:
    void linesInWords_data()
    {
        QTest::addColumn<QString>("details");
        QTest::addColumn<bool>("hasPeriod");
        QTest::addColumn<QStringList>("expected"); // "field: before → after", changed ones
        QTest::newRow("renewal: the period and the revision it set")
            << renewedDetails() << true
            << QStringList {u"current period: 18 Sep → 18 Oct 2026 → 18 Oct → 18 Nov 2026"_qs,
                   u"revision: 3 → 4"_qs};
        QTest::newRow("snapshot: status and cancellation")
            << reconciledDetails() << false
            << QStringList {u"status: active → canceled"_qs, u"cancels at period end: no → yes"_qs};
    }

    void linesInWords()
    {
        QFETCH(QString, details);
        QFETCH(bool, hasPeriod);
        QFETCH(QStringList, expected);
        const auto lines = rd::ui::auditDetailLines(details,
            hasPeriod ? QVariant(micros("2026-10-18T11:00:00Z")) : QVariant(),
            hasPeriod ? QVariant(micros("2026-11-18T11:00:00Z")) : QVariant());
        QStringList changed;
        QString all;
        for (const auto &l : lines) {
            if (l.differs)
                changed << l.field + u": "_qs + l.local + u" → "_qs + l.other;
            all += l.field + l.local + l.other;
        }
        QCOMPARE(changed, expected);
        // Nothing reads as JSON.
        QVERIFY2(!all.contains(u'{') && !all.contains(u"\":"_qs), qPrintable(all));
    }

    void extrasInWords()
    {
        const auto renewal = rd::ui::auditDetailLines(renewedDetails());
        const auto paid = std::find_if(renewal.cbegin(), renewal.cend(),
            [](const rd::ui::ComparisonLine &l) { return l.field == u"amount paid"_qs; });
        QVERIFY(paid != renewal.cend());
        QCOMPARE(paid->other, u"$9.00"_qs);
        const auto reconciled = rd::ui::auditDetailLines(reconciledDetails());
        QStringList fields;
        for (const auto &l : reconciled)
            fields << l.field + u'=' + l.other;
        QVERIFY2(fields.contains(u"provider snapshot=7"_qs), qPrintable(fields.join(u'|')));
        QVERIFY2(fields.contains(u"case=42"_qs), qPrintable(fields.join(u'|')));
        QVERIFY2(fields.contains(u"fields changed=cancels at period end, status"_qs),
            qPrintable(fields.join(u'|')));
    }

    /// The details table is beside the list and follows the selected record.
    void detailsFollowTheSelection()
    {
        D d = subscription(u"canceled"_qs);
        d.audits += auditRow(2, u"subscription_reconciled"_qs, reconciledDetails());
        d.audits += auditRow(1, u"subscription_renewed"_qs, renewedDetails(),
            micros("2026-10-18T11:00:00Z"), micros("2026-11-18T11:00:00Z"));
        rd::ui::SubscriptionDetailWidget w;
        w.resize(1000, 600);
        w.show();
        w.showTab(1);
        w.setDetail(d);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // The newest record shows at once; the table is visible beside the list.
        QVERIFY(w.auditDetailsView()->isVisible());
        QVERIFY2(w.auditDetailsText().contains(u"status: active → canceled"_qs),
            qPrintable(w.auditDetailsText()));
        w.auditView()->selectRow(1);
        QVERIFY2(w.auditDetailsText().contains(
                     u"current period: 18 Sep → 18 Oct 2026 → 18 Oct → 18 Nov 2026"_qs),
            qPrintable(w.auditDetailsText()));
        QVERIFY(!w.auditDetailsText().contains(u"canceled"_qs));
        w.auditView()->selectRow(0);
        QVERIFY(w.auditDetailsText().contains(u"canceled"_qs));
        // More than a four-line box: every line of the record is on screen.
        const auto *view = w.auditDetailsView();
        const int lines = w.auditDetailsModel()->rowCount();
        QVERIFY(lines >= 5);
        QVERIFY2(view->viewport()->height() >= view->rowHeight(0) * lines,
            qPrintable(QString::number(view->viewport()->height())));
    }

    /// A renewal's after-state (#28, item 6): it stores only the state before it; the
    /// revision it set is one more, and its provider version is the one the state after it
    /// holds when that state is the renewal's own (same revision), else not made up.
    void renewalAfterState_data()
    {
        QTest::addColumn<QString>("nextState"); // the next record's "before", or the current state
        QTest::addColumn<QString>("revision"); // "revision: before → after"
        QTest::addColumn<QString>("version"); // "provider version: before → after"
        QTest::addColumn<bool>("versionChanged");
        QTest::newRow("the state after it: revision 4, a version")
            << u"{\"revision\":4,\"providerVersion\":\"evt_2026_10\"}"_qs << u"revision: 3 → 4"_qs
            << u"provider version:  → evt_2026_10"_qs << true;
        QTest::newRow("no version in the event: none after it either")
            << u"{\"revision\":4,\"providerVersion\":null}"_qs << u"revision: 3 → 4"_qs
            << u"provider version:  → "_qs << false;
        QTest::newRow("a later change since: the version is not made up")
            << u"{\"revision\":7,\"providerVersion\":\"evt_later\"}"_qs << u"revision: 3 → 4"_qs
            << u"provider version:  → not recorded"_qs << false;
        QTest::newRow("nothing known after it") << QString() << u"revision: 3 → 4"_qs
                                                << u"provider version:  → not recorded"_qs << false;
    }
    void renewalAfterState()
    {
        QFETCH(QString, nextState);
        QFETCH(QString, revision);
        QFETCH(QString, version);
        QFETCH(bool, versionChanged);
        const auto lines = rd::ui::auditDetailLines(renewedDetails(),
            micros("2026-10-18T11:00:00Z"), micros("2026-11-18T11:00:00Z"), nextState);
        QStringList all;
        bool changed = false;
        for (const auto &l : lines) {
            all << l.field + u": "_qs + l.local + u" → "_qs + l.other;
            if (l.field == u"provider version"_qs)
                changed = l.differs;
            if (l.field == u"revision"_qs)
                QVERIFY(l.differs);
        }
        QVERIFY2(all.contains(revision), qPrintable(all.join(u'|')));
        QVERIFY2(all.contains(version), qPrintable(all.join(u'|')));
        QCOMPARE(changed, versionChanged);
    }

    /// A case history entry reads as what was done to which case (#28, item 5).
    void caseEntryInWords()
    {
        rd::ui::CaseEntry e;
        e.caseId = 12;
        e.action = u"dismissed"_qs;
        e.outcome = u"dismissed"_qs;
        e.actor = u"alice"_qs;
        e.reason = u"provider_confirmed"_qs;
        e.comment = u"refunded by the provider"_qs;
        e.provider = u"stripe-main"_qs;
        e.subscription = u"sub_9"_qs;
        e.detailsJson = u"{\"releasedFrom\":\"bob\"}"_qs;
        QStringList all;
        for (const auto &l : rd::ui::caseEntryLines(e))
            all << l.field + u'=' + l.other;
        QCOMPARE(all,
            QStringList({u"case=12"_qs, u"subscription=stripe-main · sub_9"_qs,
                u"action=Dismissed"_qs, u"by=alice"_qs, u"reason=Provider confirmed"_qs,
                u"note=refunded by the provider"_qs, u"released from=bob"_qs}));
    }

    /// A record found broken is flagged in the audit trail (#28, item 7): the tab shows, the
    /// record is selected, red, and the line above says what is wrong.
    void brokenRecordIsFlagged()
    {
        D d = subscription(u"active"_qs);
        auto reconciled = auditRow(2, u"subscription_reconciled"_qs, reconciledDetails());
        reconciled[D::AChainSeq] = 2;
        auto renewed = auditRow(1, u"subscription_renewed"_qs, renewedDetails(),
            micros("2026-10-18T11:00:00Z"), micros("2026-11-18T11:00:00Z"));
        renewed[D::AChainSeq] = 1;
        d.audits += reconciled;
        d.audits += renewed;
        rd::ui::SubscriptionDetailWidget w;
        w.resize(1000, 600);
        w.show();
        // Asked before the subscription is shown (the desk opens it next): applied when it is.
        w.flagAuditRecord(u"u1"_qs, 1, u"row content does not match its hash (altered)"_qs);
        w.setDetail(d);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.auditView()->isVisible());
        QCOMPARE(w.auditView()->currentIndex().row(), 1);
        QVERIFY(w.auditFlag()->isVisible());
        QCOMPARE(w.auditFlag()->text(),
            u"✗ The record at position 1 does not verify: row content does not match its hash "
            "(altered)"_qs);
        QVERIFY(w.auditView()->model()->index(1, 0).data(Qt::BackgroundRole).isValid());
        QVERIFY(!w.auditView()->model()->index(0, 0).data(Qt::BackgroundRole).isValid());
        w.auditView()->grab().save(u"/tmp/rd-audit-flag.png"_qs);
        // Another subscription: no flag.
        d.id = u"u2"_qs;
        w.setDetail(d);
        QVERIFY(!w.auditFlag()->isVisibleTo(&w));
        QVERIFY(!w.auditView()->model()->index(1, 0).data(Qt::BackgroundRole).isValid());
    }
};

QTEST_MAIN(TestUiAuditDetails)
#include "tst_ui_auditdetails.moc"
