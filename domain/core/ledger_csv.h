#pragma once

#include "domain/core/csv.h"

#include <string>
#include <vector>

namespace rd::ledger_csv {

/// The renewals ledger's CSV columns, as the desk's Ledger page writes them (ui/models/
/// ledgermodel.cpp, "Export rows…") and `renewalctl ledger export` writes them: machine values,
/// ISO 8601 UTC instants, amounts in major units beside their currency and minor units.
const std::vector<std::string> &rowTitles();
/// Their kinds: the amount and its minor units are numbers; everything else (ids, keys,
/// provider event ids, all from providers) is text.
const std::vector<csv::Kind> &rowKinds();

/// The ledger totals' CSV columns ("Export totals…", `renewalctl ledger export --totals`): group
/// ("month" or "provider"), month (YYYY-MM), provider, currency, renewals, amount, amount minor
/// units.
const std::vector<std::string> &totalsTitles();
/// Their kinds: renewals, amount and minor units are numbers.
const std::vector<csv::Kind> &totalsKinds();

} // namespace rd::ledger_csv
