#pragma once

// Replaying payloads through the ingest path, and what became of them: `renewalctl replay`
// (a provider's event export), `renewalctl replay --delivery N` and the desk's Re-run of an
// invalid inbox delivery (its stored body again, after an adapter fix) share it.

#include "domain/core/adapters/provider_kinds.h"
#include "domain/store/ingest_result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

class WebhookIngestor;

/// What became of the payloads of one replay.
struct ReplaySummary
{
    long long payloads = 0;
    std::map<std::string, long long> outcomes; ///< ingest outcome -> count
    long long appliedAtOnce = 0;
    /// Cases the replay opened that were resolved by the system once the renewal before them
    /// arrived.
    long long healed = 0;
    std::vector<std::int64_t> openCases; ///< the replay's cases still open, ascending

    nlohmann::json toJson() const;
    /// "replayed 3 payload(s): applied 2; duplicate 1;\n2 renewal(s) applied at once, ..."
    std::string text() const;
};

/// One replay: each payload through WebhookIngestor (the same transaction and core rules as a
/// live delivery), then finish() reads the cases it opened as they stand once every payload
/// is in.
class InboxReplay
{
public:
    explicit InboxReplay(std::string conninfo);
    ~InboxReplay();

    /// The provider key's kind; throws InputError when it is not a registered provider.
    ProviderKind kindOf(const std::string &providerKey);
    IngestResult ingest(const std::string &providerKey, std::string_view payload);
    ReplaySummary finish();

private:
    std::string m_conninfo;
    std::unique_ptr<WebhookIngestor> m_ingestor;
    ReplaySummary m_summary;
    std::vector<std::int64_t> m_caseIds;
};

/// What a re-run of an invalid delivery did.
struct DeliveryRerun
{
    std::int64_t inboxId = 0;
    std::string providerKey;
    /// The adapter still cannot read the body: nothing was ingested; `message` says why.
    bool stillInvalid = false;
    std::string message;
    IngestResult result; ///< when ingested
    ReplaySummary summary; ///< when ingested
    /// The ingest wrote a new inbox row (the adapter now reads another event id) and the
    /// invalid delivery was marked reviewed with what became of it.
    bool reviewed = false;
    /// Why it was not marked reviewed although a new row was written (the role may not).
    std::string notReviewedBecause;

    nlohmann::json toJson() const;
    std::string text() const;
};

/// Re-runs inbox delivery `inboxId`, which must be invalid, with its stored body through the
/// provider's adapter as this build has it, then (when that reads it) through the ingest path
/// as `renewalctl replay` does. When the ingest writes a new delivery, the invalid one is
/// marked reviewed ("re-run as delivery N: outcome"). Throws ActionRefused
/// (delivery_not_found, delivery_not_invalid, delivery_already_reviewed) and InputError (a
/// body the inbox kept only the start of, a role that may not read bodies).
DeliveryRerun rerunInvalidDelivery(const std::string &conninfo, std::int64_t inboxId);

/// Marks invalid delivery `inboxId` reviewed with `note` (review_invalid_delivery, migration
/// 0034, as the connection's login role). Throws ActionRefused.
nlohmann::json reviewInvalidDelivery(
    const std::string &conninfo, std::int64_t inboxId, const std::string &note);

} // namespace rd
