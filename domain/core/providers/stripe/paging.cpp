// GET /v1/invoices, then /v1/refunds and /v1/disputes (#40): `limit` 1..100; invoices'
// `status` one of draft, open, paid, uncollectible, void; `created[gte]`/`created[lte]` (Unix
// seconds) filter by creation only (hence the created lookback); newest first; `starting_after=<id
// of the last object>` gives the next page while `has_more` is true. Authorization: Bearer <secret
// key>.

#include "domain/core/providers/stripe/stripe.h"

#include "domain/core/providers/paging_support.h"

namespace rd::providers {

ListApi Stripe::listApi() const
{
    return {"https://api.stripe.com", 100, ListApi::Auth::Bearer, "application/json"};
}

std::vector<ListRequest> Stripe::listRequests(const ListRange &range, int pageSize) const
{
    const std::string createdFrom = unixSecondsText(range.createdFrom);
    const std::string createdTo = unixSecondsText(Timestamp {range.end.micros - 1});
    return {{"/v1/invoices",
                {{"limit", std::to_string(pageSize)}, {"status", "paid"},
                    {"created[gte]", createdFrom}, {"created[lte]", createdTo}}},
        // A refund is dated by its creation; one that fails later is listed all the same.
        {"/v1/refunds",
            {{"limit", std::to_string(pageSize)}, {"created[gte]", createdFrom},
                {"created[lte]", createdTo}},
            true},
        // Every dispute: one withdrawn in the range may have been opened long before, and one
        // won in it (its reinstatement) months after it was opened. An account has few.
        {"/v1/disputes", {{"limit", std::to_string(pageSize)}}, true}};
}

NextPage Stripe::nextListPage(const nlohmann::json &page) const
{
    requireListArray(page, "data");
    if (!pageHasMore(page, ""))
        return {};
    const auto &data = page["data"];
    const auto *id = data.empty() ? nullptr : member(data.back(), "id");
    if (!id || !id->is_string() || id->get<std::string>().empty())
        throw BadListPage("has_more without an id on the last object");
    return firstWith("starting_after", id->get<std::string>());
}

} // namespace rd::providers
