// GET /invoices (API v3): `Accept: application/vnd.recurly.v2021-02-25+json` on every request
// (the version; without it the request fails); `limit` up to 200; `begin_time`/`end_time`
// (ISO 8601) filter by the `sort` field, created_at by default (hence the created lookback);
// `next` is a path with the cursor while `has_more`. HTTP basic auth: the API key as user, no
// password.
//
// Then GET /transactions (#40), the same list shape and paging: `type` (authorization, capture,
// payment, purchase, refund, verify), `success`, `limit`, `order`, `sort` (created_at by
// default, or updated_at) and `begin_time`/`end_time`, each "inclusively" filtering by the sort
// field (recurly-client-python openapi/api.yaml, list_transactions, 2024-03; the same on
// docs.recurly.com/recurly-subscriptions/v2021-02-25/reference/list_transactions). Refunds
// created from the created lookback on: one declined or voided in the range (its reversal)
// may have been made before it.

#include "domain/core/providers/recurly/recurly.h"

#include "domain/core/providers/paging_support.h"

namespace rd::providers {

ListApi Recurly::listApi() const
{
    return {"https://v3.recurly.com", 200, ListApi::Auth::BasicUser,
        "application/vnd.recurly.v2021-02-25+json"};
}

std::vector<ListRequest> Recurly::listRequests(const ListRange &range, int pageSize) const
{
    return {
        {"/invoices",
            {{"limit", std::to_string(pageSize)}, {"begin_time", formatRfc3339(range.createdFrom)},
                {"end_time", formatRfc3339(range.end)}}},
        {"/transactions",
            {{"limit", std::to_string(pageSize)}, {"type", "refund"},
                {"begin_time", formatRfc3339(range.createdFrom)},
                {"end_time", formatRfc3339(range.end)}},
            true}};
}

NextPage Recurly::nextListPage(const nlohmann::json &page) const
{
    requireListArray(page, "data");
    return linkWhileHasMore(page, "");
}

} // namespace rd::providers
