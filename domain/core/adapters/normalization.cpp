#include "domain/core/adapters/normalization.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/providers/provider.h"
#include "domain/core/sha256.h"

#include <nlohmann/json.hpp>

namespace rd {

std::string toString(NormalizeOutcome outcome)
{
    switch (outcome) {
    case NormalizeOutcome::Renewal:
        return "renewal";
    case NormalizeOutcome::NotARenewal:
        return "not_a_renewal";
    case NormalizeOutcome::NeedsSnapshot:
        return "needs_snapshot";
    case NormalizeOutcome::Invalid:
        return "invalid";
    case NormalizeOutcome::MoneyMovement:
        return "money_movement";
    case NormalizeOutcome::PaymentTrouble:
        return "payment_trouble";
    }
    return "invalid";
}

std::string derivedEventId(std::string_view rawBody)
{
    return "sha256:" + sha256Hex(rawBody);
}

NormalizeResult normalizePayload(
    ProviderKind kind, std::string_view providerKey, std::string_view rawBody)
{
    // The contract is "never throws": the inbox stores whatever comes back, so every failure,
    // including ones we did not foresee, must become an Invalid outcome rather than unwind.
    // Providers without delivery ids get their derived id even when the body is unreadable,
    // so that a redelivered broken body is recognized as the same delivery.
    const ProviderDefinition *provider = findProviderDefinition(kind);
    if (!provider)
        return adapters::invalidPayload("unknown provider kind");
    const auto invalid = [&](const std::string &message) {
        NormalizeResult n = adapters::invalidPayload(message);
        if (provider->derivesEventIds()) {
            n.providerEventId = derivedEventId(rawBody);
            n.eventIdDerived = true;
        }
        return n;
    };
    try {
        if (providerKey.empty())
            return invalid("providerKey: must not be empty");
        const nlohmann::json body = parseUntrustedJson(rawBody);
        // Read whatever the payload is, an invalid one too: an erasure by e-mail finds every
        // delivery of the address.
        const std::string email = adapters::customerEmail(provider->customerEmail(body));
        NormalizeResult n;
        try {
            n = adapters::finishedNormalization(provider->normalize(providerKey, rawBody, body));
        } catch (const InputError &e) {
            n = invalid(e.what());
        }
        n.customerEmail = email;
        return n;
    } catch (const InputError &e) {
        return invalid(e.what());
    } catch (const nlohmann::json::exception &e) {
        return invalid(std::string("payload: ") + e.what());
    } catch (const std::exception &e) {
        return invalid(std::string("payload could not be normalized: ") + e.what());
    }
}

nlohmann::json toJson(const NormalizeResult &n)
{
    nlohmann::json json {{"outcome", toString(n.outcome)}, {"reason", n.reason},
        {"message", n.message}, {"providerEventId", n.providerEventId},
        {"providerSubscriptionId",
            n.providerSubscriptionId.empty() ? nlohmann::json(nullptr)
                                             : nlohmann::json(n.providerSubscriptionId)},
        {"eventIdDerived", n.eventIdDerived},
        {"event", n.event ? toJson(*n.event) : nlohmann::json(nullptr)}};
    // Also beside a listed renewal that carries its money back (Lemon Squeezy's invoice).
    if (n.outcome == NormalizeOutcome::MoneyMovement || !n.movements.empty()) {
        json["movements"] = nlohmann::json::array();
        for (const auto &m : n.movements)
            json["movements"].push_back(toJson(m));
    }
    if (n.trouble)
        json["trouble"] = toJson(*n.trouble);
    if (!n.customerEmail.empty())
        json["customerEmail"] = n.customerEmail;
    return json;
}

} // namespace rd
