#pragma once

#include "domain/core/adapters/normalization.h"
#include "domain/store/db_session.h"
#include "domain/store/ingest_result.h"
#include "domain/store/provider_registry.h"
#include "domain/store/renewal_applier.h"
#include "domain/store/retry_policy.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

/// At most this much of a body is stored; a larger body keeps its first bytes, its size and
/// the SHA-256 of all of it.
constexpr std::size_t kInboxMaxStoredBytes = 1024 * 1024;

/// Webhook ingestion over one connection: a payload is normalized with the provider's adapter
/// (pure, in C++), then kept and processed by one statement, ingest_delivery(), in one
/// transaction: the inbox row (byte for byte, deduplicated by provider event id), the
/// renewal through the core as actor webhook/<provider key>, the case when it is rejected, and
/// the outcome. A payload that cannot be parsed is kept with outcome "invalid"; nothing about
/// one payload stops the next. Serialization failures, deadlocks and a lost connection are
/// retried (RetryPolicy); after a lost connection the inbox row is looked up by the token this
/// call chose, to tell whether its commit landed. Database failures that outlast the retries
/// throw as rd:: types (database_errors.h: DatabaseFailure, ConnectionLost; UnknownAnswer for
/// an outcome this program does not know).
class WebhookIngestor
{
public:
    explicit WebhookIngestor(std::string conninfo, RetryPolicy retry = {});
    ~WebhookIngestor();

    /// Throws UnknownProvider (an InputError) when `providerKey` is not a registered provider.
    ProviderKind kindOf(const std::string &providerKey);

    IngestResult ingest(const std::string &providerKey, std::string_view rawBody);

private:
    /// What one call of ingest_delivery stores: the delivery as normalization left it.
    struct Delivery
    {
        /// What is stored: the delivery as normalization left it; else, when the database
        /// refused a value of it, the same as invalid; else only its bytes, as invalid.
        enum class Form { AsNormalized, Refused, BytesOnly };
        Form form = Form::AsNormalized;
        std::string providerKey;
        std::string eventId;
        std::string_view rawBody;
        std::optional<IngestOutcome> outcome; ///< known before the database: stored as is
        std::string reason;
        std::string error;
        nlohmann::json normalized;
        nlohmann::json event; ///< the renewal (or the snapshot case's partial event), or null
        /// `event` is money back (#40): record_money_movements' event, sent as 'money_movement'.
        bool moneyMovement = false;
        /// Payment trouble (#41): `event` is record_payment_trouble's.
        bool paymentTrouble = false;
    };
    IngestResult ingestDelivery(const std::string &providerKey, std::string_view rawBody);
    ProviderKind registeredKind(const std::string &providerKey);
    Delivery normalized(const std::string &providerKey, std::string_view rawBody);
    static std::optional<Delivery> storableInstead(
        const Delivery &refused, const std::string &sqlstate, const std::string &message);
    IngestResult call(const Delivery &delivery, const std::string &token);
    std::optional<IngestResult> lookUpAfterLoss(const Delivery &delivery, const std::string &token);
    DbRef connection();
    void reconnect();

    std::string m_conninfo;
    RetryPolicy m_retry;
    std::unique_ptr<DbSession> m_session;
    std::map<std::string, ProviderKind> m_kinds;
};

} // namespace rd
