#include "domain/store/statement_run.h"

#include "domain/core/currency.h"

#include <sstream>

namespace rd {

std::string statementTotalsText(const nlohmann::json &totals)
{
    std::string text;
    if (!totals.is_object())
        return text;
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

std::string statementMoneyBackText(
    const nlohmann::json &totals, std::string_view refunded, std::string_view disputed)
{
    std::string text;
    if (!totals.is_object())
        return text;
    const auto minorOf = [](const nlohmann::json &t, const char *key) {
        const auto amount = t.value(key, nlohmann::json());
        return amount.is_number_integer() ? amount.get<std::int64_t>() : std::int64_t {0};
    };
    for (const auto &[currency, t] : totals.items()) {
        if (!text.empty())
            text += "; ";
        text += currency + " " + formatMinorUnits(minorOf(t, "refundedMinor"), currency) + " "
            + std::string(refunded) + ", " + formatMinorUnits(minorOf(t, "disputedMinor"), currency)
            + " " + std::string(disputed);
    }
    return text;
}

namespace {

// The totals, or "none".
std::string totalsText(const nlohmann::json &totals)
{
    const std::string text = statementTotalsText(totals);
    return text.empty() ? "none" : text;
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
    const auto &repeats = s.value("repeats", nlohmann::json());
    if (r.alreadyImported && repeats.is_object())
        out << "This statement was imported already, as run " << repeats.value("runId", 0) << " by "
            << repeats.value("importedBy", "") << " at " << repeats.value("finishedAt", "")
            << "; compared again with today's ledger:\n";
    // A dry run's run has no number (a preview takes none, #42, 12).
    if (r.dryRun)
        out << "Preview, rolled back (a dry run): nothing is kept\n";
    else
        out << "Statement run " << r.runId() << "\n";
    const std::string completeness = s.value("completeness", nlohmann::json()).is_string()
        ? s["completeness"].get<std::string>()
        : std::string();
    const bool unproven = completeness == "unproven";
    if (completeness == "fetched")
        out << "  complete: every page fetched from the provider's API in this run\n";
    else if (completeness == "manifest")
        out << "  complete: every page checked against the fetch's manifest\n";
    else if (completeness == "stated")
        out << "  complete as stated by " << s.value("importedBy", "")
            << " (--pages-complete), not proven\n";
    else if (unproven)
        out << "  completeness NOT PROVEN (pages without the manifest `statement fetch --save` "
               "writes): nothing is looked for as missing from it, and it cannot close a "
               "month; import it with its manifest, fetch it, or state --pages-complete\n";
    out << "  provider " << s.value("providerKey", "") << ", paid " << s.value("from", "") << " to "
        << s.value("to", "") << " (UTC, both included), "
        << s.value("files", nlohmann::json::array()).size() << " file(s), " << count("objects")
        << " object(s)\n"
        << "  renewals in the statement: " << count("renewals") << "\n"
        << "    matched " << count("matched") << ", backfilled " << count("backfilled")
        << ", not applied (cases) " << count("unapplied") << ", differing " << count("differing")
        << "\n"
        << (s.value("unreadable", 0) > 0
                   ? "  objects that could not be read (a case each): " + count("unreadable") + "\n"
                   : std::string())
        << "  recorded here but not in the statement: "
        << (unproven ? std::string("not looked for (completeness not proven)")
                     : count("notInStatement"))
        << "\n"
        << "  totals, statement: " << totalsText(s.value("statementTotals", nlohmann::json()))
        << "\n"
        << "  totals, ledger:    " << totalsText(s.value("ledgerTotals", nlohmann::json())) << "\n";
    const auto &moneyBack = s.value("moneyBack", nlohmann::json());
    if (moneyBack.is_object()) {
        const auto mb = [&](const char *key) { return std::to_string(moneyBack.value(key, 0)); };
        const auto sums = [](const nlohmann::json &totals) {
            const std::string text = statementMoneyBackText(totals, "refunded", "disputed");
            return text.empty() ? std::string("none") : text;
        };
        out << "  money back in the statement: " << mb("lines")
            << " (refunds, disputes and their reversals)\n"
            << "    matched " << mb("matched") << ", backfilled " << mb("backfilled")
            << ", not applied (cases) " << mb("unapplied") << ", differing " << mb("differing")
            << "\n"
            << "  money back recorded here but not in the statement: "
            << (unproven ? std::string("not looked for (completeness not proven)")
                       : !moneyBack.value("listed", false)
                       ? std::string("not looked for (not every money back list is here)")
                       : mb("notInStatement"))
            << "\n"
            << "  money back, statement: "
            << sums(moneyBack.value("statementTotals", nlohmann::json())) << "\n"
            << "  money back, ledger:    "
            << sums(moneyBack.value("ledgerTotals", nlohmann::json())) << "\n";
    }
    const auto &closed = s.value("closedMonths", nlohmann::json());
    if (closed.is_array() && !closed.empty()) {
        for (const auto &m : closed)
            out << "  " << m.value("month", "") << " is closed for this provider (by "
                << m.value("closedBy", "") << " at " << m.value("closedAt", "")
                << "): its close report stays as it was\n";
        out << "  backfilled after close: " << s.value("backfilledAfterClose", 0)
            << " (marked \"after close\" in the Ledger, as any renewal recorded late)\n";
    }
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
