// The list outputs a statement is read from, as each provider's API documents them:
// - Stripe: {"object": "list", "data": [invoice...], "has_more": bool, "url": ...};
// - Paddle Billing: {"data": [transaction...], "meta": {"pagination": {"per_page", "next",
//   "has_more", "estimated_total"}}}: `next` is present even on the last page, so only
//   has_more tells;
// - Chargebee: {"list": [{"invoice": {...}}...], "next_offset": "..."}, next_offset absent or
//   null on the last page;
// - Recurly (API v2021-02-25): {"object": "list", "has_more": bool, "next": "/invoices?...",
//   "data": [invoice...]};
// - Lemon Squeezy (JSON:API): {"meta": {"page": {"currentPage", "lastPage", ...}},
//   "links": {"next": ...}, "data": [subscription-invoices resource...]}: the last page has
//   no links.next, or currentPage == lastPage.
// Each listed object is classified by its adapter's object-level function, the one its webhook
// envelope calls; what differs is only what a list lacks (an event's time, api_version,
// Chargebee's content.subscription), documented at each adapter.

#include "domain/core/statement_pages.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <array>

namespace rd::statement_pages {
namespace {

using nlohmann::json;

// Stripe and Recurly: a list object with has_more.
bool listObjectHasMore(const json &page)
{
    if (requireString(page, "", "object") != "list")
        throw InputError("object", "expected \"list\" on a list page");
    return requireBool(page, "", "has_more");
}

bool paddleHasMore(const json &page)
{
    const auto &meta = requireField(page, "", "meta");
    return requireBool(requireField(meta, "meta", "pagination"), "meta.pagination", "has_more");
}

bool chargebeeHasMore(const json &page)
{
    const auto next = optionalString(page, "", "next_offset");
    return next && !next->empty();
}

bool lemonSqueezyHasMore(const json &page)
{
    const auto links = page.find("links");
    const bool hasNext = links != page.end() && !links->is_null()
        && optionalString(*links, "links", "next").has_value();
    if (!hasNext)
        return false;
    const auto meta = page.find("meta");
    if (meta == page.end() || !meta->is_object())
        return true;
    const auto pageInfo = meta->find("page");
    if (pageInfo == meta->end() || !pageInfo->is_object() || !pageInfo->contains("currentPage")
        || !pageInfo->contains("lastPage"))
        return true;
    return requireNonNegativeInteger(*pageInfo, "meta.page", "currentPage")
        != requireNonNegativeInteger(*pageInfo, "meta.page", "lastPage");
}

const json &asListed(const json &item, std::string &)
{
    return item;
}

// A list page holds {"invoice": {...}}; a JSON line may be that or the bare invoice (which has
// no "invoice" key of its own).
const json &chargebeeInvoice(const json &item, std::string &path)
{
    if (!item.is_object())
        return item;
    const auto it = item.find("invoice");
    if (it == item.end())
        return item;
    path = joinPath(path, "invoice");
    return *it;
}

// A statement has no event: the paid time, where the object omits it, falls back to a time on
// the object itself (Stripe's created, Paddle's billed_at, Chargebee's date).
constexpr std::array<PageShape, 5> kShapes {{
    {ProviderKind::Stripe, "data", false, listObjectHasMore, asListed,
        [](adapters::DeliveryIds &ids, const json &invoice, const std::string &path) {
            return adapters::classifyStripeInvoice(ids, invoice, path,
                adapters::stripeInvoiceIsBasil(invoice, path),
                [&] { return adapters::requireUnixSeconds(invoice, path, "created"); });
        }},
    {ProviderKind::Paddle, "data", false, paddleHasMore, asListed,
        [](adapters::DeliveryIds &ids, const json &txn, const std::string &path) {
            return adapters::classifyPaddleTransaction(
                ids, txn, path, [&] { return adapters::requireRfc3339(txn, path, "billed_at"); });
        }},
    {ProviderKind::Chargebee, "list", false, chargebeeHasMore, chargebeeInvoice,
        [](adapters::DeliveryIds &ids, const json &invoice, const std::string &path) {
            // No content.subscription in a list: the mid-term heuristic cannot run.
            return adapters::classifyChargebeeInvoice(ids, invoice, path, nullptr, {},
                [&] { return adapters::requireUnixSeconds(invoice, path, "date"); });
        }},
    {ProviderKind::Recurly, "data", true, listObjectHasMore, asListed,
        [](adapters::DeliveryIds &ids, const json &invoice, const std::string &path) {
            return adapters::classifyRecurlyInvoice(ids, invoice, path);
        }},
    {ProviderKind::LemonSqueezy, "data", false, lemonSqueezyHasMore, asListed,
        [](adapters::DeliveryIds &ids, const json &resource, const std::string &path) {
            return adapters::classifyLemonSqueezyInvoice(ids, resource, path);
        }},
}};
constexpr bool shapesInEnumOrder()
{
    for (std::size_t i = 0; i < kShapes.size(); ++i) {
        if (kShapes[i].kind != static_cast<ProviderKind>(i))
            return false;
    }
    return kShapes.size() == static_cast<std::size_t>(ProviderKind::LemonSqueezy) + 1;
}
static_assert(shapesInEnumOrder(), "kShapes lists every ProviderKind once, in enum order");

} // namespace

const PageShape &pageShape(ProviderKind kind)
{
    return kShapes.at(static_cast<std::size_t>(kind));
}

} // namespace rd::statement_pages
