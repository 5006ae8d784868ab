#pragma once

#include "domain/store/audit_verification.h"
#include "domain/store/db_session.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rd {

/// Walks every chain (in the database) and returns the breaks, first first.
std::vector<ChainBreak> verifyAuditChains(DbRef db);

/// verifyAuditChains with the counts of what it checked. Counting reads the chain tables, so the
/// role needs SELECT on them (renewal_viewer and the roles that include it).
AuditVerification verifyAuditChainsCounted(DbRef db);

/// Verifies every chain in one snapshot, streamed: the rows come through a server-side
/// cursor, `options.batchRows` at a time, in chain order (one index scan per table), and the
/// hashes are recomputed here from the canonical form of migration 0003
/// (audit_canonical.h; the server's `rd_audit_canonical` for a row that form does not cover
/// simply). Memory stays bounded by the batch whatever the database's size; progress is
/// reported after each batch. Reads the chain tables, so the role needs SELECT on them
/// (renewal_viewer and the roles that include it). Finds what audit_chain_breaks() finds,
/// in the same order.
AuditVerification verifyAuditChainsStreamed(DbRef db, const AuditVerifyOptions &options);

/// Writes the head of every chain plus one digest over all of them, to keep outside the
/// database: {"createdAt", "heads": [{"chain","chainId","hash","seq"}], "digest"}. The digest
/// is SHA-256 over "chain:chainId:seq:hash\n" for each head in the file's order (chain, then
/// chain id). Streamed: the heads come through a server-side cursor in one snapshot and are
/// written as they come, so memory does not grow with the number of chains. Returns the
/// number of heads; `digest`, when given, receives the digest written (the value to publish).
long long exportAuditAnchor(DbRef db, std::ostream &out,
    AnchorLayout layout = AnchorLayout::Indented, std::string *digest = nullptr);
/// Checks that every head of an exported anchor is still in place with the same hash (rows
/// removed or rewritten since the export, even at the tail, show up here). Streamed: the file
/// is parsed as it is read and its heads looked up a few thousand at a time in one snapshot.
/// What is wrong with the file is an InputError naming it ("heads[17].seq"); keys other than
/// "heads", "createdAt" and "digest" are ignored. The digest is recomputed over the heads as
/// they are read; a missing one, or one that is not the heads' (a head removed or edited and
/// the old digest kept), is an InputError naming "digest" once the file is read, so an altered
/// file never reports a match.
AuditAnchorCheck checkAuditAnchor(DbRef db, std::istream &anchor, std::size_t maxMismatches = 1000);

} // namespace rd
