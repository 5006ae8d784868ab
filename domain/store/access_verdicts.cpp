#include "domain/store/access_verdicts.h"

#include "domain/core/errors.h"
#include "domain/store/database_errors.h"
#include "domain/store/internal/pqxx_session.h"
#include "domain/store/internal/retrying_call.h"

#include <pqxx/pqxx>

namespace rd {
namespace {

std::optional<std::string> instant(std::optional<Timestamp> t)
{
    return t ? std::optional<std::string>(formatRfc3339(*t)) : std::nullopt;
}

std::string textOr(const pqxx::field &f)
{
    return f.is_null() ? std::string() : f.as<std::string>();
}

} // namespace

AccessSweepResult sweepAccess(DbRef db, std::optional<Timestamp> now, int batchSize,
    const std::function<void(const AccessSweepResult &)> &afterBatch)
{
    if (batchSize < 1 || batchSize > 10000)
        throw InputError("batch", "must be from 1 to 10000 subscriptions");
    pqxx::connection &conn = pqxxOf(db);
    AccessSweepResult total;
    // One instant for the whole sweep, so that its batches agree on what is due.
    const std::string at = translatingDatabaseErrors([&] {
        pqxx::nontransaction tx(conn);
        return tx
            .exec_params1(
                "SELECT public.rd_rfc3339(coalesce($1::timestamptz, now()))", instant(now))[0]
            .as<std::string>();
    });
    std::optional<std::string> after;
    for (;;) {
        // Each batch commits alone: a sweep stopped mid-way keeps what it recorded, and the
        // next one finds those transitions recorded.
        const auto row = retryingAction([&] {
            pqxx::work tx(conn);
            const pqxx::row r = tx.exec_params1(
                "SELECT examined, changed, last_id FROM public.access_sweep($1::timestamptz, "
                "$2::uuid, $3)",
                at, after, batchSize);
            std::tuple<long long, long long, std::optional<std::string>> out {r[0].as<long long>(),
                r[1].as<long long>(),
                r[2].is_null() ? std::nullopt : std::optional<std::string>(r[2].as<std::string>())};
            tx.commit();
            return out;
        });
        total.examined += std::get<0>(row);
        total.changed += std::get<1>(row);
        ++total.batches;
        if (afterBatch)
            afterBatch(total);
        after = std::get<2>(row);
        if (!after)
            return total;
    }
}

std::optional<nlohmann::json> accessVerdict(DbRef db, const std::string &providerKey,
    const std::string &providerSubscriptionId, std::optional<Timestamp> now)
{
    return translatingDatabaseErrors([&]() -> std::optional<nlohmann::json> {
        pqxx::read_transaction tx(pqxxOf(db));
        const pqxx::row r = tx.exec_params1(
            "SELECT public.access_verdict_json($1, $2, coalesce($3::timestamptz, now()))",
            providerKey, providerSubscriptionId, instant(now));
        if (r[0].is_null())
            return std::nullopt;
        return nlohmann::json::parse(r[0].c_str());
    });
}

std::vector<AccessTroubleRow> accessTrouble(DbRef db, std::optional<Timestamp> now,
    const std::optional<std::string> &providerKey, int limit)
{
    return translatingDatabaseErrors([&] {
        pqxx::read_transaction tx(pqxxOf(db));
        std::vector<AccessTroubleRow> out;
        for (const auto &r : tx.exec_params(
                 "SELECT subscription_id, provider_key, provider_subscription_id, verdict, "
                 "public.rd_rfc3339(since), public.rd_rfc3339(until), source, reason, attempts, "
                 "public.rd_rfc3339(last_failed_at), decline_code "
                 "FROM public.access_trouble(coalesce($1::timestamptz, now()), $2, $3)",
                 instant(now), providerKey, limit)) {
            AccessTroubleRow row;
            row.subscriptionId = r[0].as<std::string>();
            row.providerKey = r[1].as<std::string>();
            row.providerSubscriptionId = r[2].as<std::string>();
            row.verdict = r[3].as<std::string>();
            row.since = textOr(r[4]);
            row.until = textOr(r[5]);
            row.source = r[6].as<std::string>();
            row.reason = r[7].as<std::string>();
            row.attempts = r[8].as<long long>();
            row.lastFailedAt = textOr(r[9]);
            row.declineCode = textOr(r[10]);
            out.push_back(std::move(row));
        }
        return out;
    });
}

nlohmann::json extendAccess(DbRef db, const std::string &providerKey,
    const std::string &providerSubscriptionId, Timestamp until, const std::string &note)
{
    pqxx::connection &conn = pqxxOf(db);
    return retryingAction([&] {
        pqxx::nontransaction tx(conn);
        const pqxx::row r
            = tx.exec_params1("SELECT public.extend_access($1, $2, $3::timestamptz, $4)",
                providerKey, providerSubscriptionId, formatRfc3339(until), note);
        return nlohmann::json::parse(r[0].c_str());
    });
}

AccessPolicy accessPolicy(DbRef db, const std::string &providerKey)
{
    return translatingDatabaseErrors([&] {
        pqxx::read_transaction tx(pqxxOf(db));
        AccessPolicy p;
        const auto r = tx.exec_params(
            "SELECT grace_days, when_provider_gives_up FROM public.access_policies "
            "WHERE provider_key = $1",
            providerKey);
        if (!r.empty()) {
            p.graceDays = r[0][0].as<int>();
            p.keepUntilPeriodEnd = r[0][1].as<std::string>() == "keep_until_period_end";
            p.isDefault = false;
        }
        return p;
    });
}

void setAccessPolicy(DbRef db, const std::string &providerKey, const AccessPolicy &policy)
{
    if (policy.graceDays < 0 || policy.graceDays > kMaxAccessGraceDays)
        throw InputError(
            "grace days", "must be from 0 to " + std::to_string(kMaxAccessGraceDays) + " days");
    translatingDatabaseErrors([&] {
        pqxx::work tx(pqxxOf(db));
        const auto known = tx.exec_params(
            "SELECT 1 FROM public.billing_providers WHERE provider_key = $1", providerKey);
        if (known.empty())
            throw InputError("provider key", "'" + providerKey + "' is not a registered provider");
        tx.exec_params("INSERT INTO public.access_policies AS p (provider_key, grace_days, "
                       "when_provider_gives_up) VALUES ($1, $2, $3) "
                       "ON CONFLICT (provider_key) DO UPDATE SET grace_days = "
                       "EXCLUDED.grace_days, when_provider_gives_up = "
                       "EXCLUDED.when_provider_gives_up, set_by = SESSION_USER, set_at = now()",
            providerKey, policy.graceDays,
            policy.keepUntilPeriodEnd ? "keep_until_period_end" : "block");
        tx.commit();
    });
}

} // namespace rd
