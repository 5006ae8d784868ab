#include "tests/support/fixture_files.h"
#include "tests/support/ingest_outcomes.h"
#include "tests/support/process_runner.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"
#include "ui/models/databasepool.h"
#include "ui/models/finder.h"
#include "ui/widgets/casespage.h"
#include "ui/widgets/deliveryview.h"
#include "ui/widgets/finddialog.h"
#include "ui/widgets/inboxpage.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/subscriptiondetailwidget.h"
#include "ui/widgets/subscriptionspage.h"
#include "ui/widgets/tableview.h"

#include "domain/store/provider_registry.h"
#include "domain/store/webhook_ingestor.h"

#include <pqxx/pqxx>

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QStandardPaths>
#include <QtTest>

#include <memory>

using rdtest::outcomeName;

/// Find anything (Ctrl+K, #15): every kind of id a customer or a provider gives lands on the
/// view that holds it, checked against the database; several matches are a choice, each line
/// saying what it is; nothing found, and what cannot be an id, are a plain sentence.
class TestUiFinder : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::unique_ptr<rd::ui::DatabasePool> m_pool;
    rd::IngestResult m_applied; ///< stripe-main sub_main, in_main / evt_main: applied
    rd::IngestResult m_rejected; ///< stripe-main sub_gap, in_gap / evt_gap: a case
    rd::IngestResult m_notRenewal; ///< a first invoice: a delivery only

    QString sql(const std::string &query)
    {
        return QString::fromStdString(rdtest::text(*m_db, query));
    }
    QString subscription(const std::string &provider, const std::string &ref)
    {
        return u"subscription:"_qs
            + sql("SELECT id FROM subscriptions WHERE provider_key = '" + provider
                + "' AND provider_subscription_id = '" + ref + "'");
    }
    QString periodId(const std::string &provider, const std::string &key)
    {
        return sql("SELECT id FROM subscription_billing_periods WHERE provider_key = '" + provider
            + "' AND provider_renewal_key = '" + key + "'");
    }
    QString period(const std::string &provider, const std::string &key)
    {
        return u"period:"_qs + periodId(provider, key);
    }
    static QString identity(const rd::ui::FoundItem &m)
    {
        using K = rd::ui::FoundItem::Kind;
        switch (m.kind) {
        case K::Subscription:
            return u"subscription:"_qs + m.subscriptionUuid;
        case K::BillingPeriod:
            return u"period:"_qs + m.billingPeriodId;
        case K::Case:
            return u"case:"_qs + QString::number(m.caseId);
        case K::Delivery:
            return u"delivery:"_qs + QString::number(m.deliveryId);
        }
        return {};
    }

    /// Whether `window` shows what `expected` ("kind:key") names.
    static bool landedOn(
        rd::ui::MainWindow &window, const QString &expected, const QString &subscriptionOfPeriod)
    {
        const QString kind = expected.section(u':', 0, 0);
        const QString key = expected.section(u':', 1);
        if (kind == u"subscription")
            return window.subscriptionsPage()->isVisible()
                && window.subscriptionsPage()->currentSubscriptionId() == key;
        if (kind == u"period")
            return window.subscriptionsPage()->isVisible()
                && window.subscriptionsPage()->currentSubscriptionId() == subscriptionOfPeriod
                && window.subscriptionsPage()->detail()->selectedBillingPeriod() == key;
        if (kind == u"case")
            return window.casesPage()->isVisible()
                && window.casesPage()->currentCase() == key.toLongLong()
                && window.casesPage()->titleText().contains(u"Case "_qs + key);
        if (kind == u"delivery")
            return window.inboxPage()->isVisible() && window.inboxPage()->isDeliveryOpen()
                && window.inboxPage()->deliveryView()->delivery().found
                && window.inboxPage()->deliveryView()->delivery().id == key.toLongLong();
        return false;
    }

    /// What Find anything lists for `typed`, as "kind:key" sorted, once it has settled.
    QStringList lookUp(rd::ui::MainWindow &window, const QString &typed)
    {
        auto *dialog = window.findAnything();
        dialog->input()->setText(typed);
        dialog->lookUp();
        if (!QTest::qWaitFor([&] { return dialog->isSettled(); }, 10000))
            return {u"not settled"_qs};
        QStringList found;
        for (const auto &m : dialog->matches())
            found << identity(m);
        found.sort();
        return found;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<rdtest::TestDatabase>("ui_finder");
        {
            auto conn = m_db->connect();
            rd::registerBillingProvider(*conn, "stripe-main", rd::ProviderKind::Stripe, "Stripe");
            rd::registerBillingProvider(*conn, "stripe-eu", rd::ProviderKind::Stripe, "Stripe EU");
        }
        const std::string dec = "2025-12-01T00:00:00Z";
        const std::string jan = "2026-01-01T00:00:00Z";
        rdtest::importSubscriptions(m_db->conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_main", "active", dec, jan) + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_gap", "active",
                    "2025-10-01T00:00:00Z", "2025-11-01T00:00:00Z")
                + "\n" + rdtest::subscriptionLine("stripe-main", "sub_twin", "active", dec, jan)
                + "\n" + rdtest::subscriptionLine("stripe-eu", "sub_twin", "active", dec, jan)
                + "\n" + rdtest::subscriptionLine("stripe-eu", "sub_eu", "active", dec, jan));
        rd::WebhookIngestor ingestor(m_db->conninfo());
        m_applied = ingestor.ingest("stripe-main", rdtest::stripeRenewalOf("main"));
        m_rejected = ingestor.ingest("stripe-main", rdtest::stripeRenewalOf("gap"));
        m_notRenewal
            = ingestor.ingest("stripe-main", rdtest::fixtureFile("stripe/first_invoice.json"));
        QCOMPARE(outcomeName(m_applied.outcome), outcomeName(rd::IngestOutcome::Applied));
        QCOMPARE(outcomeName(m_rejected.outcome), outcomeName(rd::IngestOutcome::Rejected));
        QVERIFY(m_rejected.caseId.has_value());
        QCOMPARE(outcomeName(m_notRenewal.outcome), outcomeName(rd::IngestOutcome::NotARenewal));

        // Renewals that never pass the inbox (`renewalctl apply`): their event id is kept on the
        // billing period only. One renewal key at two providers.
        std::string lines;
        auto add = [&](const std::string &provider, const std::string &ref,
                       const std::string &event, const std::string &key) {
            auto e = rdtest::februaryRenewal(ref, event, key);
            e.providerKey = provider;
            e.period = {*rd::parseRfc3339(jan), *rd::parseRfc3339("2026-02-01T00:00:00Z")};
            lines += rd::toJson(e).dump() + "\n";
        };
        add("stripe-eu", "sub_eu", "evt_apply_only", "txn_apply_only");
        add("stripe-main", "sub_twin", "evt_twin_main", "in_shared");
        add("stripe-eu", "sub_twin", "evt_twin_eu", "in_shared");
        const auto r = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(*m_db, {u"apply"_qs}), QByteArray::fromStdString(lines));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // A renewal rejected outside the inbox, then sent again as another event: its event
        // ids are kept on its case only (first and latest).
        std::string rejectedLines;
        for (const char *event : {"evt_apply_rejected", "evt_apply_rejected_again"}) {
            auto e = rdtest::februaryRenewal("sub_gap", event, "in_apply_rejected");
            rejectedLines += rd::toJson(e).dump() + "\n";
        }
        const auto rejected = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db, {u"apply"_qs}), QByteArray::fromStdString(rejectedLines));
        QVERIFY2(rejected.exitCode == 3, rejected.err.constData());
        QCOMPARE(sql("SELECT first_provider_event_id || ' ' || last_provider_event_id || ' ' || "
                     "occurrences FROM reconciliation_cases WHERE provider_renewal_key = "
                     "'in_apply_rejected'"),
            u"evt_apply_rejected evt_apply_rejected_again 2"_qs);
        QCOMPARE(sql("SELECT count(*) FROM webhook_inbox WHERE provider_event_id LIKE "
                     "'evt_apply_rejected%'"),
            u"0"_qs);
        m_pool = std::make_unique<rd::ui::DatabasePool>(QString::fromStdString(m_db->conninfo()));
    }

    void cleanupTestCase()
    {
        m_pool.reset();
        m_db.reset();
    }

    /// Each kind of id, typed into Find anything: the matches are what the database holds
    /// under that id; one match opens its view at once on Return; several are listed, each
    /// saying what it is, and the one chosen opens; none, or text that cannot be an id, is a
    /// sentence and nothing opens.
    void findsAndLands_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QStringList>("expected"); ///< "kind:key", in any order
        QTest::addColumn<QString>("message"); ///< a fragment of the sentence under the box

        const QString caseId = QString::number(*m_rejected.caseId);
        const QString applied = QString::number(m_applied.inboxId);
        const QString rejected = QString::number(m_rejected.inboxId);
        const QString firstInvoice = QString::number(m_notRenewal.inboxId);
        const QString subMain = subscription("stripe-main", "sub_main");
        const QString subEuUuid = subscription("stripe-eu", "sub_eu").section(u':', 1);
        const QString inMain = period("stripe-main", "in_main");

        QTest::newRow("provider's subscription id")
            << u"sub_main"_qs << QStringList {subMain} << u"Return opens it"_qs;
        QTest::newRow("pasted quoted, with spaces")
            << u"  \"sub_main\"  "_qs << QStringList {subMain} << u"Return opens it"_qs;
        QTest::newRow("our uuid") << subEuUuid << QStringList {subscription("stripe-eu", "sub_eu")}
                                  << u"Return opens it"_qs;
        QTest::newRow("our uuid, braces, upper case")
            << u"{"_qs + subEuUuid.toUpper() + u"}"_qs
            << QStringList {subscription("stripe-eu", "sub_eu")} << u"Return opens it"_qs;
        QTest::newRow("one subscription id at two providers")
            << u"sub_twin"_qs
            << QStringList {subscription("stripe-main", "sub_twin"),
                   subscription("stripe-eu", "sub_twin")}
            << u"2 things have the id “sub_twin”"_qs;
        QTest::newRow("invoice (renewal key)")
            << u"in_main"_qs << QStringList {inMain} << u"Return opens it"_qs;
        QTest::newRow("transaction recorded by `apply`")
            << u"txn_apply_only"_qs << QStringList {period("stripe-eu", "txn_apply_only")}
            << u"Return opens it"_qs;
        QTest::newRow("one renewal key at two providers")
            << u"in_shared"_qs
            << QStringList {period("stripe-main", "in_shared"), period("stripe-eu", "in_shared")}
            << u"2 things"_qs;
        QTest::newRow("billing period uuid")
            << inMain.section(u':', 1) << QStringList {inMain} << u"Return opens it"_qs;
        QTest::newRow("renewal key of a rejected renewal: its case")
            << u"in_gap"_qs << QStringList {u"case:"_qs + caseId} << u"Return opens it"_qs;
        QTest::newRow("event of a webhook renewal: its period and its delivery")
            << u"evt_main"_qs << QStringList {inMain, u"delivery:"_qs + applied} << u"2 things"_qs;
        QTest::newRow("event id kept on the billing period only")
            << u"evt_apply_only"_qs << QStringList {period("stripe-eu", "txn_apply_only")}
            << u"Return opens it"_qs;
        QTest::newRow("event of a rejected delivery: the delivery and its case")
            << u"evt_gap"_qs << QStringList {u"delivery:"_qs + rejected, u"case:"_qs + caseId}
            << u"2 things"_qs;
        const QString applyCase = u"case:"_qs
            + sql("SELECT id FROM reconciliation_cases WHERE provider_renewal_key = "
                  "'in_apply_rejected'");
        QTest::newRow("event of a renewal rejected outside the inbox: its case")
            << u"evt_apply_rejected"_qs << QStringList {applyCase} << u"Return opens it"_qs;
        QTest::newRow("its repeat's event: the same case")
            << u"evt_apply_rejected_again"_qs << QStringList {applyCase} << u"Return opens it"_qs;
        QTest::newRow("case N") << u"case "_qs + caseId << QStringList {u"case:"_qs + caseId}
                                << u"Return opens it"_qs;
        QTest::newRow("#N") << u"#"_qs + caseId << QStringList {u"case:"_qs + caseId}
                            << u"Return opens it"_qs;
        QTest::newRow("Case #N") << u"Case #"_qs + caseId << QStringList {u"case:"_qs + caseId}
                                 << u"Return opens it"_qs;
        QTest::newRow("a number that is a delivery only")
            << firstInvoice << QStringList {u"delivery:"_qs + firstInvoice}
            << u"Return opens it"_qs;
        // Case 1 and delivery 1 both exist: a bare number is a choice.
        QTest::newRow("a bare number: case and delivery")
            << caseId << QStringList {u"case:"_qs + caseId, u"delivery:"_qs + caseId}
            << u"2 things"_qs;
        QTest::newRow("no such case")
            << u"case 999999"_qs << QStringList {} << u"Nothing has the id “case 999999”"_qs;
        QTest::newRow("garbage") << u"no_such_thing_9"_qs << QStringList {}
                                 << u"Nothing has the id “no_such_thing_9”"_qs;
        QTest::newRow("quote injection")
            << u"x' OR '1'='1"_qs << QStringList {} << u"Nothing has the id"_qs;
        QTest::newRow("statement injection")
            << u"'; DROP TABLE subscriptions; --"_qs << QStringList {} << u"Nothing has the id"_qs;
        QTest::newRow("LIKE wildcards are not wildcards")
            << u"sub_%"_qs << QStringList {} << u"Nothing has the id"_qs;
        QTest::newRow("percent alone") << u"%"_qs << QStringList {} << u"Nothing has the id"_qs;
        QTest::newRow("backslash") << u"\\"_qs << QStringList {} << u"Nothing has the id"_qs;
        QTest::newRow("not ASCII")
            << u"sub_ümlaut_✓"_qs << QStringList {} << u"Nothing has the id"_qs;
        QTest::newRow("number beyond bigint")
            << u"99999999999999999999"_qs << QStringList {} << u"Nothing has the id"_qs;
        QTest::newRow("negative number") << u"-1"_qs << QStringList {} << u"Nothing has the id"_qs;
        QTest::newRow("empty") << QString() << QStringList {} << u"Type or paste an id"_qs;
        QTest::newRow("only spaces") << u"   "_qs << QStringList {} << u"Type or paste an id"_qs;
        QTest::newRow("very long")
            << QString(10000, u'x') << QStringList {} << u"That is 10000 characters long"_qs;
        QTest::newRow("two ids on two lines")
            << u"sub_main\nsub_eu"_qs << QStringList {} << u"no line breaks"_qs;
        QTest::newRow("NUL") << u"sub_main"_qs + QChar(0) << QStringList {}
                             << u"no line breaks, tabs or control characters"_qs;
    }

    void findsAndLands()
    {
        QFETCH(QString, typed);
        QFETCH(QStringList, expected);
        QFETCH(QString, message);

        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.resize(1280, 820);
        window.show();
        // Opened from the View menu by its shortcut.
        QAction *action = nullptr;
        for (QAction *a : window.menuBar()->findChildren<QAction *>()) {
            if (a->shortcut() == QKeySequence(u"Ctrl+K"_qs))
                action = a;
        }
        QVERIFY(action);
        action->trigger();
        auto *dialog = window.findChild<rd::ui::FindDialog *>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());

        dialog->input()->setText(typed);
        dialog->lookUp();
        QVERIFY(QTest::qWaitFor([&] { return dialog->isSettled(); }, 10000));
        QVERIFY2(dialog->messageText().contains(message), qPrintable(dialog->messageText()));
        QStringList found;
        for (const auto &m : dialog->matches())
            found << identity(m);
        QStringList want = expected;
        found.sort();
        want.sort();
        QCOMPARE(found, want);
        QCOMPARE(dialog->results()->count(), expected.size());
        // Each line says what it is and by which of its ids it was found.
        for (int i = 0; i < dialog->results()->count(); ++i) {
            const QString line = dialog->results()->item(i)->text();
            QVERIFY2(line.contains(u"found by"_qs), qPrintable(line));
            QVERIFY2(line.startsWith(u"Subscription "_qs) || line.startsWith(u"Renewal "_qs)
                    || line.startsWith(u"Case "_qs) || line.startsWith(u"Inbox delivery "_qs)
                    || line.startsWith(u"Failed payment "_qs),
                qPrintable(line));
        }
        QVERIFY(QSqlDatabase::drivers().contains(u"QPSQL"_qs));
        QCOMPARE(rdtest::scalar(*m_db, "SELECT count(*) FROM subscriptions"), 5LL);

        if (expected.isEmpty()) {
            // Return opens nothing and keeps the sentence.
            QTest::keyClick(dialog->input(), Qt::Key_Return);
            QTest::qWait(300);
            QVERIFY(dialog->isVisible());
            QCOMPARE(window.subscriptionsPage()->currentSubscriptionId(), QString());
            return;
        }
        // The last line is chosen (Down until there, Return): it opens where it lives.
        for (int i = 1; i < dialog->results()->count(); ++i)
            QTest::keyClick(dialog->input(), Qt::Key_Down);
        const rd::ui::FoundItem chosen = dialog->matches().constLast();
        QTest::keyClick(dialog->input(), Qt::Key_Return);
        QVERIFY(!dialog->isVisible());
        const QString target = identity(chosen);
        const QString subscriptionOfPeriod = chosen.kind == rd::ui::FoundItem::Kind::BillingPeriod
            ? sql("SELECT subscription_id FROM subscription_billing_periods WHERE id = '"
                + chosen.billingPeriodId.toStdString() + "'")
            : QString();
        QVERIFY2(
            QTest::qWaitFor([&] { return landedOn(window, target, subscriptionOfPeriod); }, 10000),
            qPrintable(target));
    }

    /// Typing looks up as it goes (after a pause), off the GUI thread; Return before the
    /// answer opens the one match when it lands.
    void returnBeforeTheAnswerOpensWhenItLands()
    {
        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.show();
        auto *dialog = window.findAnything();
        QTest::keyClicks(dialog->input(), u"evt_apply_rejected"_qs);
        QVERIFY(!dialog->isSettled());
        QTest::keyClick(dialog->input(), Qt::Key_Return);
        const qint64 caseId = sql("SELECT id FROM reconciliation_cases WHERE "
                                  "provider_renewal_key = 'in_apply_rejected'")
                                  .toLongLong();
        QVERIFY(QTest::qWaitFor(
            [&] {
                return window.casesPage()->isVisible()
                    && window.casesPage()->currentCase() == caseId;
            },
            10000));
        QVERIFY(!dialog->isVisible());
    }

    /// A renewal key of an older billing period of an open subscription: the period is
    /// selected in the detail already shown (and stays selected when it is read again).
    void periodOfTheOpenSubscriptionIsSelected()
    {
        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.show();
        const QString uuid = subscription("stripe-main", "sub_main").section(u':', 1);
        window.subscriptionsPage()->openSubscription(uuid);
        auto *periods = window.subscriptionsPage()->detail()->billingPeriodsView();
        QVERIFY(QTest::qWaitFor([&] { return periods->model()->rowCount() == 1; }, 10000));
        QCOMPARE(window.subscriptionsPage()->detail()->selectedBillingPeriod(), QString());
        rd::ui::FoundItem item;
        item.kind = rd::ui::FoundItem::Kind::BillingPeriod;
        item.subscriptionUuid = uuid;
        item.billingPeriodId = periodId("stripe-main", "in_main");
        window.openFound(item);
        QCOMPARE(
            window.subscriptionsPage()->detail()->selectedBillingPeriod(), item.billingPeriodId);
        window.subscriptionsPage()->refresh();
        QTest::qWait(500);
        QCOMPARE(
            window.subscriptionsPage()->detail()->selectedBillingPeriod(), item.billingPeriodId);
    }

    /// #42: the demo's "subscription not found". The id of a subscription the desk does not
    /// know, which only its case and the case's delivery carry, lists both (it said "Nothing
    /// has the id"); the case opens.
    void aSubscriptionIdOnlyACaseAndItsDeliveryCarry()
    {
        rd::WebhookIngestor ingestor(m_db->conninfo());
        const auto r = ingestor.ingest("stripe-main", rdtest::stripeRenewalOf("unknown"));
        QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::Rejected));
        QVERIFY(r.caseId.has_value());
        QCOMPARE(sql("SELECT error_code FROM reconciliation_cases WHERE id = "
                     + std::to_string(*r.caseId)),
            u"subscription_not_found"_qs);

        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.show();
        const QString kase = u"case:"_qs + QString::number(*r.caseId);
        QCOMPARE(lookUp(window, u"sub_unknown"_qs),
            (QStringList {kase, u"delivery:"_qs + QString::number(r.inboxId)}));
        auto *dialog = window.findAnything();
        QVERIFY2(dialog->messageText().contains(u"2 things have the id “sub_unknown”"_qs),
            qPrintable(dialog->messageText()));
        for (int i = 0; i < dialog->results()->count(); ++i)
            QVERIFY(dialog->results()->item(i)->text().contains(
                u"found by the provider's subscription id"_qs));
        QCOMPARE(dialog->matches().constFirst().kind, rd::ui::FoundItem::Kind::Case);
        QTest::keyClick(dialog->input(), Qt::Key_Return);
        QVERIFY(QTest::qWaitFor([&] { return landedOn(window, kase, {}); }, 10000));
    }

    /// #42: a customer's e-mail address (any case, spaces around) lists the subscription, the
    /// renewal and the delivery it came in, also after the retention forgot the body, until an
    /// erasure by e-mail removes its hashes.
    void findsEverythingOfACustomersEmail()
    {
        rdtest::importSubscriptions(m_db->conninfo(),
            rdtest::subscriptionLine(
                "stripe-main", "sub_mail", "active", "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z")
                + "\n");
        rd::WebhookIngestor ingestor(m_db->conninfo());
        const auto r = ingestor.ingest("stripe-main",
            rdtest::replaceAll(rdtest::stripeRenewalOf("mail"), R"("customer": "cus_QxCust0001",)",
                R"("customer": "cus_QxCust0001", "customer_email": "Grace.Hopper@Example.com",)"));
        QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::Applied));
        const QStringList everything {subscription("stripe-main", "sub_mail"),
            period("stripe-main", "in_mail"), u"delivery:"_qs + QString::number(r.inboxId)};
        QStringList want = everything;
        want.sort();

        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.show();
        QCOMPARE(lookUp(window, u"  grace.hopper@EXAMPLE.com "_qs), want);
        auto *dialog = window.findAnything();
        QVERIFY2(dialog->messageText().contains(
                     u"3 things of the customer's e-mail address “grace.hopper@EXAMPLE.com”"_qs),
            qPrintable(dialog->messageText()));
        for (int i = 0; i < dialog->results()->count(); ++i)
            QVERIFY(dialog->results()->item(i)->text().contains(
                u"found by the customer's e-mail address"_qs));

        const auto purge = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db, {u"inbox"_qs, u"purge"_qs, u"--older-than"_qs, u"0"_qs}));
        QVERIFY2(purge.exitCode == 0, purge.err.constData());
        QCOMPARE(sql("SELECT raw_body IS NULL FROM webhook_inbox WHERE id = "
                     + std::to_string(r.inboxId)),
            u"t"_qs);
        QCOMPARE(lookUp(window, u"Grace.Hopper@Example.com"_qs), want);

        const auto erase = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db,
                {u"inbox"_qs, u"erase"_qs, u"--email"_qs, u"grace.hopper@example.com"_qs,
                    u"--request"_qs, u"DSR-1"_qs}));
        QVERIFY2(erase.exitCode == 0, erase.err.constData());
        QCOMPARE(lookUp(window, u"Grace.Hopper@Example.com"_qs), QStringList());
        QVERIFY2(dialog->messageText().contains(
                     u"Nothing has the id or the customer's e-mail address"_qs),
            qPrintable(dialog->messageText()));
    }
};

QTEST_MAIN(TestUiFinder)
#include "tst_ui_finder.moc"
