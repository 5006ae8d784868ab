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
// {"currentPage", "lastPage", ...}}, "links": {"next": ...}, "data": [resource...]}: the last page
// has no links.next, or currentPage == lastPage. The list is the money back's too (#40): a listed
// renewal invoice refunded since (status refunded or partial_refund) is still the renewal it was
// (it was paid), and carries beside its event the movement subscription_payment_refunded would give
// (money_back.cpp: the running total refunded_amount, dated by refunded_at, else by the invoice's
// updated_at; a list has no event time, nor has the webhook's invoice, and a partial refund's
// updated_at as listed is the invoice's latest change, which may be later than the refund). A
// refunded invoice that is no renewal (a first invoice) carries none: its refund pays back no
// renewal (its webhook's movement waits as refund_without_renewal for a renewal that never comes).
// subscription_payment_failed and subscription_updated tell of payment trouble (#41):
// payment_trouble.cpp. subscription_payment_recovered stays the renewal it is (the failed invoice
// paid): recovery is told by that renewal, not by a standing.

#include "domain/core/providers/lemonsqueezy/lemonsqueezy.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

namespace rd::providers {

using namespace adapters;

namespace {

// `listed`: a statement's invoice, read as it is now (see classifyListed).
NormalizeResult classifyInvoice(
    DeliveryIds &ids, const nlohmann::json &resource, const std::string &path, bool listed);

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
        if (eventName == "subscription_payment_failed" || eventName == "subscription_updated")
            return classifyLemonSqueezyPaymentTrouble(
                ids, requireField(body, "", "data"), eventName);
        if (eventName != "subscription_payment_success"
            && eventName != "subscription_payment_recovered")
            return notARenewal(
                "other_event_type", "Lemon Squeezy event " + eventName + " is not handled");
        return classifyInvoice(ids, requireField(body, "", "data"), "data", false);
    });
}

namespace {

NormalizeResult classifyInvoice(
    DeliveryIds &ids, const nlohmann::json &resource, const std::string &path, bool listed)
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
    // A payment event's invoice refunded since is no renewal to record now; a listed one was
    // paid, and is the renewal still (its refund is the money back beside it).
    const bool refunded = status == "refunded" || status == "partial_refund";
    if (refunded && !listed)
        return notARenewal("refund", "invoice " + invoiceId + " has been refunded");
    if (status != "paid" && !refunded)
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
    NormalizeResult n = classifyInvoice(ids, resource, path, true);
    if (n.outcome != NormalizeOutcome::NeedsSnapshot)
        return n; // a first invoice's refund pays back no renewal: nothing to record
    // The renewal listed carries its money back (#40): the running total refunded, as
    // subscription_payment_refunded sends it, beside the event. A paid invoice of the shape
    // before refunded_amount existed has none.
    const auto &attrs = resource.at("attributes");
    const auto total = attrs.find("refunded_amount");
    if (attrs.at("status") == "paid" && (total == attrs.end() || total->is_null()))
        return n;
    n.movements = classifyLemonSqueezyRefund(resource, path).movements;
    if (!n.movements.empty())
        n.message += "; " + std::to_string(n.movements.front().amountMinor)
            + " minor units of it refunded in all";
    return n;
}

} // namespace rd::providers
