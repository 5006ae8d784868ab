// Recurly: the fetched invoice object (API v3 JSON). Recurly's JSON webhooks are thin (ids
// only), so the inbox stores the invoice fetched from the API, and that is what arrives here.
//
// A renewal is an invoice with origin = "renewal" and state = "paid". origin "purchase" is a
// first invoice, "immediate_change" a proration; refund and credit origins (and type "credit")
// are refunds. The invoice carries no per-delivery id, so the event id is "sha256:<hex>" of
// the raw body (eventIdDerived = true).
//
// Amounts are decimals in major units (20.0) and are converted exactly with parseMajorUnits,
// never through a double: the body is parsed a second time (it already passed the size and
// depth limits) with a SAX builder that keeps every JSON floating-point number as the text it
// was written in. A string amount is used as is; an integer is exact anyway.
//
// The period comes from the plan line items (origin "plan", type "charge", not proration):
// start_date/end_date, ISO 8601 with an offset; the line ending last wins. paidAt is the
// invoice's closed_at (when it was paid and closed). providerVersion is null.
//
// A statement is GET /invoices' output (API v2021-02-25), {"object": "list", "has_more": bool,
// "next": "/invoices?...", "data": [invoice...]}, read with the same decimal-keeping parser.
// Its money back (#40) is GET /transactions?type=refund's output, the same list shape holding
// transactions ("object": "transaction"), read by money_back.cpp.
// A renewal invoice in state past_due or failed, fetched after charge_invoice.past_due,
// charge_invoice.failed, dunning_event.created or payment.failed, is payment trouble (#41):
// payment_trouble.cpp.

#include "domain/core/providers/recurly/recurly.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/currency.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <vector>

namespace rd::providers {

using namespace adapters;

std::int64_t requireRecurlyMajorUnits(
    const nlohmann::json &obj, std::string_view path, const char *key, const std::string &currency)
{
    const auto &v = requireField(obj, path, key);
    std::string text;
    if (v.is_string())
        text = v.get<std::string>(); // a JSON string, or a JSON number's original text
    else if (v.is_number_unsigned())
        text = std::to_string(v.get<std::uint64_t>());
    else if (v.is_number_integer())
        text = std::to_string(v.get<std::int64_t>());
    else
        throw InputError(
            joinPath(path, key), std::string("expected a decimal amount, got ") + v.type_name());
    const auto minor = parseMajorUnits(text, currency);
    if (!minor)
        throw InputError(joinPath(path, key),
            "'" + text + "' is not a non-negative amount in " + currency
                + " with at most its minor-unit digits");
    return *minor;
}

// Line items arrive as a list object {"data": [...]}; an array is accepted as well.
std::pair<const nlohmann::json *, std::string> recurlyLineItems(
    const nlohmann::json &invoice, const std::string &path)
{
    const auto &items = requireField(invoice, path, "line_items");
    const std::string itemsPath = joinPath(path, "line_items");
    if (items.is_array())
        return {&items, itemsPath};
    return {&requireArray(items, itemsPath, "data"), joinPath(itemsPath, "data")};
}

namespace {

// Builds a DOM like nlohmann's own, except that floating-point numbers become strings holding
// their original text ("20.0", "12.125"), so that no decimal is ever rounded to binary.
class DecimalTextBuilder
{
public:
    using json = nlohmann::json;

    explicit DecimalTextBuilder(json &root) : m_root(root) { }

    bool null() { return add(nullptr); }
    bool boolean(bool v) { return add(v); }
    bool number_integer(json::number_integer_t v) { return add(v); }
    bool number_unsigned(json::number_unsigned_t v) { return add(v); }
    bool number_float(json::number_float_t, const json::string_t &text) { return add(text); }
    bool string(json::string_t &v) { return add(v); }
    bool binary(json::binary_t &) { return false; }
    bool start_object(std::size_t)
    {
        m_open.push_back(place(json::object()));
        return true;
    }
    bool key(json::string_t &k)
    {
        m_key = k;
        return true;
    }
    bool end_object()
    {
        m_open.pop_back();
        return true;
    }
    bool start_array(std::size_t)
    {
        m_open.push_back(place(json::array()));
        return true;
    }
    bool end_array()
    {
        m_open.pop_back();
        return true;
    }
    template<class Exception>
    bool parse_error(std::size_t, const std::string &, const Exception &e)
    {
        m_error = e.what();
        return false;
    }
    const std::string &error() const { return m_error; }

private:
    bool add(json v)
    {
        place(std::move(v));
        return true;
    }
    // Only open containers are remembered, and an array grows only while it is the innermost
    // open one, so the remembered pointers stay valid.
    json *place(json v)
    {
        if (m_open.empty()) {
            m_root = std::move(v);
            return &m_root;
        }
        json &parent = *m_open.back();
        if (parent.is_array()) {
            parent.push_back(std::move(v));
            return &parent.back();
        }
        json &slot = parent[m_key];
        slot = std::move(v);
        return &slot;
    }

    json &m_root;
    std::vector<json *> m_open;
    std::string m_key;
    std::string m_error;
};

bool isRefundOrigin(std::string_view origin)
{
    return origin.find("refund") != std::string_view::npos
        || origin.find("credit") != std::string_view::npos || origin == "write_off"
        || origin == "termination";
}

// JSON whose floating-point numbers are kept as strings of their original text ("20.0"), so
// that no decimal amount is rounded to binary. For text that passed checkJsonLimits;
// InputError (field "body") when it is not JSON.
nlohmann::json parseKeepingDecimalText(std::string_view text)
{
    nlohmann::json root;
    DecimalTextBuilder builder(root);
    if (!nlohmann::json::sax_parse(text.begin(), text.end(), &builder)) {
        // nlohmann's message names the byte position; diagnostics keep printable ASCII only.
        std::string what = builder.error();
        if (const auto p = what.find("parse error"); p != std::string::npos)
            what = what.substr(p);
        throw InputError("body",
            what.empty() ? "not valid JSON" : "not valid JSON (" + printableAscii(what) + ")");
    }
    return root;
}

NormalizeResult classifyInvoice(
    DeliveryIds &ids, const nlohmann::json &invoice, const std::string &path)
{
    if (requireString(invoice, path, "object") != "invoice")
        throw InputError(joinPath(path, "object"), "expected a Recurly invoice object");
    const std::string invoiceId = requireIdentifier(invoice, path, "id");
    ids.objectId = invoiceId;
    const auto &subs = requireArray(invoice, path, "subscription_ids");
    if (!subs.empty() && subs[0].is_string())
        ids.subscriptionId
            = boundedIdentifier(subs[0].get<std::string>(), joinPath(path, "subscription_ids[0]"));
    const std::string origin = requireString(invoice, path, "origin");
    const std::string type = requireString(invoice, path, "type");
    const std::string state = requireString(invoice, path, "state");
    if (type == "credit" || isRefundOrigin(origin))
        return notARenewal("refund", "invoice " + invoiceId + " is a credit or refund");
    if (origin == "purchase")
        return notARenewal("first_invoice", "invoice " + invoiceId + " is a purchase invoice");
    if (origin == "immediate_change")
        return notARenewal(
            "proration", "invoice " + invoiceId + " bills a subscription change (proration)");
    if (origin != "renewal")
        return notARenewal(
            "other_billing_reason", "invoice " + invoiceId + " has origin " + origin);
    if (state != "paid")
        return notARenewal("unpaid", "invoice " + invoiceId + " has state " + state);

    if (subs.size() != 1 || !subs[0].is_string() || ids.subscriptionId.empty())
        throw InputError(joinPath(path, "subscription_ids"),
            "a renewal invoice must name exactly one subscription");
    const std::string currency = requireCurrency(invoice, path, "currency");
    const auto [items, itemsPath] = recurlyLineItems(invoice, path);
    std::optional<Period> period;
    for (std::size_t i = 0; i < items->size(); ++i) {
        const auto &line = (*items)[i];
        const std::string lp = indexPath(itemsPath, i);
        const auto lineOrigin = optionalString(line, lp, "origin");
        const auto lineType = optionalString(line, lp, "type");
        const bool proration = line.contains("proration") && line.at("proration").is_boolean()
            && line.at("proration").get<bool>();
        if (lineOrigin != "plan" || (lineType && *lineType != "charge") || proration)
            continue;
        const Period candidate = checkedPeriod(requireRfc3339(line, lp, "start_date"),
            requireRfc3339(line, lp, "end_date"), joinPath(lp, "end_date"));
        if (!period || candidate.end > period->end)
            period = candidate;
    }
    if (!period)
        throw InputError(itemsPath, "no plan line item carries the period");

    SuccessfulRenewalEvent e = renewalEvent(ids, invoiceId);
    e.period = *period;
    e.paidAmountMinor = requireRecurlyMajorUnits(invoice, path, "paid", currency);
    e.currency = currency;
    e.paidAt = requireRfc3339(invoice, path, "closed_at");
    e.paymentRefs = recurlyPaymentRefs(invoice, path);
    return renewal(std::move(e), "invoice");
}

} // namespace

std::vector<std::string> recurlyPaymentRefs(const nlohmann::json &invoice, const std::string &path)
{
    // The payments that paid it: a refund listed on its own (GET /transactions?type=refund)
    // names the one it refunds (original_transaction_id), never the renewal's invoice.
    std::vector<std::string> refs;
    const auto txns = invoice.find("transactions");
    if (txns == invoice.end() || !txns->is_array())
        return refs;
    const std::string listPath = joinPath(path, "transactions");
    for (std::size_t i = 0; i < txns->size() && refs.size() < kMaxPaymentRefs; ++i) {
        const auto &txn = (*txns)[i];
        if (!txn.is_object())
            continue;
        const std::string tp = indexPath(listPath, i);
        const auto type = optionalString(txn, tp, "type");
        const auto status = optionalString(txn, tp, "status");
        if ((type == "purchase" || type == "capture") && status == "success")
            addRenewalRef(refs, optionalIdentifier(txn, tp, "id"));
    }
    return refs;
}

bool isRecurlyCreditInvoice(const nlohmann::json &invoice, const std::string &path)
{
    if (!invoice.is_object() || requireString(invoice, path, "object") != "invoice")
        return false; // classifyInvoice names what is wrong
    return requireString(invoice, path, "type") == "credit"
        || isRefundOrigin(requireString(invoice, path, "origin"));
}

// The body is parsed again (it passed the shared limits) to keep its decimal text.
NormalizeResult Recurly::normalize(
    std::string_view providerKey, std::string_view rawBody, const nlohmann::json &) const
{
    DeliveryIds ids {std::string(providerKey), derivedEventId(rawBody), {}, true, {}};
    return withDeliveryIds(ids, [&] {
        const nlohmann::json invoice = parseKeepingDecimalText(rawBody);
        // A credit invoice delivered is money back (a statement's lists renewals only).
        if (isRecurlyCreditInvoice(invoice, ""))
            return classifyRecurlyCreditInvoice(ids, invoice, "");
        // A renewal invoice past due or failed is payment trouble (#41; statements list
        // renewals only, so classifyListed does not read it).
        if (isRecurlyTroubledInvoice(invoice, ""))
            return classifyRecurlyPaymentTrouble(ids, invoice, "");
        return classifyInvoice(ids, invoice, "");
    });
}

nlohmann::json Recurly::parseListed(std::string_view text) const
{
    return parseKeepingDecimalText(text);
}

bool Recurly::listSaysMoreFollows(const nlohmann::json &page) const
{
    return listObjectHasMore(page);
}

const nlohmann::json &Recurly::unwrapListed(const nlohmann::json &item, std::string &path) const
{
    return asListed(item, path);
}

NormalizeResult Recurly::classifyListed(
    DeliveryIds &ids, const nlohmann::json &invoice, const std::string &path) const
{
    if (invoice.is_object()) {
        const auto object = invoice.find("object");
        if (object != invoice.end() && *object == "transaction")
            return classifyRecurlyListedTransaction(ids, invoice, path);
    }
    return classifyInvoice(ids, invoice, path);
}

} // namespace rd::providers
