#pragma once

#include "domain/store/db_session.h"

namespace rd {

/// What one fold moved into the read summaries.
struct SummaryFolds
{
    long long renewalDeltas = 0; ///< ledger delta rows folded into the daily totals (0016)
    long long inboxDayRows = 0; ///< (day, outcome) rows added for finished inbox days (0018)
    long long moneyBackDeltas = 0; ///< money back's delta rows folded into its totals (0050)
};

/// Folds the read summaries the ledger and the Overview read: the renewal deltas appended by
/// every renewal into the daily totals, and the inbox's finished UTC days into their counts.
/// Readers are right without it (they add what is not folded yet); folding keeps what they
/// add small. Each fold is its own transaction, skipped (0) while another runs it or on a
/// standby. Any role with the viewer's rights may run it.
SummaryFolds foldSummaries(DbRef db);

} // namespace rd
