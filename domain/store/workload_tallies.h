#pragma once

// What the bench workload (domain/workload, `renewalctl bench`) reads back from the database to
// judge a run: the store runs the SQL, the workload compares.

#include "domain/store/db_session.h"

#include <string>
#include <vector>

namespace rd {

/// How many subscriptions belong to providers whose key does not start with `keyPrefix`; 0 for
/// a database without the schema yet.
long long subscriptionsOutsidePrefix(const std::string &conninfo, const std::string &keyPrefix);

/// CHECKPOINT when the connection's role may (superuser or pg_checkpoint), so that a measure
/// does not pay for the write-back of its seeding; nothing when it may not.
void checkpointIfAllowed(DbRef db);

/// One provider's renewals as the database holds them, read in one snapshot.
struct ProviderRenewalTally
{
    long long periods = 0; ///< billing periods
    long long audits = 0; ///< subscription_renewed audit rows
    long long outbox = 0; ///< subscription_renewed outbox rows
    long long unpaired = 0; ///< billing periods without exactly one audit row and one outbox row
    struct Subscription
    {
        std::string providerSubscriptionId;
        std::string currentPeriodEnd; ///< RFC 3339
        long long revision = 0;
    };
    std::vector<Subscription> subscriptions;
};
ProviderRenewalTally tallyProviderRenewals(
    const std::string &conninfo, const std::string &providerKey);

} // namespace rd
