#include "domain/renewal_service.hpp"
#include "support/process_runner.hpp"
#include "support/renewal_fixtures.hpp"
#include "support/test_database.hpp"

#include <pqxx/pqxx>

#include <QtTest>

#include <atomic>
#include <csignal>
#include <future>
#include <latch>
#include <thread>

using rd::ApplyResult;
using rdtest::februaryRenewal;
using rdtest::observe;

namespace {

const rd::Actor kWebhook {"webhook", "stripe-main"};

/// Waits until `n` sessions of this database wait for a lock (so a race is set up exactly).
bool waitForLockWaiters(pqxx::connection &observer, int n)
{
    for (int i = 0; i < 400; ++i) {
        pqxx::nontransaction tx(observer);
        if (tx.exec1("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                     "AND wait_event_type = 'Lock'")[0]
                .as<int>()
            >= n)
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return false;
}

QByteArray eventJsonLine(const rd::SuccessfulRenewalEvent &e)
{
    return QByteArray::fromStdString(rd::toJson(e).dump() + "\n");
}

} // namespace

/// Exactly once under concurrency, crashes and lost acknowledgements: separate connections
/// started together, separate OS processes, killed processes.
class TestRenewalConcurrency : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

    /// `winner` records renewal key in_1 for sub_2 without committing; then sub_1's February
    /// renewal under the same key starts and is left waiting on that uncommitted row. Returns
    /// the pending outcome (invalid when the handler never started waiting).
    std::future<rd::ApplyOutcome> raceAnUncommittedWinner(
        pqxx::work &winner, pqxx::connection &observer)
    {
        winner.exec0(
            "INSERT INTO subscription_billing_periods (subscription_id, provider_key, "
            "provider_renewal_key, provider_event_id, period_start, period_end, "
            "paid_amount_minor, currency, paid_at) SELECT id, 'stripe-main', 'in_1', "
            "'evt_winner', current_period_end, current_period_end + interval '1 month', "
            "1999, 'USD', now() FROM subscriptions WHERE provider_subscription_id = 'sub_2'");
        auto pending = std::async(std::launch::async, [this] {
            rd::RenewalApplier applier(m_db->conninfo());
            return applier.apply(februaryRenewal("sub_1"), kWebhook);
        });
        if (!waitForLockWaiters(observer, 1))
            return {};
        return pending;
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
        // Twenty independent races, each between two connections released by one latch.
        for (int i = 1; i <= 20; ++i) {
            const std::string sub = "sub_" + std::to_string(i);
            rd::RenewalApplier a(m_db->conninfo()), b(m_db->conninfo());
            std::latch go(2);
            auto run = [&](rd::RenewalApplier &applier, const std::string &eventId) {
                go.arrive_and_wait();
                return applier.apply(februaryRenewal(sub, eventId, "in_" + sub), kWebhook).result;
            };
            auto fa = std::async(std::launch::async, run, std::ref(a), "evt_paid_" + sub);
            auto fb = std::async(std::launch::async, run, std::ref(b), "evt_succeeded_" + sub);
            const auto ra = fa.get(), rb = fb.get();
            QVERIFY2((ra == ApplyResult::Applied && rb == ApplyResult::Duplicate)
                    || (ra == ApplyResult::Duplicate && rb == ApplyResult::Applied),
                (rd::resultName(ra) + " / " + rd::resultName(rb)).c_str());
            auto conn = m_db->connect();
            const auto seen = observe(*conn, sub);
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
        auto controller = m_db->connect();
        auto observer = m_db->connect();
        pqxx::work hold(*controller);
        hold.exec(
            "SELECT 1 FROM subscriptions WHERE provider_subscription_id = 'sub_1' FOR UPDATE");

        std::vector<std::future<ApplyResult>> results;
        for (int i = 0; i < handlers; ++i) {
            results.push_back(std::async(std::launch::async, [this, i] {
                rd::RenewalApplier applier(m_db->conninfo());
                return applier.apply(februaryRenewal("sub_1", "evt_" + std::to_string(i)), kWebhook)
                    .result;
            }));
        }
        QVERIFY(waitForLockWaiters(*observer, handlers));
        hold.commit();
        int applied = 0, duplicates = 0;
        for (auto &f : results) {
            const auto r = f.get();
            applied += r == ApplyResult::Applied;
            duplicates += r == ApplyResult::Duplicate;
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
        auto controller = m_db->connect();
        auto observer = m_db->connect();
        pqxx::work hold(*controller);
        hold.exec(
            "SELECT 1 FROM subscriptions WHERE provider_subscription_id = 'sub_1' FOR UPDATE");
        auto corrected = februaryRenewal("sub_1", "evt_b", "in_b");
        corrected.period.end = *rd::parseRfc3339("2026-03-15T00:00:00Z");
        std::vector<rd::SuccessfulRenewalEvent> events {
            februaryRenewal("sub_1", "evt_a", "in_a"), corrected};
        std::vector<std::future<rd::ApplyOutcome>> results;
        for (const auto &e : events)
            results.push_back(std::async(std::launch::async, [this, e] {
                rd::RenewalApplier applier(m_db->conninfo());
                return applier.apply(e, kWebhook);
            }));
        QVERIFY(waitForLockWaiters(*observer, 2));
        hold.commit();
        int applied = 0;
        std::string rejection;
        for (auto &f : results) {
            const auto out = f.get();
            applied += out.result == ApplyResult::Applied;
            if (out.result == ApplyResult::Rejected)
                rejection = out.errorCode;
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
        pqxx::work winner(*controller);
        auto pending = raceAnUncommittedWinner(winner, *observer);
        QVERIFY(pending.valid());
        winner.commit();
        const auto out = pending.get();
        QCOMPARE(out.result, ApplyResult::Rejected);
        QCOMPARE(out.errorCode, std::string("provider_renewal_key_payload_conflict"));
        const auto seen = observe(*observer, "sub_1");
        QCOMPARE(seen.billingPeriods, 0LL);
        QCOMPARE(seen.revision, 1LL);
        QCOMPARE(seen.periodEnd, std::string("2026-02-01T00:00:00.000000Z"));
    }

    void uncommittedWinnerThatRollsBackLetsTheWaiterApply()
    {
        auto controller = m_db->connect();
        auto observer = m_db->connect();
        pqxx::work winner(*controller);
        auto pending = raceAnUncommittedWinner(winner, *observer);
        QVERIFY(pending.valid());
        winner.abort();
        QCOMPARE(pending.get().result, ApplyResult::Applied);
        QCOMPARE(observe(*observer, "sub_1").billingPeriods, 1LL);
    }

    void eightProcessesOneEvent()
    {
        constexpr int processes = 8;
        const QByteArray line = eventJsonLine(februaryRenewal());
        std::vector<std::unique_ptr<QProcess>> procs;
        // All started before any is given its input, then all fed at once.
        for (int i = 0; i < processes; ++i) {
            auto p = std::make_unique<QProcess>();
            p->start(rdtest::ctl(), {"apply", "--db", QString::fromStdString(m_db->conninfo())});
            QVERIFY(p->waitForStarted());
            procs.push_back(std::move(p));
        }
        for (auto &p : procs) {
            p->write(line);
            p->closeWriteChannel();
        }
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
        auto conn = m_db->connect();
        const auto seen = observe(*conn);
        QCOMPARE(seen.billingPeriods, 1LL);
        QCOMPARE(seen.renewalAudits, 1LL);
        QCOMPARE(seen.outbox, 1LL);
        QCOMPARE(seen.revision, 2LL);
    }

    void crashBeforeCommitLeavesNothing()
    {
        auto conn = m_db->connect();
        const auto before = observe(*conn);
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("RENEWAL_DESK_FAULT", "pause-before-commit");
        p.setProcessEnvironment(env);
        p.start(rdtest::ctl(), {"apply", "--db", QString::fromStdString(m_db->conninfo())});
        QVERIFY(p.waitForStarted());
        p.write(eventJsonLine(februaryRenewal()));
        p.closeWriteChannel();
        // The process stops itself inside the transaction, after the work, before COMMIT.
        QByteArray err;
        for (int i = 0; i < 400 && !err.contains("paused before commit"); ++i) {
            p.waitForReadyRead(50);
            err += p.readAllStandardError();
        }
        QVERIFY2(err.contains("paused before commit"), err.constData());
        QCOMPARE(observe(*conn), before); // uncommitted work is invisible
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(10000));

        // The server rolls the dead session's transaction back; the lock is released.
        for (int i = 0; i < 100; ++i) {
            pqxx::nontransaction tx(*conn);
            if (tx.exec1("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                         "current_database() AND pid <> pg_backend_pid() AND state IS NOT NULL "
                         "AND backend_type = 'client backend'")[0]
                    .as<int>()
                == 0)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        QCOMPARE(observe(*conn), before);

        // The provider retries: applied, once.
        rd::RenewalApplier applier(m_db->conninfo());
        QCOMPARE(applier.apply(februaryRenewal(), kWebhook).result, ApplyResult::Applied);
        const auto after = observe(*conn);
        QCOMPARE(after.billingPeriods, 1LL);
        QCOMPARE(after.revision, before.revision + 1);
    }

    void lostAcknowledgementThenRetryIsDuplicate()
    {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("RENEWAL_DESK_FAULT", "exit-after-commit");
        const auto crashed = rdtest::runProgram(rdtest::ctl(),
            {"apply", "--db", QString::fromStdString(m_db->conninfo())},
            eventJsonLine(februaryRenewal()), env);
        QCOMPARE(crashed.exitCode, 99);
        QVERIFY(crashed.out.isEmpty()); // the provider never got its acknowledgement
        auto conn = m_db->connect();
        const auto committed = observe(*conn);
        QCOMPARE(committed.billingPeriods, 1LL);

        const auto retry = rdtest::runProgram(rdtest::ctl(),
            {"apply", "--db", QString::fromStdString(m_db->conninfo())},
            eventJsonLine(februaryRenewal("sub_1", "evt_1_retry")));
        QCOMPARE(retry.exitCode, 0);
        QCOMPARE(nlohmann::json::parse(retry.out.toStdString())["result"], "duplicate");
        QCOMPARE(observe(*conn), committed);
    }

    void serializationFailureIsRetried()
    {
        // Under SERIALIZABLE, locking a row that a concurrent transaction changed after our
        // snapshot fails with 40001: the applier must run the whole transaction again.
        auto controller = m_db->connect();
        auto observer = m_db->connect();
        pqxx::work concurrent(*controller);
        concurrent.exec0("UPDATE subscriptions SET updated_at = now() "
                         "WHERE provider_subscription_id = 'sub_1'");
        auto pending = std::async(std::launch::async, [this] {
            rd::RenewalApplier applier(
                m_db->conninfo() + " options='-c default_transaction_isolation=serializable'");
            return applier.apply(februaryRenewal(), kWebhook);
        });
        QVERIFY(waitForLockWaiters(*observer, 1));
        concurrent.commit();
        const auto out = pending.get();
        QCOMPARE(out.result, ApplyResult::Applied);
        QCOMPARE(out.attempts, 2);
        QCOMPARE(observe(*observer).billingPeriods, 1LL);
    }

    void lostConnectionIsRetried()
    {
        auto controller = m_db->connect();
        auto observer = m_db->connect();
        pqxx::work hold(*controller);
        hold.exec(
            "SELECT 1 FROM subscriptions WHERE provider_subscription_id = 'sub_1' FOR UPDATE");
        auto pending = std::async(std::launch::async, [this] {
            rd::RenewalApplier applier(m_db->conninfo());
            return applier.apply(februaryRenewal(), kWebhook);
        });
        QVERIFY(waitForLockWaiters(*observer, 1));
        {
            // The network drops the handler's session while it waits inside the transaction.
            pqxx::nontransaction tx(*observer);
            QCOMPARE(tx.exec1("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM "
                              "pg_stat_activity WHERE datname = current_database() AND "
                              "wait_event_type = 'Lock'")[0]
                         .as<int>(),
                1);
        }
        hold.commit();
        const auto out = pending.get();
        QCOMPARE(out.result, ApplyResult::Applied);
        QCOMPARE(out.attempts, 2);
        const auto seen = observe(*observer);
        QCOMPARE(seen.billingPeriods, 1LL);
        QCOMPARE(seen.revision, 2LL);
    }
};

QTEST_GUILESS_MAIN(TestRenewalConcurrency)
#include "tst_renewalconcurrency.moc"
