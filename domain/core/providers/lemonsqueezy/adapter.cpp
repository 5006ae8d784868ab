// Lemon Squeezy: {meta: {event_name, ...}, data: {type: "subscription-invoices", id,
// attributes: {subscription_id, billing_reason, status, total, currency, created_at, ...}}}.
//
// subscription_payment_success (or subscription_payment_recovered, a renewal paid after a
// failed attempt) with billing_reason = "renewal" and status = "paid" is a renewal, but the
// payload carries no billing period: the outcome is NeedsSnapshot ("missing_period"), and
// `event` carries every other field (period left zero) for the caller to complete from a
// fetched subscription. billing_reason "initial" is a first invoice, "updated" a proration.
// Ids are JSON numbers or strings; both become strings. Amounts are integer minor units.
// There is no delivery id: the event id is "sha256:<hex>" of the raw body. paidAt is the
// invoice's created_at (Lemon Squeezy creates subscription invoices when the charge is made).
//
// A statement is GET /v1/subscription-invoices' output (JSON:API), {"meta": {"page":
// {"currentPage", "lastPage", ...}}, "links": {"next": ...}, "data": [resource...]}: the last
// page has no links.next, or currentPage == lastPage.

#include "domain/core/providers/lemonsqueezy/lemonsqueezy.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

namespace rd::providers {

using namespace adapters;

namespace {

NormalizeResult classifyInvoice(
    DeliveryIds &ids, const nlohmann::json &resource, const std::string &path);

} // namespace

NormalizeResult LemonSqueezy::normalize(
    std::string_view providerKey, std::string_view rawBody, const nlohmann::json &body) const
{
    DeliveryIds ids {std::string(providerKey), derivedEventId(rawBody), {}, true, {}};
    return withDeliveryIds(ids, [&] {
        const auto &meta = requireField(body, "", "meta");
        const std::string eventName = requireString(meta, "meta", "event_name");
        if (eventName == "subscription_payment_refunded")
            return classifyLemonSqueezyRefund(requireField(body, "", "data"), "data");
        if (eventName != "subscription_payment_success"
            && eventName != "subscription_payment_recovered")
            return notARenewal(
                "other_event_type", "Lemon Squeezy event " + eventName + " is not handled");
        return classifyInvoice(ids, requireField(body, "", "data"), "data");
    });
}

namespace {

NormalizeResult classifyInvoice(
    DeliveryIds &ids, const nlohmann::json &resource, const std::string &path)
{
    if (requireString(resource, path, "type") != "subscription-invoices")
        throw InputError(joinPath(path, "type"), "expected subscription-invoices");
    const std::string invoiceId = requireId(resource, path, "id");
    ids.objectId = invoiceId;
    const std::string attrsPath = joinPath(path, "attributes");
    const auto &attrs = requireField(resource, path, "attributes");
    ids.subscriptionId = requireId(attrs, attrsPath, "subscription_id");
    const std::string reason = requireString(attrs, attrsPath, "billing_reason");
    const std::string status = requireString(attrs, attrsPath, "status");
    if (reason == "initial")
        return notARenewal("first_invoice", "invoice " + invoiceId + " is a first invoice");
    if (reason == "updated")
        return notARenewal(
            "proration", "invoice " + invoiceId + " bills a subscription change (proration)");
    if (reason != "renewal")
        return notARenewal(
            "other_billing_reason", "invoice " + invoiceId + " has billing_reason " + reason);
    if (status == "refunded" || status == "partial_refund")
        return notARenewal("refund", "invoice " + invoiceId + " has been refunded");
    if (status != "paid")
        return notARenewal("unpaid", "invoice " + invoiceId + " has status " + status);

    SuccessfulRenewalEvent e = renewalEvent(ids, invoiceId);
    e.paidAmountMinor = requireNonNegativeInteger(attrs, attrsPath, "total");
    e.currency = requireCurrency(attrs, attrsPath, "currency");
    e.paidAt = requireRfc3339(attrs, attrsPath, "created_at");
    NormalizeResult n;
    n.outcome = NormalizeOutcome::NeedsSnapshot;
    n.reason = "missing_period";
    n.message = "invoice " + invoiceId + " renews subscription " + ids.subscriptionId
        + " but the payload has no billing period; fetch the subscription";
    n.event = std::move(e);
    return n;
}

} // namespace

nlohmann::json LemonSqueezy::parseListed(std::string_view text) const
{
    return parseCheckedJson(text);
}

bool LemonSqueezy::listSaysMoreFollows(const nlohmann::json &page) const
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

const nlohmann::json &LemonSqueezy::unwrapListed(
    const nlohmann::json &item, std::string &path) const
{
    return asListed(item, path);
}

NormalizeResult LemonSqueezy::classifyListed(
    DeliveryIds &ids, const nlohmann::json &resource, const std::string &path) const
{
    return classifyInvoice(ids, resource, path);
}

} // namespace rd::providers
