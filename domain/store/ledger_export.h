#pragma once

#include "domain/store/db_session.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace rd {

/// The renewals paid in [from, to] (UTC days "YYYY-MM-DD", both included; the caller checks
/// their form), and the money back of those days (#40), as the desk's Ledger export writes them
/// (domain/core/ledger_csv.h): a header, then one line per billing period or movement, oldest
/// first by the day paid or the day the money went back (ties by id), every field by the core's
/// CSV rule (a text field that starts like a formula is neutralized). One snapshot, read
/// through a server-side cursor: memory does not grow with the rows. Returns the rows written.
long long exportLedgerRows(
    DbRef db, const std::string &from, const std::string &to, std::ostream &out);

/// The totals of the same renewals as the desk's "Export totals…" writes them: per month ×
/// currency, then per provider × currency, from the ledger's daily totals (migration 0016).
/// Returns the total lines written.
long long exportLedgerTotals(
    DbRef db, const std::string &from, const std::string &to, std::ostream &out);

/// One line of the net totals (#40): renewals and money back per month or provider and
/// currency. Amounts are minor units as decimal text (sums of numeric, never parsed into 64
/// bits); refunded and disputed are net of their reversals.
struct NetTotalsLine
{
    std::string group; ///< "month" or "provider"
    std::string month; ///< "YYYY-MM" for a month line
    std::string providerKey; ///< for a provider line
    std::string currency;
    long long renewals = 0;
    std::string grossMinor;
    std::string refundedMinor;
    std::string disputedMinor;
    std::string netMinor;
};

/// Gross (the renewals paid), refunded, disputed and net in [from, to] (UTC days, both
/// included) per month × currency, then per provider × currency, in one snapshot: renewals by
/// the day they were paid, money back by its own day (never its renewal's). A month or
/// provider with money back and no renewal is listed too. From the folded totals and the
/// deltas not folded yet (renewal_totals, money_back_totals).
std::vector<NetTotalsLine> ledgerNetTotals(
    DbRef db, const std::string &from, const std::string &to);

} // namespace rd
