#pragma once

#include <pqxx/connection> // pqxx::connection is an alias in 6.4: no forward declaration

#include <pqxx/transaction>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace rdtest {

class TestDatabase;

/// The server process id of `conn`'s session (pg_backend_pid()).
int backendPid(pqxx::connection &conn);

/// What waitForLockWaiters saw when it returned.
struct LockWaiters
{
    bool reached = false; ///< exactly the wanted number of waiters was seen in time
    std::vector<int> pids; ///< the waiting backends last seen, ascending
    std::string seen; ///< a sentence for a failure message: who waited on what, or nobody
};

/// Polls (through `observer`, not the holder's own session) until exactly `count` backends
/// wait for a lock that backend `holderPid` holds: directly, or queued behind one another for
/// the same row (the first waiter of a row holds its tuple lock, the others wait for that),
/// followed through pg_blocking_pids(). Gives up at `deadline`, or at once when more than
/// `count` wait. Use it to prove that contenders really overlapped:
///
///     const auto w = rdtest::waitForLockWaiters(*observer, holder, 2);
///     QVERIFY2(w.reached, w.seen.c_str());
LockWaiters waitForLockWaiters(pqxx::connection &observer, int holderPid, int count,
    std::chrono::milliseconds deadline = std::chrono::seconds(30));

/// Polls until backend `pid` has left pg_stat_activity (its process exited); false when it is
/// still there at `deadline`.
bool waitForBackendExit(pqxx::connection &observer, int pid,
    std::chrono::milliseconds deadline = std::chrono::seconds(30));

/// Holds one subscription's row lock from a session of its own, as a handler in the middle of
/// its renewal would, until released (or, when a check fails first, rolled back on
/// destruction). Declare it after the futures and processes that wait for it, so that it is
/// destroyed, and lets them go, before they are joined.
struct RowLockHolder
{
    std::unique_ptr<pqxx::connection> conn;
    int pid = 0; ///< the holding session's backend
    std::unique_ptr<pqxx::work> tx;

    RowLockHolder(const TestDatabase &db, const std::string &subscriptionId,
        const std::string &providerKey = "stripe-main");
    void release();
};

/// A connection dropped while it waits for a lock, and its retry: waits for exactly one
/// backend waiting on `holderPid`, terminates it (pg_terminate_backend), waits for its process
/// to exit, then for the contender's retry, in a new session, to wait behind the lock again.
/// Empty when all went so, else which step did not happen (for QVERIFY2).
std::string terminateTheWaiterAndAwaitItsRetry(pqxx::connection &observer, int holderPid);

} // namespace rdtest
