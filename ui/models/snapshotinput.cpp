#include "ui/models/snapshotinput.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <nlohmann/json.hpp>

namespace rd::ui {

namespace {

rd::ProviderSnapshot parseSnapshotText(const std::string &text, const std::string &providerKey,
    std::optional<rd::ProviderKind> kind, rd::Timestamp capturedAt)
{
    // Size and depth are capped before a DOM is built: the text is whatever was pasted.
    const auto json = rd::parseUntrustedJson(text);
    if (!json.is_object())
        throw rd::InputError("snapshot", "expected a JSON object");
    if (json.contains("providerSubscriptionId"))
        return rd::providerSnapshotFromJson(json);
    if (!kind)
        kind = rd::kindOfSubscriptionObject(json);
    if (providerKey.empty())
        throw rd::InputError("snapshot",
            "a provider's own subscription object is read for a case's provider: attach it to "
            "a case");
    if (!kind)
        throw rd::InputError("snapshot",
            "not a snapshot in Renewal Desk's form, and the case's provider is not registered "
            "with a kind");
    return rd::snapshotFromProviderObject(*kind, providerKey, json, capturedAt);
}

} // namespace

rd::ProviderSnapshot readSnapshotText(const std::string &text, const std::string &providerKey,
    std::optional<rd::ProviderKind> kind, rd::Timestamp capturedAt)
{
    auto snapshot = parseSnapshotText(text, providerKey, kind, capturedAt);
    rd::requireCapturedBy(snapshot, rd::Timestamp::now());
    return snapshot;
}

} // namespace rd::ui
