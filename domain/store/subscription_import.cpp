#include "domain/store/subscription_import.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/internal/pqxx_session.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <array>

namespace rd {
namespace {

constexpr std::size_t kBatchSize = 5000;

// Writes one batch: the subscriptions, their audit rows, and the keys that already existed.
void flushBatch(
    pqxx::work &tx, nlohmann::json &batch, const std::string &actorId, ImportReport &report)
{
    if (batch.empty())
        return;
    const auto rows = tx.exec_params(
        R"(WITH input AS (
               SELECT ord, x.* FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(v, ord),
                   jsonb_to_record(e.v) AS x("providerKey" text, "providerSubscriptionId" text,
                       status text, "periodStart" timestamptz, "periodEnd" timestamptz,
                       "cancelAtPeriodEnd" boolean, "providerVersion" text)),
           created AS (
               INSERT INTO subscriptions (provider_key, provider_subscription_id, status,
                   current_period_start, current_period_end, cancel_at_period_end,
                   provider_version)
               SELECT "providerKey", "providerSubscriptionId", status, "periodStart",
                      "periodEnd", "cancelAtPeriodEnd", "providerVersion"
                 FROM input ORDER BY ord
               ON CONFLICT (provider_key, provider_subscription_id) DO NOTHING
               RETURNING id, provider_key, provider_subscription_id, status,
                         current_period_start, current_period_end, cancel_at_period_end),
           audited AS (
               INSERT INTO subscription_transition_audits (subscription_id, transition,
                   actor_type, actor_id, period_start, period_end, details)
               SELECT id, 'subscription_imported', 'import', $2, current_period_start,
                      current_period_end,
                      jsonb_build_object('status', status,
                                         'cancelAtPeriodEnd', cancel_at_period_end)
                 FROM created)
           SELECT i."providerKey", i."providerSubscriptionId", c.id IS NOT NULL
             FROM input i
             LEFT JOIN created c ON c.provider_key = i."providerKey"
                                AND c.provider_subscription_id = i."providerSubscriptionId"
            ORDER BY i.ord)",
        batch.dump(), actorId);
    // A line repeated within one batch joins its created row twice: count each key once.
    std::string lastCreated;
    for (const auto &row : rows) {
        const std::string key = row[0].as<std::string>() + "/" + row[1].as<std::string>();
        if (row[2].as<bool>() && key != lastCreated) {
            ++report.created;
            lastCreated = key;
        } else {
            report.existing.push_back(key);
        }
    }
    batch = nlohmann::json::array();
}

} // namespace

ImportReport importSubscriptions(DbRef db, std::istream &in, const std::string &actorId)
{
    pqxx::connection &conn = pqxxOf(db);
    ImportReport report;
    pqxx::work tx(conn);
    nlohmann::json batch = nlohmann::json::array();
    std::string line;
    while (std::getline(in, line)) {
        ++report.lines;
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        SubscriptionRecord r;
        try {
            r = subscriptionRecordFromJson(parseUntrustedJson(line));
        } catch (const InputError &e) {
            throw e.locatedAt("line " + std::to_string(report.lines));
        }
        batch.push_back({{"providerKey", r.providerKey},
            {"providerSubscriptionId", r.providerSubscriptionId}, {"status", r.status},
            {"periodStart",
                r.currentPeriod ? nlohmann::json(formatRfc3339(r.currentPeriod->start))
                                : nlohmann::json()},
            {"periodEnd",
                r.currentPeriod ? nlohmann::json(formatRfc3339(r.currentPeriod->end))
                                : nlohmann::json()},
            {"cancelAtPeriodEnd", r.cancelAtPeriodEnd},
            {"providerVersion",
                r.providerVersion ? nlohmann::json(*r.providerVersion) : nlohmann::json()}});
        if (batch.size() >= kBatchSize)
            flushBatch(tx, batch, actorId, report);
    }
    flushBatch(tx, batch, actorId, report);
    tx.commit();
    return report;
}

bool hasSubscriptions(DbRef db)
{
    pqxx::read_transaction tx(pqxxOf(db));
    return tx.exec1("SELECT EXISTS (SELECT 1 FROM subscriptions)")[0].as<bool>();
}

} // namespace rd
