#include "ui/models/auditdetails.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/subscriptiondetail.h"
#include "ui/widgets/subscriptiondetailwidget.h"
#include "ui/widgets/tableview.h"

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
        QTest::newRow("renewal: the period it set")
            << renewedDetails() << true
            << QStringList {u"current period: 18 Sep → 18 Oct 2026 → 18 Oct → 18 Nov 2026"_qs};
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
        D d;
        d.id = u"u1"_qs;
        d.provider = u"stripe-main"_qs;
        d.subscriptionId = u"sub_1"_qs;
        d.status = u"canceled"_qs;
        d.revision = 5;
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
};

QTEST_MAIN(TestUiAuditDetails)
#include "tst_ui_auditdetails.moc"
