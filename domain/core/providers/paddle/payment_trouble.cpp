// Paddle Billing's payment trouble (#41), each fact dated by the event's occurred_at (Paddle
// does not guarantee delivery order and says to compare occurred_at: "Store and check the
// occurred_at date against a webhook before making changes").
//
// - transaction.payment_failed and transaction.past_due: data is the transaction. Only a
//   subscription's transactions count (subscription_id set); a checkout's failed payment (origin
//   web, no subscription yet) is NotARenewal ("manual_invoice"). Each payment in payments[] with
//   status `error` ("Something went wrong and the payment attempt was unsuccessful. Check the
//   error_code") is one failed attempt on the transaction: Paddle numbers none, so they are
//   numbered by created_at, oldest = 1 (ties by payment_attempt_id). Paddle lists every payment
//   attempt of the transaction (newest first), so the numbers are the same whichever event tells
//   them. Captured, authorized, action_required and the other statuses are no failure. The
//   decline code is the payment's error_code (declined, insufficient_funds, expired_card, ...),
//   the amount its `amount` (minor units as a string) in the transaction's currency.
//   transaction.past_due also says the subscription is `past_due`. A payment_failed that lists
//   no failed payment is invalid.
//   Paddle sends no next retry time: neither the transaction nor its payments say when Paddle
//   tries again (its dunning runs on its own schedule; the subscription's next_billed_at is the
//   next billing, not the retry), so nextAttemptAt is never set.
// - subscription.past_due, subscription.paused, subscription.canceled, subscription.activated,
//   subscription.resumed, subscription.updated: data is the subscription, whose status is the
//   standing (active and trialing -> active, past_due, paused, canceled). Paddle's subscription
//   carries no reason for a cancellation or a pause (only canceled_at, paused_at): the reason is
//   left empty.

#include "domain/core/providers/paddle/paddle.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <algorithm>

namespace rd::providers {

using namespace adapters;

namespace {

struct FailedPayment
{
    Timestamp createdAt;
    std::string attemptId;
    FailedAttempt attempt;
};

std::vector<FailedAttempt> failedAttempts(
    const nlohmann::json &txn, const std::string &path, const std::string &txnId)
{
    const auto payments = txn.find("payments");
    if (payments == txn.end() || payments->is_null())
        return {};
    const std::string listPath = joinPath(path, "payments");
    if (!payments->is_array())
        throw InputError(listPath, "expected an array");
    const std::string currency = requireCurrency(txn, path, "currency_code");
    std::vector<FailedPayment> failed;
    for (std::size_t i = 0; i < payments->size(); ++i) {
        const auto &p = (*payments)[i];
        const std::string pp = indexPath(listPath, i);
        if (requireString(p, pp, "status") != "error")
            continue;
        FailedPayment f;
        f.createdAt = requireRfc3339(p, pp, "created_at");
        f.attemptId = optionalIdentifier(p, pp, "payment_attempt_id").value_or("");
        f.attempt.invoiceKey = txnId;
        f.attempt.failedAt = f.createdAt;
        f.attempt.declineCode = optionalString(p, pp, "error_code").value_or("");
        f.attempt.amountMinor = requireMinorUnitsString(p, pp, "amount");
        f.attempt.currency = currency;
        failed.push_back(std::move(f));
    }
    std::sort(failed.begin(), failed.end(), [](const FailedPayment &a, const FailedPayment &b) {
        return a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.attemptId < b.attemptId;
    });
    std::vector<FailedAttempt> attempts;
    for (auto &f : failed) {
        f.attempt.attempt = static_cast<int>(attempts.size()) + 1;
        attempts.push_back(std::move(f.attempt));
    }
    return attempts;
}

NormalizeResult transactionTrouble(DeliveryIds &ids, const nlohmann::json &txn,
    const std::string &path, const std::string &type, Timestamp occurredAt)
{
    const std::string txnId = requireIdentifier(txn, path, "id");
    ids.objectId = txnId;
    if (const auto sub = optionalIdentifier(txn, path, "subscription_id"))
        ids.subscriptionId = *sub;
    const std::string what = "Paddle " + type + ": transaction " + txnId;
    if (ids.subscriptionId.empty())
        return notARenewal("manual_invoice", what + " belongs to no subscription");
    PaymentTrouble trouble;
    trouble.attempts = failedAttempts(txn, path, txnId);
    if (type == "transaction.past_due")
        trouble.standing = StandingFact {ProviderStanding::PastDue, occurredAt, {}};
    else if (trouble.attempts.empty())
        throw InputError(joinPath(path, "payments"), "lists no failed payment (status error)");
    std::string message = what + ": " + std::to_string(trouble.attempts.size())
        + " failed attempt(s) of subscription " + ids.subscriptionId;
    if (trouble.standing)
        message += ", now past due";
    std::string reason = trouble.attempts.empty() ? "provider_standing" : "payment_failed";
    return paymentTrouble(
        std::move(trouble), ids.subscriptionId, std::move(reason), std::move(message));
}

NormalizeResult subscriptionStanding(DeliveryIds &ids, const nlohmann::json &sub,
    const std::string &path, const std::string &type, Timestamp occurredAt)
{
    ids.subscriptionId = requireIdentifier(sub, path, "id");
    const std::string status = requireString(sub, path, "status");
    StandingFact fact;
    fact.observedAt = occurredAt;
    if (status == "active" || status == "trialing")
        fact.standing = ProviderStanding::Active;
    else if (status == "past_due")
        fact.standing = ProviderStanding::PastDue;
    else if (status == "paused")
        fact.standing = ProviderStanding::Paused;
    else if (status == "canceled")
        fact.standing = ProviderStanding::Canceled;
    else
        throw InputError(
            joinPath(path, "status"), "unknown subscription status " + printableAscii(status));
    PaymentTrouble trouble;
    trouble.standing = fact;
    return paymentTrouble(std::move(trouble), ids.subscriptionId, "provider_standing",
        "Paddle " + type + ": subscription " + ids.subscriptionId + " is " + status);
}

} // namespace

bool isPaddlePaymentTroubleEvent(std::string_view type)
{
    return type == "transaction.payment_failed" || type == "transaction.past_due"
        || type == "subscription.past_due" || type == "subscription.paused"
        || type == "subscription.canceled" || type == "subscription.activated"
        || type == "subscription.resumed" || type == "subscription.updated";
}

NormalizeResult classifyPaddlePaymentTrouble(
    DeliveryIds &ids, const nlohmann::json &body, const std::string &type)
{
    const Timestamp occurredAt = requireRfc3339(body, "", "occurred_at");
    const auto &data = requireField(body, "", "data");
    if (type.starts_with("transaction."))
        return transactionTrouble(ids, data, "data", type, occurredAt);
    return subscriptionStanding(ids, data, "data", type, occurredAt);
}

} // namespace rd::providers
