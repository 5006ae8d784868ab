#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace rd {

/// One currency of a month close: the ledger's renewals and amount beside the statement's.
struct CloseCurrencyTotals
{
    std::string currency;
    std::int64_t ledgerRenewals = 0;
    std::int64_t ledgerMinor = 0;
    std::int64_t statementRenewals = 0;
    std::int64_t statementMinor = 0;
};

/// The currencies of a close report (month_close_report's or close_month's JSON: its
/// "ledgerTotals" and "statementTotals"), each side's figures side by side, by code. A
/// currency on one side only has zeros on the other.
std::vector<CloseCurrencyTotals> closeCurrencyTotals(const nlohmann::json &report);

/// How each run of the close knew it had every page of the provider's list ("statementCompleteness"
/// of month_close_report, migration 0041), one sentence for the report: "run 4:
/// stated complete by the operator (--pages-complete)"; runs joined by "; ".
std::string closeStatementCompleteness(const nlohmann::json &report);

/// The close report as CSV (the desk's Close month and `renewalctl close --csv`), three blocks
/// separated by an empty line: "field,value" lines (provider, month, who and when, runs and
/// digests, counts, the audit anchor's digest); the totals per currency on both sides in the
/// currency's decimals; every finding with its case's status, resolution, who and note. Every
/// cell follows the CSV rule (domain/core/csv.h).
std::string closeReportCsv(const nlohmann::json &report);

} // namespace rd
