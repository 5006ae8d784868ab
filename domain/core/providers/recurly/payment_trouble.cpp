// Recurly's payment trouble (#41). The shape read: as for renewals and money back, the fetched
// charge invoice (API v3, v2021-02-25), not a notification. Recurly's JSON notifications are
// thin: charge_invoice.past_due and charge_invoice.failed carry the invoice's id and number,
// dunning_event.created ("whenever an invoice enters or remains in dunning") only the invoice
// number, payment.failed the transaction and its invoice; none names the subscription, which
// payment trouble needs. Each names the charge invoice, and the invoice fetched after any of
// them is what reaches a Recurly key: one shape for all four, told apart by the invoice's state,
// not by the notification. A byte-identical invoice fetched twice is one delivery (the event id
// is the body's hash); two fetches at different moments tell the same attempts again, which are
// kept once.
//
// Read here: an invoice of type charge, origin renewal, state past_due or failed, naming
// exactly one subscription. Any other invoice (paid, open, processing, a purchase or an
// immediate change past due) is read by adapter.cpp as before (NotARenewal "unpaid" for one
// unpaid).
// - Attempts: the invoice's transactions[] of type purchase or capture whose status is
//   declined or error are its failed collection attempts. Recurly numbers none: they are
//   numbered by created_at, oldest = 1 (ties by id); the invoice lists all its transactions, so
//   every fetch numbers them alike. The decline code is the transaction's status_code
//   (insufficient_funds, declined_card, ...), the amount its `amount` (major units, exact) in
//   the invoice's currency. Recurly's invoice says nothing of its next retry (dunning_events_sent
//   and final_dunning_event count dunning communications, not payment retries): nextAttemptAt
//   is never set.
// - Standing: past_due -> past_due, observed at the invoice's updated_at (its last change,
//   which may be later than the state's: the invoice has no time of entering past_due); failed
//   -> unpaid ("dunning_exhausted": Recurly fails an invoice at the end of its dunning cycle
//   when the campaign's fail_invoice is set), observed at closed_at ("the invoice was marked
//   paid or failed"), else updated_at. Whether the subscription was also expired
//   (expire_subscription) is not on the invoice.

#include "domain/core/providers/recurly/recurly.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <algorithm>

namespace rd::providers {

using namespace adapters;

namespace {

bool stringIs(
    const nlohmann::json &obj, const char *key, std::initializer_list<std::string_view> any)
{
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_string())
        return false;
    const auto &text = it->get_ref<const std::string &>();
    return std::find(any.begin(), any.end(), text) != any.end();
}

struct FailedTransaction
{
    Timestamp createdAt;
    std::string id;
    FailedAttempt attempt;
};

std::vector<FailedAttempt> failedAttempts(const nlohmann::json &invoice, const std::string &path,
    const std::string &invoiceId, const std::string &currency)
{
    const auto txns = invoice.find("transactions");
    if (txns == invoice.end() || txns->is_null())
        return {};
    const std::string listPath = joinPath(path, "transactions");
    if (!txns->is_array())
        throw InputError(listPath, "expected an array");
    std::vector<FailedTransaction> failed;
    for (std::size_t i = 0; i < txns->size(); ++i) {
        const auto &txn = (*txns)[i];
        const std::string tp = indexPath(listPath, i);
        const std::string type = requireString(txn, tp, "type");
        const std::string status = requireString(txn, tp, "status");
        if ((type != "purchase" && type != "capture")
            || (status != "declined" && status != "error"))
            continue;
        FailedTransaction f;
        f.id = requireIdentifier(txn, tp, "id");
        f.createdAt = requireRfc3339(txn, tp, "created_at");
        f.attempt.invoiceKey = invoiceId;
        f.attempt.failedAt = f.createdAt;
        f.attempt.declineCode = optionalString(txn, tp, "status_code").value_or("");
        f.attempt.amountMinor = requireRecurlyMajorUnits(txn, tp, "amount", currency);
        f.attempt.currency = currency;
        failed.push_back(std::move(f));
    }
    std::sort(
        failed.begin(), failed.end(), [](const FailedTransaction &a, const FailedTransaction &b) {
            return a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.id < b.id;
        });
    std::vector<FailedAttempt> attempts;
    for (auto &f : failed) {
        f.attempt.attempt = static_cast<int>(attempts.size()) + 1;
        attempts.push_back(std::move(f.attempt));
    }
    return attempts;
}

} // namespace

bool isRecurlyTroubledInvoice(const nlohmann::json &invoice, const std::string &)
{
    // Told without throwing: a malformed invoice is refused by adapter.cpp as before.
    return invoice.is_object() && stringIs(invoice, "object", {"invoice"})
        && stringIs(invoice, "type", {"charge"}) && stringIs(invoice, "origin", {"renewal"})
        && stringIs(invoice, "state", {"past_due", "failed"});
}

NormalizeResult classifyRecurlyPaymentTrouble(
    DeliveryIds &ids, const nlohmann::json &invoice, const std::string &path)
{
    const std::string invoiceId = requireIdentifier(invoice, path, "id");
    ids.objectId = invoiceId;
    const auto &subs = requireArray(invoice, path, "subscription_ids");
    if (subs.size() != 1 || !subs[0].is_string())
        throw InputError(joinPath(path, "subscription_ids"),
            "a renewal invoice must name exactly one subscription");
    ids.subscriptionId
        = boundedIdentifier(subs[0].get<std::string>(), joinPath(path, "subscription_ids[0]"));
    const std::string state = requireString(invoice, path, "state");
    const std::string currency = requireCurrency(invoice, path, "currency");

    PaymentTrouble trouble;
    trouble.attempts = failedAttempts(invoice, path, invoiceId, currency);
    const Timestamp updatedAt = requireRfc3339(invoice, path, "updated_at");
    if (state == "failed") {
        const auto closedAt = optionalRfc3339(invoice, path, "closed_at");
        trouble.standing = StandingFact {
            ProviderStanding::Unpaid, closedAt.value_or(updatedAt), "dunning_exhausted"};
    } else {
        trouble.standing = StandingFact {ProviderStanding::PastDue, updatedAt, {}};
    }
    std::string message = "Recurly renewal invoice " + invoiceId + " is " + state + ": "
        + std::to_string(trouble.attempts.size()) + " failed attempt(s) of subscription "
        + ids.subscriptionId;
    std::string reason = trouble.attempts.empty() ? "provider_standing" : "payment_failed";
    return paymentTrouble(
        std::move(trouble), ids.subscriptionId, std::move(reason), std::move(message));
}

} // namespace rd::providers
