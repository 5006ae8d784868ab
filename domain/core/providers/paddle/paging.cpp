// GET /transactions: `billed_at[GTE]`/`billed_at[LT]` (RFC 3339), `origin`, `status`,
// `per_page` (Paddle cuts a larger number to the endpoint's maximum, which clients of the
// transactions list give as 30: asked for 30); `meta.pagination.next` is a full URL carrying the
// original filters and the `after` cursor, to be used as given, while
// `meta.pagination.has_more`. Bearer.

#include "domain/core/providers/paddle/paddle.h"

#include "domain/core/providers/paging_support.h"

namespace rd::providers {

ListApi Paddle::listApi() const
{
    return {"https://api.paddle.com", 30, ListApi::Auth::Bearer, "application/json"};
}

ListRequest Paddle::firstListRequest(const ListRange &range, int pageSize) const
{
    return {"/transactions",
        {{"origin", "subscription_recurring"}, {"status", "completed"},
            {"billed_at[GTE]", formatRfc3339(range.from)},
            {"billed_at[LT]", formatRfc3339(range.end)}, {"per_page", std::to_string(pageSize)}}};
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
