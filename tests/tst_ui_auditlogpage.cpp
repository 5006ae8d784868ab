#include "tests/support/desk_subscriptions.h"
#include "tests/support/process_runner.h"
#include "tests/support/test_database.h"
#include "ui/models/auditlog.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/databasepool.h"
#include "ui/models/pagedtablemodel.h"
#include "ui/widgets/auditlogpage.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/subscriptiondetailwidget.h"
#include "ui/widgets/subscriptionspage.h"
#include "ui/widgets/tableview.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <ctime>
#include <memory>

namespace L = rd::ui::auditlog;

/// The audit log page (#15, auditors) over what the demo writes through the product's own
/// paths (imports, renewals, reconciliations, cases and their histories): the merged list is
/// checked against SQL for every filter, rows open their subscription or case, Verify reports
/// what the chains hold (and a superuser's tampering), Export writes CSV and an anchor.
class TestUiAuditLogPage : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::unique_ptr<rd::ui::DatabasePool> m_pool;

    /// Every key of the merged list, newest first, straight from SQL over both tables.
    QStringList expectedKeys(const QString &auditWhere, const QString &caseWhere)
    {
        auto conn = m_db->connect();
        pqxx::nontransaction tx(*conn);
        QStringList keys;
        const std::string sql
            = "SELECT k FROM (SELECT 'a' || a.id AS k, a.created_at AS t, 1 AS s, "
              "a.id FROM subscription_transition_audits a JOIN subscriptions s "
              "ON s.id = a.subscription_id WHERE "
            + auditWhere.toStdString()
            + " UNION ALL SELECT 'c' || h.id, h.created_at, 0, h.id FROM "
              "reconciliation_case_history h JOIN reconciliation_cases c ON c.id = h.case_id "
              "WHERE "
            + caseWhere.toStdString() + ") x ORDER BY t DESC, s DESC, id DESC";
        for (const auto &row : tx.exec(sql))
            keys << QString::fromStdString(row[0].as<std::string>());
        return keys;
    }

    static QStringList shownKeys(rd::ui::AuditLogPage &page)
    {
        if (!QTest::qWaitFor([&] { return !page.model()->isLoading(); }, 60000))
            return {u"(timed out)"_qs};
        if (!rdtest::loadAll(*page.model()))
            return {u"(not loaded)"_qs};
        QStringList keys;
        for (int r = 0; r < page.model()->loadedRows(); ++r) {
            const auto row = page.model()->row(r);
            keys << (row ? row[L::Key].toString() : u"(row %1 not resident)"_qs.arg(r));
        }
        return keys;
    }

    std::string one(const std::string &sql) { return rdtest::text(*m_db, sql); }

    static rd::ui::AuditVerifyReport runVerify(
        rd::ui::AuditLogPage &page, const QString &anchor = {})
    {
        QSignalSpy done(page.verifier(), &rd::ui::AuditVerifier::finished);
        page.verify(anchor);
        if (!done.wait(60000))
            return {};
        return done.first().first().value<rd::ui::AuditVerifyReport>();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // Local time is not UTC here, so that an instant shown or exported in local time
        // cannot pass for UTC.
        qputenv("TZ", "Asia/Kolkata");
        tzset();
        QVERIFY(QDateTime::currentDateTime().offsetFromUtc() == 5 * 3600 + 1800);
        m_db = std::make_unique<rdtest::TestDatabase>("ui_auditlogpage");
        const auto r = rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"demo"}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        {
            // An operator's note, so that a person's actor and a case action are there to find.
            auto conn = m_db->connect();
            pqxx::work tx(*conn);
            tx.exec0("INSERT INTO reconciliation_case_history (case_id, action, outcome, actor, "
                     "comment, chain_seq, prev_hash, row_hash) SELECT min(id), 'noted', "
                     "'noted', 'alice', 'asked the provider', 0, '', '' FROM reconciliation_cases");
            // A case entry at the very instant of a renewal: at a page boundary between them,
            // the keyset must neither lose nor repeat either.
            tx.exec0("INSERT INTO reconciliation_case_history (case_id, action, outcome, actor, "
                     "comment, created_at, chain_seq, prev_hash, row_hash) SELECT max(id), "
                     "'noted', 'noted', 'bob', 'called back', (SELECT max(created_at) FROM "
                     "subscription_transition_audits WHERE transition = 'subscription_renewed'), "
                     "0, '', '' FROM reconciliation_cases");
            // An entry at a whole millisecond, amid the others (the demo's rows are less than
            // a second apart): a time filter at exactly its instant shows whether "from"
            // includes and "before" excludes it.
            tx.exec0("INSERT INTO reconciliation_case_history (case_id, action, outcome, actor, "
                     "comment, created_at, chain_seq, prev_hash, row_hash) SELECT min(id), "
                     "'noted', 'noted', 'carol', 'sent the invoice', (SELECT date_trunc("
                     "'milliseconds', t) + interval '1 millisecond' FROM (SELECT DISTINCT "
                     "created_at AS t FROM subscription_transition_audits ORDER BY 1 DESC OFFSET "
                     "20 LIMIT 1) x), 0, '', '' FROM reconciliation_cases");
            tx.commit();
        }
        m_pool = std::make_unique<rd::ui::DatabasePool>(QString::fromStdString(m_db->conninfo()));
    }

    void listMatchesSql_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("actor");
        QTest::addColumn<QString>("dbRole");
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("subscription");
        QTest::addColumn<QString>("caseId");
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<int>("pageSize");
        QTest::addColumn<QString>("auditWhere");
        QTest::addColumn<QString>("caseWhere");
        const QString sub = QString::fromStdString(
            one("SELECT subscription_id FROM subscription_transition_audits GROUP BY 1 ORDER BY "
                "count(*) DESC, 1 LIMIT 1"));
        const QString ref = QString::fromStdString(
            one("SELECT provider_subscription_id FROM subscriptions WHERE id = '"
                + sub.toStdString() + "'"));
        const QString caseId
            = QString::fromStdString(one("SELECT min(id) FROM reconciliation_cases"));
        const auto instant = [this](const std::string &sql) {
            return QString::fromStdString(one("SELECT to_char(created_at AT TIME ZONE 'UTC', "
                                              "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') "
                + sql));
        };
        const QString from = instant(
            "FROM subscription_transition_audits ORDER BY created_at DESC OFFSET 5 LIMIT 1");
        const QString carol = instant("FROM reconciliation_case_history WHERE actor = 'carol'");
        const auto row = [](const char *name) { return &QTest::newRow(name); };
        const QString n; // no filter
        // what, actor, db role, provider, subscription, case, from, before, page size,
        // the audits' condition, the case entries' condition
        *row("everything") << n << n << n << n << n << n << n << n << 7 << "true"
                           << "true";
        *row("everything, one row a page") << n << n << n << n << n << n << n << n << 1 << "true"
                                           << "true";
        *row("renewals") << "subscription_renewed" << n << n << n << n << n << n << n << 7
                         << "a.transition = 'subscription_renewed'"
                         << "false";
        *row("imports") << "subscription_imported" << n << n << n << n << n << n << n << 7
                        << "a.transition = 'subscription_imported'"
                        << "false";
        *row("cases opened") << "opened" << n << n << n << n << n << n << n << 7 << "false"
                             << "h.action = 'opened'";
        *row("actor alice") << n << "alice" << n << n << n << n << n << n << 7
                            << "a.actor_type <> 'webhook' AND a.actor_id = 'alice'"
                            << "h.actor = 'alice'";
        *row("database role") << n << n << "postgres" << n << n << n << n << n << 7
                              << "a.db_role = 'postgres'"
                              << "h.actor = 'postgres'";
        *row("provider") << n << n << n << "stripe-main" << n << n << n << n << 7
                         << "s.provider_key = 'stripe-main'"
                         << "c.provider_key = 'stripe-main'";
        *row("subscription by uuid")
            << n << n << n << n << sub << n << n << n << 7 << "a.subscription_id = '" + sub + "'"
            << "c.subscription_id = '" + sub + "'";
        *row("subscription by provider id")
            << n << n << n << n << ref << n << n << n << 7 << "a.subscription_id = '" + sub + "'"
            << "c.subscription_id = '" + sub + "'";
        *row("case") << n << n << n << n << n << caseId << n << n << 7 << "false"
                     << "h.case_id = " + caseId;
        *row("since a time") << n << n << n << n << n << n << from << n << 7
                             << "a.created_at >= '" + from + "'"
                             << "h.created_at >= '" + from + "'";
        *row("from exactly an entry's instant")
            << n << n << n << n << n << n << carol << n << 7 << "a.created_at >= '" + carol + "'"
            << "h.created_at >= '" + carol + "'";
        *row("before exactly an entry's instant")
            << n << n << n << n << n << n << n << carol << 7 << "a.created_at < '" + carol + "'"
            << "h.created_at < '" + carol + "'";
        *row("between two times") << n << n << n << n << n << n << carol << from << 3
                                  << "a.created_at >= '" + carol + "' AND a.created_at < '" + from
                + "'"
                                  << "h.created_at >= '" + carol + "' AND h.created_at < '" + from
                + "'";
        *row("renewals of a provider since a time")
            << "subscription_renewed" << n << n << "paddle-eu" << n << n << from << n << 7
            << "a.transition = 'subscription_renewed' AND s.provider_key = 'paddle-eu' AND "
               "a.created_at >= '"
                + from + "'"
            << "false";
    }
    void listMatchesSql()
    {
        QFETCH(QString, what);
        QFETCH(QString, actor);
        QFETCH(QString, dbRole);
        QFETCH(QString, provider);
        QFETCH(QString, subscription);
        QFETCH(QString, caseId);
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, auditWhere);
        QFETCH(QString, caseWhere);
        QFETCH(int, pageSize);
        rd::ui::AuditLogPage page(m_pool.get());
        QAbstractItemModelTester tester(
            page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Small pages: every page boundary is a keyset across both tables (with one row a
        // page, every row is at a boundary).
        page.model()->setPageSize(pageSize);
        page.model()->setResidentPageLimit(100000); // every page kept, to be compared
        L::Filter f;
        f.what = what;
        f.actor = actor;
        f.dbRole = dbRole;
        f.provider = provider;
        f.subscription = subscription;
        f.caseId = caseId.toLongLong();
        if (!from.isEmpty()) {
            f.from = QDateTime::fromString(from, Qt::ISODateWithMs);
            QVERIFY(f.from.isValid());
        }
        if (!to.isEmpty()) {
            f.to = QDateTime::fromString(to, Qt::ISODateWithMs);
            QVERIFY(f.to.isValid());
        }
        page.setFilter(f);
        const QStringList expected = expectedKeys(auditWhere, caseWhere);
        QVERIFY(!expected.isEmpty());
        QCOMPARE(shownKeys(page), expected);

        // The cells say what the rows hold.
        const auto *r = page.model()->row(0);
        const std::string key = r[L::Key].toString().toStdString();
        const std::string table
            = key[0] == 'a' ? "subscription_transition_audits" : "reconciliation_case_history";
        QCOMPARE(r[L::RowHash].toString().toStdString(),
            one("SELECT row_hash FROM " + table + " WHERE id = " + key.substr(1)));
        QCOMPARE(r[L::ChainSeq].toLongLong(),
            std::stoll(one("SELECT chain_seq FROM " + table + " WHERE id = " + key.substr(1))));
    }

    /// The removals of delivery bodies (migration 0037) are in the log, merged by time with
    /// the audits and case entries, across page boundaries: what went, by whom and why.
    void bodyRemovalsAreListed_data()
    {
        QTest::addColumn<int>("pageSize");
        QTest::newRow("one row a page") << 1;
        QTest::newRow("seven rows a page") << 7;
    }

    void bodyRemovalsAreListed()
    {
        QFETCH(int, pageSize);
        rdtest::TestDatabase db("ui_audit_removals");
        rdtest::importSubscriptions(db.conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_1") + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_2"));
        {
            auto conn = db.connect();
            pqxx::nontransaction tx(*conn);
            tx.exec0("INSERT INTO billing_providers (provider_key, kind, display_name) VALUES "
                     "('stripe-main', 'stripe', 'Stripe')");
            tx.exec0("INSERT INTO webhook_inbox (provider_key, provider_event_id, raw_body, "
                     "body_size, body_sha256, outcome, processed_at, normalized, received_at) "
                     "SELECT 'stripe-main', 'evt_' || g, 'b', 1, encode(sha256('b'), 'hex'), "
                     "'not_a_renewal', now(), jsonb_build_object('providerSubscriptionId', "
                     "'sub_' || g), now() - interval '40 days' FROM generate_series(1, 2) g");
            tx.exec("SELECT erase_inbox_bodies(NULL, 'sub_2', 'ticket 7')");
            tx.exec("SELECT purge_inbox_bodies(30)");
        }
        rd::ui::DatabasePool pool(QString::fromStdString(db.conninfo()));
        rd::ui::AuditLogPage page(&pool);
        page.model()->setPageSize(pageSize);
        page.model()->setResidentPageLimit(100000);
        page.setFilter(L::Filter {});
        QStringList expected;
        {
            auto conn = db.connect();
            pqxx::nontransaction tx(*conn);
            for (const auto &row :
                tx.exec("SELECT k FROM (SELECT 'a' || id AS k, created_at AS t, 1 AS s, id FROM "
                        "subscription_transition_audits UNION ALL SELECT 'r' || id, removed_at, 2, "
                        "id FROM webhook_inbox_removals) x ORDER BY t DESC, s DESC, id DESC"))
                expected << QString::fromStdString(row[0].as<std::string>());
        }
        QCOMPARE(expected.size(), 4);
        QCOMPARE(shownKeys(page), expected);
        const int erased = expected.indexOf(u"r1"_qs);
        const int purged = expected.indexOf(u"r2"_qs);
        const auto cell = [&](int row, int column) {
            return page.model()->index(row, column).data().toString();
        };
        const int what = 1;
        const int actor = 3;
        const int comment = 10;
        QCOMPARE(cell(erased, what), u"Bodies erased"_qs);
        QCOMPARE(cell(erased, comment), u"1 body (deliveries 2 to 2); request: ticket 7"_qs);
        QCOMPARE(cell(purged, what), u"Bodies removed"_qs);
        QCOMPARE(cell(purged, comment), u"1 body (deliveries 1 to 1); older than 30 days"_qs);
        QCOMPARE(cell(purged, actor).toStdString(), rdtest::text(db, "SELECT current_user"));
    }

    void rowsOpenTheirSubscriptionOrCase()
    {
        rd::ui::AuditLogPage page(m_pool.get());
        page.resize(1200, 700);
        page.show();
        QSignalSpy subscriptions(&page, &rd::ui::AuditLogPage::subscriptionOpenRequested);
        QSignalSpy cases(&page, &rd::ui::AuditLogPage::caseOpenRequested);
        const QStringList keys = shownKeys(page);
        const int audit = int(std::find_if(keys.begin(), keys.end(), [](const QString &k) {
            return k.startsWith(u'a');
        }) - keys.begin());
        const int history = int(std::find_if(keys.begin(), keys.end(), [](const QString &k) {
            return k.startsWith(u'c');
        }) - keys.begin());
        QVERIFY(audit < keys.size() && history < keys.size());

        page.table()->setFocus();
        page.table()->selectRow(audit);
        QTest::keyClick(page.table(), Qt::Key_Return);
        QCOMPARE(subscriptions.size(), 1);
        QCOMPARE(subscriptions.first().first().toString().toStdString(),
            one("SELECT subscription_id FROM subscription_transition_audits WHERE id = "
                + keys[audit].mid(1).toStdString()));
        // Its before → after beside the list, in words.
        QVERIFY(!page.detailsModel()->lines().isEmpty());

        page.table()->selectRow(history);
        QTest::keyClick(page.table(), Qt::Key_Return);
        QCOMPARE(cases.size(), 1);
        QCOMPARE(cases.first().first().toLongLong(),
            std::stoll(one("SELECT case_id FROM reconciliation_case_history WHERE id = "
                + keys[history].mid(1).toStdString())));
    }

    void renewalDetailsReadAsATable()
    {
        rd::ui::AuditLogPage page(m_pool.get());
        L::Filter f;
        f.what = u"subscription_renewed"_qs;
        page.setFilter(f);
        QVERIFY(!shownKeys(page).isEmpty());
        page.table()->selectRow(0);
        const auto &lines = page.detailsModel()->lines();
        QStringList fields;
        for (const auto &l : lines)
            fields << l.field;
        QVERIFY2(fields.contains(u"amount paid"_qs), qPrintable(fields.join(u", "_qs)));
        QVERIFY2(std::any_of(lines.begin(), lines.end(), [](const auto &l) { return l.differs; }),
            "a renewal changes the period");
    }

    /// #28 item 6: a renewal's before → after says the revision and provider version the
    /// database holds after it: the next record's "before", or the subscription's own state
    /// for its newest record (which the demo's webhook renewals give a provider version).
    void renewalAfterStateIsTheDatabases_data()
    {
        QTest::addColumn<QString>("which");
        QTest::newRow("newest record of its chain") << u"head"_qs;
        QTest::newRow("a record with one after it") << u"inner"_qs;
    }
    void renewalAfterStateIsTheDatabases()
    {
        QFETCH(QString, which);
        const std::string id = one(which == u"head"_qs
                ? "SELECT max(a.id) FROM subscription_transition_audits a WHERE a.transition = "
                  "'subscription_renewed' AND NOT EXISTS (SELECT 1 FROM "
                  "subscription_transition_audits n WHERE n.subscription_id = a.subscription_id "
                  "AND n.chain_seq > a.chain_seq)"
                : "SELECT max(a.id) FROM subscription_transition_audits a WHERE a.transition = "
                  "'subscription_renewed' AND EXISTS (SELECT 1 FROM "
                  "subscription_transition_audits n WHERE n.subscription_id = a.subscription_id "
                  "AND n.chain_seq > a.chain_seq AND n.details ? 'before')");
        // The state after it, as the database has it.
        const std::string after = which == u"head"_qs
            ? "SELECT concat_ws('|', s.revision, s.provider_version) FROM subscriptions s JOIN "
              "subscription_transition_audits a ON a.subscription_id = s.id WHERE a.id = "
                + id
            // The next record that holds a state before it: a money movement's holds none.
            : "SELECT concat_ws('|', n.details->'before'->>'revision', "
              "n.details->'before'->>'providerVersion') FROM subscription_transition_audits a "
              "JOIN subscription_transition_audits n ON n.subscription_id = a.subscription_id "
              "AND n.chain_seq > a.chain_seq AND n.details ? 'before' WHERE a.id = "
                + id + " ORDER BY n.chain_seq LIMIT 1";
        const QStringList expected = QString::fromStdString(one(after)).split(u'|');
        QCOMPARE(QString::fromStdString(one("SELECT (details->'before'->>'revision')::int + 1 "
                                            "FROM subscription_transition_audits WHERE id = "
                     + id)),
            expected.value(0));
        rd::ui::AuditLogPage page(m_pool.get());
        L::Filter f;
        f.what = u"subscription_renewed"_qs;
        f.subscription = QString::fromStdString(
            one("SELECT subscription_id FROM subscription_transition_audits WHERE id = " + id));
        page.setFilter(f);
        const QStringList keys = shownKeys(page);
        const int row = int(keys.indexOf(u"a"_qs + QString::fromStdString(id)));
        QVERIFY2(row >= 0, qPrintable(keys.join(u' ')));
        page.table()->selectRow(row);
        QString revision, version;
        for (const auto &l : page.detailsModel()->lines()) {
            if (l.field == u"revision"_qs)
                revision = l.other;
            if (l.field == u"provider version"_qs)
                version = l.other;
        }
        QCOMPARE(revision, expected.value(0));
        QCOMPARE(version, expected.value(1));
    }

    /// #28 item 5: a case row's details are the case action's, not the previous selection's.
    void caseRowDetailsFollowTheSelection()
    {
        rd::ui::AuditLogPage page(m_pool.get());
        L::Filter f;
        f.actor = u"alice"_qs;
        page.setFilter(f);
        const QStringList keys = shownKeys(page);
        const int history = int(keys.indexOf(QRegularExpression(u"c.*"_qs)));
        QVERIFY(history >= 0);
        page.table()->selectRow(history);
        QStringList lines;
        for (const auto &l : page.detailsModel()->lines())
            lines << l.field + u'=' + l.other;
        const std::string entry = keys[history].mid(1).toStdString();
        QVERIFY2(lines.contains(u"case="_qs
                     + QString::fromStdString(one(
                         "SELECT case_id FROM reconciliation_case_history WHERE id = " + entry))),
            qPrintable(lines.join(u'|')));
        QVERIFY2(lines.contains(u"note=asked the provider"_qs), qPrintable(lines.join(u'|')));
        QVERIFY2(lines.contains(u"by=alice"_qs), qPrintable(lines.join(u'|')));
        page.resize(1024, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.grab().save(u"/tmp/rd-auditlog-case-row.png"_qs);
    }

    /// #28 item 4: the log follows changes like every other page. A note added from another
    /// connection (as `renewalctl cases note` does) appears at the top without F5.
    void followsChangesWithoutRefresh()
    {
        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.resize(1600, 1000);
        window.show();
        window.showPage(window.auditLogPage());
        rd::ui::AuditLogPage *page = window.auditLogPage();
        QVERIFY(!shownKeys(*page).isEmpty());
        // Live: the first check has learnt where the tails are, so what follows is news.
        auto *live = window.findChild<QLabel *>(u"live-indicator"_qs);
        QVERIFY(live);
        QTRY_VERIFY_WITH_TIMEOUT(live->text().contains(u"live"_qs), 15000);
        std::string entry;
        {
            auto conn = m_db->connect();
            pqxx::work tx(*conn);
            tx.exec1("SELECT note_case((SELECT max(id) FROM reconciliation_cases), "
                     "'called the customer back')");
            entry
                = tx.exec1("SELECT max(id) FROM reconciliation_case_history")[0].as<std::string>();
            tx.commit();
        }
        const QString key = u"c"_qs + QString::fromStdString(entry);
        const auto top = [page] {
            const auto r = page->model()->rowCount() > 0 ? page->model()->row(0) : nullptr;
            return r ? r[L::Key].toString() : QString();
        };
        QTRY_COMPARE_WITH_TIMEOUT(top(), key, 15000);
    }

    /// #28 item 8: the CSV says which case every case row is about, and which subscription.
    void exportCarriesTheCase()
    {
        rd::ui::AuditLogPage page(m_pool.get());
        L::Filter f;
        f.what = u"noted"_qs;
        page.setFilter(f);
        const QStringList keys = shownKeys(page);
        QVERIFY(!keys.isEmpty());
        QTemporaryDir dir;
        const QString csv = dir.filePath(u"notes.csv"_qs);
        QSignalSpy done(&page, &rd::ui::AuditLogPage::exportFinished);
        page.exportForAuditor(csv);
        QVERIFY(done.wait(20000));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines
            = QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
        const QStringList header = lines.value(0).split(u',');
        const int caseColumn = int(header.indexOf(u"Case"_qs));
        const int subscriptionColumn = int(header.indexOf(u"Subscription"_qs));
        QVERIFY2(caseColumn >= 0 && subscriptionColumn >= 0, qPrintable(lines.value(0)));
        QCOMPARE(lines.size(), keys.size() + 1);
        for (int i = 0; i < keys.size(); ++i) {
            const QStringList cells = lines[i + 1].split(u',');
            const std::string entry = keys[i].mid(1).toStdString();
            QCOMPARE(cells.value(caseColumn).toStdString(),
                one("SELECT case_id FROM reconciliation_case_history WHERE id = " + entry));
            QCOMPARE(cells.value(subscriptionColumn).toStdString(),
                one("SELECT coalesce(c.provider_subscription_id, '') FROM "
                    "reconciliation_case_history h JOIN reconciliation_cases c ON c.id = "
                    "h.case_id WHERE h.id = "
                    + entry));
        }
    }

    void badFilterInputIsNamed()
    {
        rd::ui::AuditLogPage page(m_pool.get());
        QSignalSpy messages(&page, &rd::ui::AuditLogPage::statusMessage);
        auto *from = page.findChild<QLineEdit *>(u"auditlog-from"_qs);
        QVERIFY(from);
        from->setText(u"2026-13-01"_qs);
        QTest::keyClick(from, Qt::Key_Return);
        QVERIFY(!messages.isEmpty());
        QVERIFY2(messages.last().first().toString().contains(u"\"2026-13-01\""_qs),
            qPrintable(messages.last().first().toString()));
    }

    void verifyReportsTheChains()
    {
        rd::ui::AuditLogPage page(m_pool.get());
        page.verifier()->setBatchRows(5);
        QSignalSpy progress(page.verifier(), &rd::ui::AuditVerifier::progress);
        const auto report = runVerify(page);
        QVERIFY2(report.intact, qPrintable(report.error + report.firstBreak));
        const long long rows = rdtest::scalar(*m_db,
            "SELECT (SELECT count(*) FROM subscription_transition_audits) + "
            "(SELECT count(*) FROM reconciliation_case_history)");
        QCOMPARE(report.rows, rows);
        QVERIFY(progress.size() > 2);
        const QString text = page.chainState()->text();
        QVERIFY2(text.startsWith(u"✓ verified %1 rows in %2 chains at "_qs.arg(
                     QLocale().toString(rows), QLocale().toString(report.chains))),
            qPrintable(text));
    }

    void viewerMayReadAndVerify()
    {
        rd::ui::DatabasePool viewer(
            QString::fromStdString(rdtest::loginAs(*m_db, "auditor", "viewer")));
        rd::ui::AuditLogPage page(&viewer);
        QCOMPARE(shownKeys(page), expectedKeys(u"true"_qs, u"true"_qs));
        QVERIFY(runVerify(page).intact);
    }

    void exportWritesCsvAndAnchor()
    {
        rd::ui::AuditLogPage page(m_pool.get());
        L::Filter f;
        f.what = u"subscription_renewed"_qs;
        page.setFilter(f);
        const QStringList keys = shownKeys(page);
        QTemporaryDir dir;
        const QString csv = dir.filePath(u"audit.csv"_qs);
        QSignalSpy done(&page, &rd::ui::AuditLogPage::exportFinished);
        QSignalSpy status(&page, &rd::ui::AuditLogPage::statusMessage);
        page.exportForAuditor(csv);
        QVERIFY(done.wait(20000));
        QCOMPARE(done.first().at(2).toString(), QString());
        QCOMPARE(done.first().at(0).toLongLong(), qint64(keys.size()));

        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines
            = QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), keys.size() + 1);
        QVERIFY2(lines[0].startsWith(u"When,"_qs), qPrintable(lines[0]));
        // Machine values: the instant in ISO 8601 UTC, whole, the hash whole.
        const std::string id = keys[0].mid(1).toStdString();
        const QString when = QString::fromStdString(one(
            "SELECT rd_rfc3339(created_at) FROM subscription_transition_audits WHERE id = " + id));
        QVERIFY2(when.endsWith(u'Z'), qPrintable(when));
        QCOMPARE(lines[1].section(u',', 0, 0), when);
        QVERIFY(lines[1].contains(QString::fromStdString(
            one("SELECT row_hash FROM subscription_transition_audits WHERE id = " + id))));

        // The anchor beside it: every chain's head, and it matches now.
        QFile anchorFile(rd::ui::AuditLogPage::anchorPathFor(csv));
        QVERIFY(anchorFile.open(QIODevice::ReadOnly));
        const auto anchor = nlohmann::json::parse(anchorFile.readAll().toStdString());
        QCOMPARE(qint64(anchor["heads"].size()),
            qint64(rdtest::scalar(*m_db,
                "SELECT (SELECT count(DISTINCT subscription_id) FROM "
                "subscription_transition_audits) + (SELECT count(DISTINCT case_id) FROM "
                "reconciliation_case_history)")));
        QCOMPARE(done.first().at(1).toLongLong(), qint64(anchor["heads"].size()));
        // And the chains' verification beside them, in words: intact here (#42, item 6).
        {
            QFile verification(rd::ui::AuditLogPage::verificationPathFor(csv));
            QVERIFY(verification.open(QIODevice::ReadOnly));
            const QString said = QString::fromUtf8(verification.readAll());
            QVERIFY2(said.contains(u"Result: intact."_qs), qPrintable(said));
        }
        QVERIFY2(status.last().first().toString().contains(u"The chains verify"_qs),
            qPrintable(status.last().first().toString()));
        // The digest to publish is said on export and again when the file is verified.
        const QString digest = QString::fromStdString(anchor["digest"].get<std::string>());
        QVERIFY(!status.isEmpty());
        QVERIFY2(status.last().first().toString().contains(u"(digest %1)"_qs.arg(digest)),
            qPrintable(status.last().first().toString()));
        const auto report = runVerify(page, anchorFile.fileName());
        QVERIFY(report.intact);
        QCOMPARE(report.anchorDigest, digest);
        QVERIFY2(page.chainState()->text().contains(u"anchor audit.anchor.json matched"_qs),
            qPrintable(page.chainState()->text()));
        QVERIFY2(page.chainState()->text().contains(u"digest %1)"_qs.arg(digest)),
            qPrintable(page.chainState()->text()));
    }

    void notAnAnchorIsSaid()
    {
        rd::ui::AuditLogPage page(m_pool.get());
        QTemporaryDir dir;
        QFile file(dir.filePath(u"notes.json"_qs));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"notes\": []}");
        file.close();
        const auto report = runVerify(page, file.fileName());
        QVERIFY(!report.intact);
        QCOMPARE(
            report.error, u"%1 is not an audit anchor (no \"heads\" list)"_qs.arg(file.fileName()));
        QVERIFY2(page.chainState()->text().startsWith(u"Could not verify: "_qs),
            qPrintable(page.chainState()->text()));
    }

    // A head that is not one is named by its place in the file, before any verifying.
    void badHeadIsNamed()
    {
        rd::ui::AuditLogPage page(m_pool.get());
        QTemporaryDir dir;
        QFile file(dir.filePath(u"odd.json"_qs));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"heads\": [{\"chain\": \"subscription_transition_audits\", "
                   "\"chainId\": \"sub_1\", \"seq\": 1, \"hash\": \"ab\"}]}");
        file.close();
        const auto report = runVerify(page, file.fileName());
        QVERIFY(!report.intact);
        QCOMPARE(report.rows, 0);
        QVERIFY2(report.error.contains(u"odd.json is not an audit anchor: heads[0].chainId: "
                                       u"expected a subscription id (a uuid), not 'sub_1'"_qs),
            qPrintable(report.error));
    }

    // A head taken out of the anchor file with its digest kept, or the digest replaced by zeros:
    // the file is refused naming its digest, not reported as matching (it used to be).
    void alteredAnchorIsRefused_data()
    {
        QTest::addColumn<QString>("digest"); // empty: the one exported
        QTest::newRow("old digest kept") << QString();
        QTest::newRow("64 zeros") << QString(64, u'0');
    }
    void alteredAnchorIsRefused()
    {
        QFETCH(QString, digest);
        rd::ui::AuditLogPage page(m_pool.get());
        QTemporaryDir dir;
        const QString anchorPath = dir.filePath(u"edited.json"_qs);
        const auto written = rd::ui::AuditVerifier::writeAnchor(m_pool->conninfo(), anchorPath);
        QVERIFY(written.result().heads > 1);
        QFile file(anchorPath);
        QVERIFY(file.open(QIODevice::ReadOnly));
        auto anchor = nlohmann::ordered_json::parse(file.readAll().toStdString());
        file.close();
        QCOMPARE(
            QString::fromStdString(anchor["digest"].get<std::string>()), written.result().digest);
        anchor["heads"].erase(anchor["heads"].begin());
        if (!digest.isEmpty())
            anchor["digest"] = digest.toStdString();
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QByteArray::fromStdString(anchor.dump(2)));
        file.close();

        const auto report = runVerify(page, anchorPath);
        QVERIFY(!report.intact);
        QCOMPARE(report.error,
            u"%1 is refused: the anchor's digest does not match its heads: the file was altered"_qs
                .arg(anchorPath));
        const QString text = page.chainState()->text();
        QVERIFY2(text.startsWith(u"Could not verify: "_qs), qPrintable(text));
        QVERIFY2(!text.contains(u"matched"_qs), qPrintable(text));
    }

    // A chain's head removed: every chain still verifies, only the anchor shows it, and the
    // page says so in red, not as verified. (It changes the shared database: next to last.)
    void anchorMismatchIsSaid()
    {
        rd::ui::AuditLogPage page(m_pool.get());
        QTemporaryDir dir;
        const QString anchorPath = dir.filePath(u"heads.json"_qs);
        const qint64 heads
            = rd::ui::AuditVerifier::writeAnchor(m_pool->conninfo(), anchorPath).result().heads;
        QVERIFY(heads > 0);
        std::string subscription;
        {
            auto conn = m_db->connect();
            pqxx::work tx(*conn);
            tx.exec0("SET LOCAL session_replication_role = replica");
            // A renewal's record goes with its billing period: a billing period no audit row
            // records is a break of its own (#39, item 3), and here only the anchor may tell.
            tx.exec0("DELETE FROM subscription_billing_periods WHERE id = (SELECT "
                     "billing_period_id FROM subscription_transition_audits WHERE id = (SELECT "
                     "max(id) FROM subscription_transition_audits) AND transition = "
                     "'subscription_renewed')");
            subscription = tx.exec1("DELETE FROM subscription_transition_audits WHERE id = "
                                    "(SELECT max(id) FROM subscription_transition_audits) "
                                    "RETURNING subscription_id")[0]
                               .as<std::string>();
            tx.commit();
        }
        const auto report = runVerify(page, anchorPath);
        QCOMPARE(report.breakCount, 0);
        QCOMPARE(report.anchorMismatches, 1);
        QVERIFY(!report.intact);
        const QString text = page.chainState()->text();
        QVERIFY2(text.startsWith(u"✗ "_qs), qPrintable(text));
        QVERIFY2(
            text.contains(u"anchor heads.json does NOT match: 1 of %1 heads changed or gone"_qs.arg(
                QLocale().toString(heads))),
            qPrintable(text));
        QVERIFY2(text.contains(QString::fromStdString(subscription)), qPrintable(text));
        QVERIFY(page.openBreakButton()->isVisibleTo(&page));
        QSignalSpy subscriptions(&page, &rd::ui::AuditLogPage::auditRecordOpenRequested);
        page.openBreakButton()->click();
        QCOMPARE(subscriptions.size(), 1);
        QCOMPARE(subscriptions.first().first().toString().toStdString(), subscription);
    }

    // Last: it breaks the chains of the shared database.
    void tamperingIsDetected()
    {
        rd::ui::AuditLogPage page(m_pool.get());
        QTemporaryDir dir;
        const QString anchorPath = dir.filePath(u"before.json"_qs);
        QVERIFY(
            rd::ui::AuditVerifier::writeAnchor(m_pool->conninfo(), anchorPath).result().heads > 0);
        std::string tampered, subscription;
        {
            // A superuser rewrites a renewal's amount with the guards off.
            auto conn = m_db->connect();
            pqxx::work tx(*conn);
            tx.exec0("SET LOCAL session_replication_role = replica");
            const auto row = tx.exec1(
                "UPDATE subscription_transition_audits SET details = jsonb_set(details, "
                "'{paidAmountMinor}', '1') WHERE id = (SELECT min(id) FROM "
                "subscription_transition_audits WHERE transition = 'subscription_renewed') "
                "RETURNING id, subscription_id");
            tampered = row[0].as<std::string>();
            subscription = row[1].as<std::string>();
            tx.commit();
        }
        const auto report = runVerify(page, anchorPath);
        QVERIFY(!report.intact);
        const QString text = page.chainState()->text();
        // Whose chain, by the provider's names, then the row (#28, item 7).
        const std::string subject = one(
            "SELECT provider_key || ' ' || provider_subscription_id FROM subscriptions WHERE id = '"
            + subscription + "'");
        const std::string seq
            = one("SELECT chain_seq FROM subscription_transition_audits WHERE id = " + tampered);
        QVERIFY2(text.contains(QString::fromStdString("subscription " + subject + " (chain "
                     + subscription + "), audit row " + tampered + " at position " + seq
                     + ": row content does not match its hash (altered)")),
            qPrintable(text));
        // The head was not touched: the anchor still matches, and says what that covers.
        QVERIFY2(text.contains(u"anchor before.json matched"_qs), qPrintable(text));
        QVERIFY2(text.contains(u"The anchor covers each chain's newest row only; the break is "
                               "in an older one."_qs),
            qPrintable(text));
        // Said whole: the label wraps, and its tooltip is the message.
        QVERIFY(page.chainState()->wordWrap());
        QCOMPARE(page.chainState()->toolTip(), text);
        page.resize(1024, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY2(page.chainState()->height()
                >= page.chainState()->heightForWidth(page.chainState()->width()),
            "the whole message fits its label");
        page.grab().save(u"/tmp/rd-auditlog-broken-1024.png"_qs);
        QVERIFY(page.openBreakButton()->isVisibleTo(&page));
        QCOMPARE(page.openBreakButton()->text(),
            u"Open subscription %1"_qs.arg(QString::fromStdString(subject)));
        QSignalSpy opened(&page, &rd::ui::AuditLogPage::auditRecordOpenRequested);
        page.openBreakButton()->click();
        QCOMPARE(opened.size(), 1);
        QCOMPARE(opened.first().at(0).toString().toStdString(), subscription);
        QCOMPARE(opened.first().at(1).toLongLong(), std::stoll(seq));

        // In the desk: the subscription opens on its audit trail, the altered row flagged.
        rd::ui::MainWindow window(QString::fromStdString(m_db->conninfo()), u"test"_qs);
        window.resize(1600, 1000);
        window.show();
        window.showPage(window.auditLogPage());
        QSignalSpy done(window.auditLogPage()->verifier(), &rd::ui::AuditVerifier::finished);
        window.auditLogPage()->verify();
        QVERIFY(done.wait(60000));
        window.auditLogPage()->openBreakButton()->click();
        auto *detail = window.subscriptionsPage()->detail();
        QTRY_VERIFY(detail->auditFlag()->isVisible());
        QVERIFY(detail->auditView()->isVisible());
        const QModelIndex current = detail->auditView()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(current.data(int(rd::ui::Role::Key)).toString().toStdString(), tampered);
        QVERIFY(current.data(Qt::BackgroundRole).isValid());
        QVERIFY2(detail->auditFlag()->text().contains(
                     u"position %1 does not verify: row content does not match its hash"_qs.arg(
                         QString::fromStdString(seq))),
            qPrintable(detail->auditFlag()->text()));
        window.grab().save(u"/tmp/rd-audit-flagged-1600.png"_qs);

        // Export for auditor of the broken chain says so, which one and where (#42, item 6):
        // in the file beside the CSV, in the status message, and on the page.
        rd::ui::AuditLogPage fresh(m_pool.get());
        const QString csv = dir.filePath(u"broken.csv"_qs);
        QSignalSpy exported(&fresh, &rd::ui::AuditLogPage::exportFinished);
        QSignalSpy status(&fresh, &rd::ui::AuditLogPage::statusMessage);
        fresh.exportForAuditor(csv);
        QVERIFY(exported.wait(60000));
        QCOMPARE(exported.first().at(2).toString(), QString());
        const QString where = QString::fromStdString("subscription " + subject + " (chain "
            + subscription + "), audit row " + tampered + " at position " + seq
            + ": row content does not match its hash (altered)");
        QFile verification(rd::ui::AuditLogPage::verificationPathFor(csv));
        QVERIFY(verification.open(QIODevice::ReadOnly));
        const QString said = QString::fromUtf8(verification.readAll());
        QVERIFY2(said.contains(u"Result: BROKEN, "_qs), qPrintable(said));
        QVERIFY2(said.contains(u"Broken: "_qs + where), qPrintable(said));
        const QString message = status.last().first().toString();
        QVERIFY2(message.contains(u"The audit chains are BROKEN: "_qs)
                && message.contains(u" break(s), first: "_qs + where),
            qPrintable(message));
        QVERIFY2(fresh.chainState()->text().startsWith(u"✗ chain broken: "_qs + where),
            qPrintable(fresh.chainState()->text()));
    }
};

QTEST_MAIN(TestUiAuditLogPage)
#include "tst_ui_auditlogpage.moc"
