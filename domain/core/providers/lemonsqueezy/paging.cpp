// GET /v1/subscription-invoices: JSON:API (`Accept: application/vnd.api+json`);
// `page[number]`, `page[size]` 1..100; no date filter (newest first); `links.next` is the next
// page's full URL, absent or null on the last. Bearer.
//
// It is the money back's list too (#40): Lemon Squeezy has no refund object, and each listed
// invoice carries its running total refunded (`refunded_amount`, with `refunded_at` once refunded
// in full; Pay's fixture subscription_payment_refunded.json, and its `status` refunded or
// partial_refund per docs.lemonsqueezy.com/api/subscription-invoices). The list's only filters
// are store_id, status, refunded and subscription_id (.../list-all-subscription-invoices): no
// other list is asked for, and this one, read whole, holds every refund.

#include "domain/core/providers/lemonsqueezy/lemonsqueezy.h"

#include "domain/core/providers/paging_support.h"

namespace rd::providers {

ListApi LemonSqueezy::listApi() const
{
    return {"https://api.lemonsqueezy.com", 100, ListApi::Auth::Bearer, "application/vnd.api+json"};
}

std::vector<ListRequest> LemonSqueezy::listRequests(const ListRange &, int pageSize) const
{
    return {{"/v1/subscription-invoices",
        {{"page[number]", "1"}, {"page[size]", std::to_string(pageSize)}}, true}};
}

NextPage LemonSqueezy::nextListPage(const nlohmann::json &page) const
{
    requireListArray(page, "data");
    const auto *links = member(page, "links");
    const auto *next = links ? member(*links, "next") : nullptr;
    if (!next || next->is_null())
        return {};
    if (!next->is_string())
        throw BadListPage("links.next is not a URL");
    return {NextPage::Kind::Link, {}, next->get<std::string>()};
}

} // namespace rd::providers
