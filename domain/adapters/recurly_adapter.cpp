// Recurly: the fetched invoice object (API v3 JSON). Recurly's JSON webhooks are thin (ids
// only), so the inbox stores the invoice fetched from the API, and that is what arrives here.
//
// A renewal is an invoice with origin = "renewal" and state = "paid". origin "purchase" is a
// first invoice, "immediate_change" a proration; refund and credit origins (and type "credit")
// are refunds. The invoice carries no per-delivery id, so the event id is "sha256:<hex>" of
// the raw body (eventIdDerived = true).
//
// Amounts are decimals in major units (20.0). They are converted exactly with
// parseMajorUnits. A JSON string is used as is. A JSON number has already been read into a
// double by the JSON parser; we re-create its decimal text as the shortest representation that
// reads back to the same double. For up to 15 significant digits that text is the original
// number (a double distinguishes every 15-digit decimal), so the conversion stays exact; more
// digits than that are refused as Invalid rather than guessed.
//
// The period comes from the plan line items (origin "plan", type "charge", not proration):
// start_date/end_date, ISO 8601 with an offset; the line ending last wins. paidAt is the
// invoice's closed_at (when it was paid and closed). providerVersion is null.

#include "domain/adapters/adapter_support.hpp"

#include "domain/currency.hpp"
#include "domain/errors.hpp"
#include "domain/json_input.hpp"

#include <charconv>
#include <cmath>

namespace rd::adapters {

namespace {

std::int64_t requireMajorUnits(
    const nlohmann::json &obj, std::string_view path, const char *key, const std::string &currency)
{
    const auto &v = requireField(obj, path, key);
    std::string text;
    if (v.is_string()) {
        text = v.get<std::string>();
    } else if (v.is_number_unsigned()) {
        text = std::to_string(v.get<std::uint64_t>());
    } else if (v.is_number_integer()) {
        text = std::to_string(v.get<std::int64_t>());
    } else if (v.is_number_float()) {
        const double d = v.get<double>();
        if (!std::isfinite(d) || std::fabs(d) >= 1e15)
            throw InputError(joinPath(path, key), "amount out of range");
        char buf[64];
        const auto result = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
        if (result.ec != std::errc())
            throw InputError(joinPath(path, key), "amount cannot be represented");
        text.assign(buf, result.ptr);
        int significant = 0;
        bool leading = true;
        for (const char c : text) {
            if (c < '0' || c > '9')
                continue;
            if (leading && c == '0')
                continue;
            leading = false;
            ++significant;
        }
        if (significant > 15)
            throw InputError(joinPath(path, key),
                "amount has more significant digits than a JSON number keeps exactly; send it "
                "as a string");
    } else {
        throw InputError(
            joinPath(path, key), std::string("expected a decimal amount, got ") + v.type_name());
    }
    const auto minor = parseMajorUnits(text, currency);
    if (!minor)
        throw InputError(joinPath(path, key),
            "'" + text + "' is not a non-negative amount in " + currency
                + " with at most its minor-unit digits");
    return *minor;
}

// Line items arrive as a list object {"data": [...]}; an array is accepted as well.
std::pair<const nlohmann::json *, std::string> lineItems(
    const nlohmann::json &invoice, const std::string &path)
{
    const auto &items = requireField(invoice, path, "line_items");
    const std::string itemsPath = joinPath(path, "line_items");
    if (items.is_array())
        return {&items, itemsPath};
    return {&requireArray(items, itemsPath, "data"), joinPath(itemsPath, "data")};
}

bool isRefundOrigin(std::string_view origin)
{
    return origin.find("refund") != std::string_view::npos
        || origin.find("credit") != std::string_view::npos || origin == "write_off"
        || origin == "termination";
}

} // namespace

Normalization normalizeRecurly(
    std::string_view providerKey, std::string_view rawBody, const nlohmann::json &body)
{
    const std::string eventId = derivedEventId(rawBody);
    std::string subscriptionId;
    Normalization n;
    try {
        const std::string path;
        if (requireString(body, path, "object") != "invoice")
            throw InputError("object", "expected a Recurly invoice object");
        const std::string invoiceId = requireString(body, path, "id");
        const auto &subs = requireArray(body, path, "subscription_ids");
        if (!subs.empty() && subs[0].is_string())
            subscriptionId = subs[0].get<std::string>();
        const std::string origin = requireString(body, path, "origin");
        const std::string type = requireString(body, path, "type");
        const std::string state = requireString(body, path, "state");
        if (type == "credit" || isRefundOrigin(origin)) {
            n = notARenewal("refund", "invoice " + invoiceId + " is a credit or refund");
        } else if (origin == "purchase") {
            n = notARenewal("first_invoice", "invoice " + invoiceId + " is a purchase invoice");
        } else if (origin == "immediate_change") {
            n = notARenewal(
                "proration", "invoice " + invoiceId + " bills a subscription change (proration)");
        } else if (origin != "renewal") {
            n = notARenewal(
                "other_billing_reason", "invoice " + invoiceId + " has origin " + origin);
        } else if (state != "paid") {
            n = notARenewal("unpaid", "invoice " + invoiceId + " has state " + state);
        } else {
            if (subs.size() != 1 || !subs[0].is_string() || subscriptionId.empty())
                throw InputError(
                    "subscription_ids", "a renewal invoice must name exactly one subscription");
            const std::string currency = requireCurrency(body, path, "currency");
            const auto [items, itemsPath] = lineItems(body, path);
            std::optional<Period> period;
            for (std::size_t i = 0; i < items->size(); ++i) {
                const auto &line = (*items)[i];
                const std::string lp = indexPath(itemsPath, i);
                const auto lineOrigin = optionalString(line, lp, "origin");
                const auto lineType = optionalString(line, lp, "type");
                const bool proration = line.contains("proration")
                    && line.at("proration").is_boolean() && line.at("proration").get<bool>();
                if (lineOrigin != "plan" || (lineType && *lineType != "charge") || proration)
                    continue;
                const Period candidate = checkedPeriod(requireRfc3339(line, lp, "start_date"),
                    requireRfc3339(line, lp, "end_date"), joinPath(lp, "end_date"));
                if (!period || candidate.end > period->end)
                    period = candidate;
            }
            if (!period)
                throw InputError(itemsPath, "no plan line item carries the period");

            SuccessfulRenewalEvent e;
            e.providerKey = std::string(providerKey);
            e.providerEventId = eventId;
            e.providerSubscriptionId = subscriptionId;
            e.providerRenewalKey = invoiceId;
            e.period = *period;
            e.paidAmountMinor = requireMajorUnits(body, path, "paid", currency);
            e.currency = currency;
            e.paidAt = requireRfc3339(body, path, "closed_at");
            n.outcome = Outcome::Renewal;
            n.message = "invoice " + invoiceId + " renews subscription " + subscriptionId;
            n.event = std::move(e);
        }
    } catch (const InputError &e) {
        Normalization bad = invalidPayload(e.what(), eventId, subscriptionId);
        bad.eventIdDerived = true;
        return bad;
    }
    n.providerEventId = eventId;
    n.providerSubscriptionId = subscriptionId;
    n.eventIdDerived = true;
    return n;
}

} // namespace rd::adapters
