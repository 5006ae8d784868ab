// A Stripe subscription object as a snapshot (provider_snapshot.h tells the mapping).

#include "domain/core/providers/stripe/stripe.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/providers/snapshot_support.h"

namespace rd::providers {

namespace {

std::string mapStatus(const std::string &status, const std::string &field)
{
    if (status == "unpaid")
        return "past_due";
    if (status == "incomplete_expired")
        return "canceled";
    if (isSnapshotStatus(status))
        return status;
    throw InputError(field, "unknown Stripe subscription status '" + status + "'");
}

// Stripe's latest_invoice: an id unless the object was fetched with expand[]=latest_invoice,
// then the invoice. The id names the renewal that began the current period; an expanded invoice
// says whether it is one (a proration or a manual invoice is not) and carries its facts.
void readLatestInvoice(ProviderSnapshot &s, const nlohmann::json &obj)
{
    const auto it = obj.find("latest_invoice");
    if (it == obj.end() || it->is_null())
        return;
    if (it->is_string()) {
        s.latestRenewalKey = requireIdentifier(obj, "", "latest_invoice");
        return;
    }
    if (!it->is_object())
        throw InputError("latest_invoice", "expected an invoice id or an expanded invoice");
    const std::string path = "latest_invoice";
    adapters::DeliveryIds ids {s.providerKey, {}, {}, false, {}};
    ids.eventId = "snapshot:" + requireIdentifier(*it, path, "id");
    const NormalizeResult n = classifyStripeInvoice(ids, *it, path, stripeInvoiceIsBasil(*it, path),
        [&] { return adapters::requireUnixSeconds(*it, path, "created"); });
    if (n.outcome != NormalizeOutcome::Renewal || !n.event)
        return; // not a renewal: it names none
    if (n.event->providerSubscriptionId != s.providerSubscriptionId)
        throw InputError("latest_invoice",
            "invoice " + n.event->providerRenewalKey + " is of subscription "
                + n.event->providerSubscriptionId + ", not " + s.providerSubscriptionId);
    s.latestRenewalKey = n.event->providerRenewalKey;
    if (s.currentPeriod && n.event->period == *s.currentPeriod)
        s.latestRenewal = n.event;
}

} // namespace

ProviderSnapshot Stripe::readSnapshot(
    const std::string &providerKey, const nlohmann::json &obj) const
{
    ProviderSnapshot s;
    s.providerKey = providerKey;
    s.providerSubscriptionId = requireIdentifier(obj, "", "id");
    s.status = mapStatus(requireString(obj, "", "status"), "status");
    s.cancelAtPeriodEnd = requireBool(obj, "", "cancel_at_period_end");
    // The shape is told by where the period is: the subscription object has no api_version.
    if (obj.contains("current_period_start") && !obj.at("current_period_start").is_null()) {
        s.currentPeriod
            = orderedPeriod(Period {snapshotUnixSeconds(obj, "", "current_period_start"),
                                snapshotUnixSeconds(obj, "", "current_period_end")},
                "current_period_end");
        readLatestInvoice(s, obj);
        return s;
    }
    const auto &items = requireField(obj, "", "items");
    const auto &data = requireField(items, "items", "data");
    if (!data.is_array())
        throw InputError("items.data", "expected an array");
    for (std::size_t i = 0; i < data.size(); ++i) {
        const std::string p = "items.data[" + std::to_string(i) + "]";
        const Period candidate
            = orderedPeriod(Period {snapshotUnixSeconds(data[i], p, "current_period_start"),
                                snapshotUnixSeconds(data[i], p, "current_period_end")},
                joinPath(p, "current_period_end"));
        if (!s.currentPeriod || candidate.end > s.currentPeriod->end)
            s.currentPeriod = candidate;
    }
    if (!s.currentPeriod)
        throw InputError("items.data", "no item carries current_period_start/end");
    readLatestInvoice(s, obj);
    return s;
}

bool Stripe::isOwnSubscriptionObject(const nlohmann::json &obj) const
{
    return obj.value("object", "") == "subscription";
}

} // namespace rd::providers
