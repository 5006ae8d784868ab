// Lemon Squeezy's payment trouble (#41). Lemon Squeezy's events carry no time of their own (meta
// has event_name, custom_data, test_mode and webhook_id, no timestamp): each fact is dated by the
// object's own times.
//
// - subscription_payment_failed: data is the subscription invoice (type subscription-invoices;
//   its id is the invoice's, the subscription is attributes.subscription_id). Its status is one
//   of pending, paid, void, refunded, partial_refund: there is no "failed" status, the event
//   name is what says the payment failed. Lemon Squeezy numbers no attempts and the invoice
//   carries no count ("4 payment retries over the course of 2 weeks" are not told one by one on
//   it), so the failure is attempt 1 of its invoice, failed at the invoice's created_at (Lemon
//   Squeezy creates a subscription invoice when it charges). A retry that fails again on the same
//   invoice is told by the same key and kept once: the desk sees that the invoice failed, not
//   how many times. No decline code, no next retry time. The amount is the invoice's total in
//   its currency. A first invoice (billing_reason initial) is NotARenewal: a checkout's payment.
// - subscription_updated: data is the subscription (type subscriptions, id the subscription's),
//   sent on every change of it ("catch-all"). Its status is the standing, observed at its
//   updated_at: on_trial and active -> active, past_due, unpaid, paused, cancelled -> canceled
//   ("cancelled": still valid until ends_at, Lemon Squeezy's grace), expired -> canceled
//   ("expired": ended, also "once dunning has been completed for past_due subscriptions").
// - subscription_payment_recovered is no standing here: adapter.cpp reads it as the renewal it
//   is (the failed invoice, now paid), and that renewal is what tells the recovery.

#include "domain/core/providers/lemonsqueezy/lemonsqueezy.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

namespace rd::providers {

using namespace adapters;

namespace {

NormalizeResult paymentFailed(DeliveryIds &ids, const nlohmann::json &resource)
{
    const std::string path = "data";
    if (requireString(resource, path, "type") != "subscription-invoices")
        throw InputError(joinPath(path, "type"), "expected subscription-invoices");
    const std::string invoiceId = requireId(resource, path, "id");
    ids.objectId = invoiceId;
    const std::string attrsPath = joinPath(path, "attributes");
    const auto &attrs = requireField(resource, path, "attributes");
    ids.subscriptionId = requireId(attrs, attrsPath, "subscription_id");
    const std::string what = "Lemon Squeezy subscription_payment_failed: invoice " + invoiceId;
    if (requireString(attrs, attrsPath, "billing_reason") == "initial")
        return notARenewal("first_invoice", what + " is a first invoice");
    FailedAttempt a;
    a.invoiceKey = invoiceId;
    a.attempt = 1;
    a.failedAt = requireRfc3339(attrs, attrsPath, "created_at");
    a.amountMinor = requireNonNegativeInteger(attrs, attrsPath, "total");
    a.currency = requireCurrency(attrs, attrsPath, "currency");
    PaymentTrouble trouble;
    trouble.attempts.push_back(std::move(a));
    return paymentTrouble(std::move(trouble), ids.subscriptionId, "payment_failed",
        what + " of subscription " + ids.subscriptionId + " failed");
}

NormalizeResult subscriptionUpdated(DeliveryIds &ids, const nlohmann::json &resource)
{
    const std::string path = "data";
    if (requireString(resource, path, "type") != "subscriptions")
        throw InputError(joinPath(path, "type"), "expected subscriptions");
    ids.subscriptionId = requireId(resource, path, "id");
    const std::string attrsPath = joinPath(path, "attributes");
    const auto &attrs = requireField(resource, path, "attributes");
    const std::string status = requireString(attrs, attrsPath, "status");
    StandingFact fact;
    fact.observedAt = requireRfc3339(attrs, attrsPath, "updated_at");
    if (status == "active" || status == "on_trial") {
        fact.standing = ProviderStanding::Active;
    } else if (status == "past_due") {
        fact.standing = ProviderStanding::PastDue;
    } else if (status == "unpaid") {
        fact.standing = ProviderStanding::Unpaid;
    } else if (status == "paused") {
        fact.standing = ProviderStanding::Paused;
    } else if (status == "cancelled" || status == "expired") {
        fact.standing = ProviderStanding::Canceled;
        fact.reason = status;
    } else {
        throw InputError(
            joinPath(attrsPath, "status"), "unknown subscription status " + printableAscii(status));
    }
    PaymentTrouble trouble;
    trouble.standing = fact;
    return paymentTrouble(std::move(trouble), ids.subscriptionId, "provider_standing",
        "Lemon Squeezy subscription_updated: subscription " + ids.subscriptionId + " is " + status);
}

} // namespace

NormalizeResult classifyLemonSqueezyPaymentTrouble(
    DeliveryIds &ids, const nlohmann::json &resource, const std::string &eventName)
{
    if (eventName == "subscription_payment_failed")
        return paymentFailed(ids, resource);
    return subscriptionUpdated(ids, resource);
}

} // namespace rd::providers
