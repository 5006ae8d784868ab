#pragma once

#include <pqxx/connection> // pqxx::connection is an alias in 6.4: no forward declaration

#include "domain/core/adapters/normalization.h"
#include "domain/store/provider_registry.h"
#include "domain/store/renewal_applier.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

/// At most this much of a body is stored; a larger body keeps its first bytes, its size and
/// the SHA-256 of all of it.
constexpr std::size_t kInboxMaxStoredBytes = 1024 * 1024;

/// What became of one delivered payload (the inbox's outcome column).
enum class IngestOutcome {
    Applied, ///< a renewal, recorded now
    Duplicate, ///< a renewal recorded before (another event of the same renewal)
    DuplicateDelivery, ///< the same event delivered again: the first delivery's outcome stands
    NotARenewal, ///< a payload of another kind: kept, nothing to do
    NeedsSnapshot, ///< a renewal whose payload lacks facts: waits for a provider snapshot
    Rejected, ///< a renewal the core refused: a reconciliation case
    Invalid, ///< a payload that cannot be read: kept byte for byte with the reason
};
std::string_view toString(IngestOutcome outcome);

/// What became of one delivered payload.
struct IngestResult
{
    IngestOutcome outcome = IngestOutcome::Invalid;
    std::int64_t inboxId = 0;
    std::string providerKey;
    std::string providerEventId;
    std::string reason; ///< the adapter's reason code
    std::string error; ///< the core's error code, or the adapter's message when invalid
    std::string billingPeriodId;
    std::optional<std::int64_t> caseId;

    nlohmann::json toJson() const;
};

/// Webhook ingestion over one connection: every payload is first kept in `webhook_inbox`
/// (byte for byte, deduplicated by provider event id), then normalized with the provider's
/// adapter and, when it is a renewal, applied through RenewalApplier as actor
/// webhook/<provider key>. A payload that cannot be parsed is kept with outcome "invalid";
/// nothing about one payload stops the next. Database failures (connection lost) throw.
class WebhookIngestor
{
public:
    explicit WebhookIngestor(std::string conninfo);

    /// Throws InputError when `providerKey` is not a registered provider.
    ProviderKind kindOf(const std::string &providerKey);

    IngestResult ingest(const std::string &providerKey, std::string_view rawBody);

private:
    struct Recorded
    {
        std::int64_t inboxId = 0;
        bool isNew = true;
        std::optional<std::string> outcome;
        std::string billingPeriodId;
        std::optional<std::int64_t> caseId;
    };
    Recorded record(const std::string &providerKey, const std::string &eventId,
        std::string_view rawBody, std::optional<IngestOutcome> outcome, const std::string &reason,
        const std::string &error, const nlohmann::json &normalized);
    void setOutcome(const IngestResult &result);

    RenewalApplier m_applier;
    std::map<std::string, ProviderKind> m_kinds;
};

} // namespace rd
