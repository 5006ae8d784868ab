#include "domain/store/renewal_applier.h"
#include "tests/support/lock_waiters.h"
#include "tests/support/process_runner.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"

#include <pqxx/pqxx>

#include <QtTest>

#include <csignal>
#include <future>

using rd::ApplyOutcome;
using rdtest::februaryRenewal;
using rdtest::observe;
using rdtest::outcomeName;

namespace {

QByteArray eventJsonLine(const rd::SuccessfulRenewalEvent &e)
{
    return QByteArray::fromStdString(rd::toJson(e).dump() + "\n");
}

/// `renewalctl apply` of one event, started, with its input written and closed.
std::unique_ptr<QProcess> startApply(const rdtest::TestDatabase &db, const QByteArray &line)
{
    auto p = std::make_unique<QProcess>();
    p->start(rdtest::ctl(), rdtest::withDb(db, {"apply"}));
    if (p->waitForStarted()) {
        p->write(line);
        // QProcess writes from its event loop; nobody runs one while the test polls.
        p->waitForBytesWritten(10000);
        p->closeWriteChannel();
    }
    return p;
}

/// `before` with exactly one whole February renewal on top: its billing period, its audit row,
/// its outbox intent and the advance of the current period, and no case.
rdtest::Observed withOneRenewal(rdtest::Observed before)
{
    before.periodStart = "2026-02-01T00:00:00.000000Z";
    before.periodEnd = "2026-03-01T00:00:00.000000Z";
    before.revision += 1;
    before.billingPeriods += 1;
    before.renewalAudits += 1;
    before.outbox += 1;
    return before;
}

std::string describe(const rdtest::Observed &o)
{
    return o.periodStart + " - " + o.periodEnd + ", revision " + std::to_string(o.revision) + ", "
        + std::to_string(o.billingPeriods) + " periods, " + std::to_string(o.renewalAudits)
        + " audits, " + std::to_string(o.outbox) + " intents, " + std::to_string(o.openCases)
        + " open cases";
}

} // namespace

/// Exactly once under concurrency, crashes and lost acknowledgements: separate connections
/// that certainly overlapped, separate OS processes, killed processes and sessions.
class TestRenewalConcurrency : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

    /// `winner` records renewal key in_1 for sub_2 without committing; then sub_1's February
    /// renewal under the same key starts in `pending` and is left waiting on that uncommitted
    /// row. Returns what the wait saw (the caller asserts it).
    rdtest::LockWaiters raceAnUncommittedWinner(pqxx::work &winner, int winnerPid,
        pqxx::connection &observer, std::future<rd::ApplyResult> &pending)
    {
        winner.exec0(
            "INSERT INTO subscription_billing_periods (subscription_id, provider_key, "
            "provider_renewal_key, provider_event_id, period_start, period_end, "
            "paid_amount_minor, currency, paid_at) SELECT id, 'stripe-main', 'in_1', "
            "'evt_winner', current_period_end, current_period_end + interval '1 month', "
            "1999, 'USD', now() FROM subscriptions WHERE provider_subscription_id = 'sub_2'");
        pending = std::async(std::launch::async, [this] {
            rd::RenewalApplier applier(m_db->conninfo());
            return applier.apply(februaryRenewal("sub_1"));
        });
        return rdtest::waitForLockWaiters(observer, winnerPid, 1);
    }

private slots:
    void init()
    {
        m_db = std::make_unique<rdtest::TestDatabase>(QTest::currentTestFunction());
        std::string lines;
        for (int i = 1; i <= 20; ++i)
            lines += rdtest::subscriptionLine("stripe-main", "sub_" + std::to_string(i)) + "\n";
        rdtest::importSubscriptions(m_db->conninfo(), lines);
    }

    void cleanup() { m_db.reset(); }

    void twoHandlersStartedTogether()
    {
        // Twenty independent races, each between two connections that are both seen waiting
        // for the subscription's row lock before it is let go: both are inside the renewal at
        // once, and only the lock and the renewal key decide between them.
        auto observer = m_db->connect();
        for (int i = 1; i <= 20; ++i) {
            const std::string sub = "sub_" + std::to_string(i);
            rd::RenewalApplier a(m_db->conninfo()), b(m_db->conninfo());
            auto run = [&](rd::RenewalApplier &applier, const std::string &eventId) {
                return applier.apply(februaryRenewal(sub, eventId, "in_" + sub)).outcome;
            };
            std::future<ApplyOutcome> fa, fb;
            rdtest::RowLockHolder hold(*m_db, sub);
            fa = std::async(std::launch::async, run, std::ref(a), "evt_paid_" + sub);
            fb = std::async(std::launch::async, run, std::ref(b), "evt_succeeded_" + sub);
            const auto waiting = rdtest::waitForLockWaiters(*observer, hold.pid, 2);
            QVERIFY2(waiting.reached, waiting.seen.c_str());
            hold.release();
            const auto ra = fa.get(), rb = fb.get();
            QVERIFY2((ra == ApplyOutcome::Applied && rb == ApplyOutcome::Duplicate)
                    || (ra == ApplyOutcome::Duplicate && rb == ApplyOutcome::Applied),
                (outcomeName(ra) + u" / "_qs + outcomeName(rb)).toUtf8().constData());
            const auto seen = observe(*observer, sub);
            QCOMPARE(seen.billingPeriods, 1LL);
            QCOMPARE(seen.renewalAudits, 1LL);
            QCOMPARE(seen.outbox, 1LL);
            QCOMPARE(seen.revision, 2LL);
        }
    }

    void handlersQueuedBehindTheRowLock()
    {
        // A controller holds the subscription lock so that all handlers are certainly inside
        // the transaction, waiting, when it lets go: the race is forced, not hoped for.
        constexpr int handlers = 6;
        auto observer = m_db->connect();
        std::vector<std::future<ApplyOutcome>> results;
        rdtest::RowLockHolder hold(*m_db, "sub_1");
        for (int i = 0; i < handlers; ++i) {
            results.push_back(std::async(std::launch::async, [this, i] {
                rd::RenewalApplier applier(m_db->conninfo());
                return applier.apply(februaryRenewal("sub_1", "evt_" + std::to_string(i))).outcome;
            }));
        }
        const auto waiting = rdtest::waitForLockWaiters(*observer, hold.pid, handlers);
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        hold.release();
        int applied = 0, duplicates = 0;
        for (auto &f : results) {
            const auto r = f.get();
            applied += r == ApplyOutcome::Applied;
            duplicates += r == ApplyOutcome::Duplicate;
        }
        QCOMPARE(applied, 1);
        QCOMPARE(duplicates, handlers - 1);
        const auto seen = observe(*observer);
        QCOMPARE(seen.billingPeriods, 1LL);
        QCOMPARE(seen.renewalAudits, 1LL);
        QCOMPARE(seen.outbox, 1LL);
    }

    void competingRenewalsOfOnePeriod()
    {
        // Two different renewals (different keys, different ends) both continuing the current
        // period: only the row lock tells the second that the period has moved on.
        auto observer = m_db->connect();
        auto corrected = februaryRenewal("sub_1", "evt_b", "in_b");
        corrected.period.end = *rd::parseRfc3339("2026-03-15T00:00:00Z");
        std::vector<rd::SuccessfulRenewalEvent> events {
            februaryRenewal("sub_1", "evt_a", "in_a"), corrected};
        std::vector<std::future<rd::ApplyResult>> results;
        rdtest::RowLockHolder hold(*m_db, "sub_1");
        for (const auto &e : events)
            results.push_back(std::async(std::launch::async, [this, e] {
                rd::RenewalApplier applier(m_db->conninfo());
                return applier.apply(e);
            }));
        const auto waiting = rdtest::waitForLockWaiters(*observer, hold.pid, 2);
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        hold.release();
        int applied = 0;
        std::string rejection;
        for (auto &f : results) {
            const auto out = f.get();
            applied += out.outcome == ApplyOutcome::Applied;
            if (out.outcome == ApplyOutcome::Rejected)
                rejection = rdtest::rejectionOf(out);
        }
        QCOMPARE(applied, 1);
        QCOMPARE(rejection, std::string("renewal_period_is_not_contiguous"));
        const auto seen = observe(*observer);
        QCOMPARE(seen.billingPeriods, 1LL);
        QCOMPARE(seen.revision, 2LL);
        QCOMPARE(seen.renewalAudits, 1LL);
        QCOMPARE(seen.openCases, 1LL);
    }

    void uncommittedWinnerUnderAnotherSubscriptionIsAConflict()
    {
        // Step 6: the renewal key is taken by a transaction we cannot see yet (it holds
        // another subscription's lock). The insert waits for it, then the row is re-read and
        // judged: a different subscription is a conflict, not a duplicate.
        auto controller = m_db->connect();
        auto observer = m_db->connect();
        const int winnerPid = rdtest::backendPid(*controller);
        std::future<rd::ApplyResult> pending;
        pqxx::work winner(*controller);
        const auto waiting = raceAnUncommittedWinner(winner, winnerPid, *observer, pending);
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        winner.commit();
        const auto out = pending.get();
        QCOMPARE(outcomeName(out.outcome), outcomeName(ApplyOutcome::Rejected));
        QCOMPARE(rdtest::rejectionOf(out), std::string("provider_renewal_key_payload_conflict"));
        const auto seen = observe(*observer, "sub_1");
        QCOMPARE(seen.billingPeriods, 0LL);
        QCOMPARE(seen.revision, 1LL);
        QCOMPARE(seen.periodEnd, std::string("2026-02-01T00:00:00.000000Z"));
    }

    void uncommittedWinnerThatRollsBackLetsTheWaiterApply()
    {
        auto controller = m_db->connect();
        auto observer = m_db->connect();
        const int winnerPid = rdtest::backendPid(*controller);
        std::future<rd::ApplyResult> pending;
        pqxx::work winner(*controller);
        const auto waiting = raceAnUncommittedWinner(winner, winnerPid, *observer, pending);
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        winner.abort();
        QCOMPARE(outcomeName(pending.get().outcome), outcomeName(ApplyOutcome::Applied));
        QCOMPARE(observe(*observer, "sub_1").billingPeriods, 1LL);
    }

    void eightProcessesOneEvent()
    {
        // Eight renewalctl processes, all seen waiting for the subscription's row lock before
        // it is let go: eight transactions certainly overlapped on one event.
        constexpr int processes = 8;
        const QByteArray line = eventJsonLine(februaryRenewal());
        auto observer = m_db->connect();
        std::vector<std::unique_ptr<QProcess>> procs;
        rdtest::RowLockHolder hold(*m_db, "sub_1");
        for (int i = 0; i < processes; ++i) {
            procs.push_back(startApply(*m_db, line));
            QCOMPARE(procs.back()->state(), QProcess::Running);
        }
        const auto waiting = rdtest::waitForLockWaiters(*observer, hold.pid, processes);
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        hold.release();
        int applied = 0, duplicates = 0;
        for (auto &p : procs) {
            QVERIFY(p->waitForFinished(60000));
            QCOMPARE(p->exitCode(), 0);
            const auto out = nlohmann::json::parse(p->readAllStandardOutput().toStdString());
            applied += out["result"] == "applied";
            duplicates += out["result"] == "duplicate";
        }
        QCOMPARE(applied, 1);
        QCOMPARE(duplicates, processes - 1);
        const auto seen = observe(*observer);
        QCOMPARE(seen.billingPeriods, 1LL);
        QCOMPARE(seen.renewalAudits, 1LL);
        QCOMPARE(seen.outbox, 1LL);
        QCOMPARE(seen.revision, 2LL);
    }

    void killedWhileWaitingIsAllOrNothing()
    {
        // The production path (one autocommit statement) killed mid-renewal: renewalctl waits
        // inside apply_successful_renewal for the row lock, and is SIGKILLed there.
        auto observer = m_db->connect();
        const auto before = observe(*observer);
        std::unique_ptr<QProcess> p;
        rdtest::RowLockHolder hold(*m_db, "sub_1");
        p = startApply(*m_db, eventJsonLine(februaryRenewal()));
        QCOMPARE(p->state(), QProcess::Running);
        const auto waiting = rdtest::waitForLockWaiters(*observer, hold.pid, 1);
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        const int backend = waiting.pids.front();
        QCOMPARE(observe(*observer), before); // nothing is visible while it waits

        ::kill(static_cast<pid_t>(p->processId()), SIGKILL);
        QVERIFY(p->waitForFinished(10000));
        QCOMPARE(p->exitStatus(), QProcess::CrashExit);
        QVERIFY(p->readAllStandardOutput().isEmpty()); // the provider got no acknowledgement

        // PostgreSQL does not notice a dead client while its backend waits for a lock: once
        // the lock is free, the statement runs, and its commit may land though nobody will
        // read the answer. Either way the renewal is all there or not there at all.
        hold.release();
        QVERIFY2(rdtest::waitForBackendExit(*observer, backend),
            ("the killed client's backend " + std::to_string(backend) + " never exited").c_str());
        const auto afterKill = observe(*observer);
        const bool landed = afterKill == withOneRenewal(before);
        QVERIFY2(landed || afterKill == before, describe(afterKill).c_str());
        qInfo("the killed renewal %s", landed ? "committed" : "left nothing");

        // The provider, never acknowledged, retries: one whole renewal in the end, and the
        // retry says whether it was the one that recorded it.
        const auto retry = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(*m_db, {"apply"}), eventJsonLine(februaryRenewal()));
        QCOMPARE(retry.exitCode, 0);
        QCOMPARE(nlohmann::json::parse(retry.out.toStdString())["result"],
            landed ? "duplicate" : "applied");
        const auto after = observe(*observer);
        QVERIFY2(after == withOneRenewal(before), describe(after).c_str());
    }

    void terminatedWhileWaitingLeavesNothingThenAppliesOnce()
    {
        // The session of a waiting renewalctl is terminated (a dropped connection, an operator's
        // pg_terminate_backend): its transaction is rolled back, and renewalctl's own retry
        // applies the renewal once when the lock is free.
        auto observer = m_db->connect();
        const auto before = observe(*observer);
        std::unique_ptr<QProcess> p;
        rdtest::RowLockHolder hold(*m_db, "sub_1");
        p = startApply(*m_db, eventJsonLine(februaryRenewal()));
        QCOMPARE(p->state(), QProcess::Running);
        // renewalctl reconnects and waits again, in a new session; the terminated one left
        // nothing.
        const auto failed = rdtest::terminateTheWaiterAndAwaitItsRetry(*observer, hold.pid);
        QVERIFY2(failed.empty(), failed.c_str());
        QCOMPARE(observe(*observer), before);
        hold.release();
        QVERIFY(p->waitForFinished(30000));
        QCOMPARE(p->exitStatus(), QProcess::NormalExit);
        QCOMPARE(p->exitCode(), 0);
        QCOMPARE(
            nlohmann::json::parse(p->readAllStandardOutput().toStdString())["result"], "applied");
        QVERIFY2(
            observe(*observer) == withOneRenewal(before), describe(observe(*observer)).c_str());

        // A later redelivery changes nothing.
        const auto retry = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(*m_db, {"apply"}), eventJsonLine(februaryRenewal()));
        QCOMPARE(retry.exitCode, 0);
        QCOMPARE(nlohmann::json::parse(retry.out.toStdString())["result"], "duplicate");
        QVERIFY2(
            observe(*observer) == withOneRenewal(before), describe(observe(*observer)).c_str());
    }

    void serializationFailureIsRetried()
    {
        // Under SERIALIZABLE, locking a row that a concurrent transaction changed after our
        // snapshot fails with 40001: the applier must run the whole transaction again.
        auto controller = m_db->connect();
        auto observer = m_db->connect();
        const int concurrentPid = rdtest::backendPid(*controller);
        std::future<rd::ApplyResult> pending;
        pqxx::work concurrent(*controller);
        concurrent.exec0("UPDATE subscriptions SET updated_at = now() "
                         "WHERE provider_subscription_id = 'sub_1'");
        pending = std::async(std::launch::async, [this] {
            rd::RenewalApplier applier(
                m_db->conninfo() + " options='-c default_transaction_isolation=serializable'");
            return applier.apply(februaryRenewal());
        });
        const auto waiting = rdtest::waitForLockWaiters(*observer, concurrentPid, 1);
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        concurrent.commit();
        const auto out = pending.get();
        QCOMPARE(outcomeName(out.outcome), outcomeName(ApplyOutcome::Applied));
        QCOMPARE(out.attempts, 2);
        QCOMPARE(observe(*observer).billingPeriods, 1LL);
    }

    void lostConnectionIsRetried()
    {
        auto observer = m_db->connect();
        std::future<rd::ApplyResult> pending;
        rdtest::RowLockHolder hold(*m_db, "sub_1");
        pending = std::async(std::launch::async, [this] {
            rd::RenewalApplier applier(m_db->conninfo());
            return applier.apply(februaryRenewal());
        });
        const auto waiting = rdtest::waitForLockWaiters(*observer, hold.pid, 1);
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        {
            // The network drops the handler's session while it waits inside the transaction.
            pqxx::nontransaction tx(*observer);
            QVERIFY(tx.exec_params1("SELECT pg_terminate_backend($1)", waiting.pids.front())[0]
                        .as<bool>());
        }
        hold.release();
        const auto out = pending.get();
        QCOMPARE(outcomeName(out.outcome), outcomeName(ApplyOutcome::Applied));
        QCOMPARE(out.attempts, 2);
        const auto seen = observe(*observer);
        QCOMPARE(seen.billingPeriods, 1LL);
        QCOMPARE(seen.revision, 2LL);
    }
};

QTEST_GUILESS_MAIN(TestRenewalConcurrency)
#include "tst_renewalconcurrency.moc"
