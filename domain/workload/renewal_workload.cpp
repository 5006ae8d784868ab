#include "domain/workload/renewal_workload.h"

#include "domain/core/errors.h"
#include "domain/store/migrator.h"
#include "domain/store/renewal_applier.h"
#include "domain/store/subscription_import.h"
#include "domain/store/workload_tallies.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

namespace rd::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct Delivery
{
    SuccessfulRenewalEvent event;
    bool redelivery = false;
};

struct Tally
{
    std::atomic<long long> applied {0}, duplicates {0}, rejected {0}, retries {0};
};

double percentile(std::vector<double> &sorted, double p)
{
    if (sorted.empty())
        return 0;
    const auto idx
        = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size()))) - 1;
    return sorted[std::min(idx, sorted.size() - 1)];
}

} // namespace

nlohmann::json WorkloadReport::toJson() const
{
    return {{"subscriptions", subscriptions}, {"renewals", renewals}, {"deliveries", deliveries},
        {"workers", workers}, {"applied", applied}, {"duplicates", duplicates},
        {"rejected", rejected}, {"retries", retries}, {"seconds", seconds},
        {"renewalsPerSecond", renewalsPerSecond()}, {"p50Ms", p50Ms}, {"p99Ms", p99Ms},
        {"invariantsHold", invariantsHold()}, {"broken", broken}};
}

long long nonBenchSubscriptions(const std::string &conninfo)
{
    return subscriptionsOutsidePrefix(conninfo, "bench-");
}

WorkloadReport runRenewalWorkload(const std::string &conninfo, const WorkloadOptions &options)
{
    const long long subscriptions = options.subscriptions;
    const long long renewals = options.renewals;
    const int workers = options.workers;
    migrateDatabase(conninfo);
    // A provider key of its own per run, so that runs never collide in a scratch database.
    const std::string provider = "bench-"
        + std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::system_clock::now().time_since_epoch())
                             .count());
    const Timestamp epoch = makeUtc(2026, 1, 1);
    {
        std::stringstream lines;
        for (long long i = 0; i < subscriptions; ++i) {
            SubscriptionRecord r {provider, "sub-" + std::to_string(i), "active",
                Period {epoch, addMonths(epoch, 1)}, false, std::nullopt};
            lines << toJson(r).dump() << "\n";
        }
        DbSession session(conninfo);
        importSubscriptions(session, lines, "bench");
        // Measure renewals, not the write-back of the seeding.
        checkpointIfAllowed(session);
    }

    // Renewals go out in rounds: round j carries every subscription's (j+1)-th renewal, so a
    // renewal never overtakes its predecessor. Within a round, originals and re-deliveries
    // (a different event id, the same renewal) are shuffled and raced by all workers.
    const long long perSubscription = (renewals + subscriptions - 1) / subscriptions;
    std::mt19937 rng(options.seed);
    std::bernoulli_distribution redeliver(options.duplicates);
    std::vector<long long> renewedCount(static_cast<std::size_t>(subscriptions), 0);

    std::vector<std::unique_ptr<RenewalApplier>> appliers;
    for (int w = 0; w < workers; ++w)
        appliers.push_back(std::make_unique<RenewalApplier>(conninfo));

    Tally tally;
    std::vector<double> latencies;
    std::mutex latencyMutex;
    long long issued = 0;
    long long redeliveries = 0;
    const auto started = Clock::now();
    for (long long round = 0; round < perSubscription && issued < renewals; ++round) {
        std::vector<Delivery> deliveries;
        for (long long i = 0; i < subscriptions && issued < renewals; ++i, ++issued) {
            const Timestamp start = addMonths(epoch, static_cast<int>(round + 1));
            SuccessfulRenewalEvent e;
            e.providerKey = provider;
            e.providerSubscriptionId = "sub-" + std::to_string(i);
            e.providerRenewalKey = "in-" + std::to_string(i) + "-" + std::to_string(round);
            e.providerEventId = "evt-" + e.providerRenewalKey;
            e.period = Period {start, addMonths(start, 1)};
            e.paidAmountMinor = 1900 + (i % 7) * 100;
            e.currency = "EUR";
            e.paidAt = start;
            ++renewedCount[static_cast<std::size_t>(i)];
            if (redeliver(rng)) {
                Delivery again {e, true};
                again.event.providerEventId += "-again";
                deliveries.push_back(std::move(again));
                ++redeliveries;
            }
            deliveries.push_back(Delivery {std::move(e), false});
        }
        std::shuffle(deliveries.begin(), deliveries.end(), rng);

        std::atomic<std::size_t> next {0};
        std::vector<std::thread> threads;
        std::atomic<bool> failed {false};
        std::string failure;
        for (int w = 0; w < workers; ++w) {
            threads.emplace_back([&, w] {
                std::vector<double> mine;
                try {
                    for (std::size_t k; (k = next.fetch_add(1)) < deliveries.size();) {
                        const auto t0 = Clock::now();
                        const auto out
                            = appliers[static_cast<std::size_t>(w)]->apply(deliveries[k].event);
                        mine.push_back(
                            std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
                        tally.retries += out.attempts - 1;
                        if (out.outcome == ApplyOutcome::Applied)
                            ++tally.applied;
                        else if (out.outcome == ApplyOutcome::Duplicate)
                            ++tally.duplicates;
                        else
                            ++tally.rejected;
                    }
                } catch (const std::exception &e) {
                    std::lock_guard lock(latencyMutex);
                    failed = true;
                    failure = e.what();
                }
                std::lock_guard lock(latencyMutex);
                latencies.insert(latencies.end(), mine.begin(), mine.end());
            });
        }
        for (auto &t : threads)
            t.join();
        if (failed)
            throw DatabaseUnavailable("a bench worker failed: " + failure);
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    std::sort(latencies.begin(), latencies.end());

    // Verify the invariants from the database itself, not from our own counters alone.
    const auto held = tallyProviderRenewals(conninfo, provider);
    const long long periods = held.periods;

    // Each subscription advanced exactly by its renewals: end = epoch + (1 + n) months and
    // revision = 1 + n.
    long long wrongAdvance = 0;
    for (const auto &sub : held.subscriptions) {
        const auto id = std::stoll(sub.providerSubscriptionId.substr(4));
        const auto n = renewedCount[static_cast<std::size_t>(id)];
        const auto end = parseRfc3339(sub.currentPeriodEnd);
        if (!end || *end != addMonths(epoch, static_cast<int>(1 + n)) || sub.revision != 1 + n)
            ++wrongAdvance;
    }

    std::vector<std::string> broken;
    if (periods != tally.applied)
        broken.push_back("billing periods (" + std::to_string(periods) + ") != applied ("
            + std::to_string(tally.applied) + ")");
    if (tally.applied != renewals)
        broken.push_back("applied (" + std::to_string(tally.applied) + ") != renewals issued ("
            + std::to_string(renewals) + ")");
    if (tally.duplicates != redeliveries)
        broken.push_back("duplicates (" + std::to_string(tally.duplicates) + ") != re-deliveries ("
            + std::to_string(redeliveries) + ")");
    if (held.audits != periods || held.outbox != periods || held.unpaired != 0)
        broken.push_back("audits/outbox not one per billing period (" + std::to_string(held.audits)
            + "/" + std::to_string(held.outbox) + " for " + std::to_string(periods) + ")");
    if (wrongAdvance != 0)
        broken.push_back(
            std::to_string(wrongAdvance) + " subscriptions not advanced exactly by their renewals");
    if (tally.rejected != 0)
        broken.push_back(std::to_string(tally.rejected.load()) + " renewals rejected");

    const long long deliveries = renewals + redeliveries;
    WorkloadReport report;
    report.subscriptions = subscriptions;
    report.renewals = renewals;
    report.deliveries = deliveries;
    report.workers = workers;
    report.applied = tally.applied.load();
    report.duplicates = tally.duplicates.load();
    report.rejected = tally.rejected.load();
    report.retries = tally.retries.load();
    report.seconds = seconds;
    report.p50Ms = percentile(latencies, 0.50);
    report.p99Ms = percentile(latencies, 0.99);
    report.broken = std::move(broken);
    return report;
}

} // namespace rd::bench
