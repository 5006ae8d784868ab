#include "domain/store/outbox_publisher.h"

#include "domain/store/database_target.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

#include <chrono>
#include <vector>

namespace rd {
namespace {

constexpr const char *kChannel = "renewal_desk_outbox";

// Wakes the follower; the notification carries nothing, the table is the message.
class Wakeup : public pqxx::notification_receiver
{
public:
    Wakeup(pqxx::connection &conn) : pqxx::notification_receiver(conn, kChannel) { }
    void operator()(const std::string &, int) override { }
};

struct Failure
{
    std::string id;
    std::string error;
};

// One claim-deliver-mark transaction. Returns the number of intents claimed.
int publishBatch(pqxx::connection &conn, OutboxSink &sink, const PublishOptions &options,
    const std::atomic<bool> &stop, PublishReport &report)
{
    pqxx::work tx(conn);
    const auto rows = tx.exec_params(
        "SELECT id, event_type, subscription_id, billing_period_id, payload, attempts, "
        "rd_rfc3339(created_at) FROM outbox_claim($1, $2)",
        options.batch, options.maxAttempts);
    if (rows.empty()) {
        tx.commit();
        return 0;
    }
    std::vector<std::string> delivered;
    std::vector<Failure> failed;
    for (const auto &row : rows) {
        if (stop.load())
            break; // the rest stays pending: released with this transaction, untouched
        OutboxIntent intent;
        intent.id = row[0].as<std::string>();
        intent.eventType = row[1].as<std::string>();
        intent.subscriptionId = row[2].as<std::string>();
        if (!row[3].is_null())
            intent.billingPeriodId = row[3].as<std::string>();
        intent.payload = nlohmann::json::parse(row[4].as<std::string>());
        intent.attempt = row[5].as<int>() + 1;
        intent.createdAt = row[6].as<std::string>();
        if (auto error = sink.deliver(intent))
            failed.push_back({intent.id, *error});
        else
            delivered.push_back(intent.id);
    }
    if (!delivered.empty()) {
        if (auto error = sink.flush()) {
            for (const auto &id : delivered)
                failed.push_back({id, *error});
            delivered.clear();
        }
    }
    if (!delivered.empty()) {
        std::string array = "{";
        for (std::size_t i = 0; i < delivered.size(); ++i)
            array += (i ? "," : "") + delivered[i];
        array += "}";
        tx.exec_params("SELECT outbox_mark_published($1::uuid[])", array);
    }
    const std::string base = std::to_string(options.retryDelay.count()) + " milliseconds";
    const std::string cap = std::to_string(options.maxRetryDelay.count()) + " milliseconds";
    for (const auto &f : failed)
        tx.exec_params("SELECT outbox_mark_failed($1::uuid, $2, $3::interval, $4::interval)", f.id,
            f.error, base, cap);
    // Only now does an intent count as published. Dying before this line means delivering
    // the batch again: at least once, never lost.
    tx.commit();
    report.delivered += static_cast<long long>(delivered.size());
    report.failed += static_cast<long long>(failed.size());
    ++report.batches;
    return static_cast<int>(rows.size());
}

} // namespace

PublishReport publishOutbox(const std::string &conninfo, OutboxSink &sink,
    const PublishOptions &options, const std::atomic<bool> &stop)
{
    auto conn = connectTo(conninfo);
    {
        // Named in pg_stat_activity, where any role sees it: the desk's "publisher running".
        pqxx::nontransaction tx(*conn);
        tx.exec0("SET application_name = " + tx.quote(kOutboxPublisherApplicationName));
    }
    PublishReport report;
    std::optional<Wakeup> wakeup;
    if (options.follow)
        wakeup.emplace(*conn); // LISTEN before the first drain: no insert slips between
    bool idle = false; // told already that it waits, and nothing happened since
    while (!stop.load()) {
        const long long batches = report.batches;
        while (!stop.load() && publishBatch(*conn, sink, options, stop, report) > 0) { }
        if (!options.follow)
            break;
        if (report.batches != batches)
            idle = false;
        if (!idle && !stop.load()) {
            idle = true;
            if (options.onIdle)
                options.onIdle();
        }
        // Sleep until a NOTIFY (an intent was committed) or the poll interval passes (retries
        // whose backoff expired, a lost notification), waking often enough to honour `stop`.
        const auto deadline = std::chrono::steady_clock::now() + options.pollInterval;
        while (!stop.load() && std::chrono::steady_clock::now() < deadline) {
            if (conn->await_notification(0, 200000) > 0)
                break;
        }
    }
    pqxx::read_transaction tx(*conn);
    report.pending
        = tx.exec1("SELECT count(*) FROM subscription_outbox WHERE published_at IS NULL")[0]
              .as<long long>();
    return report;
}

} // namespace rd
