#include "reconciliation.hpp"

#include "errors.hpp"
#include "sha256.hpp"

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

ChainBreak breakFromRow(const pqxx::row &r)
{
    return {r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::int64_t>(),
        r[3].as<std::int64_t>(), r[4].as<std::string>()};
}

} // namespace

const std::vector<std::string> &standardReasonCodes()
{
    static const std::vector<std::string> codes {"provider_confirmed", "missing_renewal_arrived",
        "customer_request", "duplicate_charge", "data_correction", "test_data", "other"};
    return codes;
}

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

std::vector<ChainBreak> verifyAuditChains(pqxx::connection &conn)
{
    pqxx::read_transaction tx(conn);
    std::vector<ChainBreak> out;
    for (const auto &r : tx.exec("SELECT chain, chain_id, row_id, chain_seq, problem "
                                 "FROM audit_chain_breaks()"))
        out.push_back(breakFromRow(r));
    return out;
}

nlohmann::json exportAuditAnchor(pqxx::connection &conn)
{
    // One snapshot for all heads, so the digest describes one moment.
    pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::read_only> tx(conn);
    nlohmann::json heads = nlohmann::json::array();
    std::string digestInput;
    for (const auto &r : tx.exec("SELECT * FROM audit_chain_heads() UNION ALL "
                                 "SELECT * FROM audit_case_history_heads() ORDER BY 1, 2")) {
        heads.push_back({{"chain", r[0].as<std::string>()}, {"chainId", r[1].as<std::string>()},
            {"seq", r[2].as<std::int64_t>()}, {"hash", r[3].as<std::string>()}});
        digestInput += r[0].as<std::string>() + ":" + r[1].as<std::string>() + ":"
            + r[2].as<std::string>() + ":" + r[3].as<std::string>() + "\n";
    }
    const auto at = tx.exec1("SELECT rd_rfc3339(now())")[0].as<std::string>();
    return {{"createdAt", at}, {"digest", sha256Hex(digestInput)}, {"heads", heads}};
}

std::vector<ChainBreak> checkAuditAnchor(pqxx::connection &conn, const nlohmann::json &anchor)
{
    if (!anchor.is_object() || !anchor.contains("heads") || !anchor["heads"].is_array())
        throw InputError("heads", "not an audit anchor (expected {\"heads\": [...]})");
    pqxx::read_transaction tx(conn);
    std::vector<ChainBreak> out;
    std::size_t index = 0;
    for (const auto &h : anchor["heads"]) {
        const std::string where = "heads[" + std::to_string(index++) + "]";
        if (!h.is_object() || !h.contains("chain") || !h["chain"].is_string()
            || !h.contains("chainId") || !h["chainId"].is_string() || !h.contains("seq")
            || !h["seq"].is_number_integer() || !h.contains("hash") || !h["hash"].is_string())
            throw InputError(where, "expected {\"chain\",\"chainId\",\"seq\",\"hash\"}");
        const auto chain = h["chain"].get<std::string>();
        if (chain != "subscription_transition_audits" && chain != "reconciliation_case_history")
            throw InputError(where + ".chain", "unknown chain '" + chain + "'");
        const auto r = tx.exec_params("SELECT audit_chain_hash_at($1, $2, $3)", chain,
            h["chainId"].get<std::string>(), h["seq"].get<std::int64_t>());
        ChainBreak b {chain, h["chainId"].get<std::string>(), 0, h["seq"].get<std::int64_t>(), ""};
        if (r.empty() || r[0][0].is_null())
            b.problem = "the anchored row is gone (removed since the anchor was exported)";
        else if (r[0][0].as<std::string>() != h["hash"].get<std::string>())
            b.problem = "the anchored row's hash changed (rewritten since the anchor was exported)";
        if (!b.problem.empty())
            out.push_back(b);
    }
    return out;
}

void grantRole(pqxx::connection &conn, const std::string &login, const std::string &kind)
{
    if (kind != "viewer" && kind != "operator" && kind != "ingest")
        throw InputError("role", "'" + kind + "' is not viewer, operator or ingest");
    if (login.empty() || login.size() > 63)
        throw InputError("login", "a login role name of 1 to 63 characters is required");
    pqxx::work tx(conn);
    if (tx.exec_params("SELECT 1 FROM pg_roles WHERE rolname = $1", login).empty())
        tx.exec0("CREATE ROLE " + tx.quote_name(login) + " LOGIN");
    tx.exec0("GRANT " + tx.quote_name("renewal_" + kind) + " TO " + tx.quote_name(login));
    tx.commit();
}

} // namespace rd
