#pragma once

// What became of one delivered payload, without the ingestor that makes it: the desk's models
// and the receiver's answers read it, and neither includes libpqxx.

#include "domain/core/errors.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rd {

/// ingest() for a provider key that is not registered in billing_providers. An InputError for
/// the command line (its message advises `renewalctl providers`); the receiver answers it by
/// its type, with words of its own.
class UnknownProvider : public InputError
{
public:
    using InputError::InputError;
};

/// What became of one delivered payload (the inbox's outcome column).
enum class IngestOutcome {
    Applied, ///< a renewal, recorded now
    Duplicate, ///< a renewal or money movement recorded before (another event of the same one)
    DuplicateDelivery, ///< the same event delivered again: the first delivery's outcome stands
    NotARenewal, ///< a payload of another kind: kept, nothing to do
    NeedsSnapshot, ///< a renewal whose payload lacks facts: waits for a provider snapshot
    Rejected, ///< a renewal the core refused: a reconciliation case
    Invalid, ///< a payload that cannot be read: kept byte for byte with the reason
    Recorded, ///< money back (a refund, a chargeback or a reversal), recorded now (#40)
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
    nlohmann::json localState; ///< rejected: the subscription state it was judged against
    int attempts = 1; ///< calls of ingest_delivery (retries after 40001/40P01/loss)
    /// The connection dropped with the outcome unknown, and this delivery's own committed row
    /// was found: the outcome is the one that committed (localState is then not known).
    bool resolvedInDoubt = false;

    nlohmann::json toJson() const;
    /// Whether `error` quotes the database (a value the core refused): kept in the inbox for
    /// the desk's operators, never sent to the provider.
    bool errorQuotesTheDatabase() const;
};

} // namespace rd
