#include "domain/store/audit_chains.h"
#include "domain/store/internal/audit_chains_tx.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

namespace rd {

ChainBreak breakFromRow(const pqxx::row &r)
{
    return {r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::int64_t>(),
        r[3].as<std::int64_t>(), r[4].as<std::string>(), {}, {}};
}

std::vector<ChainBreak> verifyAuditChains(DbRef db)
{
    pqxx::connection &conn = pqxxOf(db);
    pqxx::read_transaction tx(conn);
    std::vector<ChainBreak> out;
    for (const auto &r : tx.exec("SELECT chain, chain_id, row_id, chain_seq, problem "
                                 "FROM audit_chain_breaks()"))
        out.push_back(breakFromRow(r));
    return out;
}

AuditVerification verifyAuditChainsCounted(DbRef db)
{
    pqxx::connection &conn = pqxxOf(db);
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

} // namespace rd
