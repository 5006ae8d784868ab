// Stripe's payment trouble (#41): failed renewal payments and the subscription's standing, each
// dated by the event's `created` (Stripe's clock; a later-delivered older fact never replaces a
// newer one). Only a subscription's invoices count: one without a subscription (in either shape,
// stripeInvoiceSubscription) is NotARenewal ("manual_invoice"), and so is a subscription's first
// invoice (billing_reason subscription_create): its failure leaves the subscription
// `incomplete`, never started, which is no dunning.
//
// - invoice.payment_failed: one attempt, keyed on the invoice and attempt_count (Stripe's count
//   of payment attempts on it, from 1), failed at the event's created, retried at
//   next_payment_attempt. next_payment_attempt null on an automatically collected invoice means
//   Stripe will not retry ("Smart Retries" exhausted, or a hard decline): the attempt then also
//   says the subscription is `unpaid` ("retries_exhausted"), at the event's created. An invoice
//   sent for payment (collection_method send_invoice) is never retried by Stripe: its null says
//   nothing of the dunning and no standing is read from it. The amount is amount_remaining
//   (amount_due before it existed), in the invoice's currency.
// - invoice.marked_uncollectible: the subscription `unpaid` ("marked_uncollectible").
// - customer.subscription.updated / .deleted / .paused / .resumed: data.object is the
//   subscription; its status is the standing: trialing and active -> active, past_due,
//   unpaid, paused, canceled and incomplete_expired -> canceled. `incomplete` (a first payment
//   not made yet) is NotARenewal. A cancellation's reason is cancellation_details.reason
//   (payment_failed -> "not_paid", any other word as it is); an active subscription whose
//   previous_attributes.status was past_due or unpaid is "payment_recovered".
//
// The decline code. What an invoice webhook carries: before API 2025-03-31 the invoice names its
// `charge` and `payment_intent` by id only (events never expand them); from basil on neither is
// on the invoice, and its `payments` list is included only when expanded. So a webhook's
// attempt has no decline code, unless an expanded object is present: the payment intent's
// last_payment_error (decline_code, else code), the charge's outcome.reason (else
// failure_code), in either shape (basil: payments.data[].payment). last_finalization_error is
// not read: it is why an invoice could not be finalized (tax, address), before any payment was
// attempted, not a payment's decline.

#include "domain/core/providers/stripe/stripe.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"

namespace rd::providers {

using namespace adapters;

namespace {

// A string field that may be absent or null; empty then.
std::string stringOr(const nlohmann::json &obj, const std::string &path, const char *key)
{
    if (!obj.is_object())
        return {};
    return optionalString(obj, path, key).value_or("");
}

// An error object's decline code (decline_code, else code).
std::string errorDeclineCode(const nlohmann::json &owner, const std::string &path, const char *key)
{
    const auto it = owner.find(key);
    if (it == owner.end() || !it->is_object())
        return {};
    const std::string errorPath = joinPath(path, key);
    std::string code = stringOr(*it, errorPath, "decline_code");
    return code.empty() ? stringOr(*it, errorPath, "code") : code;
}

// The decline code of an expanded payment intent or charge named by `owner`, or empty.
std::string expandedDeclineCode(const nlohmann::json &owner, const std::string &path)
{
    const auto intent = owner.find("payment_intent");
    if (intent != owner.end() && intent->is_object()) {
        std::string code
            = errorDeclineCode(*intent, joinPath(path, "payment_intent"), "last_payment_error");
        if (!code.empty())
            return code;
    }
    const auto charge = owner.find("charge");
    if (charge != owner.end() && charge->is_object()) {
        const std::string chargePath = joinPath(path, "charge");
        const auto outcome = charge->find("outcome");
        std::string code = outcome != charge->end() && outcome->is_object()
            ? stringOr(*outcome, joinPath(chargePath, "outcome"), "reason")
            : std::string();
        return code.empty() ? stringOr(*charge, chargePath, "failure_code") : code;
    }
    return {};
}

std::string declineCodeOf(const nlohmann::json &invoice, const std::string &path)
{
    std::string code = expandedDeclineCode(invoice, path);
    const auto payments = invoice.find("payments");
    if (!code.empty() || payments == invoice.end() || !payments->is_object())
        return code;
    const auto data = payments->find("data");
    if (data == payments->end() || !data->is_array())
        return code;
    // Basil: the invoice's payments (expanded), newest last; the newest that tells wins.
    const std::string dataPath = joinPath(joinPath(path, "payments"), "data");
    for (std::size_t i = 0; i < data->size(); ++i) {
        const auto &entry = (*data)[i];
        const auto payment = entry.is_object() ? entry.find("payment") : entry.end();
        if (!entry.is_object() || payment == entry.end() || !payment->is_object())
            continue;
        std::string found
            = expandedDeclineCode(*payment, joinPath(indexPath(dataPath, i), "payment"));
        if (!found.empty())
            code = std::move(found);
    }
    return code;
}

int attemptNumber(const nlohmann::json &obj, const std::string &path, const char *key)
{
    const std::int64_t n = requireNonNegativeInteger(obj, path, key);
    if (n < 1 || n > kMaxAttemptNumber)
        throw InputError(joinPath(path, key),
            std::to_string(n) + " is not an attempt number (1 to "
                + std::to_string(kMaxAttemptNumber) + ")");
    return static_cast<int>(n);
}

NormalizeResult invoiceTrouble(DeliveryIds &ids, const nlohmann::json &body,
    const nlohmann::json &invoice, const std::string &path, const std::string &type,
    Timestamp created)
{
    if (requireString(invoice, path, "object") != "invoice")
        throw InputError(joinPath(path, "object"), "expected an invoice");
    const std::string invoiceId = requireIdentifier(invoice, path, "id");
    ids.objectId = invoiceId;
    if (const auto sub = stripeInvoiceSubscription(invoice, path, stripeEventIsBasil(body)))
        ids.subscriptionId = *sub;
    const std::string what = "Stripe " + type + ": invoice " + invoiceId;
    if (ids.subscriptionId.empty())
        return notARenewal("manual_invoice", what + " belongs to no subscription");
    if (requireString(invoice, path, "billing_reason") == "subscription_create")
        return notARenewal("first_invoice",
            what + " is a first invoice: its subscription is incomplete, not in dunning");

    PaymentTrouble trouble;
    if (type == "invoice.marked_uncollectible") {
        trouble.standing = StandingFact {ProviderStanding::Unpaid, created, "marked_uncollectible"};
        return paymentTrouble(std::move(trouble), ids.subscriptionId, "provider_standing",
            what + " was marked uncollectible: subscription " + ids.subscriptionId + " unpaid");
    }
    FailedAttempt attempt;
    attempt.invoiceKey = invoiceId;
    attempt.attempt = attemptNumber(invoice, path, "attempt_count");
    attempt.failedAt = created;
    attempt.nextAttemptAt = optionalUnixSeconds(invoice, path, "next_payment_attempt");
    attempt.declineCode = declineCodeOf(invoice, path);
    attempt.amountMinor = requireNonNegativeInteger(
        invoice, path, invoice.contains("amount_remaining") ? "amount_remaining" : "amount_due");
    attempt.currency = requireCurrency(invoice, path, "currency");
    const auto collection = optionalString(invoice, path, "collection_method");
    const bool automatic = !collection || *collection == "charge_automatically";
    std::string message = what + ": attempt " + std::to_string(attempt.attempt) + " failed";
    if (!attempt.nextAttemptAt && automatic) {
        trouble.standing = StandingFact {ProviderStanding::Unpaid, created, "retries_exhausted"};
        message += "; Stripe will not retry it";
    }
    trouble.attempts.push_back(std::move(attempt));
    return paymentTrouble(
        std::move(trouble), ids.subscriptionId, "payment_failed", std::move(message));
}

NormalizeResult subscriptionStanding(DeliveryIds &ids, const nlohmann::json &body,
    const nlohmann::json &sub, const std::string &path, const std::string &type, Timestamp created)
{
    if (requireString(sub, path, "object") != "subscription")
        throw InputError(joinPath(path, "object"), "expected a subscription");
    ids.subscriptionId = requireIdentifier(sub, path, "id");
    const std::string status = requireString(sub, path, "status");
    const std::string what = "Stripe " + type + ": subscription " + ids.subscriptionId;
    StandingFact fact;
    fact.observedAt = created;
    if (status == "incomplete")
        return notARenewal(
            "first_invoice", what + " is incomplete: its first payment is not made yet");
    if (status == "trialing" || status == "active") {
        fact.standing = ProviderStanding::Active;
        // The event says what changed: an active subscription that was past due or unpaid
        // has been paid again.
        const auto data = body.at("data").find("previous_attributes");
        if (data != body.at("data").end() && data->is_object()) {
            const auto before = stringOr(*data, "data.previous_attributes", "status");
            if (before == "past_due" || before == "unpaid")
                fact.reason = "payment_recovered";
        }
    } else if (status == "past_due") {
        fact.standing = ProviderStanding::PastDue;
    } else if (status == "unpaid") {
        fact.standing = ProviderStanding::Unpaid;
    } else if (status == "paused") {
        fact.standing = ProviderStanding::Paused;
    } else if (status == "canceled" || status == "incomplete_expired") {
        fact.standing = ProviderStanding::Canceled;
        const auto details = sub.find("cancellation_details");
        const std::string why = details != sub.end() && details->is_object()
            ? stringOr(*details, joinPath(path, "cancellation_details"), "reason")
            : std::string();
        fact.reason = why == "payment_failed" ? "not_paid" : why;
        if (fact.reason.empty() && status == "incomplete_expired")
            fact.reason = "incomplete_expired";
    } else {
        throw InputError(
            joinPath(path, "status"), "unknown subscription status " + printableAscii(status));
    }
    PaymentTrouble trouble;
    trouble.standing = fact;
    return paymentTrouble(
        std::move(trouble), ids.subscriptionId, "provider_standing", what + " is " + status);
}

} // namespace

bool isStripePaymentTroubleEvent(std::string_view type)
{
    return type == "invoice.payment_failed" || type == "invoice.marked_uncollectible"
        || type == "customer.subscription.updated" || type == "customer.subscription.deleted"
        || type == "customer.subscription.paused" || type == "customer.subscription.resumed";
}

NormalizeResult classifyStripePaymentTrouble(
    DeliveryIds &ids, const nlohmann::json &body, const std::string &type)
{
    const Timestamp created = requireUnixSeconds(body, "", "created");
    const auto &object = requireField(requireField(body, "", "data"), "data", "object");
    if (type.starts_with("customer.subscription."))
        return subscriptionStanding(ids, body, object, "data.object", type, created);
    return invoiceTrouble(ids, body, object, "data.object", type, created);
}

} // namespace rd::providers
