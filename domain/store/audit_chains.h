#pragma once

#include <nlohmann/json.hpp>
#include <pqxx/connection> // pqxx::connection is an alias in 6.4: no forward declaration

#include <cstdint>
#include <string>
#include <vector>

namespace rd {

/// One place where an audit chain does not hold.
struct ChainBreak
{
    std::string chain; ///< "subscription_transition_audits" or "reconciliation_case_history"
    std::string chainId; ///< the subscription id or case id the chain belongs to
    std::int64_t rowId = 0;
    std::int64_t seq = 0;
    std::string problem;
};

/// Walks every chain (in the database) and returns the breaks, first first.
std::vector<ChainBreak> verifyAuditChains(pqxx::connection &conn);

/// What a verification covered: the rows and chains checked (subscription audits and case
/// histories together) and the breaks found, all from one snapshot of the database.
struct AuditVerification
{
    long long rows = 0;
    long long chains = 0;
    std::vector<ChainBreak> breaks;
    bool intact() const { return breaks.empty(); }
};
/// verifyAuditChains with the counts of what it checked. Counting reads the chain tables, so the
/// role needs SELECT on them (renewal_viewer and the roles that include it).
AuditVerification verifyAuditChainsCounted(pqxx::connection &conn);

/// The head of every chain plus one digest over all of them, to keep outside the database:
/// {"createdAt", "digest", "heads": [{"chain","chainId","seq","hash"}]}.
nlohmann::json exportAuditAnchor(pqxx::connection &conn);
/// Checks that every head of an exported anchor is still in place with the same hash (rows
/// removed or rewritten since the export, even at the tail, show up here).
std::vector<ChainBreak> checkAuditAnchor(pqxx::connection &conn, const nlohmann::json &anchor);

} // namespace rd
