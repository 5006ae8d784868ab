#include "domain/store/webhook_ingestor.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/sha256.h"
#include "domain/store/database_answer.h"
#include "domain/store/database_errors.h"
#include "domain/store/database_target.h"
#include "domain/store/internal/pqxx_session.h"
#include "domain/store/internal/retrying_call.h"
#include "domain/store/random_uuid.h"

#include <pqxx/pqxx>

namespace rd {
namespace {

// Messages may quote payload bytes; never let one make the serialization itself throw.
std::string dumpLenient(const nlohmann::json &j)
{
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Whether a provider's event id can be the inbox's dedup key as it is: libpq passes text
// parameters NUL-terminated and the inbox bounds its event ids (kMaxIdentifierBytes, as the
// adapters do), so control characters and over-long ids fall back to the body's hash.
bool storableEventId(const std::string &id)
{
    if (id.empty() || id.size() > kMaxIdentifierBytes)
        return false;
    for (const unsigned char c : id) {
        if (c < 0x20 || c == 0x7f)
            return false;
    }
    return true;
}

std::optional<IngestOutcome> knownOutcome(NormalizeOutcome outcome)
{
    switch (outcome) {
    case NormalizeOutcome::NotARenewal:
        return IngestOutcome::NotARenewal;
    case NormalizeOutcome::Invalid:
        return IngestOutcome::Invalid;
    case NormalizeOutcome::Renewal:
    case NormalizeOutcome::NeedsSnapshot:
    case NormalizeOutcome::MoneyMovement:
    case NormalizeOutcome::PaymentTrouble:
        break;
    }
    return std::nullopt;
}

constexpr const char *kIngestStatement = "rd_ingest_delivery";
constexpr const char *kIngestSql
    = "SELECT outcome, inbox_id, billing_period_id, error_code, case_id, local_state "
      "FROM public.ingest_delivery($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, "
      "$11::uuid)";

IngestOutcome ingestOutcomeFromName(const std::string &name)
{
    // A newer schema's outcome: refuse to guess (the delivery committed, but this program
    // cannot say what became of it). Not retried: a retry would call it a duplicate delivery.
    return namedAnswer<IngestOutcome>(name,
        {IngestOutcome::Applied, IngestOutcome::Duplicate, IngestOutcome::DuplicateDelivery,
            IngestOutcome::NotARenewal, IngestOutcome::NeedsSnapshot, IngestOutcome::Rejected,
            IngestOutcome::Invalid, IngestOutcome::Recorded},
        "the outcome", "ingest_delivery");
}

// The event as a case keeps it when the payload lacks its period: every key the case needs
// (providerKey, providerSubscriptionId, providerRenewalKey, providerEventId), period null so
// that nobody mistakes it for a complete renewal (reapply_case refuses it).
nlohmann::json partialEventJson(const SuccessfulRenewalEvent &event)
{
    nlohmann::json j = toJson(event);
    j["period"] = nullptr;
    return j;
}

/// The start of an inbox error that quotes the database's refusal of a value.
constexpr std::string_view kDatabaseRefused = "the database refused a value: ";

// The first columns of ingest_delivery's answer and of the look-up after a lost answer:
// outcome, inbox id, billing period, error, case.
IngestResult ingestResultOf(const pqxx::row &row)
{
    IngestResult r;
    r.outcome = ingestOutcomeFromName(row[0].as<std::string>());
    r.inboxId = row[1].as<std::int64_t>();
    if (!row[2].is_null())
        r.billingPeriodId = row[2].as<std::string>();
    if (!row[3].is_null())
        r.error = row[3].as<std::string>();
    if (!row[4].is_null())
        r.caseId = row[4].as<std::int64_t>();
    return r;
}

} // namespace

std::string_view toString(IngestOutcome outcome)
{
    switch (outcome) {
    case IngestOutcome::Applied:
        return "applied";
    case IngestOutcome::Duplicate:
        return "duplicate";
    case IngestOutcome::DuplicateDelivery:
        return "duplicate_delivery";
    case IngestOutcome::NotARenewal:
        return "not_a_renewal";
    case IngestOutcome::NeedsSnapshot:
        return "needs_snapshot";
    case IngestOutcome::Rejected:
        return "rejected";
    case IngestOutcome::Recorded:
        return "recorded";
    case IngestOutcome::Invalid:
        break;
    }
    return "invalid";
}

nlohmann::json IngestResult::toJson() const
{
    const auto orNull
        = [](const std::string &s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); };
    return {{"outcome", toString(outcome)}, {"inboxId", inboxId}, {"providerKey", providerKey},
        {"providerEventId", providerEventId}, {"reason", orNull(reason)}, {"error", orNull(error)},
        {"billingPeriodId", orNull(billingPeriodId)},
        {"caseId", caseId ? nlohmann::json(*caseId) : nlohmann::json()}};
}

bool IngestResult::errorQuotesTheDatabase() const
{
    return error.rfind(kDatabaseRefused, 0) == 0;
}

WebhookIngestor::WebhookIngestor(std::string conninfo, RetryPolicy retry)
    : m_conninfo(std::move(conninfo)), m_retry(retry)
{
    reconnect();
}

WebhookIngestor::~WebhookIngestor() = default;

DbRef WebhookIngestor::connection()
{
    if (!m_session || !pqxxOf(*m_session).is_open())
        reconnect();
    return *m_session;
}

void WebhookIngestor::reconnect()
{
    m_session.reset();
    m_session = std::make_unique<DbSession>(m_conninfo);
    pqxxOf(*m_session).prepare(kIngestStatement, kIngestSql);
}

ProviderKind WebhookIngestor::kindOf(const std::string &providerKey)
{
    return translatingDatabaseErrors([&] { return registeredKind(providerKey); });
}

ProviderKind WebhookIngestor::registeredKind(const std::string &providerKey)
{
    if (const auto it = m_kinds.find(providerKey); it != m_kinds.end())
        return it->second;
    pqxx::read_transaction tx(pqxxOf(connection()));
    const auto r
        = tx.exec_params("SELECT kind FROM billing_providers WHERE provider_key = $1", providerKey);
    if (r.empty())
        throw UnknownProvider("--provider-key",
            "'" + providerKey
                + "' is not a registered provider (see renewalctl providers list / add)");
    const auto kind = providerKindFromString(r[0][0].as<std::string>());
    if (!kind)
        throw SetupError("provider " + providerKey + " has an unknown kind");
    m_kinds.emplace(providerKey, *kind);
    return *kind;
}

IngestResult WebhookIngestor::call(const Delivery &d, const std::string &token)
{
    const std::size_t stored = std::min(d.rawBody.size(), kInboxMaxStoredBytes);
    const auto orNull
        = [](const std::string &s) { return s.empty() ? std::optional<std::string>() : s; };
    // Autocommit: the function call is the whole transaction (one round trip, one commit).
    pqxx::nontransaction tx(pqxxOf(connection()));
    const auto row = tx.exec_prepared1(kIngestStatement, d.providerKey, d.eventId,
        pqxx::binarystring(d.rawBody.data(), stored), static_cast<long long>(d.rawBody.size()),
        sha256Hex(d.rawBody),
        d.outcome              ? std::optional<std::string>(toString(*d.outcome))
            : d.moneyMovement  ? std::optional<std::string>("money_movement")
            : d.paymentTrouble ? std::optional<std::string>("payment_trouble")
                               : std::nullopt,
        orNull(d.reason), orNull(d.error),
        d.normalized.is_null() ? std::optional<std::string>() : dumpLenient(d.normalized),
        d.event.is_null() ? std::optional<std::string>() : dumpLenient(d.event), token);
    IngestResult r = ingestResultOf(row);
    if (!row[5].is_null())
        r.localState = nlohmann::json::parse(row[5].as<std::string>());
    return r;
}

std::optional<IngestResult> WebhookIngestor::lookUpAfterLoss(
    const Delivery &d, const std::string &token)
{
    // Only this call writes its token: found, our commit landed and its acknowledgement was
    // lost, and its outcome is ours (not a duplicate delivery). Not found, nothing of ours
    // committed (a concurrent delivery of the same event may have), and the call runs again.
    pqxx::read_transaction tx(pqxxOf(connection()));
    const auto rows = tx.exec_params(
        "SELECT outcome, id, billing_period_id, error, case_id FROM webhook_inbox "
        "WHERE provider_key = $1 AND provider_event_id = $2 AND ingest_token = $3::uuid "
        "AND outcome IS NOT NULL",
        d.providerKey, d.eventId, token);
    if (rows.empty())
        return std::nullopt;
    const auto row = rows[0];
    IngestResult r = ingestResultOf(row);
    r.resolvedInDoubt = true;
    return r;
}

IngestResult WebhookIngestor::ingest(const std::string &providerKey, std::string_view rawBody)
{
    // The store's edge: the receiver, the CLI and the desk see rd:: errors only.
    return translatingDatabaseErrors([&] { return ingestDelivery(providerKey, rawBody); });
}

WebhookIngestor::Delivery WebhookIngestor::normalized(
    const std::string &providerKey, std::string_view rawBody)
{
    const ProviderKind kind = registeredKind(providerKey);
    // Pure and cheap, and the delivery's id comes out of it: normalize first, store second.
    NormalizeResult n = normalizePayload(kind, providerKey, rawBody);

    std::string eventId = n.providerEventId;
    if (!storableEventId(eventId)) {
        if (n.outcome != NormalizeOutcome::Invalid && !eventId.empty()) {
            n.outcome = NormalizeOutcome::Invalid;
            n.reason = "invalid_payload";
            n.message = "event id: not usable as a delivery id (control characters or longer "
                        "than 255 bytes)";
            n.event.reset();
        }
        eventId = derivedEventId(rawBody);
    }
    Delivery d;
    d.providerKey = providerKey;
    d.eventId = eventId;
    d.rawBody = rawBody;
    d.reason = n.reason;
    d.outcome = knownOutcome(n.outcome);
    d.error = n.outcome == NormalizeOutcome::Invalid ? n.message : std::string();
    d.normalized = rd::toJson(n);
    if (n.outcome == NormalizeOutcome::NeedsSnapshot) {
        d.outcome = IngestOutcome::NeedsSnapshot;
        if (n.event) {
            d.normalized["event"]["period"] = nullptr;
            d.event = partialEventJson(*n.event);
        }
        // else: an adapter that could not even tell which renewal it is: nothing to open a
        // case about, but the payload waits in the inbox for a snapshot all the same.
    } else if (n.outcome == NormalizeOutcome::Renewal && n.event) {
        d.event = rd::toJson(*n.event);
    } else if (n.outcome == NormalizeOutcome::MoneyMovement) {
        // record_money_movements' event: the delivery's ids and its movements.
        d.moneyMovement = true;
        d.event = {{"providerKey", providerKey}, {"providerEventId", eventId},
            {"providerSubscriptionId",
                n.providerSubscriptionId.empty() ? nlohmann::json(nullptr)
                                                 : nlohmann::json(n.providerSubscriptionId)},
            {"movements", d.normalized["movements"]}};
    } else if (n.outcome == NormalizeOutcome::PaymentTrouble) {
        // record_payment_trouble's event: the delivery's ids and what it tells (#41).
        d.paymentTrouble = true;
        d.event = {{"providerKey", providerKey}, {"providerEventId", eventId},
            {"providerSubscriptionId", n.providerSubscriptionId},
            {"trouble", d.normalized["trouble"]}};
    }
    return d;
}

std::optional<WebhookIngestor::Delivery> WebhookIngestor::storableInstead(
    const Delivery &refused, const std::string &sqlstate, const std::string &message)
{
    // Holds text PostgreSQL cannot store (jsonb refuses \u0000): keep the bytes, under the
    // body's hash, as an invalid payload.
    const auto bytesOnly = [&] {
        Delivery d;
        d.form = Delivery::Form::BytesOnly;
        d.providerKey = refused.providerKey;
        d.eventId = derivedEventId(refused.rawBody);
        d.rawBody = refused.rawBody;
        d.outcome = IngestOutcome::Invalid;
        d.reason = "invalid_payload";
        d.error = "payload: holds text the database cannot store (e.g. \\u0000)";
        return d;
    };
    switch (refused.form) {
    case Delivery::Form::AsNormalized:
        // 22P05 (untranslatable character) is the jsonb of the normalization refusing
        // \u0000; anything else is the core refusing a value of the renewal: keep that
        // delivery, under its own event id, as invalid with the reason.
        if (sqlstate != "22P05") {
            Delivery d = refused;
            d.form = Delivery::Form::Refused;
            d.outcome = IngestOutcome::Invalid;
            d.reason = "invalid_payload";
            d.error = std::string(kDatabaseRefused) + message;
            d.event = nullptr;
            return d;
        }
        return bytesOnly();
    case Delivery::Form::Refused:
        return bytesOnly();
    case Delivery::Form::BytesOnly:
        break;
    }
    return std::nullopt;
}

IngestResult WebhookIngestor::ingestDelivery(
    const std::string &providerKey, std::string_view rawBody)
{
    // All of a delivery's database work runs in one retry loop, so that RetryPolicy bounds it
    // (docs/architecture.md, "How often a delivery is tried"): the look-up of the provider's
    // kind, each call of ingest_delivery, and the calls that store it as invalid instead when
    // the database refuses a value. The token is also the id of the billing period a call
    // would write; a refused call committed nothing, so the next form keeps it.
    const std::string token = randomUuid();
    std::optional<Delivery> delivery;
    IngestResult r = retryingCall(
        m_retry,
        [&](int attempt) -> std::optional<IngestResult> {
            if (!delivery)
                delivery = normalized(providerKey, rawBody);
            try {
                IngestResult done = call(*delivery, token);
                done.attempts = attempt;
                return done;
            } catch (const pqxx::data_exception &e) {
                // Nothing of the call committed. The next attempt stores what the database
                // can keep, within the same attempts.
                auto instead = m_retry.mayRetry(attempt)
                    ? storableInstead(*delivery, e.sqlstate(), e.what())
                    : std::nullopt;
                if (!instead)
                    throw;
                delivery = std::move(instead);
                return std::nullopt;
            }
        },
        [&](int attempt) -> std::optional<IngestResult> {
            if (!delivery)
                return std::nullopt; // lost while reading the kind: nothing of ours was sent
            auto found = lookUpAfterLoss(*delivery, token);
            if (found)
                found->attempts = attempt;
            return found;
        },
        [this] { m_session.reset(); }, "ingesting a delivery for " + providerKey);
    r.providerKey = providerKey;
    r.providerEventId = delivery->eventId;
    r.reason = delivery->reason;
    return r;
}

} // namespace rd
