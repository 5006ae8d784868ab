// What Lemon Squeezy sends for a charge of the demo: subscription_payment_success; and when its
// payment fails (#41), subscription_payment_failed and subscription_updated.

#include "domain/core/providers/lemonsqueezy/lemonsqueezy.h"

#include "domain/core/providers/demo_support.h"

namespace rd::providers {

using namespace demo;

void LemonSqueezy::demoIdentify(Sub &s, Random &, const IdentityBases &bases) const
{
    s.id = std::to_string(bases.numbers + s.index);
    s.customer = "shop-" + std::to_string(bases.accounts + s.index);
    s.currency = "USD";
    s.importedPeriod = bases.months; // kept current by snapshots; only first invoices here
}

void LemonSqueezy::demoChargeIds(Charge &c, Random &, long long &invoiceNumber) const
{
    c.invoiceId = std::to_string(++invoiceNumber);
}

std::string LemonSqueezy::demoEventId(Random &) const
{
    return {}; // its deliveries carry no id: derived from the body
}

DemoTraits LemonSqueezy::demoTraits() const
{
    return {.renewalsCarryPeriod = false, .firstInvoiceNumber = 3000};
}

namespace {

// A webhook's meta.webhook_id: a UUID.
std::string lemonWebhookId(Random &r)
{
    return r.token(8, kLower) + "-" + r.token(4, kLower) + "-" + r.token(4, kLower) + "-"
        + r.token(4, kLower) + "-" + r.token(12, kLower);
}

// Lemon Squeezy's event `eventName` about the subscription invoice of charge `c`, in `status`
// (paid, pending...), created at `created` and last updated at `updated`.
std::string lemonInvoiceEvent(const Sub &s, const Charge &c, const char *eventName,
    const char *status, const char *statusFormatted, Timestamp created, Timestamp updated,
    Random &r)
{
    const char *reason = c.kind == ChargeKind::Renewal ? "renewal"
        : c.kind == ChargeKind::First                  ? "initial"
                                                       : "updated";
    return ojson {
        {"meta",
            {{"test_mode", false}, {"event_name", eventName}, {"webhook_id", lemonWebhookId(r)},
                {"custom_data", {{"account_id", s.customer}}}}},
        {"data",
            {{"type", "subscription-invoices"}, {"id", c.invoiceId},
                {"attributes",
                    {{"store_id", 11}, {"subscription_id", std::stoll(s.id)},
                        {"customer_id", 2000 + s.index}, {"billing_reason", reason},
                        {"card_brand", "visa"}, {"card_last_four", "4242"},
                        {"currency", s.currency}, {"currency_rate", "1.00000000"},
                        {"status", status}, {"status_formatted", statusFormatted},
                        {"refunded", false}, {"refunded_at", nullptr}, {"subtotal", c.amount},
                        {"discount_total", 0}, {"tax", 0}, {"tax_inclusive", false},
                        {"total", c.amount}, {"created_at", formatRfc3339(created)},
                        {"updated_at", formatRfc3339(updated)}, {"test_mode", false}}},
                {"links",
                    {{"self",
                        "https://api.lemonsqueezy.com/v1/subscription-invoices/" + c.invoiceId}}}}}}
        .dump(2);
}

} // namespace

std::string LemonSqueezy::demoPayload(
    const Sub &s, const Charge &c, const Period &, Random &r) const
{
    return lemonInvoiceEvent(s, c, "subscription_payment_success", "paid", "Paid", c.paidAt,
        plusSeconds(c.paidAt, 5), r);
}

std::vector<std::string> LemonSqueezy::demoAlsoSent(const Sub &, const Charge &, Random &) const
{
    return {};
}

std::vector<std::pair<std::string, std::string>> LemonSqueezy::demoStatementPages(
    const std::vector<std::string> &) const
{
    return {}; // the demo's statements are stripe-main's
}

std::vector<std::string> LemonSqueezy::demoMoneyBack(
    const Sub &, const Charge &, const std::string &, const MoneyBack &, Random &) const
{
    // The demo's money back is told with Stripe's events (#40); Lemon Squeezy's adapter reads its
    // own (tests/fixtures), but its demo sends none.
    return {};
}

std::vector<Sent> LemonSqueezy::demoPaymentTrouble(
    const Sub &s, const Charge &c, const Dunning &dunning, Random &r) const
{
    if (dunning.failures.empty())
        return {};
    // The subscription invoice is created when Lemon Squeezy first charges it; each failed
    // attempt (the first and its retries, "4 payment retries over the course of 2 weeks")
    // sends subscription_payment_failed for it, pending. Its subscription goes past_due at the
    // first, and unpaid once the last retry fails; or active again when a retry succeeds
    // (subscription_payment_recovered, the invoice paid).
    const Timestamp created = dunning.failures.front();
    const auto subscriptionUpdated = [&](Timestamp at, const char *status,
                                         const char *statusFormatted) {
        const int anchorDay = std::stoi(formatRfc3339(c.period.start).substr(8, 2));
        return Sent {at,
            ojson {{"meta",
                       {{"test_mode", false}, {"event_name", "subscription_updated"},
                           {"webhook_id", lemonWebhookId(r)},
                           {"custom_data", {{"account_id", s.customer}}}}},
                {"data",
                    {{"type", "subscriptions"}, {"id", s.id},
                        {"attributes",
                            {{"store_id", 11}, {"customer_id", 2000 + s.index},
                                {"order_id", 4000 + s.index}, {"product_name", s.plan},
                                {"variant_name", "Default"}, {"status", status},
                                {"status_formatted", statusFormatted}, {"card_brand", "visa"},
                                {"card_last_four", "4242"}, {"pause", nullptr},
                                {"cancelled", false}, {"trial_ends_at", nullptr},
                                {"billing_anchor", anchorDay},
                                {"renews_at", formatRfc3339(c.period.end)}, {"ends_at", nullptr},
                                {"created_at", formatRfc3339(s.started)},
                                {"updated_at", formatRfc3339(at)}, {"test_mode", false}}},
                        {"links",
                            {{"self", "https://api.lemonsqueezy.com/v1/subscriptions/" + s.id}}}}}}
                .dump(2)};
    };
    std::vector<Sent> out;
    for (std::size_t i = 0; i < dunning.failures.size(); ++i) {
        const Timestamp at = dunning.failures[i];
        out.push_back({at,
            lemonInvoiceEvent(s, c, "subscription_payment_failed", "pending", "Pending", created,
                plusSeconds(at, 5), r)});
        if (i == 0)
            out.push_back(subscriptionUpdated(plusSeconds(at, 6), "past_due", "Past due"));
    }
    if (dunning.recovered) {
        Charge paid = c;
        paid.paidAt = dunning.end;
        out.push_back({dunning.end,
            lemonInvoiceEvent(s, paid, "subscription_payment_recovered", "paid", "Paid", created,
                plusSeconds(dunning.end, 5), r),
            true});
        out.push_back(subscriptionUpdated(plusSeconds(dunning.end, 6), "active", "Active"));
    } else {
        out.push_back(subscriptionUpdated(dunning.end, "unpaid", "Unpaid"));
    }
    return out;
}

} // namespace rd::providers
