#include "domain/core/close_report.h"

#include "domain/core/csv.h"
#include "domain/core/currency.h"

#include <map>

namespace rd {
namespace {

using csv::Kind;

std::string textOf(const nlohmann::json &v)
{
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_null())
        return {};
    return v.dump();
}

std::string textAt(const nlohmann::json &obj, const char *key)
{
    const auto it = obj.find(key);
    return it == obj.end() ? std::string() : textOf(*it);
}

std::int64_t intAt(const nlohmann::json &obj, const char *key)
{
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_number())
        return 0;
    return it->is_number_float() ? static_cast<std::int64_t>(it->get<double>())
                                 : it->get<std::int64_t>();
}

std::string joined(const nlohmann::json &array)
{
    std::string out;
    if (!array.is_array())
        return out;
    for (const auto &v : array)
        out += (out.empty() ? "" : " ") + textOf(v);
    return out;
}

} // namespace

std::vector<CloseCurrencyTotals> closeCurrencyTotals(const nlohmann::json &report)
{
    std::map<std::string, CloseCurrencyTotals> byCode;
    const auto side = [&](const char *key, bool ledger) {
        const auto it = report.find(key);
        if (it == report.end() || !it->is_object())
            return;
        for (const auto &[code, t] : it->items()) {
            auto &row = byCode[code];
            row.currency = code;
            (ledger ? row.ledgerRenewals : row.statementRenewals) = intAt(t, "renewals");
            (ledger ? row.ledgerMinor : row.statementMinor) = intAt(t, "amountMinor");
        }
    };
    side("ledgerTotals", true);
    side("statementTotals", false);
    std::vector<CloseCurrencyTotals> out;
    for (auto &[code, row] : byCode)
        out.push_back(std::move(row));
    return out;
}

std::string closeStatementCompleteness(const nlohmann::json &report)
{
    std::string out;
    const auto runs = report.find("statementCompleteness");
    if (runs == report.end() || !runs->is_array())
        return out;
    for (const auto &r : *runs) {
        const std::string how = textAt(r, "completeness");
        out += (out.empty() ? "run " : "; run ") + textAt(r, "runId") + ": "
            + (how == "fetched"         ? "every page fetched from the provider's API"
                    : how == "manifest" ? "every page checked against the fetch's manifest"
                    : how == "stated"   ? "stated complete by the operator (--pages-complete)"
                    : how.empty()       ? "imported before completeness was recorded"
                                        : how);
    }
    return out;
}

std::string closeReportCsv(const nlohmann::json &report)
{
    std::string out = csv::line({"Field", "Value"});
    const auto field = [&](const char *name, const std::string &value, Kind kind = Kind::Text) {
        out += csv::line({name, value}, {Kind::Text, kind});
    };
    field("Provider", textAt(report, "providerKey"));
    field("Month", textAt(report, "month"));
    field("Closed by", textAt(report, "closedBy"));
    field("Closed at", textAt(report, "closedAt"));
    field("Statement runs", joined(report.value("statementRunIds", nlohmann::json())));
    field("Statement SHA-256", joined(report.value("statementSha256s", nlohmann::json())));
    field("Statement completeness", closeStatementCompleteness(report));
    for (const auto &[name, key] :
        {std::pair {"Matched", "matched"}, {"Backfilled", "backfilled"}, {"Unapplied", "unapplied"},
            {"Differing", "differing"}, {"Not in statement", "notInStatement"},
            {"Cases resolved", "casesResolved"}, {"Cases dismissed", "casesDismissed"}})
        field(name, std::to_string(intAt(report, key)), Kind::Number);
    field("Audit anchor digest", textAt(report, "auditAnchorDigest"));
    field("Audit anchor heads", std::to_string(intAt(report, "auditAnchorHeads")), Kind::Number);

    out += "\n";
    const std::vector<Kind> totalsKinds {
        Kind::Text, Kind::Number, Kind::Number, Kind::Number, Kind::Number, Kind::Number};
    out += csv::line({"Currency", "Ledger renewals", "Ledger amount", "Statement renewals",
        "Statement amount", "Difference"});
    for (const auto &t : closeCurrencyTotals(report))
        out += csv::line(
            {t.currency, std::to_string(t.ledgerRenewals),
                formatMinorUnits(t.ledgerMinor, t.currency), std::to_string(t.statementRenewals),
                formatMinorUnits(t.statementMinor, t.currency),
                formatMinorUnits(t.ledgerMinor - t.statementMinor, t.currency)},
            totalsKinds);

    out += "\n";
    out += csv::line({"Run", "Line", "Renewal key", "Subscription", "Finding", "Amount", "Currency",
        "Paid at", "Case", "Case status", "Case reason", "Resolution", "Resolved by", "Resolved at",
        "Note"});
    const std::vector<Kind> findingKinds {Kind::Number, Kind::Number, Kind::Text, Kind::Text,
        Kind::Text, Kind::Number, Kind::Text, Kind::Text, Kind::Number};
    if (const auto f = report.find("findings"); f != report.end() && f->is_array()) {
        for (const auto &l : *f) {
            const std::string currency = textAt(l, "currency");
            out += csv::line(
                {textAt(l, "runId"), textAt(l, "line"), textAt(l, "renewalKey"),
                    textAt(l, "subscription"), textAt(l, "finding"),
                    // An unreadable object's line says no amount: blank, not 0.
                    l.value("amountMinor", nlohmann::json()).is_number()
                        ? formatMinorUnits(intAt(l, "amountMinor"), currency)
                        : std::string(),
                    currency, textAt(l, "paidAt"), textAt(l, "caseId"), textAt(l, "caseStatus"),
                    textAt(l, "caseReason"), textAt(l, "resolution"), textAt(l, "resolvedBy"),
                    textAt(l, "resolvedAt"), textAt(l, "note")},
                findingKinds);
        }
    }
    return out;
}

} // namespace rd
