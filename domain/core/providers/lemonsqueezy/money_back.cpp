// Lemon Squeezy's money back (#40): subscription_payment_refunded re-sends the subscription
// invoice with its running total refunded (refunded_amount) and no refund id of its own. The
// movement is what that total adds to the refunds recorded for the invoice: keyed on the invoice
// and the total ("<invoice>/refunded/<total>"), the amount worked out by the database under the
// subscription's lock (MoneyMovement::cumulativeMinor), so that a redelivery, or a smaller total
// delivered after a larger one, adds nothing. Dated by refunded_at (set when the invoice is
// refunded in full), else by the invoice's updated_at: a partial refund has no time of its own.
// Lemon Squeezy sends no dispute webhook; order_refunded is a first purchase's order, which no
// renewal is.

#include "domain/core/providers/lemonsqueezy/lemonsqueezy.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

namespace rd::providers {

using namespace adapters;

NormalizeResult classifyLemonSqueezyRefund(const nlohmann::json &resource, const std::string &path)
{
    if (requireString(resource, path, "type") != "subscription-invoices")
        throw InputError(joinPath(path, "type"), "expected subscription-invoices");
    const std::string invoiceId = requireId(resource, path, "id");
    const std::string attrsPath = joinPath(path, "attributes");
    const auto &attrs = requireField(resource, path, "attributes");
    const auto refunded = attrs.find("refunded_amount");
    if (refunded == attrs.end() || refunded->is_null())
        throw InputError(joinPath(attrsPath, "refunded_amount"),
            "a refunded invoice must say how much of it was refunded");
    MoneyMovement m;
    m.amountMinor = requireNonNegativeInteger(attrs, attrsPath, "refunded_amount");
    m.currency = requireCurrency(attrs, attrsPath, "currency");
    const auto refundedAt = optionalRfc3339(attrs, attrsPath, "refunded_at");
    m.occurredAt = refundedAt ? *refundedAt : requireRfc3339(attrs, attrsPath, "updated_at");
    m.renewalRefs = {invoiceId};
    m.movementKey = invoiceId + "/refunded/" + std::to_string(m.amountMinor);
    m.cumulativeMinor = m.amountMinor;
    std::vector<MoneyMovement> movements;
    if (m.amountMinor > 0)
        movements.push_back(std::move(m));
    return moneyMoved(std::move(movements), "refund",
        "Lemon Squeezy subscription_payment_refunded: invoice " + invoiceId + ", "
            + std::to_string(movements.empty() ? 0 : movements.front().amountMinor)
            + " minor units refunded in all");
}

} // namespace rd::providers
