#include "ui/models/snapshotinput.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <nlohmann/json.hpp>

#include <chrono>

namespace rd::ui {

rd::ProviderSnapshot readSnapshotText(const std::string &text, const std::string &providerKey,
    std::optional<rd::ProviderKind> kind, rd::Timestamp capturedAt)
{
    // Size and depth are capped before a DOM is built: the text is whatever was pasted.
    const auto json = rd::parseUntrustedJson(text);
    if (!json.is_object())
        throw rd::InputError("snapshot", "expected a JSON object");
    if (json.contains("providerSubscriptionId")) {
        auto snapshot = rd::providerSnapshotFromJson(json);
        rd::requireCapturedBy(snapshot, nowTimestamp());
        return snapshot;
    }
    if (!kind) {
        if (json.value("object", "") == "subscription")
            kind = rd::ProviderKind::Stripe;
        else if (json.contains("current_billing_period"))
            kind = rd::ProviderKind::Paddle;
    }
    if (providerKey.empty())
        throw rd::InputError("snapshot",
            "a provider's own subscription object is read for a case's provider: attach it to "
            "a case");
    if (!kind)
        throw rd::InputError("snapshot",
            "not a snapshot in Renewal Desk's form, and the case's provider is not registered "
            "with a kind");
    auto snapshot = rd::snapshotFromProviderObject(*kind, providerKey, json, capturedAt);
    rd::requireCapturedBy(snapshot, nowTimestamp());
    return snapshot;
}

rd::Timestamp nowTimestamp()
{
    return rd::Timestamp {std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::system_clock::now().time_since_epoch())
                              .count()};
}

} // namespace rd::ui
