#include "domain/store/overdue_watch.h"

#include "domain/core/errors.h"
#include "domain/store/database_errors.h"
#include "domain/store/database_target.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

namespace rd {
namespace {

// The grace as the functions take it: NULL for "each provider's own".
std::optional<double> graceSeconds(std::optional<std::chrono::seconds> grace)
{
    if (!grace)
        return std::nullopt;
    return static_cast<double>(grace->count());
}

// Rows in the keyset order of overdue_subscriptions; a full page means there may be more.
constexpr int kPageRows = 500;

} // namespace

std::vector<OverdueCount> overdueCounts(DbRef db, std::optional<std::chrono::seconds> grace)
{
    pqxx::connection &conn = pqxxOf(db);
    pqxx::read_transaction tx(conn);
    std::vector<OverdueCount> out;
    for (const auto &row :
        tx.exec_params("SELECT provider_key, extract(epoch FROM grace)::bigint, overdue "
                       "FROM public.overdue_subscription_counts(make_interval(secs => $1))",
            graceSeconds(grace))) {
        OverdueCount c;
        c.providerKey = row[0].as<std::string>();
        c.grace = std::chrono::seconds(row[1].as<long long>());
        c.overdue = row[2].as<long long>();
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<OverdueCount> overdueCounts(
    const std::string &conninfo, std::optional<std::chrono::seconds> grace)
{
    // The receiver's way in: what libpqxx throws leaves as rd:: types.
    return translatingDatabaseErrors([&] {
        const auto conn = connectTo(conninfo);
        return overdueCounts(*conn, grace);
    });
}

std::vector<OverdueSubscription> overdueSubscriptions(DbRef db,
    std::optional<std::chrono::seconds> grace, const std::optional<std::string> &providerKey)
{
    pqxx::connection &conn = pqxxOf(db);
    // One snapshot for every page: the list is consistent even while renewals arrive.
    pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> tx(conn);
    std::vector<OverdueSubscription> out;
    std::optional<std::string> afterKey, afterEnd, afterId;
    for (;;) {
        const auto page = tx.exec_params(
            "SELECT provider_key, provider_subscription_id, subscription_id::text, "
            "rd_rfc3339(current_period_end), current_period_end::text, "
            "extract(epoch FROM overdue_for)::bigint, extract(epoch FROM grace)::bigint "
            "FROM public.overdue_subscriptions(make_interval(secs => $1), $2, $3, "
            "$4::timestamptz, $5, $6)",
            graceSeconds(grace), providerKey, afterKey, afterEnd, afterId, kPageRows);
        for (const auto &row : page) {
            OverdueSubscription s;
            s.providerKey = row[0].as<std::string>();
            s.providerSubscriptionId = row[1].as<std::string>();
            s.subscriptionId = row[2].as<std::string>();
            s.currentPeriodEnd = row[3].as<std::string>();
            s.overdueFor = std::chrono::seconds(row[5].as<long long>());
            s.grace = std::chrono::seconds(row[6].as<long long>());
            afterKey = s.providerKey;
            afterEnd = row[4].as<std::string>(); // exact: rd_rfc3339 drops sub-seconds
            afterId = s.providerSubscriptionId;
            out.push_back(std::move(s));
        }
        if (page.size() < static_cast<std::size_t>(kPageRows))
            return out;
    }
}

void setOverdueGrace(DbRef db, const std::string &providerKey, std::chrono::seconds grace)
{
    pqxx::connection &conn = pqxxOf(db);
    pqxx::work tx(conn);
    try {
        const auto r = tx.exec_params(
            "UPDATE public.billing_providers SET overdue_grace = make_interval(secs => $2) "
            "WHERE provider_key = $1",
            providerKey, static_cast<double>(grace.count()));
        if (r.affected_rows() == 0)
            throw InputError("provider key", "'" + providerKey + "' is not a registered provider");
    } catch (const pqxx::check_violation &) {
        throw InputError("grace", "must be from 0 to 2160 hours (90 days)");
    }
    tx.commit();
}

} // namespace rd
