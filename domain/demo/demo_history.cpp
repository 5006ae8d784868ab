// The demo history: realistic payloads of each provider, delivered through WebhookIngestor
// exactly as webhooks would be, so that the desk shows what the real path makes of them.
// The payload shapes follow the adapters' documented expectations (see domain/adapters/).

#include "domain/demo/demo_history.h"

#include "domain/core/adapters/normalization.h"
#include "domain/core/currency.h"
#include "domain/core/errors.h"
#include "domain/store/database_target.h"
#include "domain/store/subscription_import.h"
#include "domain/store/webhook_ingestor.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <algorithm>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

namespace rd {
namespace {

using ojson = nlohmann::ordered_json;

constexpr const char *kLower = "abcdefghijklmnopqrstuvwxyz0123456789";
constexpr const char *kMixed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

class Random
{
public:
    explicit Random(std::uint64_t seed) : m_rng(seed) { }
    std::string token(std::size_t n, const char *alphabet = kMixed)
    {
        const std::string a(alphabet);
        std::string out;
        for (std::size_t i = 0; i < n; ++i)
            out += a[static_cast<std::size_t>(uniform(0, static_cast<int>(a.size()) - 1))];
        return out;
    }
    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(m_rng); }
    bool chance(int percent) { return uniform(1, 100) <= percent; }

private:
    std::mt19937_64 m_rng;
};

std::int64_t unixSeconds(Timestamp t)
{
    return t.micros / 1000000;
}

Timestamp plusSeconds(Timestamp t, std::int64_t seconds)
{
    return Timestamp {t.micros + seconds * 1000000};
}

struct Provider
{
    const char *key;
    ProviderKind kind;
    const char *name;
};

const Provider kProviders[] = {
    {"stripe-main", ProviderKind::Stripe, "Stripe (main account)"},
    {"paddle-eu", ProviderKind::Paddle, "Paddle Billing EU"},
    {"chargebee-us", ProviderKind::Chargebee, "Chargebee US site"},
    {"recurly-main", ProviderKind::Recurly, "Recurly"},
    {"lemon-shop", ProviderKind::LemonSqueezy, "Lemon Squeezy shop"},
};

enum class ChargeKind { Renewal, First, Proration };

struct Sub
{
    int index = 0;
    const Provider *provider = nullptr;
    std::string id;
    std::string customer;
    std::string currency;
    std::int64_t amount = 0; ///< minor units, before tax
    std::string plan;
    Timestamp anchor; ///< start of the period that contains `now` once renewed
    std::string status = "active";
    bool cancelAtPeriodEnd = false;
    int importedPeriod = 0; ///< the period index imported as current (0 = months back)
    bool firstInvoice = false;
    bool proration = false;
};

struct Charge
{
    ChargeKind kind = ChargeKind::Renewal;
    Period period;
    Timestamp paidAt;
    std::int64_t amount = 0;
    std::string invoiceId;
    std::string eventId;
};

// The period index k: k = months is the one containing `now`.
Period periodOf(const Sub &s, int k, int months)
{
    return {addMonths(s.anchor, k - months), addMonths(s.anchor, k - months + 1)};
}

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

// Recurly amounts are decimals in major units; written from integers so they are exact, with
// the currency's ISO 4217 minor units.
std::string majorUnits(std::int64_t minor, const std::string &currency)
{
    return formatMinorUnits(minor, currency);
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

// The start of the latest period boundary at or before `now` for a subscription billed on
// `day` of each month at `hour`.
Timestamp latestAnchor(Timestamp now, int day, int hour)
{
    const std::string text = formatRfc3339(now); // "YYYY-MM-DDT..."
    const int year = std::stoi(text.substr(0, 4));
    const unsigned month = static_cast<unsigned>(std::stoi(text.substr(5, 2)));
    Timestamp t = makeUtc(year, month, static_cast<unsigned>(day), static_cast<unsigned>(hour));
    if (t > now)
        t = addMonths(t, -1);
    return t;
}

// The live simulation's period start: today (UTC) at a whole hour at or before `now`.
Timestamp todayAt(Timestamp now, Random &r)
{
    const std::string text = formatRfc3339(now); // "YYYY-MM-DDTHH..."
    const int hour = std::stoi(text.substr(11, 2));
    return makeUtc(std::stoi(text.substr(0, 4)),
        static_cast<unsigned>(std::stoi(text.substr(5, 2))),
        static_cast<unsigned>(std::stoi(text.substr(8, 2))),
        static_cast<unsigned>(r.uniform(0, hour)));
}

// A subscription's provider-side identity, in the provider's own id format.
void identify(Sub &s, Random &r, int i, int months, int lemonBase, int accountBase)
{
    switch (s.provider->kind) {
    case ProviderKind::Stripe:
        s.id = "sub_1" + r.token(13);
        s.customer = "cus_" + r.token(14);
        s.currency = "USD";
        break;
    case ProviderKind::Paddle:
        s.id = "sub_01" + r.token(24, kLower);
        s.customer = "ctm_01" + r.token(24, kLower);
        s.currency = "EUR";
        break;
    case ProviderKind::Chargebee:
        s.id = "AzZ" + r.token(14);
        s.customer = "16C" + r.token(13);
        s.currency = "USD";
        break;
    case ProviderKind::Recurly:
        s.id = r.token(12, kLower);
        s.customer = "acct-" + std::to_string(accountBase + i);
        s.currency = "USD";
        break;
    case ProviderKind::LemonSqueezy:
        s.id = std::to_string(lemonBase + i);
        s.customer = "shop-" + std::to_string(accountBase + i);
        s.currency = "USD";
        s.importedPeriod = months; // kept current by snapshots; only first invoices here
        break;
    }
}

const std::int64_t kPlans[] = {900, 1900, 2900, 4900, 9900};
const char *kPlanNames[] = {"Starter", "Team", "Pro", "Business", "Scale"};

// The payload a provider of `s` sends for charge `c` (Stripe's: invoice.paid).
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

// New charges with each provider's ids; Chargebee's and Lemon Squeezy's invoice numbers count
// up from the bases given.
class ChargeMaker
{
public:
    ChargeMaker(Random &r, long long chargebeeInvoice, long long lemonInvoice)
        : m_r(r), m_chargebeeInvoice(chargebeeInvoice), m_lemonInvoice(lemonInvoice)
    { }

    Charge operator()(const Sub &s, ChargeKind kind, Period period, std::int64_t amount)
    {
        Charge c;
        c.kind = kind;
        c.period = period;
        c.amount = amount;
        c.paidAt = m_paidAt ? *m_paidAt : plusSeconds(period.start, m_r.uniform(60, 3600));
        switch (s.provider->kind) {
        case ProviderKind::Stripe:
            c.invoiceId = "in_1" + m_r.token(23);
            c.eventId = "evt_1" + m_r.token(23);
            break;
        case ProviderKind::Paddle:
            c.invoiceId = "txn_01" + m_r.token(24, kLower);
            c.eventId = "evt_01" + m_r.token(24, kLower);
            break;
        case ProviderKind::Chargebee:
            c.invoiceId = std::to_string(++m_chargebeeInvoice);
            c.eventId = "ev_" + m_r.token(17);
            break;
        case ProviderKind::Recurly:
            c.invoiceId = m_r.token(12, kLower);
            break;
        case ProviderKind::LemonSqueezy:
            c.invoiceId = std::to_string(++m_lemonInvoice);
            break;
        }
        return c;
    }

    /// Every charge from now on paid at `at` (the live simulation's present).
    void payAt(Timestamp at) { m_paidAt = at; }

private:
    Random &m_r;
    std::optional<Timestamp> m_paidAt;
    long long m_chargebeeInvoice;
    long long m_lemonInvoice;
};

// The subscriptions' import lines (renewalctl subscriptions import), each at its imported
// period.
std::string importLines(const std::vector<Sub> &subs, int months)
{
    std::ostringstream lines;
    for (const auto &s : subs) {
        const Period p = periodOf(s, s.importedPeriod, months);
        lines << nlohmann::json {{"providerKey", s.provider->key}, {"providerSubscriptionId", s.id},
            {"status", s.status},
            {"currentPeriod", {{"start", formatRfc3339(p.start)}, {"end", formatRfc3339(p.end)}}},
            {"cancelAtPeriodEnd", s.cancelAtPeriodEnd}, {"providerVersion", nullptr}}
                     .dump()
              << "\n";
    }
    return lines.str();
}

} // namespace

namespace {

// The ingest path stamps a delivery with the database's clock, so a history delivered in one
// go would show every delivery and every case arriving this minute: an Overview with one bar.
// The story's deliveries are moved to when the provider sent them, and each case to its
// deliveries' times (first and last seen). Audit rows and case history keep their real times:
// their hash chains cover them. Skipped for a role that may not update the inbox.
void backdateDeliveries(
    const std::string &conninfo, const std::vector<std::pair<std::int64_t, Timestamp>> &received)
{
    if (received.empty())
        return;
    auto conn = connectTo(conninfo);
    pqxx::work tx(*conn);
    if (!tx.exec1("SELECT has_table_privilege('public.webhook_inbox', 'UPDATE') "
                  "AND has_table_privilege('public.reconciliation_cases', 'UPDATE') "
                  "AND has_table_privilege('public.webhook_inbox_daily', 'DELETE')")[0]
             .as<bool>())
        return;
    std::string ids = "{";
    std::string ats = "{";
    for (const auto &[id, at] : received) {
        ids += std::to_string(id) + ',';
        ats += formatRfc3339(at) + ',';
    }
    ids.back() = '}';
    ats.back() = '}';
    // A delivery received twice keeps its first time; its redelivery came minutes later.
    tx.exec_params(
        "UPDATE public.webhook_inbox w SET received_at = r.at, "
        "last_delivery_at = r.at + (w.deliveries - 1) * interval '4 minutes', "
        "processed_at = CASE WHEN w.processed_at IS NOT NULL THEN r.at END "
        "FROM (SELECT DISTINCT ON (id) id, at FROM unnest($1::bigint[], $2::timestamptz[]) "
        "AS u(id, at) ORDER BY id, at) r WHERE w.id = r.id",
        ids, ats);
    tx.exec("UPDATE public.reconciliation_cases c SET first_seen_at = x.first_at, "
            "last_seen_at = greatest(x.first_at, x.last_at) "
            "FROM (SELECT case_id, min(received_at) AS first_at, max(last_delivery_at) AS last_at "
            "FROM public.webhook_inbox WHERE case_id IS NOT NULL GROUP BY case_id) x "
            "WHERE c.id = x.case_id");
    // Days folded before the history was dated are counted again (migration 0018).
    tx.exec("DELETE FROM public.webhook_inbox_daily");
    tx.exec("UPDATE public.webhook_inbox_daily_state SET folded_before = least(folded_before, "
            "(SELECT (min(received_at) AT TIME ZONE 'UTC')::date FROM public.webhook_inbox))");
    tx.commit();
}

} // namespace

bool hasSubscriptions(pqxx::connection &conn)
{
    pqxx::read_transaction tx(conn);
    return tx.exec1("SELECT EXISTS (SELECT 1 FROM subscriptions)")[0].as<bool>();
}

DemoReport buildDemoHistory(const std::string &conninfo, const DemoOptions &options)
{
    const int months = options.months;
    if (options.subscriptions < 6 || options.months < 2)
        throw InputError("demo", "needs at least 6 subscriptions and 2 months");
    Random r(options.seed);
    DemoReport report;

    auto conn = connectTo(conninfo);
    for (const auto &p : kProviders) {
        registerBillingProvider(*conn, p.key, p.kind, p.name);
        ++report.providers;
    }

    // The cast. Indices 0..5 carry the special cases; see the switch below.
    std::vector<Sub> subs;
    for (int i = 0; i < options.subscriptions; ++i) {
        Sub s;
        s.index = i;
        s.provider = &kProviders[i % 5];
        const int plan = r.uniform(0, 4);
        s.amount = kPlans[plan];
        s.plan = std::string(kPlanNames[plan]) + " (monthly)";
        s.anchor = latestAnchor(options.now, r.uniform(1, 28), r.uniform(0, 23));
        identify(s, r, i, months, 1000, 100);
        s.firstInvoice = i % 7 == 0 && s.provider->kind != ProviderKind::LemonSqueezy;
        s.proration = i % 9 == 1 && i > 5 && s.provider->kind != ProviderKind::LemonSqueezy;
        switch (i) {
        case 0: // zero-decimal currency: Stripe sends whole yen
            s.currency = "JPY";
            s.amount = 1500;
            break;
        case 3: // three-decimal currency, major-unit decimals in Recurly's payload
            s.currency = "KWD";
            s.amount = 12500;
            break;
        case 4: // the Lemon Squeezy renewal that needs a snapshot
            s.importedPeriod = months - 1;
            break;
        case 5: // set to cancel at the end of its period, then renewed by the provider
            s.importedPeriod = months - 1;
            s.cancelAtPeriodEnd = true;
            break;
        default:
            if (i % 13 == 12) {
                s.status = "canceled"; // a churned customer: no payloads any more
                s.importedPeriod = 1;
            }
            break;
        }
        subs.push_back(std::move(s));
    }

    std::istringstream in(importLines(subs, months));
    report.subscriptions = importSubscriptions(*conn, in, "demo").created;
    conn.reset();

    // stripe-main's paid invoices, by paid month, for the statements (a stranger's renewal
    // is left out: it belongs to another account of the provider's).
    std::map<std::string, std::vector<ojson>> stripeInvoices;
    const auto keepForStatement = [&](const Sub &s, const std::string &stripeEvent) {
        if (s.provider->kind != ProviderKind::Stripe || options.statementsDir.empty())
            return;
        ojson object = ojson::parse(stripeEvent)["data"]["object"];
        const Timestamp paid
            = Timestamp::fromSeconds(object["status_transitions"]["paid_at"].get<std::int64_t>());
        stripeInvoices[formatRfc3339(paid).substr(0, 7)].push_back(std::move(object));
    };
    // The lost-delivery story: these subscriptions' latest renewal never reaches us.
    const auto lost = [&](const Sub &s, int k) {
        return k == months && s.provider->kind == ProviderKind::Stripe && s.index % 20 == 10
            && s.status == "active" && !s.cancelAtPeriodEnd;
    };

    WebhookIngestor ingestor(conninfo);
    std::vector<std::pair<std::string, std::string>> redeliveries;
    // When each delivery reached us in the story: seconds after the provider charged.
    std::vector<std::pair<std::int64_t, Timestamp>> received;
    const auto deliver = [&](const Sub &s, const std::string &body, Timestamp charged) {
        const auto result = ingestor.ingest(s.provider->key, body);
        ++report.outcomes[std::string(toString(result.outcome))];
        ++report.payloads;
        if (result.inboxId > 0)
            received.emplace_back(result.inboxId,
                std::min(plusSeconds(charged, 2 + report.payloads % 50), options.now));
        // Providers redeliver when an acknowledgement is slow or lost (the very first payload
        // always, so that every seed shows one).
        if (r.chance(6) || report.payloads == 1)
            redeliveries.emplace_back(s.provider->key, body);
    };
    ChargeMaker newCharge(r, 1000, 3000); // invoice numbers: Chargebee, Lemon Squeezy
    const auto body = [&r](const Sub &s, const Charge &c, const Period &term) {
        return providerBody(s, c, term, r);
    };

    // Month 0: the first invoices of subscriptions that started then (not renewals).
    for (const auto &s : subs) {
        const bool lemonFirst
            = s.provider->kind == ProviderKind::LemonSqueezy && s.index % 3 == 1 && s.index != 4;
        if (!s.firstInvoice && !lemonFirst)
            continue;
        const Period p0 = periodOf(s, lemonFirst ? months : 0, months);
        const Charge c = newCharge(s, ChargeKind::First, p0, s.amount);
        const std::string b = body(s, c, p0);
        keepForStatement(s, b);
        deliver(s, b, c.paidAt);
    }

    for (int k = 1; k <= months; ++k) {
        for (const auto &s : subs) {
            if (s.status != "active" || k <= s.importedPeriod)
                continue;
            if (s.index == 2 && k == months - 1)
                continue; // a month the provider never told us about
            const Period p = periodOf(s, k, months);
            const Charge c = newCharge(s, ChargeKind::Renewal, p, s.amount);
            const std::string b = body(s, c, p);
            keepForStatement(s, b);
            if (lost(s, k)) {
                r.chance(6); // as deliver() draws: the ids after it stay what they were
                ++report.lostDeliveries;
                continue;
            }
            deliver(s, b, c.paidAt);
            if (s.provider->kind == ProviderKind::Stripe && s.index % 3 == 0) {
                // Both event types for the one invoice: the renewal key makes it a duplicate.
                Charge again = c;
                again.eventId = "evt_1" + r.token(23);
                deliver(s, stripeBody(s, again, "invoice.payment_succeeded", r),
                    plusSeconds(c.paidAt, 40));
            }
            if (s.index == 1 && k == months - 1) {
                // The provider "corrects" the amount of a transaction already applied.
                Charge corrected = c;
                corrected.amount += 500;
                corrected.eventId = "evt_01" + r.token(24, kLower);
                deliver(s, paddleBody(s, corrected, r), plusSeconds(c.paidAt, 3 * 86400));
            }
            if (s.proration && k == std::min(2, months)) {
                // A mid-period upgrade: billed for the rest of the period, not a renewal.
                const Timestamp mid = plusSeconds(p.start, 86400 * r.uniform(5, 20));
                const Charge up = newCharge(s, ChargeKind::Proration, {mid, p.end}, s.amount / 2);
                const std::string b = body(s, up, p);
                keepForStatement(s, b);
                deliver(s, b, up.paidAt);
            }
        }
        for (const auto &[key, payload] : redeliveries) {
            const auto result = ingestor.ingest(key, payload);
            ++report.outcomes[std::string(toString(result.outcome))];
            ++report.payloads;
        }
        redeliveries.clear();
    }

    // A renewal for a subscription nobody imported (created outside the desk's knowledge).
    Sub stranger = subs[0];
    stranger.id = "sub_1" + r.token(13);
    stranger.currency = "USD";
    stranger.amount = 4900;
    const Period strangerPeriod = periodOf(stranger, months, months);
    const Charge strangerCharge = newCharge(stranger, ChargeKind::Renewal, strangerPeriod, 4900);
    deliver(
        stranger, stripeBody(stranger, strangerCharge, "invoice.paid", r), strangerCharge.paidAt);
    // A body cut short in transit: kept as evidence, outcome invalid.
    const Sub &paddleSub = subs[1];
    const std::string full = paddleBody(paddleSub,
        newCharge(paddleSub, ChargeKind::Renewal, periodOf(paddleSub, months, months), 100), r);
    const auto cut = ingestor.ingest(paddleSub.provider->key, full.substr(0, full.size() / 3));
    ++report.outcomes[std::string(toString(cut.outcome))];
    ++report.payloads;
    backdateDeliveries(conninfo, received);
    for (auto &[month, invoices] : stripeInvoices) {
        // Stripe lists the newest first, one page here (has_more false: the whole month).
        std::sort(invoices.begin(), invoices.end(), [](const ojson &a, const ojson &b) {
            return a["created"].get<std::int64_t>() > b["created"].get<std::int64_t>();
        });
        const std::string path = options.statementsDir + "/stripe-main-" + month + ".json";
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f << ojson {{"object", "list"}, {"data", invoices}, {"has_more", false},
            {"url", "/v1/invoices"}}
                 .dump(2)
          << "\n";
        if (!f.flush())
            throw InputError(path, "cannot write the demo's statement");
        report.statementFiles.push_back(path);
    }
    return report;
}

ReplaySet buildOutOfOrderReplaySet(const DemoOptions &options)
{
    if (options.subscriptions < 1 || options.months < 2)
        throw InputError("demo", "needs at least 1 subscription and 2 months");
    Random r(options.seed);
    ReplaySet set;
    std::vector<std::pair<int, std::string>> deliveries; // (random order key, payload)
    std::ostringstream lines;
    for (int i = 0; i < options.subscriptions; ++i) {
        Sub s;
        s.index = i;
        s.provider = &kProviders[0];
        const int plan = r.uniform(0, 4);
        s.amount = kPlans[plan];
        s.plan = std::string(kPlanNames[plan]) + " (monthly)";
        s.anchor = latestAnchor(options.now, r.uniform(1, 28), r.uniform(0, 23));
        s.id = "sub_1" + r.token(13);
        s.customer = "cus_" + r.token(14);
        s.currency = "USD";
        const Period imported = periodOf(s, 0, options.months);
        lines << nlohmann::json {{"providerKey", s.provider->key}, {"providerSubscriptionId", s.id},
            {"status", "active"},
            {"currentPeriod",
                {{"start", formatRfc3339(imported.start)}, {"end", formatRfc3339(imported.end)}}},
            {"cancelAtPeriodEnd", false}, {"providerVersion", nullptr}}
                     .dump()
              << "\n";
        for (int k = 1; k <= options.months; ++k) {
            Charge c;
            c.period = periodOf(s, k, options.months);
            c.amount = s.amount;
            c.paidAt = plusSeconds(c.period.start, r.uniform(60, 3600));
            c.invoiceId = "in_1" + r.token(23);
            for (const char *type : {"invoice.paid", "invoice.payment_succeeded"}) {
                c.eventId = "evt_1" + r.token(23);
                deliveries.emplace_back(
                    r.uniform(0, 1 << 30), ojson::parse(stripeBody(s, c, type, r)).dump());
            }
        }
    }
    std::stable_sort(deliveries.begin(), deliveries.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    set.subscriptionLines = lines.str();
    for (auto &d : deliveries)
        set.payloads.push_back(std::move(d.second));
    return set;
}

std::vector<std::pair<std::string, ProviderKind>> demoProviders()
{
    std::vector<std::pair<std::string, ProviderKind>> out;
    for (const auto &p : kProviders)
        out.emplace_back(p.key, p.kind);
    return out;
}

SimulationSet buildSimulationSet(
    const std::vector<std::pair<std::string, ProviderKind>> &providers, const DemoOptions &options)
{
    const int months = options.months;
    if (providers.empty())
        throw InputError("providers", "the simulation needs at least one provider");
    if (options.subscriptions < 1 || months < 2)
        throw InputError("simulation", "needs at least 1 subscription and 2 months");
    // Another stream than the demo's for the same seed, so that `renewalctl demo` and a
    // simulation with the same --seed do not make the same subscription ids.
    Random r(options.seed ^ 0x5157u);
    std::vector<Provider> cast;
    for (const auto &[key, kind] : providers)
        cast.push_back({key.c_str(), kind, key.c_str()});

    std::vector<Sub> subs;
    for (int i = 0; i < options.subscriptions; ++i) {
        Sub s;
        s.index = i;
        s.provider = &cast[static_cast<std::size_t>(i) % cast.size()];
        const int plan = r.uniform(0, 4);
        s.amount = kPlans[plan];
        s.plan = std::string(kPlanNames[plan]) + " (monthly)";
        s.anchor = latestAnchor(options.now, r.uniform(1, 28), r.uniform(0, 23));
        identify(s, r, i, months, 500000, 500000);
        s.firstInvoice = i % 7 == 0 && s.provider->kind != ProviderKind::LemonSqueezy;
        s.proration = i % 9 == 1 && s.provider->kind != ProviderKind::LemonSqueezy;
        if (options.live) {
            // Today's period, begun at a whole hour that has passed; imported one back.
            s.anchor = todayAt(options.now, r);
            if (s.provider->kind != ProviderKind::LemonSqueezy)
                s.importedPeriod = months - 1;
            s.firstInvoice = false;
            s.proration = false;
        }
        subs.push_back(std::move(s));
    }

    SimulationSet set;
    set.subscriptionLines = importLines(subs, months);

    const auto add = [&](const Sub &s, std::string body, const char *scenario) {
        set.payloads.push_back({s.provider->key, s.provider->kind, std::move(body), scenario});
        // Providers redeliver when an acknowledgement is slow or lost.
        if (r.chance(5) || set.payloads.size() == 1)
            set.payloads.push_back(
                {s.provider->key, s.provider->kind, set.payloads.back().body, "redelivery"});
    };
    ChargeMaker newCharge(r, 500000, 700000);
    if (options.live)
        newCharge.payAt(options.now);
    const auto body = [&r](const Sub &s, const Charge &c, const Period &term) {
        return providerBody(s, c, term, r);
    };

    // First invoices: of subscriptions that started `months` ago, and Lemon Squeezy's (its
    // subscriptions are imported current; its renewals carry no period and need a snapshot).
    for (const auto &s : subs) {
        const bool lemon = s.provider->kind == ProviderKind::LemonSqueezy;
        if ((!s.firstInvoice && !lemon) || options.live)
            continue;
        const Period p0 = periodOf(s, lemon ? months : 0, months);
        add(s, body(s, newCharge(s, ChargeKind::First, p0, s.amount), p0), "first_invoice");
    }
    // One subscription's month that its provider never reports: the renewals after it wait.
    const int gapSub = subs.size() > 2 && !options.live ? 2 : -1;
    for (int k = options.live ? months : 1; k <= months; ++k) {
        for (const auto &s : subs) {
            if (k <= s.importedPeriod)
                continue;
            if (s.index == gapSub && k == months - 1)
                continue;
            const Period p = periodOf(s, k, months);
            const Charge c = newCharge(s, ChargeKind::Renewal, p, s.amount);
            add(s, body(s, c, p), s.index == gapSub && k == months ? "after_gap" : "renewal");
            if (s.provider->kind == ProviderKind::Stripe && s.index % 3 == 0) {
                // Both event types for the one invoice, as Stripe sends them.
                Charge again = c;
                again.eventId = "evt_1" + r.token(23);
                add(s, stripeBody(s, again, "invoice.payment_succeeded", r), "second_event_type");
            }
            if (s.provider->kind == ProviderKind::Paddle && s.index % 5 == 1 && k == months - 1) {
                // The provider "corrects" the amount of a transaction already applied.
                Charge corrected = c;
                corrected.amount += 500;
                corrected.eventId = "evt_01" + r.token(24, kLower);
                add(s, paddleBody(s, corrected, r), "conflicting_amount");
            }
            if (s.proration && k == std::min(2, months)) {
                const Timestamp mid = plusSeconds(p.start, 86400 * r.uniform(5, 20));
                const Charge up = newCharge(s, ChargeKind::Proration, {mid, p.end}, s.amount / 2);
                add(s, body(s, up, p), "proration");
            }
        }
    }
    // Lemon Squeezy's renewals carry no period: each waits in a case for a snapshot.
    for (const auto &s : subs) {
        if (s.provider->kind != ProviderKind::LemonSqueezy)
            continue;
        const Period p = periodOf(s, months, months);
        add(s, body(s, newCharge(s, ChargeKind::Renewal, p, s.amount), p), "renewal");
    }
    // A renewal of a subscription nobody imported, and a body cut short in transit.
    for (const auto &s : subs) {
        if (s.provider->kind != ProviderKind::Stripe && s.provider->kind != ProviderKind::Paddle)
            continue;
        Sub stranger = s;
        stranger.id += "x";
        const Period p = periodOf(stranger, months, months);
        add(stranger, body(stranger, newCharge(stranger, ChargeKind::Renewal, p, s.amount), p),
            "unknown_subscription");
        const std::string full = body(s, newCharge(s, ChargeKind::Renewal, p, s.amount), p);
        set.payloads.push_back(
            {s.provider->key, s.provider->kind, full.substr(0, full.size() / 3), "cut_body"});
        break;
    }
    return set;
}

} // namespace rd
