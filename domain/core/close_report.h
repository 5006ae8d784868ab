#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

/// One currency of a month close: the ledger's renewals and amount beside the statement's,
/// and the money that went back (migration 0051).
struct CloseCurrencyTotals
{
    std::string currency;
    std::int64_t ledgerRenewals = 0;
    std::int64_t ledgerMinor = 0;
    std::int64_t statementRenewals = 0;
    std::int64_t statementMinor = 0;
    /// False for a close made before money back was counted (its figures below are zero and
    /// mean "not known", not "none").
    bool moneyBackCounted = false;
    /// The month's refunds less their reversals, and chargebacks less their reinstatements,
    /// each by the movement's own date.
    std::int64_t refundedMinor = 0;
    std::int64_t disputedMinor = 0;
    /// Movements of earlier, closed months recorded after their close, counted by this close.
    std::int64_t afterCloseRefundedMinor = 0;
    std::int64_t afterCloseDisputedMinor = 0;

    /// The ledger's gross less what the month paid back.
    std::int64_t netMinor() const { return ledgerMinor - refundedMinor - disputedMinor; }
};

/// The currencies of a close report (month_close_report's or close_month's JSON: its
/// "ledgerTotals", "statementTotals", "moneyBackTotals" and "afterCloseTotals"), each side's
/// figures side by side, by code. A currency missing from one side has zeros there.
std::vector<CloseCurrencyTotals> closeCurrencyTotals(const nlohmann::json &report);

/// Whether the close counted money back (made since migration 0051).
bool closeCountedMoneyBack(const nlohmann::json &report);

/// How each run of the close knew it had every page of the provider's list ("statementCompleteness"
/// of month_close_report, migration 0041), one sentence for the report: "run 4:
/// stated complete by the operator (--pages-complete)"; runs joined by "; ".
std::string closeStatementCompleteness(const nlohmann::json &report);

/// The close's statement runs as people cite them: "run #2", "runs #1, #2" (a bare "2" beside
/// "Statement runs" read as a count); empty when the report names none.
std::string closeStatementRuns(const nlohmann::json &report);

/// The report's last line: "SHA-256 of every byte above this line,<64 hex digits>" over
/// `above`, which is the file's bytes before that line (its "\n" line ends included). An
/// auditor recomputes it with `head -n -1 FILE | sha256sum`. A hash cannot cover itself: the
/// line is the one part of the file it does not cover.
std::string closeReportDigestLine(std::string_view above);

/// The close report as CSV (the desk's Close month and `renewalctl close --csv`), blocks
/// separated by an empty line: "field,value" lines (provider, month, who and when, runs and
/// digests, counts, the audit anchor's digest); the totals per currency on both sides in the
/// currency's decimals, then refunded, disputed, net and the after-close money back of earlier
/// months (appended, so that a reader by position finds the first six where they were; empty
/// for a close made before money back was counted); every finding with its case's status,
/// resolution, who and note; and, for a close that counted money back, the movements recorded
/// after their own month's close that it counted; last, after an empty line, the SHA-256 of
/// everything above it (closeReportDigestLine). Every instant is UTC to the second
/// ("2026-03-02T10:15:03Z"), whatever form the database or the statement gave it in. Every
/// cell follows the CSV rule (domain/core/csv.h).
std::string closeReportCsv(const nlohmann::json &report);

} // namespace rd
