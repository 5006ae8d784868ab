#include "domain/store/inbox_replay.h"

#include "domain/core/errors.h"
#include "domain/store/action_refused.h"
#include "domain/store/database_errors.h"
#include "domain/store/database_target.h"
#include "domain/store/internal/pqxx_session.h"
#include "domain/store/internal/retrying_call.h"
#include "domain/store/webhook_ingestor.h"

#include <pqxx/pqxx>

#include <optional>
#include <sstream>

namespace rd {

nlohmann::json ReplaySummary::toJson() const
{
    return {{"payloads", payloads}, {"outcomes", outcomes}, {"appliedAtOnce", appliedAtOnce},
        {"healed", healed}, {"openCases", openCases}};
}

std::string ReplaySummary::text() const
{
    std::ostringstream out;
    out << "replayed " << payloads << " payload(s):";
    for (const auto &[outcome, count] : outcomes)
        out << " " << outcome << " " << count << ";";
    out << "\n"
        << appliedAtOnce << " renewal(s) applied at once, " << healed
        << " applied when the renewal before them arrived (healed), " << openCases.size()
        << " case(s) left for a person";
    for (std::size_t i = 0; i < openCases.size(); ++i)
        out << (i ? ", " : ": ") << openCases[i];
    out << "\n";
    return out.str();
}

InboxReplay::InboxReplay(std::string conninfo)
    : m_conninfo(std::move(conninfo)), m_ingestor(std::make_unique<WebhookIngestor>(m_conninfo))
{ }

InboxReplay::~InboxReplay() = default;

ProviderKind InboxReplay::kindOf(const std::string &providerKey)
{
    return m_ingestor->kindOf(providerKey);
}

IngestResult InboxReplay::ingest(const std::string &providerKey, std::string_view payload)
{
    ++m_summary.payloads;
    IngestResult r = m_ingestor->ingest(providerKey, payload);
    ++m_summary.outcomes[std::string(toString(r.outcome))];
    if (r.caseId)
        m_caseIds.push_back(*r.caseId);
    return r;
}

ReplaySummary InboxReplay::finish()
{
    // The cases this replay opened, as they stand now that every payload is in.
    ReplaySummary s = m_summary;
    s.appliedAtOnce = s.outcomes.count("applied") ? s.outcomes.at("applied") : 0;
    if (m_caseIds.empty())
        return s;
    auto conn = connectTo(m_conninfo);
    pqxx::read_transaction tx(*conn);
    std::string ids = "{";
    for (std::size_t i = 0; i < m_caseIds.size(); ++i)
        ids += (i ? "," : "") + std::to_string(m_caseIds[i]);
    ids += "}";
    for (const auto &row :
        tx.exec_params("SELECT id, status, resolved_by = 'system' FROM reconciliation_cases "
                       "WHERE id = ANY($1::bigint[]) ORDER BY id",
            ids)) {
        if (row[1].as<std::string>() == "open")
            s.openCases.push_back(row[0].as<std::int64_t>());
        else if (!row[2].is_null() && row[2].as<bool>())
            ++s.healed;
    }
    return s;
}

namespace {

nlohmann::json review(pqxx::connection &conn, std::int64_t inboxId, const std::string &note,
    std::optional<std::int64_t> rerunInboxId)
{
    // One statement, as every operator action (case_actions.cpp's callAction): a refusal
    // typed, a serialization failure run again.
    return retryingAction([&] {
        pqxx::nontransaction tx(conn);
        const auto row = tx.exec_params1(
            "SELECT public.review_invalid_delivery($1, $2, $3)::text", inboxId, note, rerunInboxId);
        return nlohmann::json::parse(row[0].c_str());
    });
}

} // namespace

nlohmann::json reviewInvalidDelivery(
    const std::string &conninfo, std::int64_t inboxId, const std::string &note)
{
    auto conn = connectTo(conninfo);
    return review(*conn, inboxId, note, std::nullopt);
}

DeliveryRerun rerunInvalidDelivery(const std::string &conninfo, std::int64_t inboxId)
{
    auto conn = connectTo(conninfo);
    DeliveryRerun rerun;
    rerun.inboxId = inboxId;
    std::string body;
    {
        pqxx::read_transaction tx(*conn);
        const auto may
            = tx.exec1("SELECT has_column_privilege('public.webhook_inbox', 'raw_body', 'SELECT')");
        if (!may[0].as<bool>())
            throw InputError("delivery " + std::to_string(inboxId),
                "your database role may not read delivery bodies (renewal_payload_reader): "
                "a re-run needs the body");
        const auto rows = tx.exec_params(
            "SELECT w.provider_key, w.raw_body, w.body_truncated, coalesce(w.outcome, ''), "
            "r.reviewed_by, public.rd_rfc3339(r.reviewed_at), m.kind, "
            "to_char(m.removed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') "
            "FROM public.webhook_inbox w "
            "LEFT JOIN public.webhook_inbox_reviews r ON r.inbox_id = w.id "
            "LEFT JOIN public.webhook_inbox_removals m ON m.id = w.body_removal_id "
            "WHERE w.id = $1",
            inboxId);
        if (rows.empty())
            throw ActionRefused(
                Refusal::DeliveryNotFound, "there is no delivery " + std::to_string(inboxId));
        const auto &row = rows[0];
        const std::string outcome = row[3].as<std::string>();
        if (outcome != "invalid")
            throw ActionRefused(Refusal::DeliveryNotInvalid,
                "delivery " + std::to_string(inboxId) + " is not invalid (its outcome is "
                    + (outcome.empty() ? std::string("not processed yet") : outcome)
                    + "): only invalid deliveries are re-run");
        if (!row[4].is_null())
            throw ActionRefused(Refusal::DeliveryAlreadyReviewed,
                "delivery " + std::to_string(inboxId) + " was already reviewed by "
                    + row[4].as<std::string>() + " at " + row[5].as<std::string>());
        if (!row[6].is_null()) // 0037: no body to run (body_truncated is NULL too)
            throw InputError("delivery " + std::to_string(inboxId),
                "its body was "
                    + std::string(row[6].as<std::string>() == "erasure" ? "erased" : "removed")
                    + " on " + row[7].as<std::string>()
                    + " (renewalctl inbox removals): it cannot be re-run");
        if (row[2].as<bool>())
            throw InputError("delivery " + std::to_string(inboxId),
                "the inbox kept only the start of its body: it cannot be re-run");
        rerun.providerKey = row[0].as<std::string>();
        const pqxx::binarystring bytes(row[1]);
        body = bytes.str();
    }

    InboxReplay replay(conninfo);
    const ProviderKind kind = replay.kindOf(rerun.providerKey);
    // The adapter first, in this process: when it still cannot read the body, nothing is
    // written (an ingest would find the same derived event id and answer duplicate_delivery).
    const NormalizeResult n = normalizePayload(kind, rerun.providerKey, body);
    if (n.outcome == NormalizeOutcome::Invalid) {
        rerun.stillInvalid = true;
        rerun.message = n.message;
        return rerun;
    }
    try {
        rerun.result = replay.ingest(rerun.providerKey, body);
    } catch (const DatabaseFailure &e) {
        if (e.sqlstate() != kInsufficientPrivilege)
            throw;
        // The ingest path is the webhook receiver's: a re-run delivers as it does.
        throw SetupError("your database role may not ingest deliveries: a re-run goes through "
                         "the ingest path (renewal_ingest; renewalctl roles grant LOGIN ingest)");
    }
    rerun.summary = replay.finish();
    if (rerun.result.inboxId == inboxId || rerun.result.inboxId == 0)
        return rerun; // the same row: the event id it was kept under
    const std::string note = "re-run as delivery " + std::to_string(rerun.result.inboxId) + ": "
        + std::string(toString(rerun.result.outcome));
    try {
        review(*conn, inboxId, note, rerun.result.inboxId);
        rerun.reviewed = true;
    } catch (const DatabaseFailure &e) {
        if (e.sqlstate() != kInsufficientPrivilege)
            throw;
        rerun.notReviewedBecause = "your database role may not mark deliveries reviewed "
                                   "(renewal_operator)";
    } catch (const ActionRefused &refused) {
        rerun.notReviewedBecause = refused.what();
    }
    return rerun;
}

nlohmann::json DeliveryRerun::toJson() const
{
    nlohmann::json j {{"inboxId", inboxId}, {"providerKey", providerKey}};
    if (stillInvalid) {
        j["result"] = "still_invalid";
        j["message"] = message;
        return j;
    }
    j["result"] = "rerun";
    j["delivery"] = result.toJson();
    j["summary"] = summary.toJson();
    j["reviewed"] = reviewed;
    if (!notReviewedBecause.empty())
        j["notReviewedBecause"] = notReviewedBecause;
    return j;
}

std::string DeliveryRerun::text() const
{
    const std::string id = std::to_string(inboxId);
    if (stillInvalid)
        return "delivery " + id + " is still invalid for this build's adapter: " + message
            + "\nnothing was written\n";
    std::string out;
    if (result.inboxId == inboxId)
        out = "delivery " + id + " was read as event " + result.providerEventId
            + ", which the inbox keeps as this invalid delivery: nothing changed ("
            + std::string(toString(result.outcome)) + ")\n";
    else
        out = "delivery " + id + " re-run as delivery " + std::to_string(result.inboxId) + ": "
            + std::string(toString(result.outcome))
            + (result.caseId ? ", case " + std::to_string(*result.caseId) : std::string()) + "\n";
    out += summary.text();
    if (reviewed)
        out += "delivery " + id + " is marked reviewed\n";
    else if (!notReviewedBecause.empty())
        out += "delivery " + id + " is not marked reviewed: " + notReviewedBecause + "\n";
    return out;
}

} // namespace rd
