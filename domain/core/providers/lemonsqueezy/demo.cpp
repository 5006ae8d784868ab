// What Lemon Squeezy sends for a charge of the demo: subscription_payment_success.

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

std::string LemonSqueezy::demoPayload(
    const Sub &s, const Charge &c, const Period &, Random &r) const
{
    const char *reason = c.kind == ChargeKind::Renewal ? "renewal"
        : c.kind == ChargeKind::First                  ? "initial"
                                                       : "updated";
    const std::string created = formatRfc3339(c.paidAt);
    return ojson {
        {"meta",
            {{"test_mode", false}, {"event_name", "subscription_payment_success"},
                {"webhook_id",
                    r.token(8, kLower) + "-" + r.token(4, kLower) + "-" + r.token(4, kLower) + "-"
                        + r.token(4, kLower) + "-" + r.token(12, kLower)},
                {"custom_data", {{"account_id", s.customer}}}}},
        {"data",
            {{"type", "subscription-invoices"}, {"id", c.invoiceId},
                {"attributes",
                    {{"store_id", 11}, {"subscription_id", std::stoll(s.id)},
                        {"customer_id", 2000 + s.index}, {"billing_reason", reason},
                        {"card_brand", "visa"}, {"card_last_four", "4242"},
                        {"currency", s.currency}, {"currency_rate", "1.00000000"},
                        {"status", "paid"}, {"status_formatted", "Paid"}, {"refunded", false},
                        {"refunded_at", nullptr}, {"subtotal", c.amount}, {"discount_total", 0},
                        {"tax", 0}, {"tax_inclusive", false}, {"total", c.amount},
                        {"created_at", created},
                        {"updated_at", formatRfc3339(plusSeconds(c.paidAt, 5))},
                        {"test_mode", false}}},
                {"links",
                    {{"self",
                        "https://api.lemonsqueezy.com/v1/subscription-invoices/" + c.invoiceId}}}}}}
        .dump(2);
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

} // namespace rd::providers
