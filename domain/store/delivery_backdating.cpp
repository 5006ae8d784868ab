#include "domain/store/delivery_backdating.h"

#include "domain/store/database_errors.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

namespace rd {
namespace {

void backdate(
    const std::string &conninfo, const std::vector<std::pair<std::int64_t, Timestamp>> &received)
{
    if (received.empty())
        return;
    auto conn = connectTo(conninfo);
    pqxx::work tx(*conn);
    if (!tx.exec1("SELECT has_table_privilege('public.webhook_inbox', 'UPDATE') "
                  "AND has_table_privilege('public.reconciliation_cases', 'UPDATE') "
                  "AND has_table_privilege('public.webhook_inbox_daily', 'DELETE')")[0]
             .as<bool>())
        return;
    std::string ids = "{";
    std::string ats = "{";
    for (const auto &[id, at] : received) {
        ids += std::to_string(id) + ',';
        ats += formatRfc3339(at) + ',';
    }
    ids.back() = '}';
    ats.back() = '}';
    // A delivery received twice keeps its first time; its redelivery came minutes later.
    tx.exec_params(
        "UPDATE public.webhook_inbox w SET received_at = r.at, "
        "last_delivery_at = r.at + (w.deliveries - 1) * interval '4 minutes', "
        "processed_at = CASE WHEN w.processed_at IS NOT NULL THEN r.at END "
        "FROM (SELECT DISTINCT ON (id) id, at FROM unnest($1::bigint[], $2::timestamptz[]) "
        "AS u(id, at) ORDER BY id, at) r WHERE w.id = r.id",
        ids, ats);
    tx.exec("UPDATE public.reconciliation_cases c SET first_seen_at = x.first_at, "
            "last_seen_at = greatest(x.first_at, x.last_at) "
            "FROM (SELECT case_id, min(received_at) AS first_at, max(last_delivery_at) AS last_at "
            "FROM public.webhook_inbox WHERE case_id IS NOT NULL GROUP BY case_id) x "
            "WHERE c.id = x.case_id");
    // A case healed by a later delivery (money back recorded when its renewal arrived, #40)
    // closed when that delivery was received, not when the story was written.
    tx.exec("UPDATE public.reconciliation_cases c SET resolved_at = greatest(c.first_seen_at, "
            "w.received_at) FROM public.reconciliation_case_history h, public.webhook_inbox w "
            "WHERE h.case_id = c.id AND c.status = 'resolved' AND c.resolved_by = 'system' "
            "AND w.provider_event_id = h.details->>'unblockedBy' "
            "AND w.provider_key = c.provider_key");
    // Days folded before the history was dated are counted again (migration 0018).
    tx.exec("DELETE FROM public.webhook_inbox_daily");
    tx.exec("UPDATE public.webhook_inbox_daily_state SET folded_before = least(folded_before, "
            "(SELECT (min(received_at) AT TIME ZONE 'UTC')::date FROM public.webhook_inbox))");
    tx.commit();
}

} // namespace

void backdateDeliveries(
    const std::string &conninfo, const std::vector<std::pair<std::int64_t, Timestamp>> &received)
{
    translatingDatabaseErrors([&] { backdate(conninfo, received); });
}

} // namespace rd
