// What Recurly's API returns for a charge of the demo: the invoice the thin notification names.
// Amounts are decimals in major units, written from integers with the currency's ISO 4217 minor
// units so that they are exact.

#include "domain/core/providers/recurly/recurly.h"

#include "domain/core/currency.h"
#include "domain/core/providers/demo_support.h"

namespace rd::providers {

using namespace demo;

void Recurly::demoIdentify(Sub &s, Random &r, const IdentityBases &bases) const
{
    s.id = r.token(12, kLower);
    s.customer = "acct-" + std::to_string(bases.accounts + s.index);
    s.currency = "USD";
}

void Recurly::demoChargeIds(Charge &c, Random &r, long long &) const
{
    c.invoiceId = r.token(12, kLower);
}

std::string Recurly::demoEventId(Random &) const
{
    return {}; // its notifications carry no id: derived from the body
}

DemoTraits Recurly::demoTraits() const
{
    return {};
}

std::string Recurly::demoPayload(const Sub &s, const Charge &c, const Period &, Random &r) const
{
    const char *origin = c.kind == ChargeKind::Renewal ? "renewal"
        : c.kind == ChargeKind::First                  ? "purchase"
                                                       : "immediate_change";
    // Written as JSON numbers with their decimals ("12.500"), as Recurly does; the adapter
    // converts the text exactly. Spliced in as raw text: a double would lose the form.
    const std::string amountToken = "\"@AMOUNT@\"";
    const ojson line = {{"id", r.token(12, kLower)}, {"object", "line_item"}, {"type", "charge"},
        {"state", "invoiced"}, {"subscription_id", s.id}, {"plan_code", "pro-monthly"},
        {"invoice_id", c.invoiceId}, {"origin", "plan"}, {"currency", s.currency},
        {"amount", "@AMOUNT@"}, {"description", s.plan}, {"quantity", 1},
        {"unit_amount", "@AMOUNT@"}, {"subtotal", "@AMOUNT@"}, {"discount", 0}, {"tax", 0},
        {"taxable", false},
        {"proration_rate", c.kind == ChargeKind::Proration ? ojson(0.5) : ojson(nullptr)},
        {"refund", false}, {"start_date", formatRfc3339(c.period.start)},
        {"end_date", formatRfc3339(c.period.end)},
        {"created_at", formatRfc3339(plusSeconds(c.paidAt, -120))},
        {"updated_at", formatRfc3339(plusSeconds(c.paidAt, -120))}};
    std::string text = ojson {{"id", c.invoiceId}, {"object", "invoice"}, {"type", "charge"},
        {"origin", origin}, {"state", "paid"},
        {"account", {{"id", r.token(12, kLower)}, {"object", "account"}, {"code", s.customer}}},
        {"subscription_ids", ojson::array({s.id})}, {"previous_invoice_id", nullptr},
        {"number", std::to_string(1000 + r.uniform(0, 8999))}, {"collection_method", "automatic"},
        {"net_terms", 0}, {"currency", s.currency}, {"balance", 0}, {"paid", "@AMOUNT@"},
        {"total", "@AMOUNT@"}, {"subtotal", "@AMOUNT@"}, {"discount", 0}, {"tax", 0},
        {"line_items", {{"object", "list"}, {"has_more", false}, {"data", ojson::array({line})}}},
        {"transactions", ojson::array()},
        {"created_at", formatRfc3339(plusSeconds(c.paidAt, -120))},
        {"updated_at", formatRfc3339(c.paidAt)}, {"due_at", formatRfc3339(c.paidAt)},
        {"closed_at",
            formatRfc3339(
                c.paidAt)}}.dump(2);
    const std::string amount = formatMinorUnits(c.amount, s.currency);
    for (auto pos = text.find(amountToken); pos != std::string::npos;
         pos = text.find(amountToken, pos + amount.size()))
        text.replace(pos, amountToken.size(), amount);
    return text;
}

std::vector<std::string> Recurly::demoAlsoSent(const Sub &, const Charge &, Random &) const
{
    return {};
}

std::vector<std::pair<std::string, std::string>> Recurly::demoStatementPages(
    const std::vector<std::string> &) const
{
    return {}; // the demo's statements are stripe-main's
}

std::vector<std::string> Recurly::demoMoneyBack(
    const Sub &, const Charge &, const std::string &, const MoneyBack &, Random &) const
{
    // The demo's money back is told with Stripe's events (#40); Recurly's adapter reads its own
    // (tests/fixtures), but its demo sends none.
    return {};
}

std::vector<Sent> Recurly::demoPaymentTrouble(
    const Sub &, const Charge &, const Dunning &, Random &) const
{
    // The demo's payment trouble is told with Stripe's and Lemon Squeezy's events (#41); Recurly's
    // adapter reads its own (tests/fixtures), but its demo sends none.
    return {};
}

} // namespace rd::providers
