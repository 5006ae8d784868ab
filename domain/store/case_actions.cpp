#include "domain/store/case_actions.h"

#include "domain/core/errors.h"

#include <pqxx/pqxx>

#include <chrono>
#include <thread>

namespace rd {
namespace {

/// Turns "ERROR:  stale_snapshot: the snapshot was ...\nCONTEXT: ..." into its parts.
ActionRefused refusalFrom(const pqxx::sql_error &e)
{
    std::string text = e.what();
    if (const auto p = text.find("ERROR:"); p != std::string::npos)
        text = text.substr(p + 6);
    if (const auto nl = text.find('\n'); nl != std::string::npos)
        text = text.substr(0, nl);
    const auto start = text.find_first_not_of(' ');
    text = start == std::string::npos ? std::string() : text.substr(start);
    const auto colon = text.find(": ");
    if (colon == std::string::npos)
        return ActionRefused("refused", text);
    return ActionRefused(text.substr(0, colon), text.substr(colon + 2));
}

/// Runs one action function call in its own (implicit) transaction, retrying the whole call
/// on serialization failure and deadlock; maps business refusals (P0001) to ActionRefused.
template<typename... Args>
nlohmann::json callAction(pqxx::connection &conn, const std::string &sql, Args &&...args)
{
    for (int attempt = 1;; ++attempt) {
        try {
            pqxx::nontransaction tx(conn);
            const pqxx::row row = tx.exec_params1(sql, std::forward<Args>(args)...);
            return nlohmann::json::parse(row[0].c_str());
        } catch (const pqxx::transaction_rollback &) {
            if (attempt >= 5)
                throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(10 * attempt));
        } catch (const pqxx::sql_error &e) {
            if (e.sqlstate() == "P0001")
                throw refusalFrom(e);
            throw;
        }
    }
}

std::optional<std::string> nullIfEmpty(const std::string &s)
{
    return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

} // namespace

nlohmann::json reapplyCase(pqxx::connection &conn, std::int64_t caseId, const OperatorNote &note)
{
    return callAction(conn, "SELECT reapply_case($1, $2, $3)::text", caseId, note.reason,
        nullIfEmpty(note.comment));
}

nlohmann::json dismissCase(pqxx::connection &conn, std::int64_t caseId, const OperatorNote &note)
{
    return callAction(conn, "SELECT dismiss_case($1, $2, $3)::text", caseId, note.reason,
        nullIfEmpty(note.comment));
}

nlohmann::json attachSnapshot(pqxx::connection &conn, const ProviderSnapshot &snapshot,
    std::optional<std::int64_t> caseId, const OperatorNote &note)
{
    return callAction(conn, "SELECT attach_provider_snapshot($1::jsonb, $2, $3, $4)::text",
        toJson(snapshot).dump(), caseId, note.reason, nullIfEmpty(note.comment));
}

nlohmann::json previewSnapshot(
    pqxx::connection &conn, const ProviderSnapshot &snapshot, std::optional<std::int64_t> caseId)
{
    return callAction(conn, "SELECT preview_provider_snapshot($1::jsonb, $2)::text",
        toJson(snapshot).dump(), caseId);
}

nlohmann::json listCases(
    pqxx::connection &conn, const std::optional<std::string> &status, int limit)
{
    if (status && *status != "open" && *status != "resolved" && *status != "dismissed")
        throw InputError("--status", "'" + *status + "' is not open, resolved or dismissed");
    pqxx::read_transaction tx(conn);
    const auto r = tx.exec_params1(
        R"(SELECT coalesce(jsonb_agg(jsonb_build_object(
                'id', c.id, 'status', c.status, 'resolution', c.resolution,
                'errorCode', c.error_code, 'providerKey', c.provider_key,
                'providerSubscriptionId', c.provider_subscription_id,
                'providerRenewalKey', c.provider_renewal_key, 'occurrences', c.occurrences,
                'firstSeenAt', rd_rfc3339(c.first_seen_at),
                'lastSeenAt', rd_rfc3339(c.last_seen_at),
                'resolvedBy', c.resolved_by, 'resolvedAt', rd_rfc3339(c.resolved_at),
                'applicableNow', rd_case_is_applicable(c)) ORDER BY c.last_seen_at DESC, c.id),
                '[]')::text
             FROM (SELECT * FROM reconciliation_cases
                    WHERE $1::text IS NULL OR status = $1
                    ORDER BY last_seen_at DESC, id LIMIT $2) c)",
        status, limit);
    return nlohmann::json::parse(r[0].as<std::string>());
}

nlohmann::json showCase(pqxx::connection &conn, std::int64_t caseId)
{
    pqxx::read_transaction tx(conn);
    const auto r = tx.exec_params(
        R"(SELECT jsonb_build_object(
                'id', c.id, 'status', c.status, 'resolution', c.resolution,
                'errorCode', c.error_code, 'providerKey', c.provider_key,
                'providerSubscriptionId', c.provider_subscription_id,
                'subscriptionId', c.subscription_id,
                'providerRenewalKey', c.provider_renewal_key, 'occurrences', c.occurrences,
                'firstSeenAt', rd_rfc3339(c.first_seen_at), 'lastSeenAt', rd_rfc3339(c.last_seen_at),
                'resolvedBy', c.resolved_by, 'resolvedAt', rd_rfc3339(c.resolved_at),
                'resolutionComment', c.resolution_comment, 'snapshotId', c.snapshot_id,
                'event', c.event, 'localState', c.local_state,
                'applicableNow', rd_case_is_applicable(c),
                'history', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                        'seq', h.chain_seq, 'action', h.action, 'outcome', h.outcome,
                        'error', h.error_code, 'actor', h.actor, 'reason', h.reason,
                        'comment', h.comment, 'at', rd_rfc3339(h.created_at),
                        'details', h.details) ORDER BY h.chain_seq), '[]')
                     FROM reconciliation_case_history h WHERE h.case_id = c.id))::text
             FROM reconciliation_cases c WHERE c.id = $1)",
        caseId);
    if (r.empty())
        throw ActionRefused("case_not_found", "there is no case " + std::to_string(caseId));
    return nlohmann::json::parse(r[0][0].as<std::string>());
}

} // namespace rd
