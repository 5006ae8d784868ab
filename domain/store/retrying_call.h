#pragma once

#include "domain/core/errors.h"
#include "domain/store/retry_policy.h"

#include <pqxx/except>

#include <optional>
#include <string>

namespace rd {

/// Runs one autocommit call that writes under an id the caller chose, until it is known to have
/// committed once or the retry policy gives up. Shared by the renewal core and the webhook
/// ingest, which differ only in the call and in how they find their own commit:
///  - 40001 / 40P01: nothing was committed; the whole call runs again after a pause.
///  - A lost connection or an in-doubt commit: it may have committed. Before running again,
///    `lookUpAfterLoss()` looks for the caller's id; found, that commit is the result.
///  - `call(attempt)` returning nullopt asks to run again at once (the call decides, and
///    throws, when that must stop).
/// `dropConnection()` makes the next call reconnect. `what` completes "lost the database
/// connection while ..." when the connection cannot be recovered.
/// Result has `int attempts`, set to the attempt that produced it.
template<class Result, class Call, class LookUp, class Drop>
Result callCommittingOnce(const RetryPolicy &retry, Call call, LookUp lookUpAfterLoss,
    Drop dropConnection, const std::string &what)
{
    bool inDoubt = false;
    for (int attempt = 1;; ++attempt) {
        try {
            if (inDoubt) {
                if (std::optional<Result> resolved = lookUpAfterLoss()) {
                    resolved->attempts = attempt;
                    return *resolved;
                }
            }
            if (std::optional<Result> done = call(attempt)) {
                done->attempts = attempt;
                return *done;
            }
            continue;
        } catch (const pqxx::transaction_rollback &) {
            if (!retry.mayRetry(attempt))
                throw;
        } catch (const pqxx::broken_connection &) {
            inDoubt = true;
            dropConnection();
            if (!retry.mayRetry(attempt))
                throw DatabaseUnavailable(
                    "lost the database connection while " + what + " and could not recover");
        } catch (const DatabaseUnavailable &) {
            // Reconnecting failed; the server may be restarting.
            if (!retry.mayRetry(attempt))
                throw;
        } catch (const pqxx::in_doubt_error &) {
            inDoubt = true;
            if (!retry.mayRetry(attempt))
                throw;
            dropConnection();
        }
        retry.pause(attempt);
    }
}

} // namespace rd
