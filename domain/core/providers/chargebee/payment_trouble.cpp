// Chargebee's payment trouble (#41), each standing dated by the event's occurred_at (unix
// seconds).
//
// - payment_failed: content.invoice is the invoice whose payment failed, content.transaction the
//   failed payment. "Every time a dunning attempt fails, the payment_failed event gets
//   generated": the invoice's dunning_attempts[] lists every attempt so far ({attempt,
//   transaction_id, dunning_type, created_at, txn_status, txn_amount}), each one failed attempt
//   keyed on the invoice and its number. Chargebee counts dunning attempts from 0 (the API
//   reference's `attempt`, default 0), so attempt n is number n + 1. An attempt whose
//   txn_status says it did not fail (success, in_progress, needs_attention, voided) is left
//   out. It failed at its created_at, for txn_amount in the invoice's currency; its decline code
//   is the transaction's error_code (a gateway's code, e.g. "3001") when content.transaction is
//   that attempt's transaction (the only one the event carries). The last attempt is retried at
//   the invoice's next_retry_at, each earlier one was retried at the next attempt's created_at.
//   An invoice with no dunning attempt yet (dunning not started) tells its failed
//   content.transaction as attempt 1, dated by the transaction's date.
//   The standing is the invoice's dunning_status: in_progress -> past_due (the subscription
//   itself stays `active` in Chargebee while dunning runs), exhausted -> unpaid
//   ("dunning_exhausted": "Only in the last dunning attempt payment failed event,
//   dunning_status: exhausted is present"); stopped and success tell none. An invoice of no
//   subscription (a one-off charge) is NotARenewal ("manual_invoice").
// - subscription_cancelled: content.subscription is canceled; cancel_reason not_paid (dunning
//   ended in cancellation) is "not_paid", any other (no_card, fraud_review_failed, ...) is kept
//   as its word, none as an empty reason.

#include "domain/core/providers/chargebee/chargebee.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <algorithm>

namespace rd::providers {

using namespace adapters;

namespace {

bool txnFailed(const std::optional<std::string> &status)
{
    return !status || *status == "failure" || *status == "timeout";
}

int attemptNumber(std::int64_t fromZero, const std::string &field)
{
    if (fromZero >= kMaxAttemptNumber)
        throw InputError(field,
            std::to_string(fromZero) + " is not a dunning attempt number (0 to "
                + std::to_string(kMaxAttemptNumber - 1) + ")");
    return static_cast<int>(fromZero) + 1;
}

// The failed payment the event carries: its id and decline code.
struct EventTransaction
{
    std::string id;
    std::string errorCode;
};

NormalizeResult paymentFailed(
    DeliveryIds &ids, const nlohmann::json &body, const nlohmann::json &content)
{
    const std::string path = "content.invoice";
    const auto &invoice = requireField(content, "content", "invoice");
    const std::string invoiceId = requireIdentifier(invoice, path, "id");
    ids.objectId = invoiceId;
    if (const auto sub = optionalIdentifier(invoice, path, "subscription_id"))
        ids.subscriptionId = *sub;
    const std::string what = "Chargebee payment_failed: invoice " + invoiceId;
    if (ids.subscriptionId.empty())
        return notARenewal("manual_invoice", what + " belongs to no subscription (one-off charge)");
    const std::string currency = requireCurrency(invoice, path, "currency_code");
    const Timestamp occurredAt = requireUnixSeconds(body, "", "occurred_at");
    const auto nextRetry = optionalUnixSeconds(invoice, path, "next_retry_at");

    EventTransaction eventTxn;
    const nlohmann::json *txn = nullptr;
    if (const auto t = content.find("transaction"); t != content.end() && t->is_object()) {
        txn = &*t;
        eventTxn.id = requireIdentifier(*t, "content.transaction", "id");
        eventTxn.errorCode = optionalString(*t, "content.transaction", "error_code").value_or("");
    }

    PaymentTrouble trouble;
    const auto list = invoice.find("dunning_attempts");
    const std::string listPath = joinPath(path, "dunning_attempts");
    if (list != invoice.end() && !list->is_null()) {
        if (!list->is_array())
            throw InputError(listPath, "expected an array");
        for (std::size_t i = 0; i < list->size(); ++i) {
            const auto &d = (*list)[i];
            const std::string dp = indexPath(listPath, i);
            if (!txnFailed(optionalString(d, dp, "txn_status")))
                continue;
            FailedAttempt a;
            a.invoiceKey = invoiceId;
            a.attempt = attemptNumber(
                requireNonNegativeInteger(d, dp, "attempt"), joinPath(dp, "attempt"));
            a.failedAt = requireUnixSeconds(d, dp, "created_at");
            const auto txnId = optionalIdentifier(d, dp, "transaction_id");
            if (txnId && *txnId == eventTxn.id)
                a.declineCode = eventTxn.errorCode;
            if (d.contains("txn_amount") && !d.at("txn_amount").is_null()) {
                a.amountMinor = requireNonNegativeInteger(d, dp, "txn_amount");
                a.currency = currency;
            }
            trouble.attempts.push_back(std::move(a));
        }
        std::sort(trouble.attempts.begin(), trouble.attempts.end(),
            [](const FailedAttempt &a, const FailedAttempt &b) { return a.attempt < b.attempt; });
    }
    if (trouble.attempts.empty() && txn != nullptr
        && optionalString(*txn, "content.transaction", "status") == "failure") {
        // Dunning not started: the failed payment itself is the first attempt.
        FailedAttempt a;
        a.invoiceKey = invoiceId;
        a.failedAt = requireUnixSeconds(*txn, "content.transaction", "date");
        a.declineCode = eventTxn.errorCode;
        a.amountMinor = requireNonNegativeInteger(*txn, "content.transaction", "amount");
        a.currency = currency;
        trouble.attempts.push_back(std::move(a));
    }
    for (std::size_t i = 0; i + 1 < trouble.attempts.size(); ++i)
        trouble.attempts[i].nextAttemptAt = trouble.attempts[i + 1].failedAt;

    const auto dunning = optionalString(invoice, path, "dunning_status");
    if (dunning == "in_progress") {
        trouble.standing = StandingFact {ProviderStanding::PastDue, occurredAt, {}};
        if (!trouble.attempts.empty())
            trouble.attempts.back().nextAttemptAt = nextRetry;
    } else if (dunning == "exhausted") {
        trouble.standing = StandingFact {ProviderStanding::Unpaid, occurredAt, "dunning_exhausted"};
    } else if (dunning && *dunning != "stopped" && *dunning != "success") {
        throw InputError(
            joinPath(path, "dunning_status"), "unknown dunning status " + printableAscii(*dunning));
    } else if (!trouble.attempts.empty()) {
        trouble.attempts.back().nextAttemptAt = nextRetry;
    }
    if (trouble.attempts.empty() && !trouble.standing)
        throw InputError(listPath, "tells no failed attempt and no dunning status");
    std::string message = what + ": " + std::to_string(trouble.attempts.size())
        + " failed attempt(s) of subscription " + ids.subscriptionId
        + (dunning ? ", dunning " + *dunning : std::string());
    return paymentTrouble(
        std::move(trouble), ids.subscriptionId, "payment_failed", std::move(message));
}

NormalizeResult subscriptionCancelled(
    DeliveryIds &ids, const nlohmann::json &body, const nlohmann::json &content)
{
    const std::string path = "content.subscription";
    const auto &sub = requireField(content, "content", "subscription");
    ids.subscriptionId = requireIdentifier(sub, path, "id");
    StandingFact fact;
    fact.standing = ProviderStanding::Canceled;
    fact.observedAt = requireUnixSeconds(body, "", "occurred_at");
    fact.reason = optionalString(sub, path, "cancel_reason").value_or("");
    PaymentTrouble trouble;
    trouble.standing = fact;
    return paymentTrouble(std::move(trouble), ids.subscriptionId, "provider_standing",
        "Chargebee subscription_cancelled: subscription " + ids.subscriptionId + " canceled"
            + (fact.reason.empty() ? std::string() : " (" + fact.reason + ")"));
}

} // namespace

bool isChargebeePaymentTroubleEvent(std::string_view type)
{
    return type == "payment_failed" || type == "subscription_cancelled";
}

NormalizeResult classifyChargebeePaymentTrouble(
    DeliveryIds &ids, const nlohmann::json &body, const std::string &type)
{
    const auto &content = requireField(body, "", "content");
    if (type == "payment_failed")
        return paymentFailed(ids, body, content);
    return subscriptionCancelled(ids, body, content);
}

} // namespace rd::providers
