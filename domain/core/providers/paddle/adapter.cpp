// Paddle Billing: an event {event_id, event_type, occurred_at, data} whose data is a
// transaction.
//
// A renewal is `transaction.completed` with data.origin = subscription_recurring. We ignore
// `transaction.paid` on purpose: it fires for the same transaction (same renewal key) and may
// lack subscription_id; `completed` is the settled state. `notification_id` is per webhook
// destination, so the delivery id is `event_id`.
//
// Amounts are strings of minor units: data.details.totals.grand_total is what the customer paid
// for this transaction. It may exceed the plan price (deferred one-time or prorated charges
// ride along on a recurring transaction); the core compares amounts only per renewal key.
// The period is data.billing_period {starts_at, ends_at}, RFC 3339 (sometimes with
// microseconds). paidAt is the first captured payment's captured_at, else the event's
// occurred_at (in a statement, which has no event: the transaction's billed_at).
// providerVersion is null: transactions carry no version number.
//
// Other origins: web/api (a checkout or API-created first purchase) -> first_invoice,
// subscription_update -> proration, subscription_charge (one-time charge) -> manual_invoice.
// adjustment.created/updated are refunds, chargebacks and credits: money_back.cpp.
// Failed payments and the subscription's standing (#41) are payment_trouble.cpp's.
//
// A statement is GET /transactions' output, {"data": [transaction...], "meta": {"pagination":
// {"per_page", "next", "has_more", "estimated_total"}}}: `next` is present even on the last
// page, so only has_more tells. A listed transaction's paid time falls back to its billed_at.
// Its money back (#40) is GET /adjustments' output, the same page shape holding adjustments,
// told from transactions by their `action` (which no transaction has) and read by
// money_back.cpp as an adjustment event's data is.

#include "domain/core/providers/paddle/paddle.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

namespace rd::providers {

using namespace adapters;

namespace {

std::optional<Timestamp> capturedAt(const nlohmann::json &txn, const std::string &path)
{
    const auto payments = txn.find("payments");
    if (payments == txn.end() || !payments->is_array())
        return std::nullopt;
    for (std::size_t i = 0; i < payments->size(); ++i) {
        const auto &p = (*payments)[i];
        if (!p.is_object())
            continue;
        const auto status = p.find("status");
        const auto at = p.find("captured_at");
        if (status != p.end() && *status == "captured" && at != p.end() && !at->is_null())
            return requireRfc3339(p, indexPath(joinPath(path, "payments"), i), "captured_at");
    }
    return std::nullopt;
}

NormalizeResult classifyTransaction(DeliveryIds &ids, const nlohmann::json &txn,
    const std::string &path, const FallbackTime &fallbackPaidAt);

} // namespace

NormalizeResult Paddle::normalize(
    std::string_view providerKey, std::string_view, const nlohmann::json &body) const
{
    DeliveryIds ids {
        std::string(providerKey), requireIdentifier(body, "", "event_id"), {}, false, {}};
    return withDeliveryIds(ids, [&] {
        const std::string type = requireString(body, "", "event_type");
        if (type == "adjustment.created" || type == "adjustment.updated")
            return classifyPaddleAdjustment(requireField(body, "", "data"), "data", type);
        if (isPaddlePaymentTroubleEvent(type))
            return classifyPaddlePaymentTrouble(ids, body, type);
        if (type != "transaction.completed")
            return notARenewal("other_event_type", "Paddle event type " + type + " is not handled");
        return classifyTransaction(ids, requireField(body, "", "data"), "data",
            [&] { return requireRfc3339(body, "", "occurred_at"); });
    });
}

namespace {

NormalizeResult classifyTransaction(DeliveryIds &ids, const nlohmann::json &txn,
    const std::string &path, const FallbackTime &fallbackPaidAt)
{
    const std::string txnId = requireIdentifier(txn, path, "id");
    ids.objectId = txnId;
    if (const auto sub = optionalIdentifier(txn, path, "subscription_id"))
        ids.subscriptionId = *sub;
    const std::string origin = requireString(txn, path, "origin");
    const std::string status = requireString(txn, path, "status");
    if (origin == "web" || origin == "api")
        return notARenewal("first_invoice",
            "transaction " + txnId + " (origin " + origin + ") is a first purchase");
    if (origin == "subscription_update")
        return notARenewal(
            "proration", "transaction " + txnId + " bills a subscription change (proration)");
    if (origin == "subscription_charge")
        return notARenewal(
            "manual_invoice", "transaction " + txnId + " is a one-time charge on a subscription");
    if (origin != "subscription_recurring")
        return notARenewal(
            "other_billing_reason", "transaction " + txnId + " has origin " + origin);
    if (status != "completed")
        return notARenewal("unpaid", "transaction " + txnId + " has status " + status);

    // Required on a recurring transaction: without it the renewal belongs nowhere.
    ids.subscriptionId = requireIdentifier(txn, path, "subscription_id");
    const std::string periodPath = joinPath(path, "billing_period");
    const auto &bp = requireField(txn, path, "billing_period");
    if (!bp.is_object())
        throw InputError(periodPath, "expected an object with starts_at and ends_at");
    const Period period = checkedPeriod(requireRfc3339(bp, periodPath, "starts_at"),
        requireRfc3339(bp, periodPath, "ends_at"), joinPath(periodPath, "ends_at"));
    const std::string detailsPath = joinPath(path, "details");
    const auto &details = requireField(txn, path, "details");
    const auto &totals = requireField(details, detailsPath, "totals");

    SuccessfulRenewalEvent e = renewalEvent(ids, txnId);
    e.period = period;
    e.paidAmountMinor
        = requireMinorUnitsString(totals, joinPath(detailsPath, "totals"), "grand_total");
    e.currency = requireCurrency(txn, path, "currency_code");
    const auto captured = capturedAt(txn, path);
    e.paidAt = captured ? *captured : fallbackPaidAt();
    return renewal(std::move(e), "transaction");
}

} // namespace

nlohmann::json Paddle::parseListed(std::string_view text) const
{
    return parseCheckedJson(text);
}

bool Paddle::listSaysMoreFollows(const nlohmann::json &page) const
{
    const auto &meta = requireField(page, "", "meta");
    return requireBool(requireField(meta, "meta", "pagination"), "meta.pagination", "has_more");
}

const nlohmann::json &Paddle::unwrapListed(const nlohmann::json &item, std::string &path) const
{
    return asListed(item, path);
}

NormalizeResult Paddle::classifyListed(
    DeliveryIds &ids, const nlohmann::json &txn, const std::string &path) const
{
    if (txn.is_object() && txn.contains("action")) {
        // An adjustment (a /adjustments page): a refund, a chargeback or a credit.
        ids.objectId = requireIdentifier(txn, path, "id");
        return classifyPaddleAdjustment(txn, path, "listed adjustment");
    }
    return classifyTransaction(
        ids, txn, path, [&] { return requireRfc3339(txn, path, "billed_at"); });
}

} // namespace rd::providers
