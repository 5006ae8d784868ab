#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rd::bench {

/// The renewal core's benchmark: seed subscriptions under a provider key of the run's own
/// ("bench-<microseconds>"), race renewals and re-deliveries of them through concurrent
/// workers in rounds, then verify the invariants from the database itself.
struct WorkloadOptions
{
    long long subscriptions = 1000;
    long long renewals = 10000;
    int workers = 8;
    double duplicates = 0.1; ///< the share of renewals delivered a second time
    unsigned seed = 1;
};

struct WorkloadReport
{
    long long subscriptions = 0;
    long long renewals = 0;
    long long deliveries = 0; ///< renewals plus re-deliveries
    int workers = 0;
    long long applied = 0;
    long long duplicates = 0;
    long long rejected = 0;
    long long retries = 0;
    double seconds = 0;
    double p50Ms = 0;
    double p99Ms = 0;
    std::vector<std::string> broken; ///< the invariants that do not hold, in words

    double renewalsPerSecond() const { return static_cast<double>(deliveries) / seconds; }
    bool invariantsHold() const { return broken.empty(); }
    nlohmann::json toJson() const;
};

/// How many subscriptions in the database are not bench data (a provider key not starting with
/// "bench-"); 0 for a database without the schema yet.
long long nonBenchSubscriptions(const std::string &conninfo);

/// Migrates the database, then runs the workload against it. Throws DatabaseUnavailable when a
/// worker fails.
WorkloadReport runRenewalWorkload(const std::string &conninfo, const WorkloadOptions &options);

} // namespace rd::bench
