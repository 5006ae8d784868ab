// Recurly's money back (#40): a credit invoice, fetched as the inbox stores every Recurly
// delivery (credit_invoice.* and payment.refunded name it). The cash is its refund transactions
// (transactions[] of type "refund"), each keyed on the transaction and dated by its
// created_at; a credit invoice without one credits the account and moves no cash (a credit, a
// write-off, a gift card). A refund transaction declined, failed or voided is the refund and
// its reversal, so that the net is right whichever delivery arrives first.
//
// The renewal is named by previous_invoice_id ("only populated for sites without the Only Bill
// What Changed feature") or by the line items' original_line_item_invoice_id. A credit invoice
// naming neither is refused as refund_without_renewal under its own id: support finds its
// renewal at Recurly. Recurly sends no dispute notification; disputes are not read.

#include "domain/core/providers/recurly/recurly.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <algorithm>

namespace rd::providers {

using namespace adapters;

namespace {

std::vector<std::string> renewalRefsOf(
    const nlohmann::json &invoice, const std::string &path, const std::string &invoiceId)
{
    std::vector<std::string> refs;
    addRenewalRef(refs, optionalIdentifier(invoice, path, "previous_invoice_id"));
    const auto [items, itemsPath] = recurlyLineItems(invoice, path);
    for (std::size_t i = 0; i < items->size() && refs.size() < kMaxRenewalRefs; ++i) {
        const auto &line = (*items)[i];
        if (line.is_object())
            addRenewalRef(refs,
                optionalIdentifier(line, indexPath(itemsPath, i), "original_line_item_invoice_id"));
    }
    if (refs.empty())
        refs.push_back(invoiceId); // names no renewal: a case, for support to find it
    return refs;
}

} // namespace

NormalizeResult classifyRecurlyCreditInvoice(
    DeliveryIds &ids, const nlohmann::json &invoice, const std::string &path)
{
    const std::string invoiceId = requireIdentifier(invoice, path, "id");
    ids.objectId = invoiceId;
    const auto &subs = requireArray(invoice, path, "subscription_ids");
    if (!subs.empty() && subs[0].is_string())
        ids.subscriptionId
            = boundedIdentifier(subs[0].get<std::string>(), joinPath(path, "subscription_ids[0]"));
    const std::string currency = requireCurrency(invoice, path, "currency");
    const std::string what = "Recurly credit invoice " + invoiceId;
    const auto list = invoice.find("transactions");
    if (list == invoice.end() || list->is_null() || (list->is_array() && list->empty()))
        return notARenewal("credit_note", what + " refunds no cash (a credit to the account)");
    const auto &transactions = requireArray(invoice, path, "transactions");
    const std::string listPath = joinPath(path, "transactions");
    const std::vector<std::string> refs = renewalRefsOf(invoice, path, invoiceId);
    std::vector<MoneyMovement> movements;
    for (std::size_t i = 0; i < transactions.size(); ++i) {
        const auto &txn = transactions[i];
        const std::string tp = indexPath(listPath, i);
        if (!txn.is_object())
            throw InputError(tp, "expected a transaction object");
        if (requireString(txn, tp, "type") != "refund")
            continue; // a payment applied to the credit invoice moves no money back
        const std::string status = requireString(txn, tp, "status");
        const bool failed = status == "declined" || status == "error" || status == "void";
        if (!failed && status != "success" && status != "pending" && status != "processing"
            && status != "scheduled")
            throw InputError(joinPath(tp, "status"), "unknown refund status " + status);
        MoneyMovement m;
        m.movementKey = requireIdentifier(txn, tp, "id");
        m.kind = MovementKind::Refund;
        if (requireCurrency(txn, tp, "currency") != currency)
            throw InputError(joinPath(tp, "currency"), "not the credit invoice's currency");
        m.currency = currency;
        m.amountMinor = requireRecurlyMajorUnits(txn, tp, "amount", currency);
        m.occurredAt = requireRfc3339(txn, tp, "created_at");
        m.renewalRefs = refs;
        if (m.amountMinor == 0)
            continue;
        movements.push_back(m);
        if (failed) {
            MoneyMovement back = m;
            back.kind = MovementKind::RefundReversal;
            if (const auto voided = optionalRfc3339(txn, tp, "voided_at"))
                back.occurredAt = std::max(m.occurredAt, *voided);
            else if (const auto updated = optionalRfc3339(txn, tp, "updated_at"))
                back.occurredAt = std::max(m.occurredAt, *updated);
            movements.push_back(std::move(back));
        }
    }
    std::string message = what + ": " + std::to_string(movements.size()) + " refund movement(s)";
    return moneyMoved(std::move(movements), "refund", std::move(message));
}

} // namespace rd::providers
