// Each provider's webhook payload for a charge of the demo, in the shape the provider's API
// documents (the adapters' expectations, domain/core/adapters/).

#include "domain/demo/demo_payloads.h"

#include "domain/core/currency.h"

#include <cctype>
#include <string>

namespace rd::demo {
namespace {

// Recurly amounts are decimals in major units; written from integers so they are exact, with
// the currency's ISO 4217 minor units.
std::string majorUnits(std::int64_t minor, const std::string &currency)
{
    return formatMinorUnits(minor, currency);
}

} // namespace

std::string stripeBody(const Sub &s, const Charge &c, const std::string &eventType, Random &r)
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

std::string paddleBody(const Sub &s, const Charge &c, Random &r)
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

std::string chargebeeBody(const Sub &s, const Charge &c, const Period &term, Random &r)
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

std::string recurlyBody(const Sub &s, const Charge &c, Random &r)
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
    const std::string amount = majorUnits(c.amount, s.currency);
    for (auto pos = text.find(amountToken); pos != std::string::npos;
         pos = text.find(amountToken, pos + amount.size()))
        text.replace(pos, amountToken.size(), amount);
    return text;
}

std::string lemonBody(const Sub &s, const Charge &c, Random &r)
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

std::string providerBody(const Sub &s, const Charge &c, const Period &term, Random &r)
{
    switch (s.provider->kind) {
    case ProviderKind::Stripe:
        return stripeBody(s, c, "invoice.paid", r);
    case ProviderKind::Paddle:
        return paddleBody(s, c, r);
    case ProviderKind::Chargebee:
        return chargebeeBody(s, c, term, r);
    case ProviderKind::Recurly:
        return recurlyBody(s, c, r);
    case ProviderKind::LemonSqueezy:
        break;
    }
    return lemonBody(s, c, r);
}

} // namespace rd::demo
