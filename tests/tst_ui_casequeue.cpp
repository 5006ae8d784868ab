#include "domain/store/action_refused.h"
#include "domain/store/case_actions.h"
#include "tests/support/test_database.h"
#include "ui/models/casedetail.h"
#include "ui/models/casequeue.h"
#include "ui/models/databasepool.h"

#include <pqxx/pqxx>

#include <QtTest>

#include <memory>

using rd::ui::CaseAssignee;
using rd::ui::CaseQueue;
using rd::ui::CaseQueueFilter;
using rd::ui::CaseRow;
using rd::ui::CaseScope;
using rd::ui::CaseSort;

Q_DECLARE_METATYPE(CaseScope)
Q_DECLARE_METATYPE(CaseSort)
Q_DECLARE_METATYPE(CaseAssignee)

namespace {

/// The cases every test lists, the operator's login role holding one. Open: a (gap, 3 days old,
/// unassigned), b (conflict, 2 h, the operator's), c (gap, 30 min, bob's), g%1 (gap, opened on
/// the last second of 15 Jan 2026); closed: d (healed by the core), e (resolved by alice, opened
/// on 16 Jan at midnight), f (dismissed by alice, opened on 15 Jan); e and f closed on 20 Jan.
constexpr const char *kCases = R"sql(
WITH p AS (
INSERT INTO subscription_billing_periods (subscription_id, provider_key, provider_renewal_key,
        provider_event_id, period_start, period_end, paid_amount_minor, currency, paid_at)
SELECT s.id, s.provider_key, 'in_p' || k, 'evt_p' || k,
       timestamptz '2026-02-01Z' + (k - 1) * interval '1 month',
       timestamptz '2026-03-01Z' + (k - 1) * interval '1 month', 2000, 'USD', now()
  FROM subscriptions s, generate_series(1, 2) k
 RETURNING id, provider_renewal_key)
INSERT INTO reconciliation_cases (provider_key, provider_subscription_id, provider_renewal_key,
        first_provider_event_id, last_provider_event_id, error_code, event, event_fingerprint,
        local_state, first_seen_at, last_seen_at, status, resolution, resolved_at, resolved_by,
        assigned_to, assigned_at, resolution_comment, billing_period_id)
VALUES
 ('stripe-main', 'sub_a', 'in_a', 'evt_a', 'evt_a', 'renewal_period_is_not_contiguous', '{}',
  md5('a'), '{}', now() - interval '3 days', now() - interval '1 hour', 'open', NULL, NULL,
  NULL, NULL, NULL, NULL, NULL),
 ('stripe-main', 'sub_b', 'in_b', 'evt_b', 'evt_b', 'provider_renewal_key_payload_conflict',
  '{}', md5('b'), '{}', now() - interval '2 hours', now() - interval '10 minutes', 'open', NULL,
  NULL, NULL, '%1', now(), NULL, NULL),
 ('stripe-main', 'sub_c', 'in_c', 'evt_c', 'evt_c', 'renewal_period_is_not_contiguous', '{}',
  md5('c'), '{}', now() - interval '30 minutes', now() - interval '5 minutes', 'open', NULL,
  NULL, NULL, 'bob', now(), NULL, NULL),
 ('stripe-main', 'sub_g%1', 'in_g', 'evt_g', 'evt_g', 'renewal_period_is_not_contiguous', '{}',
  md5('g'), '{}', '2026-01-15T23:59:59Z', '2026-01-15T23:59:59Z', 'open', NULL, NULL, NULL,
  NULL, NULL, NULL, NULL),
 ('stripe-main', 'sub_d', 'in_d', 'evt_d', 'evt_d', 'renewal_period_is_not_contiguous', '{}',
  md5('d'), '{}', now() - interval '5 days', now() - interval '4 days', 'resolved', 'reapplied',
  now() - interval '4 days', 'system', NULL, NULL, NULL,
  (SELECT id FROM p WHERE provider_renewal_key = 'in_p1')),
 ('stripe-main', 'sub_e', 'in_e', 'evt_e', 'evt_e', 'renewal_period_is_not_contiguous', '{}',
  md5('e'), '{}', '2026-01-16T00:00:00Z', '2026-01-17T00:00:00Z', 'resolved', 'reapplied',
  '2026-01-20T08:00:00Z', 'alice', NULL, NULL, NULL,
  (SELECT id FROM p WHERE provider_renewal_key = 'in_p2')),
 ('stripe-main', 'sub_f', 'in_f', 'evt_f', 'evt_f', 'provider_renewal_key_payload_conflict',
  '{}', md5('f'), '{}', '2026-01-15T10:00:00Z', '2026-01-15T11:00:00Z', 'dismissed',
  'dismissed', '2026-01-20T23:59:59Z', 'alice', NULL, NULL, 'seen twice', NULL);
)sql";

QStringList subscriptions(const CaseQueue &q)
{
    QStringList ids;
    for (qsizetype i = 0; i + CaseRow::FieldCount <= q.cells.size(); i += CaseRow::FieldCount)
        ids << q.cells[i + CaseRow::SubscriptionRef].toString();
    return ids;
}

} // namespace

/// The Cases page's queue as loadCaseQueue reads it (ui/models/casequeue), against the run's
/// PostgreSQL: which cases each filter lists, in which order, and the session's facts; a case
/// as loadCaseDetail reads it; and what a failing read throws.
class TestUiCaseQueue : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::string m_operator; ///< the operator's conninfo
    std::string m_viewer;

    CaseQueue load(const std::string &conninfo, const CaseQueueFilter &filter)
    {
        rd::ui::DatabasePool pool(QString::fromStdString(conninfo), 1);
        return pool.call(&rd::ui::loadCaseQueue, filter).result();
    }

private slots:
    void initTestCase()
    {
        m_db = std::make_unique<rdtest::TestDatabase>("casequeue");
        m_operator = rdtest::loginAs(*m_db, "op", "operator");
        m_viewer = rdtest::loginAs(*m_db, "viewer", "viewer");
        const std::string opRole = m_db->name() + "_op";
        QString cases = QString::fromUtf8(kCases);
        cases.replace(u"'%1'"_qs, u"'"_qs + QString::fromStdString(opRole) + u"'"_qs);
        // The resolved cases' renewals: two periods of a subscription.
        rdtest::importSubscriptions(
            m_db->conninfo(), rdtest::subscriptionLine("stripe-main", "sub_p"));
        auto conn = m_db->connect();
        pqxx::nontransaction(*conn).exec0(cases.toStdString());
    }

    void cleanupTestCase() { m_db.reset(); }

    void listsWhatTheFilterSays_data()
    {
        QTest::addColumn<CaseScope>("scope");
        QTest::addColumn<CaseSort>("sort");
        QTest::addColumn<QString>("search");
        QTest::addColumn<CaseAssignee>("assignee");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<qint64>("minAge");
        QTest::addColumn<qint64>("maxAge");
        QTest::addColumn<QDate>("day");
        QTest::addColumn<bool>("dayClosed");
        QTest::addColumn<QStringList>("expected");

        const auto all = CaseAssignee::All;
        const QString any;
        const QDate anyDay;
        const qint64 hour = 3600, dayS = 24 * hour;
        QTest::newRow("open, last seen newest first")
            << CaseScope::Open << CaseSort::LastSeenNewest << any << all << any << -1LL << -1LL
            << anyDay << false
            << QStringList {u"sub_c"_qs, u"sub_b"_qs, u"sub_a"_qs, u"sub_g%1"_qs};
        QTest::newRow("open, last seen oldest first")
            << CaseScope::Open << CaseSort::LastSeenOldest << any << all << any << -1LL << -1LL
            << anyDay << false
            << QStringList {u"sub_g%1"_qs, u"sub_a"_qs, u"sub_b"_qs, u"sub_c"_qs};
        QTest::newRow("open, oldest first")
            << CaseScope::Open << CaseSort::OldestFirst << any << all << any << -1LL << -1LL
            << anyDay << false
            << QStringList {u"sub_g%1"_qs, u"sub_a"_qs, u"sub_b"_qs, u"sub_c"_qs};
        QTest::newRow("healed automatically")
            << CaseScope::HealedAutomatically << CaseSort::LastSeenNewest << any << all << any
            << -1LL << -1LL << anyDay << false << QStringList {u"sub_d"_qs};
        QTest::newRow("resolved") << CaseScope::Resolved << CaseSort::LastSeenNewest << any << all
                                  << any << -1LL << -1LL << anyDay << false
                                  << QStringList {u"sub_d"_qs, u"sub_e"_qs};
        QTest::newRow("dismissed")
            << CaseScope::Dismissed << CaseSort::LastSeenNewest << any << all << any << -1LL << -1LL
            << anyDay << false << QStringList {u"sub_f"_qs};
        QTest::newRow("all, newest first")
            << CaseScope::All << CaseSort::NewestFirst << any << all << any << -1LL << -1LL
            << anyDay << false
            << QStringList {u"sub_c"_qs, u"sub_b"_qs, u"sub_a"_qs, u"sub_d"_qs, u"sub_e"_qs,
                   u"sub_g%1"_qs, u"sub_f"_qs};
        QTest::newRow("mine") << CaseScope::Open << CaseSort::LastSeenNewest << any
                              << CaseAssignee::Mine << any << -1LL << -1LL << anyDay << false
                              << QStringList {u"sub_b"_qs};
        QTest::newRow("unassigned")
            << CaseScope::Open << CaseSort::LastSeenNewest << any << CaseAssignee::Unassigned << any
            << -1LL << -1LL << anyDay << false << QStringList {u"sub_a"_qs, u"sub_g%1"_qs};
        QTest::newRow("a reason") << CaseScope::Open << CaseSort::LastSeenNewest << any << all
                                  << u"renewal_period_is_not_contiguous"_qs << -1LL << -1LL
                                  << anyDay << false
                                  << QStringList {u"sub_c"_qs, u"sub_a"_qs, u"sub_g%1"_qs};
        QTest::newRow("older than a day")
            << CaseScope::Open << CaseSort::OldestFirst << any << all << any << dayS << -1LL
            << anyDay << false << QStringList {u"sub_g%1"_qs, u"sub_a"_qs};
        QTest::newRow("between 1 h and 1 day old")
            << CaseScope::Open << CaseSort::OldestFirst << any << all << any << hour << dayS
            << anyDay << false << QStringList {u"sub_b"_qs};
        QTest::newRow("newer than 1 h")
            << CaseScope::Open << CaseSort::OldestFirst << any << all << any << -1LL << hour
            << anyDay << false << QStringList {u"sub_c"_qs};
        // A UTC day: its first and last instants are in, the next day's first is not.
        QTest::newRow("opened on a day")
            << CaseScope::All << CaseSort::NewestFirst << any << all << any << -1LL << -1LL
            << QDate(2026, 1, 15) << false << QStringList {u"sub_g%1"_qs, u"sub_f"_qs};
        QTest::newRow("closed on a day")
            << CaseScope::All << CaseSort::LastSeenNewest << any << all << any << -1LL << -1LL
            << QDate(2026, 1, 20) << true << QStringList {u"sub_e"_qs, u"sub_f"_qs};
        QTest::newRow("closed on a day, open cases never")
            << CaseScope::Open << CaseSort::LastSeenNewest << any << all << any << -1LL << -1LL
            << QDate(2026, 1, 15) << true << QStringList {};
        // The search is a substring of the subscription id, LIKE's wildcards taken literally.
        QTest::newRow("search") << CaseScope::All << CaseSort::LastSeenNewest << u"c"_qs << all
                                << any << -1LL << -1LL << anyDay << false
                                << QStringList {u"sub_c"_qs};
        QTest::newRow("search, nothing")
            << CaseScope::All << CaseSort::LastSeenNewest << u"u_"_qs << all << any << -1LL << -1LL
            << anyDay << false << QStringList {};
        QTest::newRow("search, underscore literal")
            << CaseScope::All << CaseSort::LastSeenNewest << u"_b"_qs << all << any << -1LL << -1LL
            << anyDay << false << QStringList {u"sub_b"_qs};
        QTest::newRow("search, percent literal")
            << CaseScope::All << CaseSort::LastSeenNewest << u"g%"_qs << all << any << -1LL << -1LL
            << anyDay << false << QStringList {u"sub_g%1"_qs};
        QTest::newRow("search, percent alone")
            << CaseScope::Open << CaseSort::LastSeenNewest << u"%"_qs << all << any << -1LL << -1LL
            << anyDay << false << QStringList {u"sub_g%1"_qs};
        QTest::newRow("every filter at once")
            << CaseScope::Open << CaseSort::OldestFirst << u"sub"_qs << CaseAssignee::Unassigned
            << u"renewal_period_is_not_contiguous"_qs << dayS << -1LL << anyDay << false
            << QStringList {u"sub_g%1"_qs, u"sub_a"_qs};
    }

    void listsWhatTheFilterSays()
    {
        CaseQueueFilter f;
        QFETCH(CaseScope, scope);
        QFETCH(CaseSort, sort);
        QFETCH(QString, search);
        QFETCH(CaseAssignee, assignee);
        QFETCH(QString, reason);
        QFETCH(qint64, minAge);
        QFETCH(qint64, maxAge);
        QFETCH(QDate, day);
        QFETCH(bool, dayClosed);
        f.scope = scope;
        f.sort = sort;
        f.search = search;
        f.assignee = assignee;
        f.reason = reason;
        f.minAge = minAge;
        f.maxAge = maxAge;
        f.day = day;
        f.dayClosed = dayClosed;
        const CaseQueue q = load(m_operator, f);
        QCOMPARE(q.cells.size() % CaseRow::FieldCount, 0);
        QTEST(subscriptions(q), "expected");
    }

    /// A row's values where CaseRow says, in their stored forms.
    void rowsHoldTheCase()
    {
        CaseQueueFilter f;
        f.scope = CaseScope::All;
        f.search = u"sub_f"_qs;
        const CaseQueue q = load(m_operator, f);
        QCOMPARE(q.cells.size(), qsizetype(CaseRow::FieldCount));
        const QVariant *r = q.cells.constData();
        QCOMPARE(r[CaseRow::ErrorCode].toString(), u"provider_renewal_key_payload_conflict"_qs);
        QCOMPARE(r[CaseRow::Provider].toString(), u"stripe-main"_qs);
        QCOMPARE(r[CaseRow::RenewalKey].toString(), u"in_f"_qs);
        QCOMPARE(r[CaseRow::FirstSeen].toLongLong(), qint64(1768471200) * 1000000);
        QCOMPARE(r[CaseRow::Status].toString(), u"dismissed by alice"_qs);
        QCOMPARE(r[CaseRow::IsOpen].toBool(), false);
        QCOMPARE(r[CaseRow::IsDismissed].toBool(), true);
        QCOMPARE(r[CaseRow::AssignedTo].toString(), QString());
        QVERIFY(r[CaseRow::AssignedAt].isNull());
        QCOMPARE(r[CaseRow::SubscriptionUuid].toString(), QString());
        f.search = u"sub_d"_qs;
        QCOMPARE(
            load(m_operator, f).cells[CaseRow::Status].toString(), u"re-applied automatically"_qs);
    }

    /// What the page shows besides the rows: every open case counted whatever the filter, the
    /// open cases' reasons (most first), who is asking and whether that role may act.
    void sessionFacts_data()
    {
        QTest::addColumn<bool>("asOperator");
        QTest::addColumn<bool>("canOperate");
        QTest::newRow("operator") << true << true;
        QTest::newRow("viewer") << false << false;
    }

    void sessionFacts()
    {
        QFETCH(bool, asOperator);
        CaseQueueFilter f;
        f.scope = CaseScope::Dismissed;
        const CaseQueue q = load(asOperator ? m_operator : m_viewer, f);
        QCOMPARE(q.openCount, 4);
        QTEST(q.canOperate, "canOperate");
        QCOMPARE(q.onReplica, false);
        QCOMPARE(q.sessionUser.toStdString(), m_db->name() + (asOperator ? "_op" : "_viewer"));
        const QVector<QPair<QString, qint64>> reasons {{u"renewal_period_is_not_contiguous"_qs, 3},
            {u"provider_renewal_key_payload_conflict"_qs, 1}};
        QCOMPARE(q.reasons, reasons);
    }

    /// A viewer's "Mine" is its own claims: none.
    void mineIsTheSessionsRole()
    {
        CaseQueueFilter f;
        f.assignee = CaseAssignee::Mine;
        QCOMPARE(subscriptions(load(m_viewer, f)), QStringList {});
    }

    /// A read that fails throws what the store throws (rd::DatabaseFailure with the server's
    /// SQLSTATE and whether a retry can heal it, a refusal as rd::ActionRefused), whichever
    /// driver ran it: the desk has no error type of its own.
    void failedReadsAreTheStoresErrors_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<bool>("prepared");
        QTest::addColumn<QString>("sqlstate");
        QTest::addColumn<bool>("transient");
        QTest::addColumn<QString>("refusal");
        QTest::newRow("undefined table")
            << u"SELECT * FROM no_such_table"_qs << true << u"42P01"_qs << false << QString();
        QTest::newRow("division by zero")
            << u"SELECT 1 / 0"_qs << true << u"22012"_qs << false << QString();
        QTest::newRow("serialization failure")
            << u"DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END $$"_qs << false
            << u"40001"_qs << true << QString();
        QTest::newRow("a refusal") << u"SELECT note_case(-1, 'a note')"_qs << true << QString()
                                   << false << u"case_not_found"_qs;
    }

    void failedReadsAreTheStoresErrors()
    {
        QFETCH(QString, sql);
        QFETCH(bool, prepared);
        QFETCH(QString, sqlstate);
        QFETCH(bool, transient);
        QFETCH(QString, refusal);
        QSqlDatabase db
            = rd::ui::DatabasePool::threadConnection(QString::fromStdString(m_operator), 9001);
        try {
            if (prepared)
                rd::ui::execSql(db, sql);
            else
                rd::ui::execDirect(db, sql);
            QFAIL("the statement did not fail");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(QString::fromStdString(e.code()), refusal);
        } catch (const rd::DatabaseFailure &e) {
            QVERIFY2(refusal.isEmpty(), e.what());
            QCOMPARE(QString::fromStdString(e.sqlstate()), sqlstate);
            QCOMPARE(e.transient(), transient);
        }
    }

    /// A case is read in one place, case_detail(): the desk's panel shows the history
    /// `renewalctl cases show` prints, step for step, beside the queue's row of the case.
    void caseDetailIsWhatEveryProgramReads()
    {
        pqxx::connection op(m_operator);
        const auto id = pqxx::nontransaction(op)
                            .exec1("SELECT id FROM reconciliation_cases "
                                   "WHERE provider_subscription_id = 'sub_a'")[0]
                            .as<qint64>();
        {
            pqxx::nontransaction tx(op);
            tx.exec_params("SELECT claim_case($1, NULL)", id);
            tx.exec_params("SELECT note_case($1, 'called the customer')", id);
            tx.exec_params("SELECT release_case($1, NULL)", id);
        }
        rd::ui::DatabasePool pool(QString::fromStdString(m_viewer), 1);
        const rd::ui::CaseDetail d = pool.call(&rd::ui::loadCaseDetail, id).result();
        QCOMPARE(d.row.size(), qsizetype(CaseRow::FieldCount));
        QCOMPARE(d.row[CaseRow::Id].toLongLong(), id);
        QCOMPARE(d.row[CaseRow::SubscriptionRef].toString(), u"sub_a"_qs);

        const nlohmann::json shown = rd::showCase(op, id);
        const auto &history = shown["history"];
        QCOMPARE(history.size(), std::size_t(3));
        QCOMPARE(qsizetype(history.size()), d.steps.size());
        for (std::size_t i = 0; i < history.size(); ++i) {
            const auto &h = history[i];
            const auto &s = d.steps[qsizetype(i)];
            QCOMPARE(s.seq, h["seq"].get<qint64>());
            QCOMPARE(s.action.toStdString(), h["action"].get<std::string>());
            QCOMPARE(s.role.toStdString(), h["actor"].get<std::string>());
            QCOMPARE(s.comment.toStdString(),
                h.value("comment", nlohmann::json()).is_null() ? std::string()
                                                               : h["comment"].get<std::string>());
        }
        QCOMPARE(d.steps[0].action, u"claimed"_qs);
        QCOMPARE(d.steps[1].comment, u"called the customer"_qs);
        QCOMPARE(d.steps[2].otherRole.toStdString(), m_db->name() + "_op");

        // No such case: an empty detail here, case_not_found there.
        QVERIFY(pool.call(&rd::ui::loadCaseDetail, qint64(-1)).result().row.isEmpty());
        QVERIFY_THROWS_EXCEPTION(rd::ActionRefused, rd::showCase(op, -1));
    }
};

QTEST_GUILESS_MAIN(TestUiCaseQueue)
#include "tst_ui_casequeue.moc"
