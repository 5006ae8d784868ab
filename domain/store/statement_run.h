#pragma once

// What a statement import reports, without libpqxx: for the CLI and for the desk (through
// OperatorSession).

#include "domain/core/statement.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rd {

/// What one import of a statement did (or, dry, would do). `summary` is the run as the
/// database stored it (statement_run_json, migration 0029): runId, providerKey, from, to,
/// files, renewals, matched, backfilled, unapplied, differing, notInStatement, cases (the
/// distinct cases still open among the run's findings), statementTotals, ledgerTotals;
/// completeness, repeats, closedMonths and backfilledAfterClose (migration 0041); unreadable,
/// the objects that could not be read, each a case (migration 0048).
struct StatementImportResult
{
    nlohmann::json summary;
    /// This very statement (provider, days, files) was imported before, by summary's
    /// "repeats" run: this run compared it again with today's ledger.
    bool alreadyImported = false;
    bool dryRun = false;
    /// The findings that need a person: one object per line whose case is open
    /// {"finding", "providerRenewalKey", "caseId", "errorCode", "providerSubscriptionId"}.
    nlohmann::json openFindings = nlohmann::json::array();

    std::int64_t runId() const;
};

/// The import's report for people, one finding class a line, both sides' totals per currency
/// in each currency's decimals, and the open cases: what `renewalctl statement import` prints
/// and the desk's import dialog shows.
std::string describeStatementImport(const StatementImportResult &result);

/// A run's money back sums per currency ({"USD": {"refundedMinor", "disputedMinor"}}) as
/// "USD 8.00 refunded, 10.00 disputed; EUR ...", the two words as given (the desk's language);
/// empty for none.
std::string statementMoneyBackText(
    const nlohmann::json &totals, std::string_view refunded, std::string_view disputed);

/// A run's totals per currency ({"USD": {"renewals", "amountMinor"}}) as the report writes
/// them, "2 × USD 40.00, 1 × JPY 1500", each amount in its currency's decimals; empty when
/// there are none.
std::string statementTotalsText(const nlohmann::json &totals);

/// The UTC days a statement covers, "YYYY-MM-DD", both included.
struct StatementDays
{
    std::string from;
    std::string to;
};

/// The paid days of the statement's renewals (first and last, UTC); nullopt when it holds no
/// renewal.
std::optional<StatementDays> paidDaysOf(const Statement &statement);

} // namespace rd
