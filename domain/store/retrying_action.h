#pragma once

#include "domain/store/action_refused.h"
#include "domain/store/retry_policy.h"

#include <pqxx/except>

namespace rd {

/// Runs `attempt` (one whole transaction of an operator action) until it returns: a
/// serialization failure or a deadlock ran nothing of it, so it runs again after a pause, as
/// often as the retry policy allows; a refusal (SQLSTATE class RD) becomes ActionRefused.
template<class Attempt>
auto retryingAction(Attempt &&attempt) -> decltype(attempt())
{
    const RetryPolicy retry;
    for (int n = 1;; ++n) {
        try {
            return attempt();
        } catch (const pqxx::transaction_rollback &) {
            if (!retry.mayRetry(n))
                throw;
        } catch (const pqxx::sql_error &e) {
            if (auto refused = refusalFromError(e.sqlstate(), e.what()))
                throw *refused;
            throw;
        }
        retry.pause(n);
    }
}

} // namespace rd
