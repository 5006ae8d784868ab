#include "domain/store/audit_chains.h"
#include "domain/store/case_actions.h"
#include "domain/store/renewal_applier.h"
#include "tests/support/gap_case.h"
#include "tests/support/lock_waiters.h"
#include "tests/support/process_runner.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"

#include <pqxx/pqxx>

#include <QtTest>

#include <chrono>
#include <thread>

using rd::ApplyOutcome;
using rdtest::observe;
using rdtest::outcomeName;
using rdtest::scalar;

namespace {

rd::Timestamp ts(const std::string &text)
{
    return *rd::parseRfc3339(text);
}

/// The renewal of sub_1 (current period January 2026) into month `m` (2 = February, ...).
rd::SuccessfulRenewalEvent month(int m, const std::string &subscription = "sub_1")
{
    auto e = rdtest::februaryRenewal(subscription, "evt_" + subscription + "_" + std::to_string(m),
        "in_" + subscription + "_" + std::to_string(m));
    const auto first = [](int n) {
        return ts((n <= 12 ? "2026-" : "2027-")
            + QString::number((n - 1) % 12 + 1).rightJustified(2, u'0').toStdString()
            + "-01T00:00:00Z");
    };
    e.period = {first(m), first(m + 1)};
    e.paidAt = rd::Timestamp {e.period.start.micros + 60'000'000};
    return e;
}

QByteArray lines(const std::vector<rd::SuccessfulRenewalEvent> &events)
{
    QByteArray out;
    for (const auto &e : events)
        out += QByteArray::fromStdString(rd::toJson(e).dump()) + '\n';
    return out;
}

} // namespace

/// Out-of-order deliveries heal themselves: a renewal that arrives before its predecessor waits
/// in a gap case, and the core applies it, under the same row lock and in the same transaction,
/// the moment the predecessor is applied. Nothing the rules still reject is forced.
class TestHealing : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

    std::int64_t deliver(rd::RenewalApplier &applier, int m)
    {
        const auto out = applier.apply(month(m));
        return out.caseId.value_or(0);
    }

private slots:
    void init() { m_db = rdtest::databaseWithSub1(); }

    void cleanup() { m_db.reset(); }

    // Three months ahead of their predecessor, healed by the one that arrives last; each case
    // names the renewal that unblocked it.
    void chainOfThreeHealedByTheLastToArrive()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        const auto april = deliver(applier, 4);
        const auto march = deliver(applier, 3);
        const auto may = deliver(applier, 5);
        QVERIFY(april && march && may);
        auto conn = m_db->connect();
        QCOMPARE(observe(*conn).openCases, 3LL);

        QCOMPARE(outcomeName(applier.apply(month(2)).outcome), outcomeName(ApplyOutcome::Applied));
        const auto seen = observe(*conn);
        QCOMPARE(seen.periodEnd, std::string("2026-06-01T00:00:00.000000Z"));
        QCOMPARE(seen.billingPeriods, 4LL);
        QCOMPARE(seen.renewalAudits, 4LL);
        QCOMPARE(seen.outbox, 4LL);
        QCOMPARE(seen.openCases, 0LL);
        QCOMPARE(seen.revision, 5LL);
        const std::pair<std::int64_t, const char *> expected[]
            = {{march, "in_sub_1_2"}, {april, "in_sub_1_3"}, {may, "in_sub_1_4"}};
        for (const auto &[id, unblockedBy] : expected) {
            const auto c = rd::showCase(*conn, id);
            QCOMPARE(c["resolution"].get<std::string>(), std::string("reapplied"));
            QCOMPARE(c["resolvedBy"].get<std::string>(), std::string("system"));
            QCOMPARE(c["resolutionComment"].get<std::string>(),
                "re-applied automatically after " + std::string(unblockedBy) + " arrived");
            const auto &last = c["history"].back();
            QCOMPARE(last["action"].get<std::string>(), std::string("reapply"));
            QCOMPARE(last["actor"].get<std::string>(), std::string("system"));
            QCOMPARE(last["outcome"].get<std::string>(), std::string("applied"));
        }
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM subscription_transition_audits WHERE actor_type = "
                     "'system' AND actor_id = 'auto-reapply'"),
            3LL);
        QVERIFY(rd::verifyAuditChains(*conn).empty());
    }

    // A renewal that overlaps the period the predecessor brought is not made to fit.
    void overlappingRenewalStaysOpen()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        auto overlap = month(3);
        overlap.providerRenewalKey = "in_overlap";
        overlap.providerEventId = "evt_overlap";
        overlap.period = {ts("2026-02-15T00:00:00Z"), ts("2026-03-15T00:00:00Z")};
        const auto caseId = applier.apply(overlap).caseId;
        QVERIFY(caseId);
        QCOMPARE(outcomeName(applier.apply(month(2)).outcome), outcomeName(ApplyOutcome::Applied));
        auto conn = m_db->connect();
        const auto c = rd::showCase(*conn, *caseId);
        QCOMPARE(c["status"].get<std::string>(), std::string("open"));
        QCOMPARE(c["history"].size(), std::size_t(1)); // not even tried: it does not start there
        QCOMPARE(observe(*conn).billingPeriods, 1LL);
    }

    // The predecessor arrives through a snapshot that also schedules the cancellation: the
    // waiting renewal is tried, still rejected (now for the cancellation), and stays open.
    void gapCaseThatConflictsWithALaterSnapshotStaysOpen()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        const auto caseId = deliver(applier, 3);
        QVERIFY(caseId);
        rd::ProviderSnapshot s;
        s.providerKey = "stripe-main";
        s.providerSubscriptionId = "sub_1";
        s.status = "active";
        s.currentPeriod = month(2).period;
        s.cancelAtPeriodEnd = true;
        s.capturedAt = ts(rdtest::capturedNow());
        s.latestRenewal = month(2);
        auto conn = m_db->connect();
        rd::attachSnapshot(*conn, s, std::nullopt, {"provider_confirmed", "from the dashboard"});
        const auto c = rd::showCase(*conn, caseId);
        QCOMPARE(c["status"].get<std::string>(), std::string("open"));
        QCOMPARE(c["errorCode"].get<std::string>(),
            std::string("renewal_conflicts_with_scheduled_cancellation"));
        const auto &last = c["history"].back();
        QCOMPARE(last["actor"].get<std::string>(), std::string("system"));
        QCOMPARE(last["outcome"].get<std::string>(), std::string("rejected"));
        QCOMPARE(observe(*conn).periodEnd, std::string("2026-03-01T00:00:00.000000Z"));
        QVERIFY(rd::verifyAuditChains(*conn).empty());
    }

    // Two processes deliver one subscription's five months concurrently, in opposite orders.
    // Both are held behind the subscription's row lock until both are seen waiting on it.
    void twoWorkersInOppositeOrders()
    {
        std::vector<rd::SuccessfulRenewalEvent> ascending, descending;
        for (int m = 2; m <= 6; ++m)
            ascending.push_back(month(m));
        descending.assign(ascending.rbegin(), ascending.rend());
        // Distinct deliveries (event ids) of the same renewals, as a provider's retries are.
        for (auto &e : descending)
            e.providerEventId += "_retry";

        auto holder = m_db->connect();
        auto observer = m_db->connect();
        const int holderPid = rdtest::backendPid(*holder);
        auto lock = std::make_unique<pqxx::work>(*holder);
        lock->exec(
            "SELECT 1 FROM subscriptions WHERE provider_subscription_id = 'sub_1' FOR UPDATE");

        std::vector<std::unique_ptr<QProcess>> procs;
        for (const auto *events : {&ascending, &descending}) {
            auto p = std::make_unique<QProcess>();
            p->start(rdtest::ctl(), rdtest::withDb(*m_db, {"apply"}));
            QVERIFY(p->waitForStarted());
            p->write(lines(*events));
            QVERIFY(p->waitForBytesWritten(10000));
            p->closeWriteChannel();
            procs.push_back(std::move(p));
        }
        // Both contenders queued behind the held lock before it is released.
        const auto waiters = rdtest::waitForLockWaiters(*observer, holderPid, 2);
        QVERIFY2(waiters.reached, waiters.seen.c_str());
        lock->commit();
        lock.reset();

        for (auto &p : procs) {
            QVERIFY(p->waitForFinished(60000));
            QVERIFY2(
                p->exitCode() == 0 || p->exitCode() == 3, p->readAllStandardError().constData());
        }
        const auto seen = observe(*observer);
        QCOMPARE(seen.periodEnd, std::string("2026-07-01T00:00:00.000000Z"));
        QCOMPARE(seen.billingPeriods, 5LL);
        QCOMPARE(seen.renewalAudits, 5LL);
        QCOMPARE(seen.outbox, 5LL);
        QCOMPARE(seen.openCases, 0LL);
        QVERIFY(rd::verifyAuditChains(*observer).empty());
    }

    // The scenario, smaller: 20 Stripe subscriptions x 6 months, each invoice delivered
    // as invoice.paid and invoice.payment_succeeded, all shuffled, through `renewalctl replay`
    // in four concurrent processes.
    void shuffledDuplicatedExportHealsCompletely()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto made = rdtest::runProgram(rdtest::ctl(),
            {"demo", "--replay-set", dir.path(), "--subscriptions", "20", "--months", "6", "--seed",
                "11"});
        QCOMPARE(made.exitCode, 0);
        QFile subs(dir.path() + "/subscriptions.jsonl");
        QVERIFY(subs.open(QIODevice::ReadOnly));
        QCOMPARE(rdtest::runProgram(rdtest::ctl(),
                     rdtest::withDb(*m_db, {"subscriptions", "import"}), subs.readAll())
                     .exitCode,
            0);
        QCOMPARE(rdtest::runProgram(rdtest::ctl(),
                     rdtest::withDb(*m_db, {"providers", "add", "stripe-main", "--kind", "stripe"}))
                     .exitCode,
            0);
        QFile events(dir.path() + "/stripe-events.jsonl");
        QVERIFY(events.open(QIODevice::ReadOnly));
        const QList<QByteArray> payloads = events.readAll().split('\n');
        QByteArray shards[4];
        int n = 0;
        for (const auto &p : payloads)
            if (!p.isEmpty())
                shards[n++ % 4] += p + '\n';
        QCOMPARE(n, 240);

        std::vector<std::unique_ptr<QProcess>> procs;
        for (const auto &shard : shards) {
            auto p = std::make_unique<QProcess>();
            p->start(rdtest::ctl(),
                rdtest::withDb(*m_db, {"replay", "--provider-key", "stripe-main", "--json"}));
            QVERIFY(p->waitForStarted());
            p->write(shard);
            p->closeWriteChannel();
            procs.push_back(std::move(p));
        }
        long long healed = 0;
        for (auto &p : procs) {
            QVERIFY(p->waitForFinished(120000));
            const auto out = p->readAllStandardOutput();
            const auto summary = nlohmann::json::parse(out.toStdString());
            healed += summary["healed"].get<long long>();
        }
        auto conn = m_db->connect();
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM subscription_billing_periods"), 120LL);
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM subscription_transition_audits "
                     "WHERE transition = 'subscription_renewed'"),
            120LL);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM subscription_outbox"), 120LL);
        QCOMPARE(
            scalar(*conn, "SELECT count(*) FROM reconciliation_cases WHERE status = 'open'"), 0LL);
        // Every subscription at its final period, having advanced once per renewal.
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM subscriptions s WHERE s.revision = 7 AND "
                     "s.current_period_end = (SELECT max(period_end) FROM "
                     "subscription_billing_periods b WHERE b.subscription_id = s.id)"),
            20LL);
        // Shuffled, most renewals came before their predecessor and were healed.
        // (A case two processes both delivered a payload of counts in both their summaries.)
        QVERIFY2(healed > 0, qPrintable(QString::number(healed)));
        QVERIFY(
            scalar(*conn, "SELECT count(*) FROM reconciliation_cases WHERE resolved_by = 'system'")
            > 0);
        QVERIFY(rd::verifyAuditChains(*conn).empty());
    }
};

QTEST_GUILESS_MAIN(TestHealing)
#include "tst_healing.moc"
