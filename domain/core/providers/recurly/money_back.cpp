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
//
// A statement's GET /transactions?type=refund page lists the refund transactions themselves,
// read by the same code as a credit invoice's: the same key, amount, currency and dates. A
// listed refund names no renewal invoice, though (Transaction has original_transaction_id, "the
// ID of the original transaction on the invoice being refunded", and its own invoice, the credit
// invoice; recurly-client-python openapi/api.yaml): its refs are those two ids, and the renewal
// is found by the first, which a renewal keeps as a payment ref (recurlyPaymentRefs: its
// invoice's successful purchase or capture transactions).

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

// A refund transaction (at `tp`, in `currency`) as the money it moved: the refund, and its
// reversal when it was declined, failed or voided; nothing for a zero amount.
void addRefund(std::vector<MoneyMovement> &movements, const nlohmann::json &txn,
    const std::string &tp, const std::string &currency, const std::vector<std::string> &refs)
{
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
        return;
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
        addRefund(movements, txn, tp, currency, refs);
    }
    std::string message = what + ": " + std::to_string(movements.size()) + " refund movement(s)";
    return moneyMoved(std::move(movements), "refund", std::move(message));
}

NormalizeResult classifyRecurlyListedTransaction(
    DeliveryIds &ids, const nlohmann::json &txn, const std::string &path)
{
    const std::string id = requireIdentifier(txn, path, "id");
    ids.objectId = id;
    const auto subs = txn.find("subscription_ids");
    if (subs != txn.end() && subs->is_array() && !subs->empty() && (*subs)[0].is_string())
        ids.subscriptionId = boundedIdentifier(
            (*subs)[0].get<std::string>(), joinPath(path, "subscription_ids[0]"));
    const std::string type = requireString(txn, path, "type");
    if (type != "refund")
        return notARenewal("other_event_type",
            "Recurly transaction " + id + " is a " + type
                + ": renewals are read from their invoices");
    // The transaction names its own (credit) invoice and the payment it refunds, not the
    // renewal's invoice, which only its credit invoice names (previous_invoice_id, the line
    // items' original invoice): those are its refs, the credit invoice's for support to find it.
    std::vector<std::string> refs;
    addRenewalRef(refs, optionalIdentifier(txn, path, "original_transaction_id"));
    const auto invoice = txn.find("invoice");
    if (invoice != txn.end() && invoice->is_object())
        addRenewalRef(refs, optionalIdentifier(*invoice, joinPath(path, "invoice"), "id"));
    if (refs.empty())
        throw InputError(joinPath(path, "original_transaction_id"),
            "the refund names neither the payment it refunds nor its invoice");
    std::vector<MoneyMovement> movements;
    addRefund(movements, txn, path, requireCurrency(txn, path, "currency"), refs);
    std::string message = "Recurly listed refund " + id + ": " + std::to_string(movements.size())
        + " refund movement(s)";
    return moneyMoved(std::move(movements), "refund", std::move(message));
}

} // namespace rd::providers
