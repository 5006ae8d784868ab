#include "domain/store/statement_run.h"

#include "domain/core/currency.h"

#include <sstream>

namespace rd {

namespace {

std::string totalsText(const nlohmann::json &totals)
{
    if (!totals.is_object() || totals.empty())
        return "none";
    std::string text;
    for (const auto &[currency, t] : totals.items()) {
        if (!text.empty())
            text += ", ";
        const auto amount = t.value("amountMinor", nlohmann::json());
        // The database sums numeric; a month of one provider stays far inside int64.
        const std::int64_t minor = amount.is_number_integer() ? amount.get<std::int64_t>() : 0;
        text += std::to_string(t.value("renewals", 0)) + " × " + currency + " "
            + formatMinorUnits(minor, currency);
    }
    return text;
}

} // namespace

std::int64_t StatementImportResult::runId() const
{
    return summary.value("runId", std::int64_t {0});
}

std::string describeStatementImport(const StatementImportResult &r)
{
    std::ostringstream out;
    const auto &s = r.summary;
    const auto count = [&](const char *key) { return std::to_string(s.value(key, 0)); };
    if (r.alreadyImported) {
        out << "This statement was imported already, as run " << r.runId() << " by "
            << s.value("importedBy", "") << " at " << s.value("finishedAt", "")
            << ": nothing changed.\n";
    } else {
        out << (r.dryRun ? "Preview, rolled back (a dry run): statement run " : "Statement run ")
            << r.runId() << "\n";
    }
    out << "  provider " << s.value("providerKey", "") << ", paid " << s.value("from", "") << " to "
        << s.value("to", "") << " (UTC, both included), "
        << s.value("files", nlohmann::json::array()).size() << " file(s), " << count("objects")
        << " object(s)\n"
        << "  renewals in the statement: " << count("renewals") << "\n"
        << "    matched " << count("matched") << ", backfilled " << count("backfilled")
        << ", not applied (cases) " << count("unapplied") << ", differing " << count("differing")
        << "\n"
        << "  recorded here but not in the statement: " << count("notInStatement") << "\n"
        << "  totals, statement: " << totalsText(s.value("statementTotals", nlohmann::json()))
        << "\n"
        << "  totals, ledger:    " << totalsText(s.value("ledgerTotals", nlohmann::json())) << "\n";
    if (r.openFindings.empty()) {
        out << "  nothing is left open\n";
        return out.str();
    }
    out << "  open cases: " << r.openFindings.size() << "\n";
    for (const auto &f : r.openFindings)
        out << "    case " << f.value("caseId", 0) << "  " << f.value("finding", "") << "  "
            << f.value("providerRenewalKey", "") << "  (subscription "
            << f.value("providerSubscriptionId", "") << "): " << f.value("errorCode", "") << "\n";
    return out.str();
}

} // namespace rd
