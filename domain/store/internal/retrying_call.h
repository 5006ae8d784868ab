#pragma once

#include "domain/core/errors.h"
#include "domain/store/database_errors.h"
#include "domain/store/retry_policy.h"

#include <pqxx/except>

#include <optional>
#include <string>
#include <type_traits>

namespace rd {

/// For retryingCall: nothing can tell whether a call cut off by a lost connection committed,
/// so the loss ends the call (an operator action run again could act twice).
struct NoLookUp
{
};

/// The store's one retry loop: runs `call(attempt)`, one whole transaction (attempts count
/// from 1), until it returns a result or `retry` gives up.
///  - 40001 / 40P01: nothing was committed; the whole call runs again after a pause.
///  - A lost connection or an in-doubt commit: it may have committed. With a look-up, before
///    running again `lookUpAfterLoss(attempt)` looks for the caller's own commit (an id the
///    caller chose; found, that commit is the result); `dropConnection()` makes the next call
///    reconnect; reconnecting that fails (DatabaseUnavailable) is retried too, the server may
///    be restarting. With NoLookUp the loss ends the call as libpqxx reported it.
///  - `call(attempt)` returning nullopt asks to run again at once (the call decides, and
///    throws, when that must stop).
/// `what` completes "lost the database connection while ..." when the connection cannot be
/// recovered. Used by the renewal core, case recording, the webhook ingest (with look-ups)
/// and every operator action (retryingAction).
template<class Call, class LookUp, class Drop>
auto retryingCall(const RetryPolicy &retry, Call call, [[maybe_unused]] LookUp lookUpAfterLoss,
    [[maybe_unused]] Drop dropConnection, [[maybe_unused]] const std::string &what) ->
    typename decltype(call(1))::value_type
{
    constexpr bool kLooksUp = !std::is_same_v<LookUp, NoLookUp>;
    [[maybe_unused]] bool inDoubt = false;
    for (int attempt = 1;; ++attempt) {
        try {
            if constexpr (kLooksUp) {
                if (inDoubt) {
                    if (auto resolved = lookUpAfterLoss(attempt))
                        return std::move(*resolved);
                }
            }
            if (auto done = call(attempt))
                return std::move(*done);
            continue;
        } catch (const pqxx::transaction_rollback &) {
            if (!retry.mayRetry(attempt))
                throw;
        } catch (const pqxx::broken_connection &) {
            if constexpr (kLooksUp) {
                inDoubt = true;
                dropConnection();
                if (!retry.mayRetry(attempt))
                    throw DatabaseUnavailable(
                        "lost the database connection while " + what + " and could not recover");
            } else {
                throw;
            }
        } catch (const DatabaseUnavailable &) {
            // Reconnecting failed; the server may be restarting.
            if (!kLooksUp || !retry.mayRetry(attempt))
                throw;
        } catch (const pqxx::in_doubt_error &) {
            if constexpr (kLooksUp) {
                inDoubt = true;
                if (!retry.mayRetry(attempt))
                    throw;
                dropConnection();
            } else {
                throw;
            }
        }
        retry.pause(attempt);
    }
}

/// Runs `attempt` (one whole transaction of an operator action) in the retry loop with the
/// default policy: a serialization failure or a deadlock ran nothing of it, so it runs again
/// after a pause; a lost connection ends it (NoLookUp). It is the store's edge: a refusal
/// (SQLSTATE class RD) leaves as ActionRefused, any other libpqxx failure as DatabaseFailure
/// (ConnectionLost for the lost connection).
template<class Attempt>
auto retryingAction(Attempt &&attempt) -> decltype(attempt())
{
    using Result = decltype(attempt());
    return translatingDatabaseErrors([&] {
        return retryingCall(
            RetryPolicy {}, [&](int) { return std::optional<Result>(attempt()); }, NoLookUp {},
            [] {}, "running an operator action");
    });
}

} // namespace rd
