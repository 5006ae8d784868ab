// Paddle's money back (#40): adjustments (adj_...), from adjustment.created and
// adjustment.updated, whose data is the adjustment. An adjustment names the transaction it
// adjusts (transaction_id), which is the renewal's key: no payment refs are needed.
//
// What moves money, by action and status:
// - refund: only once `approved` (most refunds on live accounts wait in `pending_approval`;
//   `rejected` ones never move money). Keyed on the adjustment, dated by the approval (the
//   update's updated_at; created_at when it was created approved). A refund Paddle marks
//   `reversed` is the refund and its reversal, so that whichever event arrives first the net is
//   right.
// - chargeback: Paddle creates it when a customer disputes the transaction. Its reversal is
//   another adjustment (chargeback_reverse) that names only the transaction, while the
//   chargeback itself turns `reversed`: both events say the same reversal. So the dispute is
//   keyed on the transaction (a payment is disputed once), the chargeback and its reversal
//   each recorded once whichever event tells of it.
// - credit, credit_reverse, chargeback_warning, chargeback_warning_reverse: no cash moves (a
//   credit goes to the customer's balance; a warning announces a chargeback).
// Amounts are totals.total (tax included, as the renewal's grand_total is), in minor units.
//
// A statement's GET /adjustments page lists the same adjustment objects: each is read here as
// its event's data is. An adjustment carries its own times (created_at, updated_at), so the
// listed one moves the same money on the same dates as its latest event.

#include "domain/core/providers/paddle/paddle.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

namespace rd::providers {

using namespace adapters;

namespace {

// Paddle writes updated_at as the zero time on an adjustment never updated.
std::optional<Timestamp> updatedAt(const nlohmann::json &adj, const std::string &path)
{
    const auto it = adj.find("updated_at");
    if (it != adj.end() && it->is_string()
        && it->get_ref<const std::string &>().starts_with("0001-"))
        return std::nullopt;
    return optionalRfc3339(adj, path, "updated_at");
}

} // namespace

NormalizeResult classifyPaddleAdjustment(
    const nlohmann::json &adj, const std::string &path, const std::string &source)
{
    const std::string id = requireIdentifier(adj, path, "id");
    const std::string action = requireString(adj, path, "action");
    const std::string status = requireString(adj, path, "status");
    if (status != "pending_approval" && status != "approved" && status != "rejected"
        && status != "reversed")
        throw InputError(joinPath(path, "status"), "unknown adjustment status " + status);
    const std::string what = "Paddle " + source + ": " + action + " " + id;
    const bool refund = action == "refund";
    const bool chargeback = action == "chargeback" || action == "chargeback_reverse";
    if (!refund && !chargeback) {
        if (action != "credit" && action != "credit_reverse" && action != "chargeback_warning"
            && action != "chargeback_warning_reverse")
            throw InputError(joinPath(path, "action"), "unknown adjustment action " + action);
        // A credit is a credit note to the customer's balance; a warning announces a dispute.
        const bool credit = action.starts_with("credit");
        return notARenewal(credit ? "credit_note" : "dispute",
            what
                + (credit ? " credits the customer's balance: no cash moves"
                          : " warns of a chargeback: no money moved yet"));
    }
    const std::string reason = refund ? "refund" : "dispute";
    if (status == "pending_approval" || status == "rejected")
        return notARenewal(reason, what + " is " + status + ": no money moved");

    const std::string txn = requireIdentifier(adj, path, "transaction_id");
    MoneyMovement m;
    m.amountMinor = requireMinorUnitsString(
        requireField(adj, path, "totals"), joinPath(path, "totals"), "total");
    m.currency = requireCurrency(adj, path, "currency_code");
    m.renewalRefs = {txn};
    const Timestamp created = requireRfc3339(adj, path, "created_at");
    const std::optional<Timestamp> updated = updatedAt(adj, path);
    if (m.amountMinor == 0)
        return moneyMoved({}, reason, what);

    // A refund is keyed on itself, the dispute on its transaction (see above).
    m.movementKey = refund ? id : txn;
    m.occurredAt = created;
    if (action == "chargeback_reverse") {
        m.kind = MovementKind::ChargebackReversal;
        return moneyMoved({m}, reason, what + " of transaction " + txn);
    }
    m.kind = refund ? MovementKind::Refund : MovementKind::Chargeback;
    if (refund && status == "approved" && updated)
        m.occurredAt = std::max(*updated, created); // the approval
    std::vector<MoneyMovement> movements {m};
    if (status == "reversed") {
        MoneyMovement back = m;
        back.kind = refund ? MovementKind::RefundReversal : MovementKind::ChargebackReversal;
        back.occurredAt = std::max(updated.value_or(created), created);
        movements.push_back(std::move(back));
    }
    return moneyMoved(std::move(movements), reason, what + " of transaction " + txn);
}

} // namespace rd::providers
