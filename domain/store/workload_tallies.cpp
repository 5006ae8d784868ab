#include "domain/store/workload_tallies.h"

#include "domain/store/database_errors.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

namespace rd {

long long subscriptionsOutsidePrefix(const std::string &conninfo, const std::string &keyPrefix)
{
    return translatingDatabaseErrors([&] {
        const auto conn = connectTo(conninfo);
        pqxx::read_transaction tx(*conn);
        if (tx.exec1("SELECT to_regclass('public.subscriptions') IS NULL")[0].as<bool>())
            return 0LL;
        return tx
            .exec_params1(
                "SELECT count(*) FROM subscriptions WHERE NOT starts_with(provider_key, $1)",
                keyPrefix)[0]
            .as<long long>();
    });
}

void checkpointIfAllowed(DbRef db)
{
    translatingDatabaseErrors([&] {
        try {
            pqxx::nontransaction tx(pqxxOf(db));
            tx.exec0("CHECKPOINT");
        } catch (const pqxx::insufficient_privilege &) { }
    });
}

ProviderRenewalTally tallyProviderRenewals(
    const std::string &conninfo, const std::string &providerKey)
{
    return translatingDatabaseErrors([&] {
        const auto conn = connectTo(conninfo);
        // One snapshot: the counts and the subscriptions agree.
        pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> tx(*conn);
        const auto counts = tx.exec_params1(
            R"(SELECT
                 (SELECT count(*) FROM subscription_billing_periods WHERE provider_key = $1),
                 (SELECT count(*) FROM subscription_transition_audits a
                    JOIN subscriptions s ON s.id = a.subscription_id
                   WHERE s.provider_key = $1 AND a.transition = 'subscription_renewed'),
                 (SELECT count(*) FROM subscription_outbox o
                    JOIN subscriptions s ON s.id = o.subscription_id
                   WHERE s.provider_key = $1 AND o.event_type = 'subscription_renewed'),
                 (SELECT count(*) FROM subscription_billing_periods bp
                    LEFT JOIN (SELECT billing_period_id, count(*) AS n
                                 FROM subscription_transition_audits
                                WHERE transition = 'subscription_renewed' GROUP BY 1) a
                           ON a.billing_period_id = bp.id
                    LEFT JOIN (SELECT billing_period_id, count(*) AS n FROM subscription_outbox
                                WHERE event_type = 'subscription_renewed' GROUP BY 1) o
                           ON o.billing_period_id = bp.id
                   WHERE bp.provider_key = $1
                     AND (a.n IS DISTINCT FROM 1 OR o.n IS DISTINCT FROM 1)))",
            providerKey);
        ProviderRenewalTally tally;
        tally.periods = counts[0].as<long long>();
        tally.audits = counts[1].as<long long>();
        tally.outbox = counts[2].as<long long>();
        tally.unpaired = counts[3].as<long long>();
        for (const auto &row :
            tx.exec_params("SELECT provider_subscription_id, rd_rfc3339(current_period_end), "
                           "revision FROM subscriptions WHERE provider_key = $1",
                providerKey))
            tally.subscriptions.push_back(
                {row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<long long>()});
        return tally;
    });
}

} // namespace rd
