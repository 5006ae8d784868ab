#include "domain/store/webhook_ingestor.h"

#include "domain/core/errors.h"
#include "domain/core/sha256.h"
#include "domain/store/database_target.h"

#include <pqxx/pqxx>

namespace rd {
namespace {

// Messages may quote payload bytes; never let one make the serialization itself throw.
std::string dumpLenient(const nlohmann::json &j)
{
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Whether a provider's event id can be the inbox's dedup key as it is: libpq passes text
// parameters NUL-terminated and a B-tree entry has a size limit, so control characters and
// absurd lengths fall back to the body's hash.
bool storableEventId(const std::string &id)
{
    if (id.empty() || id.size() > 255)
        return false;
    for (const unsigned char c : id) {
        if (c < 0x20 || c == 0x7f)
            return false;
    }
    return true;
}

std::optional<IngestOutcome> knownOutcome(Outcome outcome)
{
    switch (outcome) {
    case Outcome::NotARenewal:
        return IngestOutcome::NotARenewal;
    case Outcome::Invalid:
        return IngestOutcome::Invalid;
    case Outcome::Renewal:
    case Outcome::NeedsSnapshot:
        break;
    }
    return std::nullopt;
}

IngestOutcome ingestOutcomeOf(ApplyResult result)
{
    switch (result) {
    case ApplyResult::Applied:
        return IngestOutcome::Applied;
    case ApplyResult::Duplicate:
        return IngestOutcome::Duplicate;
    case ApplyResult::Rejected:
        break;
    }
    return IngestOutcome::Rejected;
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

WebhookIngestor::WebhookIngestor(std::string conninfo) : m_applier(std::move(conninfo))
{ }

ProviderKind WebhookIngestor::kindOf(const std::string &providerKey)
{
    if (const auto it = m_kinds.find(providerKey); it != m_kinds.end())
        return it->second;
    pqxx::read_transaction tx(m_applier.connection());
    const auto r
        = tx.exec_params("SELECT kind FROM billing_providers WHERE provider_key = $1", providerKey);
    if (r.empty())
        throw InputError("--provider-key",
            "'" + providerKey
                + "' is not a registered provider (see renewalctl providers list / add)");
    const auto kind = providerKindFromString(r[0][0].as<std::string>());
    if (!kind)
        throw SetupError("provider " + providerKey + " has an unknown kind");
    m_kinds.emplace(providerKey, *kind);
    return *kind;
}

WebhookIngestor::Recorded WebhookIngestor::record(const std::string &providerKey,
    const std::string &eventId, std::string_view rawBody, std::optional<IngestOutcome> outcome,
    const std::string &reason, const std::string &error, const nlohmann::json &normalized)
{
    const std::size_t stored = std::min(rawBody.size(), kInboxMaxStoredBytes);
    pqxx::nontransaction tx(m_applier.connection());
    const auto row = tx.exec_params1(
        "SELECT inbox_id, is_new, outcome, billing_period_id, case_id FROM ingest_record("
        "$1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)",
        providerKey, eventId, pqxx::binarystring(rawBody.data(), stored),
        static_cast<long long>(rawBody.size()), sha256Hex(rawBody),
        outcome ? std::optional<std::string>(toString(*outcome)) : std::nullopt,
        reason.empty() ? std::optional<std::string>() : reason,
        error.empty() ? std::optional<std::string>() : error,
        normalized.is_null() ? std::optional<std::string>() : dumpLenient(normalized));
    Recorded rec;
    rec.inboxId = row[0].as<std::int64_t>();
    rec.isNew = row[1].as<bool>();
    if (!row[2].is_null())
        rec.outcome = row[2].as<std::string>();
    if (!row[3].is_null())
        rec.billingPeriodId = row[3].as<std::string>();
    if (!row[4].is_null())
        rec.caseId = row[4].as<std::int64_t>();
    return rec;
}

void WebhookIngestor::setOutcome(const IngestResult &r)
{
    pqxx::nontransaction tx(m_applier.connection());
    tx.exec_params("SELECT ingest_set_outcome($1, $2, $3, $4::uuid, $5)", r.inboxId,
        std::string(toString(r.outcome)), r.error.empty() ? std::optional<std::string>() : r.error,
        r.billingPeriodId.empty() ? std::optional<std::string>() : r.billingPeriodId, r.caseId);
}

IngestResult WebhookIngestor::ingest(const std::string &providerKey, std::string_view rawBody)
{
    const ProviderKind kind = kindOf(providerKey);
    // Pure and cheap, and the delivery's id comes out of it: normalize first, store second.
    Normalization n = normalizePayload(kind, providerKey, rawBody);

    IngestResult r;
    r.providerKey = providerKey;
    r.providerEventId = n.providerEventId;
    if (!storableEventId(r.providerEventId)) {
        if (n.outcome != Outcome::Invalid && !r.providerEventId.empty()) {
            n.outcome = Outcome::Invalid;
            n.reason = "invalid_payload";
            n.message = "event id: not usable as a delivery id (control characters or longer "
                        "than 255 bytes)";
            n.event.reset();
        }
        r.providerEventId = derivedEventId(rawBody);
    }
    r.reason = n.reason;
    const auto known = knownOutcome(n.outcome);
    const std::string knownError = n.outcome == Outcome::Invalid ? n.message : std::string();
    nlohmann::json normalized = rd::toJson(n);
    if (n.outcome == Outcome::NeedsSnapshot && n.event)
        normalized["event"]["period"] = nullptr;

    Recorded rec;
    try {
        rec = record(
            providerKey, r.providerEventId, rawBody, known, n.reason, knownError, normalized);
    } catch (const pqxx::data_exception &) {
        // The payload parsed, but holds text PostgreSQL cannot store (jsonb refuses \u0000):
        // keep the bytes, under the body's hash, as an invalid payload.
        n.outcome = Outcome::Invalid;
        n.event.reset();
        r.providerEventId = derivedEventId(rawBody);
        r.reason = "invalid_payload";
        rec = record(providerKey, r.providerEventId, rawBody, IngestOutcome::Invalid, r.reason,
            "payload: holds text the database cannot store (e.g. \\u0000)", nullptr);
    }
    r.inboxId = rec.inboxId;
    if (!rec.isNew && rec.outcome) {
        // Transport-level duplicate: the first delivery's outcome stands; nothing is re-run.
        r.outcome = IngestOutcome::DuplicateDelivery;
        r.billingPeriodId = rec.billingPeriodId;
        r.caseId = rec.caseId;
        return r;
    }
    if (rec.isNew && known) {
        r.outcome = *known;
        r.error = knownError;
        return r;
    }
    // A new renewal, or an earlier delivery of this id that never recorded its outcome
    // (the process died): process it now. The core's renewal key keeps that safe.
    try {
        if (known) {
            r.outcome = *known;
            r.error = knownError;
            setOutcome(r);
        } else if (n.outcome == Outcome::NeedsSnapshot && n.event) {
            pqxx::nontransaction tx(m_applier.connection());
            r.outcome = IngestOutcome::NeedsSnapshot;
            r.caseId = tx.exec_params1("SELECT ingest_open_snapshot_case($1, $2::jsonb)", r.inboxId,
                             dumpLenient(partialEventJson(*n.event)))[0]
                           .as<std::int64_t>();
        } else if (n.outcome == Outcome::NeedsSnapshot) {
            // An adapter that could not even tell which renewal it is: nothing to open a case
            // about, but the payload waits in the inbox for a snapshot all the same.
            r.outcome = IngestOutcome::NeedsSnapshot;
            setOutcome(r);
        } else {
            const ApplyOutcome out = m_applier.apply(*n.event, Actor {"webhook", providerKey});
            r.outcome = ingestOutcomeOf(out.result);
            r.billingPeriodId = out.billingPeriodId;
            if (out.rejection)
                r.error = toString(*out.rejection);
            r.caseId = out.caseId;
            setOutcome(r);
        }
    } catch (const pqxx::data_exception &e) {
        r = IngestResult {IngestOutcome::Invalid, rec.inboxId, providerKey, r.providerEventId,
            "invalid_payload", std::string("the database refused a value: ") + e.what(), {}, {}};
        setOutcome(r);
    }
    return r;
}

} // namespace rd
