#pragma once

#include "domain/store/db_session.h"

#include <iosfwd>
#include <string>

namespace rd {

/// The renewals paid in [from, to] (UTC days "YYYY-MM-DD", both included; the caller checks
/// their form) as the desk's Ledger export writes them (domain/core/ledger_csv.h): a header,
/// then one line per billing period, oldest paid first (ties by id), every field by the core's
/// CSV rule (a text field that starts like a formula is neutralized). One snapshot, read
/// through a server-side cursor: memory does not grow with the rows. Returns the rows written.
long long exportLedgerRows(
    DbRef db, const std::string &from, const std::string &to, std::ostream &out);

/// The totals of the same renewals as the desk's "Export totals…" writes them: per month ×
/// currency, then per provider × currency, from the ledger's daily totals (migration 0016).
/// Returns the total lines written.
long long exportLedgerTotals(
    DbRef db, const std::string &from, const std::string &to, std::ostream &out);

} // namespace rd
