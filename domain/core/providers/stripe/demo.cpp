// What Stripe sends for a charge of the demo: its invoice.paid (and invoice.payment_succeeded)
// event, in the invoice shape of the subscription's API version.

#include "domain/core/providers/stripe/stripe.h"

#include "domain/core/providers/demo_support.h"

#include <algorithm>
#include <cctype>

namespace rd::providers {

using namespace demo;

void Stripe::demoIdentify(Sub &s, Random &r, const IdentityBases &) const
{
    s.id = "sub_1" + r.token(13);
    s.customer = "cus_" + r.token(14);
    s.currency = "USD";
}

void Stripe::demoChargeIds(Charge &c, Random &r, long long &) const
{
    c.invoiceId = "in_1" + r.token(23);
    c.eventId = demoEventId(r);
}

std::string Stripe::demoEventId(Random &r) const
{
    return "evt_1" + r.token(23);
}

DemoTraits Stripe::demoTraits() const
{
    return {};
}

namespace {

// Stripe's event `eventType` ("invoice.paid", "invoice.payment_succeeded") for charge `c`.
std::string stripeDemoEvent(const Sub &s, const Charge &c, const std::string &eventType, Random &r)
{
    const bool basil = s.index % 2 == 1;
    const std::string cur = [&] {
        std::string lower = s.currency;
        for (char &ch : lower)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        return lower;
    }();
    const char *reason = c.kind == ChargeKind::Renewal ? "subscription_cycle"
        : c.kind == ChargeKind::First                  ? "subscription_create"
                                                       : "subscription_update";
    const bool proration = c.kind == ChargeKind::Proration;
    ojson line = {{"id", "il_" + r.token(24)}, {"object", "line_item"}, {"amount", c.amount},
        {"currency", cur},
        {"description",
            proration ? "Remaining time on " + s.plan + " after upgrade" : "1 × " + s.plan},
        {"discountable", !proration}, {"livemode", false}, {"metadata", ojson::object()},
        {"period", {{"start", unixSeconds(c.period.start)}, {"end", unixSeconds(c.period.end)}}},
        {"quantity", 1}};
    if (basil) {
        line["parent"] = {{"type", "subscription_item_details"}, {"invoice_item_details", nullptr},
            {"subscription_item_details",
                {{"invoice_item", nullptr}, {"proration", proration}, {"subscription", s.id},
                    {"subscription_item", "si_" + r.token(14)}}}};
    } else {
        line["proration"] = proration;
        line["subscription"] = s.id;
        line["type"] = "subscription";
    }
    const Timestamp created = plusSeconds(c.paidAt, -120);
    // Stripe's invoice-level period looks back one period on subscription invoices.
    const Timestamp lookBack = addMonths(c.period.start, -1);
    ojson invoice = {{"id", c.invoiceId}, {"object", "invoice"}, {"account_country", "US"},
        {"account_name", "Renewal Desk Demo Inc."}, {"amount_due", c.amount},
        {"amount_paid", c.amount}, {"amount_remaining", 0}, {"attempt_count", 1},
        {"attempted", true}, {"billing_reason", reason},
        {"collection_method", "charge_automatically"}, {"created", unixSeconds(created)},
        {"currency", cur}, {"customer", s.customer}, {"livemode", false},
        {"lines",
            {{"object", "list"}, {"data", ojson::array({line})}, {"has_more", false},
                {"total_count", 1}, {"url", "/v1/invoices/" + c.invoiceId + "/lines"}}},
        {"number", "DEMO-" + r.token(6, "ABCDEF0123456789")},
        {"period_start", unixSeconds(lookBack)}, {"period_end", unixSeconds(c.period.start)},
        {"status", "paid"},
        {"status_transitions",
            {{"finalized_at", unixSeconds(created)}, {"marked_uncollectible_at", nullptr},
                {"paid_at", unixSeconds(c.paidAt)}, {"voided_at", nullptr}}},
        {"subtotal", c.amount}, {"total", c.amount}};
    if (basil) {
        invoice["parent"] = {{"type", "subscription_details"}, {"quote_details", nullptr},
            {"subscription_details", {{"metadata", ojson::object()}, {"subscription", s.id}}}};
    } else {
        invoice["subscription"] = s.id;
        invoice["paid"] = true;
        invoice["charge"] = "ch_" + r.token(24);
        invoice["payment_intent"] = "pi_" + r.token(24);
    }
    return ojson {{"id", c.eventId}, {"object", "event"},
        {"api_version", basil ? "2025-03-31.basil" : "2024-06-20"},
        {"created", unixSeconds(c.paidAt) + 5}, {"data", {{"object", invoice}}},
        {"livemode", false}, {"pending_webhooks", 1},
        {"request", {{"id", nullptr}, {"idempotency_key", nullptr}}}, {"type", eventType}}
        .dump(2);
}

} // namespace

std::string Stripe::demoPayload(const Sub &s, const Charge &c, const Period &, Random &r) const
{
    return stripeDemoEvent(s, c, "invoice.paid", r);
}

std::vector<std::string> Stripe::demoAlsoSent(const Sub &s, const Charge &c, Random &r) const
{
    // Both event types for the one invoice: its renewal key makes the second a duplicate.
    Charge again = c;
    again.eventId = demoEventId(r);
    return {stripeDemoEvent(s, again, "invoice.payment_succeeded", r)};
}

std::optional<std::string> Stripe::demoStatementPage(const std::vector<std::string> &payloads) const
{
    std::vector<ojson> invoices;
    for (const auto &payload : payloads)
        invoices.push_back(ojson::parse(payload)["data"]["object"]);
    // Stripe lists the newest first.
    std::stable_sort(invoices.begin(), invoices.end(), [](const ojson &a, const ojson &b) {
        return a["created"].get<std::int64_t>() > b["created"].get<std::int64_t>();
    });
    return ojson {
        {"object", "list"}, {"data", invoices}, {"has_more", false}, {"url", "/v1/invoices"}}
        .dump(2);
}

} // namespace rd::providers
