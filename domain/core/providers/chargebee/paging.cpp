// GET https://{site}.chargebee.com/api/v2/invoices: `limit` 1..100; filters written
// `status[is]=paid`, `paid_at[between]=[from,to]` (Unix seconds); the next page is asked with
// `offset=<next_offset>` while the answer has `next_offset`. HTTP basic auth: the API key as
// user, an empty password. The API lives on each site's own host: there is no default base.
//
// Then GET /api/v2/transactions (#40), paged alike (`limit` 1..100, `offset`): `type[in]`
// (authorization, payment, refund, payment_reversal), `date[between]` (Unix seconds: "when this
// transaction occurred"), `status[...]`, `updated_at[...]`, `sort_by[asc|desc]` (date,
// updated_at), `include_deleted` (apidocs.chargebee.com/docs/api/transactions/list-transactions;
// chargebee-node types/resources/Transaction.d.ts, ListInputParam). An `in` filter's value is a
// JSON array, as chargebee.com/docs/cli/use-cases writes `status[in]=["payment_due","not_paid"]`.
// Its page is {"list": [{"transaction": {...}}...], "next_offset"} (ListResponse, ibid.).

#include "domain/core/providers/chargebee/chargebee.h"

#include "domain/core/providers/paging_support.h"

namespace rd::providers {

ListApi Chargebee::listApi() const
{
    return {std::nullopt, 100, ListApi::Auth::BasicUser, "application/json"};
}

std::vector<ListRequest> Chargebee::listRequests(const ListRange &range, int pageSize) const
{
    // Whether `between` includes its upper bound is not stated: the exclusive end is given,
    // so that nothing paid in the last second is left out.
    return {
        {"/api/v2/invoices",
            {{"limit", std::to_string(pageSize)}, {"status[is]", "paid"},
                {"paid_at[between]",
                    "[" + unixSecondsText(range.from) + "," + unixSecondsText(range.end) + "]"}}},
        // Refunds and payment reversals (chargebacks) by their date, from the created lookback
        // on: a refund that failed in the range (its reversal, dated by updated_at) may have
        // been made before it.
        {"/api/v2/transactions",
            {{"limit", std::to_string(pageSize)}, {"type[in]", R"(["refund","payment_reversal"])"},
                {"date[between]",
                    "[" + unixSecondsText(range.createdFrom) + "," + unixSecondsText(range.end)
                        + "]"}},
            true}};
}

NextPage Chargebee::nextListPage(const nlohmann::json &page) const
{
    requireListArray(page, "list");
    const auto *offset = member(page, "next_offset");
    if (!offset || offset->is_null())
        return {};
    if (!offset->is_string() || offset->get<std::string>().empty())
        throw BadListPage("next_offset is not a string");
    return firstWith("offset", offset->get<std::string>());
}

} // namespace rd::providers
