#include "tests/support/fixture_files.h"
#include "tests/support/test_database.h"
#include "ui/actions/accessactions.h"
#include "ui/models/accesstrouble.h"
#include "ui/models/databasepool.h"
#include "ui/models/finder.h"
#include "ui/models/overview.h"
#include "ui/models/recordtablemodel.h"
#include "ui/models/subscriptiondetail.h"
#include "ui/widgets/overviewpage.h"
#include "ui/widgets/overviewtile.h"
#include "ui/widgets/paymenttroublepage.h"
#include "ui/widgets/tableview.h"

#include "domain/store/provider_registry.h"
#include "domain/store/webhook_ingestor.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QtTest>

#include <pqxx/pqxx>

#include <memory>

using rd::ui::PaymentTroublePage;

namespace {

std::string rfc3339(const QDateTime &t)
{
    return t.toUTC().toString(u"yyyy-MM-ddTHH:mm:ssZ"_qs).toStdString();
}

std::string epoch(const QDateTime &t)
{
    return std::to_string(t.toSecsSinceEpoch());
}

/// The Stripe payment-failed fixture (sub_1QxSub0001, invoice in_1QxFail0001) as the failure of
/// subscription `sub`'s invoice `invoice`.
std::string paymentFailedOf(const std::string &sub, const std::string &invoice)
{
    std::string body = rdtest::fixtureFile("stripe/payment_trouble_payment_failed_pre_basil.json");
    body = rdtest::replaceAll(body, "evt_1QxPayFail001", "evt_fail_" + sub);
    body = rdtest::replaceAll(body, "in_1QxFail0001", invoice);
    return rdtest::replaceAll(body, "sub_1QxSub0001", sub);
}

} // namespace

/// #41, the desk: the Payment trouble page lists the subscriptions in grace (with the time left)
/// and blocked as access_trouble() works them out, and the ones that recovered this month; the
/// Overview counts them; Extend grace runs extend_access as the operator; the audit trail tells
/// a failed payment in words. The trouble is made through the real path: deliveries through the
/// ingestor, a renewal of the failed invoice, a sweep as the database owner.
class TestUiPaymentTrouble : public QObject
{
    Q_OBJECT

    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::unique_ptr<rd::ui::DatabasePool> m_pool;
    std::string m_operator;
    std::string m_viewer;
    QString m_graceUuid;
    QString m_blockedUuid;
    QString m_recoveredUuid;

    QString uuidOf(const std::string &sub)
    {
        return QString::fromStdString(rdtest::text(
            *m_db, "SELECT id FROM subscriptions WHERE provider_subscription_id = '" + sub + "'"));
    }

    static bool waitLoaded(PaymentTroublePage &page)
    {
        QSignalSpy loaded(&page, &PaymentTroublePage::loaded);
        return loaded.wait(15000);
    }

    static QStringList column(const PaymentTroublePage &page, int field)
    {
        QStringList out;
        for (int r = 0; r < page.model()->rowCount(); ++r)
            out << page.model()->row(r)[field].toString();
        return out;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<rdtest::TestDatabase>("ui_paymenttrouble");
        {
            auto conn = m_db->connect();
            rd::registerBillingProvider(*conn, "stripe-main", rd::ProviderKind::Stripe, "Stripe");
        }
        const QDateTime now = QDateTime::currentDateTimeUtc();
        // 0001 recovers: its period ended 10 days ago (blocked once its failure is told), then
        // the failed invoice is paid and renews it into the future. 0002 is in grace: its
        // period runs on. 0003 is blocked: its period ended in February.
        const QDateTime recoveredEnd = now.addDays(-10);
        rdtest::importSubscriptions(m_db->conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_1QxSub0001", "active",
                rfc3339(recoveredEnd.addDays(-30)), rfc3339(recoveredEnd))
                + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_1QxSub0002", "active",
                    rfc3339(now.addDays(-20)), rfc3339(now.addDays(10)))
                + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_1QxSub0003", "active",
                    "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z")
                + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_1QxSub0004", "active",
                    rfc3339(now.addDays(-5)), rfc3339(now.addDays(25))));
        rd::WebhookIngestor ingestor(m_db->conninfo());
        const auto failed = ingestor.ingest("stripe-main",
            rdtest::fixtureFile("stripe/payment_trouble_payment_failed_pre_basil.json"));
        QCOMPARE(QString::fromStdString(failed.reason), u"payment_failed"_qs);
        ingestor.ingest("stripe-main", paymentFailedOf("sub_1QxSub0002", "in_1QxFail0002"));
        ingestor.ingest("stripe-main", paymentFailedOf("sub_1QxSub0003", "in_1QxFail0003"));
        QCOMPARE(rdtest::scalar(*m_db, "SELECT count(*) FROM payment_attempts"), 3LL);

        // The failed invoice paid: the renewal of 0001 into a period that runs on.
        std::string paid = rdtest::fixtureFile("stripe/renewal_pre_basil.json");
        paid = rdtest::replaceAll(paid, "evt_1QxRenew0001", "evt_recovered_0001");
        paid = rdtest::replaceAll(paid, "in_1QxRenew0001", "in_1QxFail0001");
        paid = rdtest::replaceAll(paid, "1767225600", epoch(recoveredEnd));
        paid = rdtest::replaceAll(paid, "1769904000", epoch(recoveredEnd.addDays(30)));
        paid = rdtest::replaceAll(paid, "1767229260", epoch(now.addSecs(-3600)));
        const auto renewed = ingestor.ingest("stripe-main", paid);
        QCOMPARE(QString::fromStdString(std::string(rd::toString(renewed.outcome))), u"applied"_qs);
        // Time moves verdicts: the owner's sweep records the recovery.
        rdtest::scalar(*m_db, "SELECT changed FROM public.access_sweep(now(), NULL, 1000)");

        m_graceUuid = uuidOf("sub_1QxSub0002");
        m_blockedUuid = uuidOf("sub_1QxSub0003");
        m_recoveredUuid = uuidOf("sub_1QxSub0001");
        m_operator = rdtest::loginAs(*m_db, "trouble_op", "operator");
        m_viewer = rdtest::loginAs(*m_db, "trouble_viewer", "viewer");
        m_pool = std::make_unique<rd::ui::DatabasePool>(QString::fromStdString(m_viewer));
    }

    void cleanupTestCase()
    {
        m_pool.reset();
        m_db.reset();
    }

    /// Blocked first, then the graces; each row with its verdict, source, attempts and the time
    /// left; the filters narrow it.
    void listsGraceAndBlocked()
    {
        PaymentTroublePage page(m_pool.get());
        QAbstractItemModelTester tester(page.model());
        QVERIFY(waitLoaded(page));
        QCOMPARE(column(page, PaymentTroublePage::SubscriptionUuid),
            (QStringList {m_blockedUuid, m_graceUuid}));
        QCOMPARE(column(page, PaymentTroublePage::Verdict),
            (QStringList {u"blocked"_qs, u"in_grace"_qs}));
        const auto grace = page.model()->row(1);
        QCOMPARE(grace[PaymentTroublePage::SubscriptionRef].toString(), u"sub_1QxSub0002"_qs);
        QCOMPARE(grace[PaymentTroublePage::Source].toString(), u"provider"_qs);
        QCOMPARE(grace[PaymentTroublePage::Attempts].toLongLong(), 1LL);
        QVERIFY(!grace[PaymentTroublePage::LastFailedAt].isNull());
        // Until the period's end and 7 grace days: 17 days from now.
        const qint64 left = grace[PaymentTroublePage::SecondsLeft].toLongLong();
        QVERIFY2(left > 16 * 86400 && left <= 17 * 86400, qPrintable(QString::number(left)));
        const QString shown = page.model()->index(1, 3).data().toString();
        QVERIFY2(shown.startsWith(u"16 days"_qs) && shown.endsWith(u"left"_qs), qPrintable(shown));
        QCOMPARE(page.model()->row(0)[PaymentTroublePage::Source].toString(), u"policy"_qs);
        QVERIFY(page.summary()->text().contains(u"1 in grace"_qs));

        page.setShow(rd::ui::access::Show::InGrace);
        QVERIFY(waitLoaded(page));
        QCOMPARE(column(page, PaymentTroublePage::SubscriptionUuid), QStringList {m_graceUuid});
        page.setShow(rd::ui::access::Show::Blocked);
        QVERIFY(waitLoaded(page));
        QCOMPARE(column(page, PaymentTroublePage::SubscriptionUuid), QStringList {m_blockedUuid});
        page.setShow(rd::ui::access::Show::Trouble);
        QVERIFY(waitLoaded(page));
        page.setProvider(u"stripe-main"_qs);
        QVERIFY(waitLoaded(page));
        QCOMPARE(page.model()->rowCount(), 2);
        page.searchBox()->setText(u"SUB0002"_qs);
        QVERIFY(waitLoaded(page));
        QCOMPARE(column(page, PaymentTroublePage::SubscriptionUuid), QStringList {m_graceUuid});
    }

    /// "Recovered this month": the last recorded change went from blocked to good standing.
    void listsRecoveredThisMonth()
    {
        PaymentTroublePage page(m_pool.get());
        QVERIFY(waitLoaded(page));
        page.setShow(rd::ui::access::Show::Recovered);
        QVERIFY(waitLoaded(page));
        QCOMPARE(column(page, PaymentTroublePage::SubscriptionUuid), QStringList {m_recoveredUuid});
        QCOMPARE(
            page.model()->row(0)[PaymentTroublePage::PreviousVerdict].toString(), u"blocked"_qs);
        QCOMPARE(page.model()->row(0)[PaymentTroublePage::Attempts].toLongLong(), 1LL);
        QCOMPARE(page.model()->index(0, 2).data().toString(), u"recovered (was blocked)"_qs);
        // Nothing to extend on a recovered one, whoever asks.
        page.setActionsAllowed(true, {});
        page.table()->selectRow(0);
        QVERIFY(!page.extendButton()->isEnabled());
        // Enter opens the subscription where the desk opens subscriptions.
        QSignalSpy open(&page, &PaymentTroublePage::subscriptionOpenRequested);
        page.openButton()->click();
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.at(0).at(0).toString(), m_recoveredUuid);
    }

    /// The Overview's tile: "N in grace, M blocked", from access_trouble; it opens the page.
    void overviewCountsTrouble()
    {
        const rd::ui::OverviewFigures f
            = m_pool->call(&rd::ui::loadOverview, std::nullopt).result();
        QCOMPARE(f.inGrace, 1);
        QCOMPARE(f.blocked, 1);
        rd::ui::OverviewPage page(m_pool.get());
        QSignalSpy loaded(&page, &rd::ui::OverviewPage::loaded);
        QVERIFY(loaded.wait(15000));
        auto *figure = page.findChild<QPushButton *>(u"trouble-count"_qs);
        QVERIFY(figure);
        QCOMPARE(figure->text(), u"1 in grace, 1 blocked"_qs);
        QSignalSpy opened(&page, &rd::ui::OverviewPage::paymentTroubleRequested);
        figure->click();
        QCOMPARE(opened.size(), 1);
    }

    /// A viewer's button is disabled and says why.
    void viewerMayNotExtend()
    {
        PaymentTroublePage page(m_pool.get());
        QVERIFY(waitLoaded(page));
        page.table()->selectRow(0);
        const QString why = u"Your database role may only look."_qs;
        page.setActionsAllowed(false, why);
        QVERIFY(!page.extendButton()->isEnabled());
        QCOMPARE(page.extendButton()->toolTip(), why);
    }

    /// Too far ahead: refused by the database, in the desk's words, once.
    void extensionTooFarIsRefused()
    {
        rd::ui::ExtendGraceRequest request {u"stripe-main"_qs, u"sub_1QxSub0003"_qs,
            QDateTime::currentDateTimeUtc().date().addDays(120), u"too long"_qs};
        const rd::ui::ActionResult r = rd::ui::extendGrace(m_operator, request);
        QCOMPARE(int(r.kind), int(rd::ui::ActionResult::Kind::Refused));
        QCOMPARE(r.code, u"access_extension_refused"_qs);
        QVERIFY(!r.summary.isEmpty());
    }

    /// Extend grace through the page's action, as an operator: the blocked subscription is in
    /// grace until the end of the day chosen, its source the operator; the note is in its audit
    /// trail, and the list shows it.
    void operatorExtendsGrace()
    {
        rd::ui::DatabasePool pool(QString::fromStdString(m_operator));
        PaymentTroublePage page(&pool);
        QVERIFY(waitLoaded(page));
        page.setActionsAllowed(true, {});
        QVERIFY(page.selectSubscription(m_blockedUuid));
        QVERIFY(page.extendButton()->isEnabled());
        const QDate lastDay = QDateTime::currentDateTimeUtc().date().addDays(7);
        QSignalSpy finished(&page, &PaymentTroublePage::actionFinished);
        QSignalSpy reloaded(&page, &PaymentTroublePage::loaded);
        page.extendGrace(lastDay, u"bank transfer promised for Monday"_qs);
        QVERIFY(finished.wait(15000));
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
        QCOMPARE(rdtest::text(*m_db,
                     "SELECT verdict || ' ' || source || ' ' || (until = '"
                         + lastDay.addDays(1).toString(Qt::ISODate).toStdString()
                         + "T00:00:00Z'::timestamptz) FROM rd_access_verdict('"
                         + m_blockedUuid.toStdString() + "', now())"),
            std::string("in_grace operator true"));
        QCOMPARE(rdtest::scalar(*m_db,
                     "SELECT count(*) FROM subscription_transition_audits WHERE transition = "
                     "'access_extended' AND comment = 'bank transfer promised for Monday'"),
            1LL);
        QVERIFY(reloaded.wait(15000));
        const int row = page.model()->rowOfKey(m_blockedUuid);
        QVERIFY(row >= 0);
        QCOMPARE(page.model()->row(row)[PaymentTroublePage::Verdict].toString(), u"in_grace"_qs);
        QCOMPARE(page.model()->row(row)[PaymentTroublePage::Source].toString(), u"operator"_qs);
    }

    /// The subscription's audit trail tells the failure and the verdicts in words, and its
    /// header its access.
    /// Find anything reaches a failed payment's invoice that was never paid (it is in no
    /// billing period): it opens its subscription.
    void findAnythingFindsAFailedInvoice()
    {
        const auto found
            = m_pool
                  ->run([](QSqlDatabase &db) {
                      return rd::ui::findAnything(db, rd::ui::parseFindText(u"in_1QxFail0003"_qs));
                  })
                  .result();
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.front().kind, rd::ui::FoundItem::Kind::Subscription);
        QCOMPARE(found.front().subscriptionUuid, m_blockedUuid);
        QVERIFY2(found.front().title.startsWith(u"Failed payment of in_1QxFail0003"_qs),
            qPrintable(found.front().title));
        QCOMPARE(found.front().matchedBy, u"the invoice of a failed payment"_qs);
    }

    void auditTrailInWords()
    {
        const auto detail = m_pool->call(&rd::ui::loadSubscriptionDetail, m_graceUuid).result();
        QVERIFY(detail);
        QCOMPARE(detail->access.verdict, u"in_grace"_qs);
        QVERIFY(
            rd::ui::access::accessLine(detail->access).startsWith(u"Access: in grace until "_qs));
        QStringList summaries;
        using D = rd::ui::SubscriptionDetail;
        for (qsizetype i = 0; i < detail->audits.size(); i += D::AuditFieldCount)
            summaries << rd::ui::access::auditSummary(detail->audits[i + D::ATransition].toString(),
                detail->audits[i + D::ADetails].toString(),
                detail->audits[i + D::AReason].toString(),
                detail->audits[i + D::AComment].toString());
        QVERIFY2(summaries.filter(u"Payment failed: attempt 1 of in_1QxFail0002"_qs).size() == 1,
            qPrintable(summaries.join(u" | "_qs)));
        QVERIFY2(summaries.filter(u"Access: in grace until"_qs).size() == 1,
            qPrintable(summaries.join(u" | "_qs)));
    }
};

QTEST_MAIN(TestUiPaymentTrouble)
#include "tst_ui_paymenttrouble.moc"
