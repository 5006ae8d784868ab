#include "domain/core/provider_snapshot.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/providers/provider.h"
#include "domain/core/providers/snapshot_support.h"

#include <nlohmann/json.hpp>

#include <array>

namespace rd {

namespace {

constexpr std::array<std::string_view, 6> kStatuses {
    "active", "trialing", "past_due", "paused", "canceled", "incomplete"};

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
        providers::orderedPeriod(*s.currentPeriod, "currentPeriod.end");
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
    ProviderSnapshot s = providerDefinition(kind).readSnapshot(providerKey, obj);
    s.capturedAt = capturedAt;
    return s;
}

std::optional<ProviderKind> kindOfSubscriptionObject(const nlohmann::json &obj)
{
    for (const auto &row : providerKinds()) {
        if (row.definition.isOwnSubscriptionObject(obj))
            return row.kind;
    }
    return std::nullopt;
}

} // namespace rd
