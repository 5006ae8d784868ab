#pragma once

#include "domain/store/audit_verification.h"
#include <nlohmann/json.hpp>

#include <pqxx/connection> // pqxx::connection is an alias in 6.4: no forward declaration

#include <cstdint>
#include <string>
#include <vector>

namespace rd {

/// Walks every chain (in the database) and returns the breaks, first first.
std::vector<ChainBreak> verifyAuditChains(pqxx::connection &conn);

/// verifyAuditChains with the counts of what it checked. Counting reads the chain tables, so the
/// role needs SELECT on them (renewal_viewer and the roles that include it).
AuditVerification verifyAuditChainsCounted(pqxx::connection &conn);

/// Verifies every chain in one snapshot, streamed: the rows come through a server-side
/// cursor, `options.batchRows` at a time, in chain order (one index scan per table), and the
/// hashes are recomputed here from the canonical form of migration 0003
/// (audit_canonical.h; the server's `rd_audit_canonical` for a row that form does not cover
/// simply). Memory stays bounded by the batch whatever the database's size; progress is
/// reported after each batch. Reads the chain tables, so the role needs SELECT on them
/// (renewal_viewer and the roles that include it). Finds what audit_chain_breaks() finds,
/// in the same order.
AuditVerification verifyAuditChainsStreamed(
    pqxx::connection &conn, const AuditVerifyOptions &options);

/// The head of every chain plus one digest over all of them, to keep outside the database:
/// {"createdAt", "digest", "heads": [{"chain","chainId","seq","hash"}]}.
nlohmann::json exportAuditAnchor(pqxx::connection &conn);
/// Checks that every head of an exported anchor is still in place with the same hash (rows
/// removed or rewritten since the export, even at the tail, show up here).
std::vector<ChainBreak> checkAuditAnchor(pqxx::connection &conn, const nlohmann::json &anchor);

} // namespace rd
