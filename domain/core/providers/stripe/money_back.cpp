// Stripe's money back (#40): refunds and disputes, keyed on the refund (re_...) and the dispute
// (dp_...), never on the event, so that refund.created, refund.updated and charge.refunded of
// one refund are one movement.
//
// - refund.created / refund.updated / refund.failed / charge.refund.updated: data.object is the
//   refund. pending, requires_action and succeeded move money; failed and canceled are the
//   refund and its reversal (the reversal dated by the event), so that whichever event of it
//   arrives first, the net is right.
// - charge.refunded: data.object is the charge, whose refunds.data[] lists its refunds (since
//   2022-11-15 the list is not included unless expanded: without it, the refunds come from
//   their own refund.* events or a statement; `amount_refunded` is cumulative and is never
//   turned into a movement, which would count a refund twice).
// - charge.dispute.funds_withdrawn: the dispute's chargeback, dated by its withdrawal balance
//   transaction (not expanded: by the dispute's creation, by either event);
//   charge.dispute.funds_reinstated: the chargeback and its reversal. The other
//   dispute events (created, updated, closed, inquiries' warning_*) move no money.
// - credit_note.*: a document; the refunds it carries are the money, from their own events.
// A refund names its charge and payment intent, and (before API 2025-03-31) its charge names
// its invoice: the renewal is found by any of them (the renewal keeps its charge and payment
// intent: paymentRefsOf).

#include "domain/core/providers/stripe/stripe.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"

namespace rd::providers {

using namespace adapters;

namespace {

std::optional<std::string> referenceOf(
    const nlohmann::json &obj, const std::string &path, const char *key)
{
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return std::nullopt;
    if (it->is_object())
        return requireIdentifier(*it, joinPath(path, key), "id");
    return requireIdentifier(obj, path, key);
}

// One refund object as its movements: the refund, and its reversal when it failed.
void addRefund(std::vector<MoneyMovement> &out, const nlohmann::json &refund,
    const std::string &path, std::vector<std::string> refs, Timestamp eventTime)
{
    if (requireString(refund, path, "object") != "refund")
        throw InputError(joinPath(path, "object"), "expected a refund");
    MoneyMovement m;
    m.movementKey = requireIdentifier(refund, path, "id");
    m.amountMinor = requireNonNegativeInteger(refund, path, "amount");
    m.currency = requireCurrency(refund, path, "currency");
    m.occurredAt = requireUnixSeconds(refund, path, "created");
    addRenewalRef(refs, referenceOf(refund, path, "charge"));
    addRenewalRef(refs, referenceOf(refund, path, "payment_intent"));
    m.renewalRefs = std::move(refs);
    if (m.renewalRefs.empty())
        throw InputError(joinPath(path, "charge"), "the refund names no charge or payment intent");
    const std::string status = requireString(refund, path, "status");
    if (status != "pending" && status != "requires_action" && status != "succeeded"
        && status != "failed" && status != "canceled")
        throw InputError(joinPath(path, "status"), "unknown refund status " + status);
    if (m.amountMinor == 0)
        return; // moves nothing
    out.push_back(m);
    if (status == "failed" || status == "canceled") {
        MoneyMovement reversal = m;
        reversal.kind = MovementKind::RefundReversal;
        reversal.occurredAt = std::max(eventTime, m.occurredAt);
        out.push_back(std::move(reversal));
    }
}

// The created time of a dispute's balance transaction of the given sign, if it lists one.
std::optional<Timestamp> balanceTransactionTime(
    const nlohmann::json &dispute, const std::string &path, bool withdrawal)
{
    const auto it = dispute.find("balance_transactions");
    if (it == dispute.end() || !it->is_array())
        return std::nullopt;
    const std::string listPath = joinPath(path, "balance_transactions");
    for (std::size_t i = 0; i < it->size(); ++i) {
        const auto &txn = (*it)[i];
        if (!txn.is_object())
            continue; // an id only (not expanded): no amount, no time
        const std::string tp = indexPath(listPath, i);
        const auto amount = txn.find("amount");
        if (amount == txn.end() || !amount->is_number_integer())
            throw InputError(joinPath(tp, "amount"), "expected an integer");
        if ((amount->get<std::int64_t>() < 0) == withdrawal)
            return requireUnixSeconds(txn, tp, "created");
    }
    return std::nullopt;
}

// A dispute's chargeback, but for its date: keyed on the dispute, naming its charge.
MoneyMovement disputeChargeback(const nlohmann::json &dispute, const std::string &path)
{
    MoneyMovement chargeback;
    chargeback.movementKey = requireIdentifier(dispute, path, "id");
    chargeback.kind = MovementKind::Chargeback;
    chargeback.amountMinor = requireNonNegativeInteger(dispute, path, "amount");
    chargeback.currency = requireCurrency(dispute, path, "currency");
    addRenewalRef(chargeback.renewalRefs, referenceOf(dispute, path, "charge"));
    addRenewalRef(chargeback.renewalRefs, referenceOf(dispute, path, "payment_intent"));
    if (chargeback.renewalRefs.empty())
        throw InputError(joinPath(path, "charge"), "the dispute names no charge");
    return chargeback;
}

} // namespace

std::vector<std::string> stripePaymentRefs(const nlohmann::json &invoice, const std::string &path)
{
    std::vector<std::string> refs;
    addRenewalRef(refs, referenceOf(invoice, path, "charge"));
    addRenewalRef(refs, referenceOf(invoice, path, "payment_intent"));
    // API 2025-03-31 and later: invoice.payments.data[].payment.{payment_intent, charge}.
    const auto payments = invoice.find("payments");
    if (payments != invoice.end() && payments->is_object()) {
        const auto data = payments->find("data");
        if (data != payments->end() && data->is_array()) {
            const std::string dataPath = joinPath(joinPath(path, "payments"), "data");
            for (std::size_t i = 0; i < data->size() && refs.size() < kMaxPaymentRefs; ++i) {
                const auto &entry = (*data)[i];
                const auto payment = entry.is_object() ? entry.find("payment") : entry.end();
                if (!entry.is_object() || payment == entry.end() || !payment->is_object())
                    continue;
                const std::string pp = joinPath(indexPath(dataPath, i), "payment");
                addRenewalRef(refs, referenceOf(*payment, pp, "payment_intent"));
                addRenewalRef(refs, referenceOf(*payment, pp, "charge"));
            }
        }
    }
    if (refs.size() > kMaxPaymentRefs)
        refs.resize(kMaxPaymentRefs);
    return refs;
}

bool isStripeMoneyBackEvent(std::string_view type)
{
    return type.starts_with("refund.") || type.starts_with("charge.refund")
        || type.starts_with("charge.dispute.") || type.starts_with("credit_note.");
}

NormalizeResult classifyStripeMoneyBack(
    const nlohmann::json &body, const std::string &type, Timestamp eventTime)
{
    const auto &object = requireField(requireField(body, "", "data"), "data", "object");
    const std::string path = "data.object";
    if (type.starts_with("credit_note."))
        return notARenewal("credit_note",
            "Stripe " + type
                + " is a credit note: a document, whose refunds are recorded from "
                  "their own events");
    std::vector<MoneyMovement> movements;
    if (type == "charge.refunded") {
        if (requireString(object, path, "object") != "charge")
            throw InputError(joinPath(path, "object"), "expected a charge");
        std::vector<std::string> refs;
        addRenewalRef(refs, referenceOf(object, path, "invoice"));
        addRenewalRef(refs, requireIdentifier(object, path, "id"));
        addRenewalRef(refs, referenceOf(object, path, "payment_intent"));
        const auto list = object.find("refunds");
        if (list == object.end() || !list->is_object() || !list->contains("data"))
            return notARenewal("refund",
                "Stripe charge.refunded for " + refs.front()
                    + " lists no refunds: they are recorded from their refund.* events or a "
                      "statement");
        const std::string listPath = joinPath(path, "refunds");
        const auto &data = requireArray(*list, listPath, "data");
        for (std::size_t i = 0; i < data.size(); ++i)
            addRefund(
                movements, data[i], indexPath(joinPath(listPath, "data"), i), refs, eventTime);
        // Counted before the list is moved into the result.
        std::string message = "Stripe charge.refunded: " + std::to_string(movements.size())
            + " refund movement(s) of charge " + requireIdentifier(object, path, "id");
        return moneyMoved(std::move(movements), "refund", std::move(message));
    }
    if (type.starts_with("refund.") || type == "charge.refund.updated") {
        addRefund(movements, object, path, {}, eventTime);
        const std::string id = requireIdentifier(object, path, "id");
        return moneyMoved(std::move(movements), "refund", "Stripe " + type + ": refund " + id);
    }
    // charge.dispute.*
    if (type != "charge.dispute.funds_withdrawn" && type != "charge.dispute.funds_reinstated")
        return notARenewal("dispute", "Stripe " + type + " moves no money");
    if (requireString(object, path, "object") != "dispute")
        throw InputError(joinPath(path, "object"), "expected a dispute");
    MoneyMovement chargeback = disputeChargeback(object, path);
    const bool reinstated = type == "charge.dispute.funds_reinstated";
    // Without its withdrawal's balance transaction (not expanded), by the dispute's creation,
    // when Stripe withdraws the funds: the same date whichever of its two events comes first.
    chargeback.occurredAt = balanceTransactionTime(object, path, true)
                                .value_or(requireUnixSeconds(object, path, "created"));
    if (chargeback.amountMinor > 0) {
        movements.push_back(chargeback);
        if (reinstated) {
            MoneyMovement back = chargeback;
            back.kind = MovementKind::ChargebackReversal;
            back.occurredAt = balanceTransactionTime(object, path, false).value_or(eventTime);
            movements.push_back(std::move(back));
        }
    }
    return moneyMoved(
        std::move(movements), "dispute", "Stripe " + type + ": dispute " + chargeback.movementKey);
}

NormalizeResult classifyStripeListedMoneyBack(
    DeliveryIds &ids, const nlohmann::json &object, const std::string &path)
{
    const std::string type = requireString(object, path, "object");
    std::vector<MoneyMovement> movements;
    if (type == "refund") {
        ids.objectId = requireIdentifier(object, path, "id");
        // A list says no failure time: a failed or canceled refund's reversal is dated by the
        // refund's creation (its event, when delivered, dates it by the failure).
        addRefund(movements, object, path, {}, requireUnixSeconds(object, path, "created"));
        return moneyMoved(std::move(movements), "refund", "Stripe refund " + ids.objectId);
    }
    if (type != "dispute")
        throw InputError(joinPath(path, "object"),
            "expected an invoice, a refund or a dispute, not " + printableAscii(type));
    // A dispute as listed: its balance transactions say what moved and when. A withdrawal is
    // its chargeback; a reinstatement (a dispute won) the chargeback's reversal. An inquiry
    // (warning_*) lists none and moves nothing.
    MoneyMovement chargeback = disputeChargeback(object, path);
    ids.objectId = chargeback.movementKey;
    const auto withdrawn = balanceTransactionTime(object, path, true);
    const auto reinstated = balanceTransactionTime(object, path, false);
    if (withdrawn && chargeback.amountMinor > 0) {
        chargeback.occurredAt = *withdrawn;
        movements.push_back(chargeback);
        if (reinstated) {
            MoneyMovement back = chargeback;
            back.kind = MovementKind::ChargebackReversal;
            back.occurredAt = *reinstated;
            movements.push_back(std::move(back));
        }
    }
    if (movements.empty())
        return notARenewal(
            "dispute", "Stripe dispute " + chargeback.movementKey + " has withdrawn no funds");
    return moneyMoved(std::move(movements), "dispute", "Stripe dispute " + chargeback.movementKey);
}

} // namespace rd::providers
