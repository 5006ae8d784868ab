// GET /invoices (API v3): `Accept: application/vnd.recurly.v2021-02-25+json` on every request
// (the version; without it the request fails); `limit` up to 200; `begin_time`/`end_time`
// (ISO 8601) filter by the `sort` field, created_at by default (hence the created lookback);
// `next` is a path with the cursor while `has_more`. HTTP basic auth: the API key as user, no
// password.

#include "domain/core/providers/recurly/recurly.h"

#include "domain/core/providers/paging_support.h"

namespace rd::providers {

ListApi Recurly::listApi() const
{
    return {"https://v3.recurly.com", 200, ListApi::Auth::BasicUser,
        "application/vnd.recurly.v2021-02-25+json"};
}

ListRequest Recurly::firstListRequest(const ListRange &range, int pageSize) const
{
    return {"/invoices",
        {{"limit", std::to_string(pageSize)}, {"begin_time", formatRfc3339(range.createdFrom)},
            {"end_time", formatRfc3339(range.end)}}};
}

NextPage Recurly::nextListPage(const nlohmann::json &page) const
{
    requireListArray(page, "data");
    return linkWhileHasMore(page, "");
}

} // namespace rd::providers
