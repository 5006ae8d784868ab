// GET /transactions: `billed_at[GTE]`/`billed_at[LT]` (RFC 3339), `origin`, `status`,
// `per_page` (Paddle cuts a larger number to the endpoint's maximum, which clients of the
// transactions list give as 30: asked for 30); `meta.pagination.next` is a full URL carrying the
// original filters and the `after` cursor, to be used as given, while
// `meta.pagination.has_more`. Bearer.
//
// Then GET /adjustments (#40), paged alike: its filters are `id`, `action` (a comma-separated
// list: credit, credit_reverse, refund, chargeback, chargeback_reverse, chargeback_warning,
// chargeback_warning_reverse), `customer_id`, `subscription_id`, `transaction_id`, `status`,
// `order_by` (id only; default id[DESC]) and `per_page` (default 10, maximum 50), and no date
// filter: Paddle's date operators ([LT], [GTE], ...) are "only supported for transactions"
// (developer.paddle.com/api-reference/adjustments/list-adjustments and
// developer.paddle.com/api-reference/about/filter-search-sort). So every adjustment that moves
// cash is listed, whatever its date, as Stripe's disputes are: a refund is dated by its approval
// and a chargeback turned `reversed` by its update, either of which may fall in the range long
// after the adjustment was created (movements dated outside the range come along). Credits and
// chargeback warnings move no cash and are not asked for.

#include "domain/core/providers/paddle/paddle.h"

#include "domain/core/providers/paging_support.h"

namespace rd::providers {

ListApi Paddle::listApi() const
{
    return {"https://api.paddle.com", 30, ListApi::Auth::Bearer, "application/json"};
}

std::vector<ListRequest> Paddle::listRequests(const ListRange &range, int pageSize) const
{
    return {{"/transactions",
                {{"origin", "subscription_recurring"}, {"status", "completed"},
                    {"billed_at[GTE]", formatRfc3339(range.from)},
                    {"billed_at[LT]", formatRfc3339(range.end)},
                    {"per_page", std::to_string(pageSize)}}},
        {"/adjustments",
            {{"action", "refund,chargeback,chargeback_reverse"},
                {"per_page", std::to_string(pageSize)}},
            true}};
}

NextPage Paddle::nextListPage(const nlohmann::json &page) const
{
    requireListArray(page, "data");
    const auto *meta = member(page, "meta");
    const auto *pagination = meta ? member(*meta, "pagination") : nullptr;
    if (!pagination)
        throw BadListPage("no meta.pagination");
    return linkWhileHasMore(*pagination, "meta.pagination.");
}

} // namespace rd::providers
