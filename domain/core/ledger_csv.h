#pragma once

#include "domain/core/csv.h"

#include <string>
#include <vector>

namespace rd::ledger_csv {

/// The renewals ledger's CSV columns, as the desk's Ledger page writes them (ui/models/
/// ledgermodel.cpp, "Export rows…") and `renewalctl ledger export` writes them: machine values,
/// ISO 8601 UTC instants, amounts in major units beside their currency and minor units; then
/// (#40, appended) the row's kind ("renewal", or a money movement's: refund, refund_reversal,
/// chargeback, chargeback_reversal) and a movement's key. A movement's row is signed (a refund
/// negative, its reversal positive), dated when it happened (in "Paid at"), and names the
/// renewal it pays back (renewal key, period, billing period id).
const std::vector<std::string> &rowTitles();
/// Their kinds: the amount and its minor units are numbers; everything else (ids, keys,
/// provider event ids, all from providers) is text.
const std::vector<csv::Kind> &rowKinds();

/// The ledger totals' CSV columns ("Export totals…", `renewalctl ledger export --totals`): group
/// ("month", "provider" or "currency": the range's total in that currency across providers),
/// month (YYYY-MM), provider, currency, renewals, amount, amount minor units; then what the
/// totals are of, repeated on every line (scopeFields): basis, from, to, provider filter,
/// currency filter, recorded by filter; then money back (#40, appended so that a reader by
/// position still finds the columns before): refunded, refunded minor units, disputed,
/// disputed minor units, net, net minor units (the amount less both; money back by its own
/// day; all six empty when the file leaves money back out). Columns, not leading comment lines:
/// a spreadsheet or a CSV reader takes the file as it is, and a line copied elsewhere still
/// says its scope.
const std::vector<std::string> &totalsTitles();
/// Their kinds: renewals, the amounts and minor units are numbers.
const std::vector<csv::Kind> &totalsKinds();

/// What a totals file covers.
struct TotalsScope
{
    /// "paid_at" or "period_start": the date of a billing period the range applies to.
    std::string basis = "paid_at";
    /// First and last UTC day, both included (YYYY-MM-DD); empty: open at that end.
    std::string from;
    std::string to;
    /// Empty: not filtered ("all" in the file).
    std::string provider;
    std::string currency;
    std::string recordedBy;
};
/// The scope's six fields, in totalsTitles()' order.
std::vector<std::string> scopeFields(const TotalsScope &scope);

} // namespace rd::ledger_csv
