#include "tests/support/lock_waiters.h"

#include "tests/support/test_database.h"

#include <pqxx/pqxx>

#include <thread>

namespace rdtest {

int backendPid(pqxx::connection &conn)
{
    pqxx::nontransaction tx(conn);
    return tx.exec1("SELECT pg_backend_pid()")[0].as<int>();
}

LockWaiters waitForLockWaiters(
    pqxx::connection &observer, int holderPid, int count, std::chrono::milliseconds deadline)
{
    // Every backend blocked by the holder, or by a backend so blocked: a row's second waiter
    // waits for the first waiter's tuple lock, not for the holder itself.
    static const char *const kWaiters = R"(
        WITH RECURSIVE waiting(pid) AS (
            SELECT a.pid FROM pg_stat_activity a WHERE $1 = ANY (pg_blocking_pids(a.pid))
          UNION
            SELECT a.pid FROM pg_stat_activity a, waiting w
             WHERE w.pid = ANY (pg_blocking_pids(a.pid)) AND a.pid <> $1
        )
        SELECT a.pid, coalesce(a.wait_event_type, '-') || '/' || coalesce(a.wait_event, '-'),
               left(regexp_replace(coalesce(a.query, ''), '\s+', ' ', 'g'), 60)
          FROM waiting w JOIN pg_stat_activity a USING (pid)
         ORDER BY a.pid)";
    const auto until = std::chrono::steady_clock::now() + deadline;
    LockWaiters result;
    for (;;) {
        result.pids.clear();
        result.seen.clear();
        {
            pqxx::nontransaction tx(observer);
            for (const auto &row : tx.exec_params(kWaiters, holderPid)) {
                result.pids.push_back(row[0].as<int>());
                result.seen += (result.seen.empty() ? "" : "; ") + row[0].as<std::string>()
                    + " waits (" + row[1].as<std::string>() + ") in: " + row[2].as<std::string>();
            }
        }
        const auto n = static_cast<int>(result.pids.size());
        result.reached = n == count;
        if (n >= count || std::chrono::steady_clock::now() >= until)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!result.reached)
        result.seen = "expected " + std::to_string(count)
            + " backends waiting for a lock held by backend " + std::to_string(holderPid) + ", saw "
            + std::to_string(result.pids.size()) + (result.seen.empty() ? "" : ": " + result.seen);
    return result;
}

bool waitForBackendExit(pqxx::connection &observer, int pid, std::chrono::milliseconds deadline)
{
    const auto until = std::chrono::steady_clock::now() + deadline;
    for (;;) {
        {
            pqxx::nontransaction tx(observer);
            if (tx.exec_params("SELECT 1 FROM pg_stat_activity WHERE pid = $1", pid).empty())
                return true;
        }
        if (std::chrono::steady_clock::now() >= until)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

RowLockHolder::RowLockHolder(
    const TestDatabase &db, const std::string &subscriptionId, const std::string &providerKey)
    : conn(db.connect()), pid(backendPid(*conn)), tx(std::make_unique<pqxx::work>(*conn))
{
    tx->exec_params1("SELECT 1 FROM subscriptions WHERE provider_key = $1 AND "
                     "provider_subscription_id = $2 FOR UPDATE",
        providerKey, subscriptionId);
}

void RowLockHolder::release()
{
    tx->commit();
}

std::string terminateTheWaiterAndAwaitItsRetry(pqxx::connection &observer, int holderPid)
{
    const auto first = waitForLockWaiters(observer, holderPid, 1);
    if (!first.reached)
        return "before the termination: " + first.seen;
    const int pid = first.pids.front();
    {
        pqxx::nontransaction tx(observer);
        if (!tx.exec_params1("SELECT pg_terminate_backend($1)", pid)[0].as<bool>())
            return "backend " + std::to_string(pid) + " could not be terminated";
    }
    if (!waitForBackendExit(observer, pid))
        return "terminated backend " + std::to_string(pid) + " never exited";
    const auto retry = waitForLockWaiters(observer, holderPid, 1);
    if (!retry.reached)
        return "the retry: " + retry.seen;
    if (retry.pids.front() == pid)
        return "the retry waits in the terminated session " + std::to_string(pid);
    return {};
}

} // namespace rdtest
