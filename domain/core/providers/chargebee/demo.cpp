// What Chargebee sends for a charge of the demo: subscription_renewed or payment_succeeded, with
// the subscription's current term beside the invoice.

#include "domain/core/providers/chargebee/chargebee.h"

#include "domain/core/providers/demo_support.h"

namespace rd::providers {

using namespace demo;

void Chargebee::demoIdentify(Sub &s, Random &r, const IdentityBases &) const
{
    s.id = "AzZ" + r.token(14);
    s.customer = "16C" + r.token(13);
    s.currency = "USD";
}

void Chargebee::demoChargeIds(Charge &c, Random &r, long long &invoiceNumber) const
{
    c.invoiceId = std::to_string(++invoiceNumber);
    c.eventId = demoEventId(r);
}

std::string Chargebee::demoEventId(Random &r) const
{
    return "ev_" + r.token(17);
}

DemoTraits Chargebee::demoTraits() const
{
    return {.firstInvoiceNumber = 1000};
}

std::string Chargebee::demoPayload(
    const Sub &s, const Charge &c, const Period &term, Random &r) const
{
    const std::string eventType = c.kind == ChargeKind::Renewal && s.index % 2 == 0
        ? "subscription_renewed"
        : "payment_succeeded";
    const std::int64_t version = unixSeconds(c.paidAt) * 1000 + r.uniform(0, 999);
    const ojson line = {{"id", "li_" + r.token(17)}, {"date_from", unixSeconds(c.period.start)},
        {"date_to", unixSeconds(c.period.end)}, {"unit_amount", c.amount}, {"quantity", 1},
        {"amount", c.amount}, {"pricing_model", "flat_fee"}, {"is_taxed", false}, {"tax_amount", 0},
        {"object", "line_item"}, {"subscription_id", s.id}, {"customer_id", s.customer},
        {"description", s.plan}, {"entity_type", "plan_item_price"},
        {"entity_id", "pro-plan-" + s.currency + "-Monthly"}, {"discount_amount", 0},
        {"item_level_discount_amount", 0}};
    const ojson invoice = {{"id", c.invoiceId}, {"customer_id", s.customer}, {"recurring", true},
        {"status", "paid"}, {"price_type", "tax_exclusive"}, {"date", unixSeconds(c.period.start)},
        {"total", c.amount}, {"amount_paid", c.amount}, {"amount_adjusted", 0},
        {"credits_applied", 0}, {"amount_due", 0}, {"paid_at", unixSeconds(c.paidAt)},
        {"updated_at", unixSeconds(c.paidAt)}, {"resource_version", version}, {"deleted", false},
        {"object", "invoice"}, {"first_invoice", c.kind == ChargeKind::First},
        {"currency_code", s.currency}, {"base_currency_code", s.currency}, {"sub_total", c.amount},
        {"tax", 0}, {"line_items", ojson::array({line})}, {"linked_payments", ojson::array()},
        {"subscription_id", s.id}};
    const ojson subscription = {{"id", s.id}, {"billing_period", 1},
        {"billing_period_unit", "month"}, {"customer_id", s.customer}, {"status", "active"},
        {"current_term_start", unixSeconds(term.start)},
        {"current_term_end", unixSeconds(term.end)}, {"next_billing_at", unixSeconds(term.end)},
        {"resource_version", version - 7}, {"deleted", false}, {"object", "subscription"},
        {"currency_code", s.currency}, {"due_invoices_count", 0}};
    return ojson {{"id", c.eventId}, {"occurred_at", unixSeconds(c.paidAt) + 4},
        {"source", c.kind == ChargeKind::Renewal ? "scheduled_job" : "admin_console"},
        {"object", "event"}, {"api_version", "v2"},
        {"content", {{"invoice", invoice}, {"subscription", subscription}}},
        {"event_type", eventType}, {"webhook_status", "not_configured"}}
        .dump(2);
}

std::vector<std::string> Chargebee::demoAlsoSent(const Sub &, const Charge &, Random &) const
{
    return {};
}

std::vector<std::pair<std::string, std::string>> Chargebee::demoStatementPages(
    const std::vector<std::string> &) const
{
    return {}; // the demo's statements are stripe-main's
}

std::vector<std::string> Chargebee::demoMoneyBack(
    const Sub &, const Charge &, const std::string &, const MoneyBack &, Random &) const
{
    // The demo's money back is told with Stripe's events (#40); Chargebee's adapter reads its own
    // (tests/fixtures), but its demo sends none.
    return {};
}

std::vector<Sent> Chargebee::demoPaymentTrouble(
    const Sub &, const Charge &, const Dunning &, Random &) const
{
    // The demo's payment trouble is told with Stripe's and Lemon Squeezy's events (#41);
    // Chargebee's adapter reads its own (tests/fixtures), but its demo sends none.
    return {};
}

} // namespace rd::providers
