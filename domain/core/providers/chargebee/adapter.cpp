// Chargebee: an event {id, event_type, occurred_at, content: {invoice, subscription, ...}}.
//
// A renewal is a *paid* invoice for a renewal term, whichever event carries it
// (subscription_renewed, payment_succeeded, invoice_generated, invoice_updated): the invoice
// must belong to a subscription, have status "paid" and first_invoice false. `recurring: true`
// only says "belongs to a subscription" (first and proration invoices have it too), so it is
// not consulted. subscription_renewed is a term event: its invoice can still be payment_due,
// which gives "unpaid"; the later payment_succeeded for the same invoice is the renewal.
//
// The period comes from the plan line items (entity_type plan_item_price, or plan on
// product catalog 1.0), date_from/date_to in unix seconds; the line ending last wins.
// Proration: a mid-term change bills a plan line that ends at the subscription's current term
// end but starts after the term start. When content.subscription is present we use that to
// tell a proration invoice from a renewal (a heuristic: Chargebee has no proration flag on
// the invoice). A statement (list of invoices, each {"invoice": ...}) carries no subscription,
// so there the heuristic cannot run and a paid mid-term invoice is classified as a renewal of
// its plan line's period; the core's contiguity rule then refuses that period (it does not
// continue the subscription's last one) and opens a case: nothing is forced.
// providerVersion is the invoice's resource_version (milliseconds) as a string. paidAt is the
// invoice's paid_at, else the event's occurred_at (in a statement: the invoice's date).
//
// A statement is GET /api/v2/invoices' output, {"list": [{"invoice": {...}}...], "next_offset":
// "..."}, next_offset absent or null on the last page; a JSON line may hold {"invoice": ...} or
// the bare invoice. Its money back (#40) is GET /api/v2/transactions' output, the same page
// shape holding {"transaction": {...}} (or, on a JSON line, the bare transaction, which says
// "object": "transaction"), read by money_back.cpp as a transaction event's content is.
// Failed payments and dunning (payment_failed) and cancellations (subscription_cancelled) are
// payment_trouble.cpp's (#41).

#include "domain/core/providers/chargebee/chargebee.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

namespace rd::providers {

using namespace adapters;

namespace {

bool carriesInvoice(std::string_view type)
{
    return type == "subscription_renewed" || type == "payment_succeeded"
        || type == "invoice_generated" || type == "invoice_updated";
}

bool optionalFlag(const nlohmann::json &obj, std::string_view path, const char *key)
{
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return false;
    return requireBool(obj, path, key);
}

// Whether the plan line is a mid-term change: it ends at the current term end but starts
// after the current term start.
bool isMidTermCharge(const nlohmann::json *sub, std::string_view subPath, const Period &plan)
{
    if (sub == nullptr || !sub->is_object() || !sub->contains("current_term_start")
        || !sub->contains("current_term_end"))
        return false;
    const Timestamp termStart = requireUnixSeconds(*sub, subPath, "current_term_start");
    const Timestamp termEnd = requireUnixSeconds(*sub, subPath, "current_term_end");
    return plan.end == termEnd && plan.start > termStart;
}

NormalizeResult classifyInvoice(DeliveryIds &ids, const nlohmann::json &invoice,
    const std::string &path, const nlohmann::json *subscription, std::string_view subscriptionPath,
    const FallbackTime &fallbackPaidAt);

} // namespace

NormalizeResult Chargebee::normalize(
    std::string_view providerKey, std::string_view, const nlohmann::json &body) const
{
    DeliveryIds ids {std::string(providerKey), requireIdentifier(body, "", "id"), {}, false, {}};
    return withDeliveryIds(ids, [&] {
        const std::string type = requireString(body, "", "event_type");
        if (isChargebeeMoneyBackEvent(type))
            return classifyChargebeeMoneyBack(body, type);
        if (isChargebeePaymentTroubleEvent(type))
            return classifyChargebeePaymentTrouble(ids, body, type);
        if (!carriesInvoice(type))
            return notARenewal(
                "other_event_type", "Chargebee event type " + type + " is not handled");
        const auto &content = requireField(body, "", "content");
        const auto sub = content.is_object() ? content.find("subscription") : content.end();
        return classifyInvoice(ids, requireField(content, "content", "invoice"), "content.invoice",
            sub == content.end() ? nullptr : &*sub, "content.subscription",
            [&] { return requireUnixSeconds(body, "", "occurred_at"); });
    });
}

namespace {

NormalizeResult classifyInvoice(DeliveryIds &ids, const nlohmann::json &invoice,
    const std::string &path, const nlohmann::json *subscription, std::string_view subscriptionPath,
    const FallbackTime &fallbackPaidAt)
{
    const std::string invoiceId = requireIdentifier(invoice, path, "id");
    ids.objectId = invoiceId;
    if (const auto sub = optionalIdentifier(invoice, path, "subscription_id"))
        ids.subscriptionId = *sub;
    const std::string status = requireString(invoice, path, "status");
    if (ids.subscriptionId.empty())
        return notARenewal("manual_invoice",
            "invoice " + invoiceId + " belongs to no subscription (one-off charge)");
    if (optionalFlag(invoice, path, "first_invoice"))
        return notARenewal("first_invoice", "invoice " + invoiceId + " is a first invoice");
    if (status != "paid")
        return notARenewal("unpaid", "invoice " + invoiceId + " has status " + status);

    const std::string itemsPath = joinPath(path, "line_items");
    const auto &items = requireArray(invoice, path, "line_items");
    std::optional<Period> period;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string lp = indexPath(itemsPath, i);
        const auto entityType = optionalString(items[i], lp, "entity_type");
        if (!entityType || (*entityType != "plan_item_price" && *entityType != "plan"))
            continue;
        const Period candidate = checkedPeriod(requireUnixSeconds(items[i], lp, "date_from"),
            requireUnixSeconds(items[i], lp, "date_to"), joinPath(lp, "date_to"));
        if (!period || candidate.end > period->end)
            period = candidate;
    }
    if (!period)
        throw InputError(itemsPath, "no plan line item carries the period");
    if (isMidTermCharge(subscription, subscriptionPath, *period))
        return notARenewal("proration",
            "invoice " + invoiceId + " bills part of the current term (a mid-term change)");

    SuccessfulRenewalEvent e = renewalEvent(ids, invoiceId);
    if (invoice.contains("resource_version") && !invoice.at("resource_version").is_null())
        e.providerVersion
            = std::to_string(requireNonNegativeInteger(invoice, path, "resource_version"));
    e.period = *period;
    e.paidAmountMinor = requireNonNegativeInteger(invoice, path, "amount_paid");
    e.currency = requireCurrency(invoice, path, "currency_code");
    e.paidAt = invoice.contains("paid_at") && !invoice.at("paid_at").is_null()
        ? requireUnixSeconds(invoice, path, "paid_at")
        : fallbackPaidAt();
    return renewal(std::move(e), "invoice");
}

} // namespace

nlohmann::json Chargebee::parseListed(std::string_view text) const
{
    return parseCheckedJson(text);
}

bool Chargebee::listSaysMoreFollows(const nlohmann::json &page) const
{
    const auto next = optionalString(page, "", "next_offset");
    return next && !next->empty();
}

const nlohmann::json &Chargebee::unwrapListed(const nlohmann::json &item, std::string &path) const
{
    // A list page holds {"invoice": {...}} or {"transaction": {...}}; a JSON line may be that
    // or the bare object (neither has a key of its own kind's name).
    if (!item.is_object())
        return item;
    for (const char *wrapper : {"invoice", "transaction"}) {
        const auto it = item.find(wrapper);
        if (it == item.end())
            continue;
        path = joinPath(path, wrapper);
        return *it;
    }
    return item;
}

NormalizeResult Chargebee::classifyListed(
    DeliveryIds &ids, const nlohmann::json &invoice, const std::string &path) const
{
    if (invoice.is_object()) {
        // A /api/v2/transactions page's refund or payment reversal (#40).
        const auto object = invoice.find("object");
        if (object != invoice.end() && *object == "transaction") {
            ids.objectId = requireIdentifier(invoice, path, "id");
            return classifyChargebeeTransaction(invoice, path, "listed transaction");
        }
    }
    // No content.subscription in a list: the mid-term heuristic cannot run.
    return classifyInvoice(
        ids, invoice, path, nullptr, {}, [&] { return requireUnixSeconds(invoice, path, "date"); });
}

} // namespace rd::providers
