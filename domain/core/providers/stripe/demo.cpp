// What Stripe sends for a charge of the demo: its invoice.paid (and invoice.payment_succeeded)
// event, in the invoice shape of the subscription's API version; its money back (#40); and when
// its payment fails (#41), invoice.payment_failed for each attempt and
// customer.subscription.updated as the subscription's status changes.

#include "domain/core/providers/stripe/stripe.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/providers/demo_support.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace rd::providers {

using namespace demo;

namespace {

// The address the invoice was sent to (#42: Find anything finds a customer by it), made of the
// customer's id, so that each demo customer has one of its own; written as adapters read it.
std::string demoCustomerEmail(const Sub &s)
{
    return adapters::customerEmail(s.customer + "@example.com");
}

} // namespace

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

// The demo's subscriptions of odd index are on API 2025-03-31 (basil), the others before it.
bool stripeDemoBasil(const Sub &s)
{
    return s.index % 2 == 1;
}

std::string stripeCurrency(const Sub &s)
{
    std::string lower = s.currency;
    for (char &ch : lower)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return lower;
}

// Charge `c`'s invoice as Stripe shows it paid at c.paidAt, on its `attempts`-th payment
// attempt, in the shape of the subscription's API version; created (and finalized) at `created`.
ojson stripeDemoInvoice(const Sub &s, const Charge &c, Random &r, Timestamp created, int attempts)
{
    const bool basil = stripeDemoBasil(s);
    const std::string cur = stripeCurrency(s);
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
    // Stripe's invoice-level period looks back one period on subscription invoices.
    const Timestamp lookBack = addMonths(c.period.start, -1);
    ojson invoice = {{"id", c.invoiceId}, {"object", "invoice"}, {"account_country", "US"},
        {"account_name", "Renewal Desk Demo Inc."}, {"amount_due", c.amount},
        {"amount_paid", c.amount}, {"amount_remaining", 0}, {"attempt_count", attempts},
        {"attempted", true}, {"billing_reason", reason},
        {"collection_method", "charge_automatically"}, {"created", unixSeconds(created)},
        {"currency", cur}, {"customer", s.customer}, {"customer_email", demoCustomerEmail(s)},
        {"livemode", false},
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
    return invoice;
}

// A Stripe event of type `type` about `data` (its object, and previous_attributes for an
// update), created at `created`, in the subscription's API version.
std::string stripeDemoEnvelope(
    const Sub &s, const std::string &id, const std::string &type, Timestamp created, ojson data)
{
    return ojson {{"id", id}, {"object", "event"},
        {"api_version", stripeDemoBasil(s) ? "2025-03-31.basil" : "2024-06-20"},
        {"created", unixSeconds(created)}, {"data", std::move(data)}, {"livemode", false},
        {"pending_webhooks", 1}, {"request", {{"id", nullptr}, {"idempotency_key", nullptr}}},
        {"type", type}}
        .dump(2);
}

// Stripe's event `eventType` ("invoice.paid", "invoice.payment_succeeded") for charge `c`.
std::string stripeDemoEvent(const Sub &s, const Charge &c, const std::string &eventType, Random &r)
{
    const ojson invoice = stripeDemoInvoice(s, c, r, plusSeconds(c.paidAt, -120), 1);
    return stripeDemoEnvelope(
        s, c.eventId, eventType, plusSeconds(c.paidAt, 5), ojson {{"object", invoice}});
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

std::vector<std::string> Stripe::demoMoneyBack(const Sub &s, const Charge &c,
    const std::string &renewalPayload, const MoneyBack &story, Random &r) const
{
    const ojson invoice = ojson::parse(renewalPayload)["data"]["object"];
    // A refund names the charge's invoice, a dispute only the charge: the demo's invoices of API
    // 2025-03-31 name no charge, and their charges no invoice, so their money back would name
    // nothing the desk knows.
    const auto chargeIt = invoice.find("charge");
    if (chargeIt == invoice.end() || !chargeIt->is_string())
        return {};
    const std::string charge = chargeIt->get<std::string>();
    const std::string intent = invoice.value("payment_intent", std::string());
    const std::string cur = invoice.value("currency", std::string());
    const auto event = [&](const char *type, const ojson &object, Timestamp at) {
        return ojson {{"id", demoEventId(r)}, {"object", "event"}, {"api_version", "2024-06-20"},
            {"created", unixSeconds(at) + 2}, {"data", {{"object", object}}}, {"livemode", false},
            {"pending_webhooks", 1}, {"request", {{"id", nullptr}, {"idempotency_key", nullptr}}},
            {"type", type}}
            .dump(2);
    };
    std::vector<std::string> out;
    if (story.kind == MoneyBack::Kind::Refunds) {
        // charge.refunded for each refund, the charge listing every refund so far (newest
        // first), as Stripe sends it.
        ojson refunds = ojson::array();
        std::int64_t total = 0;
        for (std::size_t i = 0; i < story.refunds.size(); ++i) {
            const std::int64_t amount = story.refunds[i];
            const Timestamp at = story.happensAt(i);
            total += amount;
            refunds.insert(refunds.begin(),
                ojson {{"id", "re_3" + r.token(23)}, {"object", "refund"}, {"amount", amount},
                    {"balance_transaction", "txn_3" + r.token(23)}, {"charge", charge},
                    {"created", unixSeconds(at)}, {"currency", cur}, {"metadata", ojson::object()},
                    {"payment_intent", intent}, {"reason", "requested_by_customer"},
                    {"status", "succeeded"}});
            const ojson object = {{"id", charge}, {"object", "charge"}, {"amount", c.amount},
                {"amount_captured", c.amount}, {"amount_refunded", total}, {"captured", true},
                {"created", unixSeconds(c.paidAt)}, {"currency", cur}, {"customer", s.customer},
                {"invoice", c.invoiceId}, {"paid", true}, {"payment_intent", intent},
                {"refunded", total >= c.amount},
                {"refunds",
                    {{"object", "list"}, {"data", refunds}, {"has_more", false},
                        {"total_count", refunds.size()},
                        {"url", "/v1/charges/" + charge + "/refunds"}}},
                {"status", "succeeded"}};
            out.push_back(event("charge.refunded", object, at));
        }
        return out;
    }
    // A dispute: its funds withdrawn, and for a won one reinstated, each a balance transaction
    // of the dispute's (what dates the movements).
    const auto transaction = [&](std::int64_t amount, Timestamp at, const char *what) {
        return ojson {{"id", "txn_1" + r.token(23)}, {"object", "balance_transaction"},
            {"amount", amount}, {"created", unixSeconds(at)}, {"currency", cur},
            {"description", std::string(what) + charge}, {"fee", amount < 0 ? 1500 : -1500},
            {"net", amount < 0 ? amount - 1500 : amount + 1500}, {"reporting_category", "dispute"},
            {"type", "adjustment"}};
    };
    ojson dispute = {{"id", "dp_1" + r.token(23)}, {"object", "dispute"}, {"amount", c.amount},
        {"balance_transactions",
            ojson::array({transaction(-c.amount, story.at, "Chargeback withdrawal for ")})},
        {"charge", charge}, {"created", unixSeconds(story.at) - 3600}, {"currency", cur},
        {"evidence_details",
            {{"due_by", unixSeconds(story.at) + 14 * 86400}, {"has_evidence", false},
                {"past_due", false}, {"submission_count", 0}}},
        {"is_charge_refundable", false}, {"livemode", false}, {"metadata", ojson::object()},
        {"payment_intent", intent}, {"reason", "fraudulent"}, {"status", "needs_response"}};
    out.push_back(event("charge.dispute.funds_withdrawn", dispute, story.at));
    if (story.kind == MoneyBack::Kind::DisputeWon) {
        const Timestamp won = story.happensAt(1);
        dispute["balance_transactions"].push_back(
            transaction(c.amount, won, "Chargeback reversal for "));
        dispute["status"] = "won";
        dispute["evidence_details"]["has_evidence"] = true;
        dispute["evidence_details"]["submission_count"] = 1;
        out.push_back(event("charge.dispute.funds_reinstated", dispute, won));
    }
    return out;
}

std::vector<Sent> Stripe::demoPaymentTrouble(
    const Sub &s, const Charge &c, const Dunning &dunning, Random &r) const
{
    if (dunning.failures.empty())
        return {};
    const bool basil = stripeDemoBasil(s);
    // The invoice as it is once paid (on the attempt after the last that failed), created just
    // before its first attempt; while it fails, open with all of it still due.
    Charge paid = c;
    paid.paidAt = dunning.end;
    const auto attempts = static_cast<int>(dunning.failures.size());
    const ojson invoice
        = stripeDemoInvoice(s, paid, r, plusSeconds(dunning.failures.front(), -120), attempts + 1);
    ojson open = invoice;
    open["amount_paid"] = 0;
    open["amount_remaining"] = c.amount;
    open["status"] = "open";
    open["status_transitions"]["paid_at"] = nullptr;
    if (!basil)
        open["paid"] = false;
    // customer.subscription.updated: the subscription's status changed from `before`.
    const auto statusChanged = [&](Timestamp at, const char *status, const char *before) {
        ojson sub = {{"id", s.id}, {"object", "subscription"},
            {"billing_cycle_anchor", unixSeconds(s.started)}, {"cancel_at", nullptr},
            {"cancel_at_period_end", false}, {"canceled_at", nullptr},
            {"cancellation_details",
                {{"comment", nullptr}, {"feedback", nullptr}, {"reason", nullptr}}},
            {"collection_method", "charge_automatically"}, {"created", unixSeconds(s.started)}};
        if (!basil) {
            // Before basil the subscription carries its period (the invoice's, once created).
            sub["current_period_end"] = unixSeconds(c.period.end);
            sub["current_period_start"] = unixSeconds(c.period.start);
        }
        sub.update(ojson {{"currency", stripeCurrency(s)}, {"customer", s.customer},
            {"ended_at", nullptr}, {"latest_invoice", c.invoiceId}, {"livemode", false},
            {"metadata", ojson::object()}, {"pause_collection", nullptr}, {"status", status}});
        return Sent {at,
            stripeDemoEnvelope(s, demoEventId(r), "customer.subscription.updated", at,
                ojson {{"object", sub}, {"previous_attributes", {{"status", before}}}})};
    };
    std::vector<Sent> out;
    for (std::size_t i = 0; i < dunning.failures.size(); ++i) {
        const Timestamp at = dunning.failures[i];
        open["attempt_count"] = static_cast<int>(i) + 1;
        // null: Stripe will not try again (its retries are exhausted).
        const auto next = dunning.nextAttemptAfter(i);
        open["next_payment_attempt"] = next ? ojson(unixSeconds(*next)) : ojson(nullptr);
        out.push_back({at,
            stripeDemoEnvelope(
                s, demoEventId(r), "invoice.payment_failed", at, ojson {{"object", open}})});
        if (i == 0)
            out.push_back(statusChanged(at, "past_due", "active"));
    }
    if (dunning.recovered) {
        // The retry that succeeds: invoice.paid for the same invoice, the subscription active
        // again.
        const Timestamp at = plusSeconds(dunning.end, 5);
        out.push_back({at,
            stripeDemoEnvelope(s, demoEventId(r), "invoice.paid", at, ojson {{"object", invoice}}),
            true});
        out.push_back(statusChanged(at, "active", "past_due"));
    } else {
        // The retries exhausted, the subscription unpaid (the account's setting for it).
        out.push_back(statusChanged(dunning.end, "unpaid", "past_due"));
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> Stripe::demoStatementPages(
    const std::vector<std::string> &payloads) const
{
    // The invoices; the refund each charge.refunded is about (the newest of its charge's list:
    // the list a fetch reads holds each refund once, by its own creation); each dispute as its
    // latest event shows it.
    std::vector<ojson> invoices;
    std::vector<ojson> refunds;
    std::map<std::string, ojson> disputes;
    for (const auto &payload : payloads) {
        const ojson event = ojson::parse(payload);
        const ojson &object = event["data"]["object"];
        const std::string type = object.value("object", std::string());
        if (type == "invoice")
            invoices.push_back(object);
        else if (type == "charge" && !object["refunds"]["data"].empty())
            refunds.push_back(object["refunds"]["data"][0]);
        else if (type == "dispute")
            disputes[object["id"].get<std::string>()] = object;
    }
    // Stripe lists the newest first.
    const auto newestFirst = [](std::vector<ojson> objects) {
        std::stable_sort(objects.begin(), objects.end(), [](const ojson &a, const ojson &b) {
            return a["created"].get<std::int64_t>() > b["created"].get<std::int64_t>();
        });
        return objects;
    };
    const auto page = [](const char *url, const std::vector<ojson> &objects) {
        return std::pair(std::string(url),
            ojson {{"object", "list"}, {"data", objects}, {"has_more", false}, {"url", url}}.dump(
                2));
    };
    std::vector<std::pair<std::string, std::string>> pages {
        page("/v1/invoices", newestFirst(std::move(invoices)))};
    if (!refunds.empty())
        pages.push_back(page("/v1/refunds", newestFirst(std::move(refunds))));
    if (!disputes.empty()) {
        std::vector<ojson> listed;
        for (auto &[id, dispute] : disputes)
            listed.push_back(std::move(dispute));
        pages.push_back(page("/v1/disputes", newestFirst(std::move(listed))));
    }
    return pages;
}

} // namespace rd::providers
