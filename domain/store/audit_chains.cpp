#include "domain/store/audit_chains.h"

#include "domain/core/errors.h"
#include "domain/core/sha256.h"

#include <pqxx/pqxx>

namespace rd {
namespace {

ChainBreak breakFromRow(const pqxx::row &r)
{
    return {r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::int64_t>(),
        r[3].as<std::int64_t>(), r[4].as<std::string>()};
}

} // namespace

std::vector<ChainBreak> verifyAuditChains(pqxx::connection &conn)
{
    pqxx::read_transaction tx(conn);
    std::vector<ChainBreak> out;
    for (const auto &r : tx.exec("SELECT chain, chain_id, row_id, chain_seq, problem "
                                 "FROM audit_chain_breaks()"))
        out.push_back(breakFromRow(r));
    return out;
}

AuditVerification verifyAuditChainsCounted(pqxx::connection &conn)
{
    // One snapshot for the counts and the breaks, so that they describe the same rows.
    pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::read_only> tx(conn);
    AuditVerification out;
    const auto counts = tx.exec1(
        R"(SELECT (SELECT count(*) FROM subscription_transition_audits)
                + (SELECT count(*) FROM reconciliation_case_history),
                  (SELECT count(DISTINCT subscription_id) FROM subscription_transition_audits)
                + (SELECT count(DISTINCT case_id) FROM reconciliation_case_history))");
    out.rows = counts[0].as<long long>();
    out.chains = counts[1].as<long long>();
    for (const auto &r : tx.exec("SELECT chain, chain_id, row_id, chain_seq, problem "
                                 "FROM audit_chain_breaks()"))
        out.breaks.push_back(breakFromRow(r));
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
    struct Head
    {
        std::string chain, chainId, hash;
        std::int64_t seq;
    };
    std::vector<Head> heads;
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
        heads.push_back({chain, h["chainId"].get<std::string>(), h["hash"].get<std::string>(),
            h["seq"].get<std::int64_t>()});
    }
    // A million chains have a million heads: they are looked up a few thousand per round trip
    // (one snapshot for all of them), not one each.
    constexpr std::size_t kChunk = 5000;
    pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::read_only> tx(conn);
    std::vector<ChainBreak> out;
    for (std::size_t from = 0; from < heads.size(); from += kChunk) {
        const std::size_t to = std::min(heads.size(), from + kChunk);
        nlohmann::json chunk = nlohmann::json::array();
        for (std::size_t i = from; i < to; ++i)
            chunk.push_back({heads[i].chain, heads[i].chainId, heads[i].seq});
        const auto rows = tx.exec_params(
            "SELECT public.audit_chain_hash_at(h->>0, h->>1, (h->>2)::bigint) "
            "FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(h, ord) ORDER BY ord",
            chunk.dump());
        for (std::size_t i = from; i < to; ++i) {
            const auto &h = heads[i];
            const auto &field = rows[static_cast<int>(i - from)][0];
            ChainBreak b {h.chain, h.chainId, 0, h.seq, ""};
            if (field.is_null())
                b.problem = "the anchored row is gone (removed since the anchor was exported)";
            else if (field.as<std::string>() != h.hash)
                b.problem
                    = "the anchored row's hash changed (rewritten since the anchor was exported)";
            if (!b.problem.empty())
                out.push_back(b);
        }
    }
    return out;
}

} // namespace rd
