// Chargebee's money back (#40): transactions of type refund (a refund) and payment_reversal (a
// chargeback), from payment_refunded, refund_initiated, transaction_created and
// transaction_updated, whose content.transaction is the transaction. Keyed on the transaction
// (txn_...), never on the event; dated by its own `date`.
//
// - in_progress, needs_attention and success move money; failure, voided, timeout and
//   late_failure are the movement and its reversal (dated by the transaction's updated_at), so
//   that whichever event arrives first the net is right.
// - A credit note (credit_note_*) is a document: a refundable one and its refund transaction
//   are two views of one cash movement, so only the transaction counts.
// - A payment or an authorization transaction is no money back: renewals come from invoices.
// The renewal is named by the invoice the transaction links (linked_invoices[].invoice_id) or
// the invoice its credit note refunds (linked_credit_notes[].cn_reference_invoice_id); the
// renewal's key is its invoice id.
//
// A statement's GET /api/v2/transactions page lists the same transaction objects (each as
// {"transaction": {...}}): a listed one is read here as an event's content.transaction is. A
// transaction carries its own times (date, updated_at), so the listed one moves the same money
// on the same dates as its latest event.

#include "domain/core/providers/chargebee/chargebee.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <algorithm>

namespace rd::providers {

using namespace adapters;

namespace {

// Each `key` of the objects of the array `list` of `txn`, once, as renewal refs.
void addLinked(std::vector<std::string> &refs, const nlohmann::json &txn, const std::string &path,
    const char *list, const char *key)
{
    const auto it = txn.find(list);
    if (it == txn.end() || it->is_null())
        return;
    const auto &items = requireArray(txn, path, list);
    for (std::size_t i = 0; i < items.size() && refs.size() < kMaxRenewalRefs; ++i) {
        const std::string itemPath = indexPath(joinPath(path, list), i);
        if (!items[i].is_object())
            throw InputError(itemPath, "expected an object");
        addRenewalRef(refs, optionalIdentifier(items[i], itemPath, key));
    }
}

} // namespace

bool isChargebeeMoneyBackEvent(std::string_view type)
{
    return type.starts_with("credit_note_") || type == "payment_refunded"
        || type == "refund_initiated" || type == "transaction_created"
        || type == "transaction_updated";
}

NormalizeResult classifyChargebeeMoneyBack(const nlohmann::json &body, const std::string &type)
{
    if (type.starts_with("credit_note_"))
        return notARenewal("credit_note",
            "Chargebee " + type
                + " is a credit note: a document, whose refund is recorded from its "
                  "transaction");
    const auto &content = requireField(body, "", "content");
    return classifyChargebeeTransaction(
        requireField(content, "content", "transaction"), "content.transaction", type);
}

NormalizeResult classifyChargebeeTransaction(
    const nlohmann::json &txn, const std::string &path, const std::string &source)
{
    const std::string id = requireIdentifier(txn, path, "id");
    const std::string txnType = requireString(txn, path, "type");
    if (txnType == "payment" || txnType == "authorization")
        return notARenewal("other_event_type",
            "Chargebee " + source + ": transaction " + id + " is a " + txnType
                + ": renewals are read from their invoices");
    if (txnType != "refund" && txnType != "payment_reversal")
        throw InputError(joinPath(path, "type"), "unknown transaction type " + txnType);
    const bool refund = txnType == "refund";
    const std::string status = requireString(txn, path, "status");
    const bool failed = status == "failure" || status == "voided" || status == "timeout"
        || status == "late_failure";
    if (!failed && status != "in_progress" && status != "needs_attention" && status != "success")
        throw InputError(joinPath(path, "status"), "unknown transaction status " + status);

    MoneyMovement m;
    m.movementKey = id;
    m.kind = refund ? MovementKind::Refund : MovementKind::Chargeback;
    m.amountMinor = requireNonNegativeInteger(txn, path, "amount");
    m.currency = requireCurrency(txn, path, "currency_code");
    m.occurredAt = requireUnixSeconds(txn, path, "date");
    addLinked(m.renewalRefs, txn, path, "linked_invoices", "invoice_id");
    addLinked(m.renewalRefs, txn, path, "linked_credit_notes", "cn_reference_invoice_id");
    if (m.renewalRefs.empty())
        throw InputError(joinPath(path, "linked_invoices"),
            "the transaction links no invoice and no credit note of one");
    const std::string reason = refund ? "refund" : "dispute";
    std::vector<MoneyMovement> movements;
    if (m.amountMinor > 0) {
        movements.push_back(m);
        if (failed) {
            MoneyMovement back = m;
            back.kind = refund ? MovementKind::RefundReversal : MovementKind::ChargebackReversal;
            back.occurredAt = std::max(
                optionalUnixSeconds(txn, path, "updated_at").value_or(m.occurredAt), m.occurredAt);
            movements.push_back(std::move(back));
        }
    }
    return moneyMoved(std::move(movements), reason,
        "Chargebee " + source + ": " + txnType + " " + id + " (" + status + ")");
}

} // namespace rd::providers
