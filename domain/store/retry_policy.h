#pragma once

namespace rd {

/// How every transaction that may safely run again is retried: the renewal core, case
/// recording and the operator actions. A serialization failure (40001) or deadlock (40P01)
/// committed nothing, and each of these operations is idempotent, so the whole transaction
/// runs again after a jittered pause; a lost connection is retried by the caller that can
/// tell whether its commit landed (RenewalApplier).
struct RetryPolicy
{
    int maxAttempts = 6;

    /// Whether another attempt may follow attempt `attempt` (counting from 1).
    bool mayRetry(int attempt) const { return attempt < maxAttempts; }
    /// Sleeps before the next attempt: up to 10 ms after the first, 20 ms after the second ...
    /// capped at 500 ms (the default 6 attempts sleep at most 310 ms in all; docs/architecture.md,
    /// "How often a delivery is tried"), with full jitter so that retries of colliding
    /// transactions do not collide again.
    void pause(int attempt) const;
};

} // namespace rd
