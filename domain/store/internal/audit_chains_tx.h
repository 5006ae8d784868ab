#pragma once

// Private to domain/store: the audit chains' steps that run inside a transaction the store's
// own code opened (a backup's snapshot, a verification's).

#include "domain/store/audit_chains.h"

#include <pqxx/row>
#include <pqxx/transaction_base>

#include <ostream>
#include <string>
#include <vector>

namespace rd {

/// exportAuditAnchor inside `tx`, which the caller opened: the heads are the ones its snapshot
/// sees (a backup takes them in the snapshot its pg_dump reads), through a cursor named
/// rd_anchor_heads that is closed again. `tx` should be REPEATABLE READ, or the heads may come
/// from more than one moment.
long long exportAuditAnchor(pqxx::transaction_base &tx, std::ostream &out,
    AnchorLayout layout = AnchorLayout::Indented, std::string *digest = nullptr);

/// A break from a row of (chain, chain_id, row_id, chain_seq, problem): what
/// audit_chain_breaks() and audit_billing_period_breaks() return.
ChainBreak breakFromRow(const pqxx::row &r);

/// Fills the provider and subscription of each break (ChainBreak::provider, ::subscription):
/// one statement for all of them, in the transaction's snapshot.
void nameChainBreaks(pqxx::transaction_base &tx, std::vector<ChainBreak> &breaks);

} // namespace rd
