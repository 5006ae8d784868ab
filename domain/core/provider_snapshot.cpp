#include "domain/core/provider_snapshot.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <nlohmann/json.hpp>

#include <array>

namespace rd {

namespace {

constexpr std::array<std::string_view, 6> kStatuses {
    "active", "trialing", "past_due", "paused", "canceled", "incomplete"};

// Same bound as the adapters: years 1970..9999 keep microsecond arithmetic in range.
constexpr std::int64_t kMaxUnixSeconds = 253402300799;

Timestamp unixSeconds(const nlohmann::json &obj, const std::string &path, const char *key)
{
    const auto &v = requireField(obj, path, key);
    if (!v.is_number_integer())
        throw InputError(joinPath(path, key), "expected unix seconds as an integer");
    const bool tooLarge = v.is_number_unsigned()
        ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxUnixSeconds)
        : (v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > kMaxUnixSeconds);
    if (tooLarge)
        throw InputError(joinPath(path, key), "is outside the years 1970..9999");
    return Timestamp::fromSeconds(v.get<std::int64_t>());
}

Period ordered(Period p, const std::string &endPath)
{
    if (p.end <= p.start)
        throw InputError(endPath, "period end is not after its start");
    return p;
}

std::string mapStripeStatus(const std::string &status, const std::string &field)
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
void readStripeLatestInvoice(ProviderSnapshot &s, const nlohmann::json &obj)
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
    const NormalizeResult n
        = adapters::classifyStripeInvoice(ids, *it, path, adapters::stripeInvoiceIsBasil(*it, path),
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

ProviderSnapshot fromStripe(const std::string &providerKey, const nlohmann::json &obj)
{
    ProviderSnapshot s;
    s.providerKey = providerKey;
    s.providerSubscriptionId = requireIdentifier(obj, "", "id");
    s.status = mapStripeStatus(requireString(obj, "", "status"), "status");
    s.cancelAtPeriodEnd = requireBool(obj, "", "cancel_at_period_end");
    // The shape is told by where the period is: the subscription object has no api_version.
    if (obj.contains("current_period_start") && !obj.at("current_period_start").is_null()) {
        s.currentPeriod = ordered(Period {unixSeconds(obj, "", "current_period_start"),
                                      unixSeconds(obj, "", "current_period_end")},
            "current_period_end");
        readStripeLatestInvoice(s, obj);
        return s;
    }
    const auto &items = requireField(obj, "", "items");
    const auto &data = requireField(items, "items", "data");
    if (!data.is_array())
        throw InputError("items.data", "expected an array");
    for (std::size_t i = 0; i < data.size(); ++i) {
        const std::string p = "items.data[" + std::to_string(i) + "]";
        const Period candidate = ordered(Period {unixSeconds(data[i], p, "current_period_start"),
                                             unixSeconds(data[i], p, "current_period_end")},
            joinPath(p, "current_period_end"));
        if (!s.currentPeriod || candidate.end > s.currentPeriod->end)
            s.currentPeriod = candidate;
    }
    if (!s.currentPeriod)
        throw InputError("items.data", "no item carries current_period_start/end");
    readStripeLatestInvoice(s, obj);
    return s;
}

ProviderSnapshot fromPaddle(const std::string &providerKey, const nlohmann::json &obj)
{
    ProviderSnapshot s;
    s.providerKey = providerKey;
    s.providerSubscriptionId = requireIdentifier(obj, "", "id");
    const std::string status = requireString(obj, "", "status");
    if (!isSnapshotStatus(status) || status == "incomplete")
        throw InputError("status", "unknown Paddle subscription status '" + status + "'");
    s.status = status;
    const auto &period = requireField(obj, "", "current_billing_period");
    if (!period.is_null()) {
        s.currentPeriod
            = ordered(Period {requireTimestamp(period, "current_billing_period", "starts_at"),
                          requireTimestamp(period, "current_billing_period", "ends_at")},
                "current_billing_period.ends_at");
    }
    const auto change = obj.find("scheduled_change");
    if (change != obj.end() && !change->is_null())
        s.cancelAtPeriodEnd = requireString(*change, "scheduled_change", "action") == "cancel";
    s.providerVersion = optionalIdentifier(obj, "", "updated_at");
    return s;
}

} // namespace

bool isSnapshotStatus(const std::string &status)
{
    for (const auto s : kStatuses)
        if (status == s)
            return true;
    return false;
}

ProviderSnapshot providerSnapshotFromJson(const nlohmann::json &json)
{
    if (!json.is_object())
        throw InputError("$", "expected a JSON object describing a provider snapshot");
    ProviderSnapshot s;
    s.providerKey = requireIdentifier(json, "", "providerKey");
    s.providerSubscriptionId = requireIdentifier(json, "", "providerSubscriptionId");
    s.status = requireString(json, "", "status");
    if (!isSnapshotStatus(s.status))
        throw InputError("status", "'" + s.status + "' is not a snapshot status");
    if (!requireField(json, "", "currentPeriod").is_null()) {
        s.currentPeriod = requirePeriod(json, "", "currentPeriod");
        ordered(*s.currentPeriod, "currentPeriod.end");
    }
    s.cancelAtPeriodEnd = requireBool(json, "", "cancelAtPeriodEnd");
    // Present, null allowed; a string (an opaque version), never a number.
    requireField(json, "", "providerVersion");
    s.providerVersion = optionalIdentifier(json, "", "providerVersion");
    s.capturedAt = requireTimestamp(json, "", "capturedAt");
    const auto &latest = requireField(json, "", "latestRenewal");
    if (!latest.is_null()) {
        try {
            s.latestRenewal = renewalEventFromJson(latest);
        } catch (const InputError &e) {
            // Re-anchor the nested field's path under latestRenewal.
            const std::string field = e.field() == "$" ? "" : e.field();
            const std::string what = e.what();
            const auto colon = what.find(": ");
            throw InputError(joinPath("latestRenewal", field),
                colon == std::string::npos ? what : what.substr(colon + 2));
        }
        // The latest renewal is this subscription's, and the one that began its current period.
        const auto &lr = *s.latestRenewal;
        if (lr.providerKey != s.providerKey)
            throw InputError("latestRenewal.providerKey",
                "'" + lr.providerKey + "' is not the snapshot's provider '" + s.providerKey + "'");
        if (lr.providerSubscriptionId != s.providerSubscriptionId)
            throw InputError("latestRenewal.providerSubscriptionId",
                "'" + lr.providerSubscriptionId + "' is not the snapshot's subscription '"
                    + s.providerSubscriptionId + "'");
        if (s.currentPeriod && !(lr.period == *s.currentPeriod))
            throw InputError("latestRenewal.period",
                formatRfc3339(lr.period.start) + " - " + formatRfc3339(lr.period.end)
                    + " is not the snapshot's current period "
                    + formatRfc3339(s.currentPeriod->start) + " - "
                    + formatRfc3339(s.currentPeriod->end));
    }
    s.latestRenewalKey = optionalIdentifier(json, "", "latestRenewalKey");
    if (s.latestRenewal && s.latestRenewalKey
        && *s.latestRenewalKey != s.latestRenewal->providerRenewalKey)
        throw InputError("latestRenewalKey",
            "'" + *s.latestRenewalKey + "' is not latestRenewal's key '"
                + s.latestRenewal->providerRenewalKey + "'");
    return s;
}

void requireCapturedBy(const ProviderSnapshot &snapshot, Timestamp now)
{
    if (snapshot.capturedAt.micros > now.micros + kCapturedAtSkewMicros)
        throw InputError("capturedAt",
            formatRfc3339(snapshot.capturedAt) + " is in the future (this machine's clock says "
                + formatRfc3339(now) + "; " + std::to_string(kCapturedAtSkewMicros / 60000000)
                + " minutes are allowed for clock skew): a snapshot is what the provider said "
                  "when it was fetched");
}

nlohmann::json toJson(const ProviderSnapshot &s)
{
    nlohmann::json j {{"providerKey", s.providerKey},
        {"providerSubscriptionId", s.providerSubscriptionId}, {"status", s.status},
        {"currentPeriod", s.currentPeriod ? toJson(*s.currentPeriod) : nlohmann::json(nullptr)},
        {"cancelAtPeriodEnd", s.cancelAtPeriodEnd},
        {"providerVersion",
            s.providerVersion ? nlohmann::json(*s.providerVersion) : nlohmann::json(nullptr)},
        {"capturedAt", formatRfc3339(s.capturedAt)},
        {"latestRenewal", s.latestRenewal ? toJson(*s.latestRenewal) : nlohmann::json(nullptr)}};
    // Only when known: a snapshot without it keeps the form (and fingerprint) it always had.
    if (s.latestRenewalKey)
        j["latestRenewalKey"] = *s.latestRenewalKey;
    return j;
}

ProviderSnapshot snapshotFromProviderObject(ProviderKind kind, const std::string &providerKey,
    const nlohmann::json &obj, Timestamp capturedAt)
{
    if (providerKey.empty())
        throw InputError("providerKey", "must not be empty");
    if (!obj.is_object())
        throw InputError("$", "expected a subscription object");
    ProviderSnapshot s;
    switch (kind) {
    case ProviderKind::Stripe:
        s = fromStripe(providerKey, obj);
        break;
    case ProviderKind::Paddle:
        s = fromPaddle(providerKey, obj);
        break;
    default:
        throw InputError("", toString(kind) + " subscription objects are not mapped yet");
    }
    s.capturedAt = capturedAt;
    return s;
}

} // namespace rd
