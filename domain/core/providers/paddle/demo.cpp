// What Paddle Billing sends for a charge of the demo: transaction.completed.

#include "domain/core/providers/paddle/paddle.h"

#include "domain/core/providers/demo_support.h"

namespace rd::providers {

using namespace demo;

void Paddle::demoIdentify(Sub &s, Random &r, const IdentityBases &) const
{
    s.id = "sub_01" + r.token(24, kLower);
    s.customer = "ctm_01" + r.token(24, kLower);
    s.currency = "EUR";
}

void Paddle::demoChargeIds(Charge &c, Random &r, long long &) const
{
    c.invoiceId = "txn_01" + r.token(24, kLower);
    c.eventId = demoEventId(r);
}

std::string Paddle::demoEventId(Random &r) const
{
    return "evt_01" + r.token(24, kLower);
}

DemoTraits Paddle::demoTraits() const
{
    return {};
}

std::string Paddle::demoPayload(const Sub &s, const Charge &c, const Period &, Random &r) const
{
    const char *origin = c.kind == ChargeKind::Renewal ? "subscription_recurring"
        : c.kind == ChargeKind::First                  ? "web"
                                                       : "subscription_update";
    const std::int64_t tax = c.amount / 5; // 20 % VAT on top
    const std::string gross = std::to_string(c.amount + tax);
    const std::string priceId = "pri_01" + r.token(24, kLower);
    const ojson totals = {{"subtotal", std::to_string(c.amount)}, {"tax", std::to_string(tax)},
        {"discount", "0"}, {"total", gross}, {"grand_total", gross},
        {"fee", std::to_string((c.amount + tax) * 5 / 100 + 50)}, {"credit", "0"},
        {"credit_to_balance", "0"}, {"balance", "0"}, {"currency_code", s.currency}};
    return ojson {{"event_id", c.eventId}, {"event_type", "transaction.completed"},
        {"occurred_at", formatRfc3339(plusSeconds(c.paidAt, 2))},
        {"notification_id", "ntf_01" + r.token(24, kLower)},
        {"data",
            {{"id", c.invoiceId}, {"status", "completed"}, {"customer_id", s.customer},
                {"address_id", "add_01" + r.token(24, kLower)}, {"business_id", nullptr},
                {"custom_data", nullptr}, {"origin", origin}, {"collection_mode", "automatic"},
                {"subscription_id", s.id}, {"invoice_id", "inv_01" + r.token(24, kLower)},
                {"billing_period",
                    {{"starts_at", formatRfc3339(c.period.start)},
                        {"ends_at", formatRfc3339(c.period.end)}}},
                {"currency_code", s.currency}, {"discount_id", nullptr},
                {"created_at", formatRfc3339(plusSeconds(c.paidAt, -3))},
                {"updated_at", formatRfc3339(plusSeconds(c.paidAt, 1))},
                {"billed_at", formatRfc3339(plusSeconds(c.paidAt, -3))},
                {"items",
                    ojson::array(
                        {{{"price",
                              {{"id", priceId}, {"description", s.plan},
                                  {"billing_cycle", {{"interval", "month"}, {"frequency", 1}}},
                                  {"unit_price",
                                      {{"amount", std::to_string(c.amount)},
                                          {"currency_code", s.currency}}}}},
                            {"quantity", 1}}})},
                {"details", {{"totals", totals}}},
                {"payments",
                    ojson::array(
                        {{{"amount", gross}, {"status", "captured"}, {"error_code", nullptr},
                            {"method_details", {{"type", "card"}, {"card", {{"type", "visa"}}}}},
                            {"created_at", formatRfc3339(plusSeconds(c.paidAt, -2))},
                            {"captured_at", formatRfc3339(c.paidAt)}}})}}}}
        .dump(2);
}

std::vector<std::string> Paddle::demoAlsoSent(const Sub &, const Charge &, Random &) const
{
    return {};
}

std::vector<std::pair<std::string, std::string>> Paddle::demoStatementPages(
    const std::vector<std::string> &) const
{
    return {}; // the demo's statements are stripe-main's
}

std::vector<std::string> Paddle::demoMoneyBack(
    const Sub &, const Charge &, const std::string &, const MoneyBack &, Random &) const
{
    // The demo's money back is told with Stripe's events (#40); Paddle's adapter reads its own
    // (tests/fixtures), but its demo sends none.
    return {};
}

std::vector<Sent> Paddle::demoPaymentTrouble(
    const Sub &, const Charge &, const Dunning &, Random &) const
{
    // The demo's payment trouble is told with Stripe's and Lemon Squeezy's events (#41); Paddle's
    // adapter reads its own (tests/fixtures), but its demo sends none.
    return {};
}

} // namespace rd::providers
