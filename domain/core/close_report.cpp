#include "domain/core/close_report.h"

#include "domain/core/csv.h"
#include "domain/core/currency.h"
#include "domain/core/sha256.h"
#include "domain/core/timestamp.h"

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

/// An instant as every cell of the report writes it: UTC to the second ("...T10:15:03Z").
/// The database writes its own clock with microseconds and a statement's times as the provider
/// sent them; one column in two forms reads like two kinds of value. Text that is not an
/// instant is left as it is.
std::string instantAt(const nlohmann::json &obj, const char *key)
{
    const std::string text = textAt(obj, key);
    const auto t = parseRfc3339(text);
    if (!t)
        return text;
    std::int64_t seconds = t->micros / 1000000;
    if (t->micros % 1000000 < 0)
        --seconds; // floor before 1970 too
    return formatRfc3339(Timestamp::fromSeconds(seconds));
}

} // namespace

std::string closeStatementRuns(const nlohmann::json &report)
{
    std::string out;
    const auto ids = report.find("statementRunIds");
    if (ids == report.end() || !ids->is_array())
        return out;
    for (const auto &id : *ids)
        out += (out.empty() ? "#" : ", #") + textOf(id);
    return out.empty() ? out : (ids->size() == 1 ? "run " : "runs ") + out;
}

std::string closeReportDigestLine(std::string_view above)
{
    return csv::line({"SHA-256 of every byte above this line", sha256Hex(above)});
}

std::vector<CloseCurrencyTotals> closeCurrencyTotals(const nlohmann::json &report)
{
    std::map<std::string, CloseCurrencyTotals> byCode;
    // Each currency of the report's object `key`, read into its row by `read`.
    const auto eachCurrency = [&](const char *key, const auto &read) {
        const auto it = report.find(key);
        if (it == report.end() || !it->is_object())
            return;
        for (const auto &[code, t] : it->items()) {
            auto &row = byCode[code];
            row.currency = code;
            read(row, t);
        }
    };
    eachCurrency("ledgerTotals", [](CloseCurrencyTotals &row, const nlohmann::json &t) {
        row.ledgerRenewals = intAt(t, "renewals");
        row.ledgerMinor = intAt(t, "amountMinor");
    });
    eachCurrency("statementTotals", [](CloseCurrencyTotals &row, const nlohmann::json &t) {
        row.statementRenewals = intAt(t, "renewals");
        row.statementMinor = intAt(t, "amountMinor");
    });
    eachCurrency("moneyBackTotals", [](CloseCurrencyTotals &row, const nlohmann::json &t) {
        row.refundedMinor = intAt(t, "refundedMinor");
        row.disputedMinor = intAt(t, "disputedMinor");
    });
    eachCurrency("afterCloseTotals", [](CloseCurrencyTotals &row, const nlohmann::json &t) {
        row.afterCloseRefundedMinor = intAt(t, "refundedMinor");
        row.afterCloseDisputedMinor = intAt(t, "disputedMinor");
    });
    const bool counted = closeCountedMoneyBack(report);
    std::vector<CloseCurrencyTotals> out;
    for (auto &[code, row] : byCode) {
        row.moneyBackCounted = counted;
        out.push_back(std::move(row));
    }
    return out;
}

bool closeCountedMoneyBack(const nlohmann::json &report)
{
    const auto it = report.find("moneyBackTotals");
    return it != report.end() && it->is_object();
}

std::string closeStatementCompleteness(const nlohmann::json &report)
{
    std::string out;
    const auto runs = report.find("statementCompleteness");
    if (runs == report.end() || !runs->is_array())
        return out;
    for (const auto &r : *runs) {
        const std::string how = textAt(r, "completeness");
        out += (out.empty() ? "run #" : "; run #") + textAt(r, "runId") + ": "
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
    field("Closed at", instantAt(report, "closedAt"));
    // "run #2": a run's id, which a bare "2" beside "Statement runs" read as a count.
    field("Statement", closeStatementRuns(report));
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
    std::vector<Kind> totalsKinds(11, Kind::Number);
    totalsKinds.front() = Kind::Text;
    out += csv::line({"Currency", "Ledger renewals", "Ledger amount", "Statement renewals",
        "Statement amount", "Difference", "Refunded", "Disputed", "Net", "After close refunded",
        "After close disputed"});
    for (const auto &t : closeCurrencyTotals(report)) {
        const auto money = [&](std::int64_t minor) {
            return t.moneyBackCounted ? formatMinorUnits(minor, t.currency) : std::string();
        };
        out += csv::line(
            {t.currency, std::to_string(t.ledgerRenewals),
                formatMinorUnits(t.ledgerMinor, t.currency), std::to_string(t.statementRenewals),
                formatMinorUnits(t.statementMinor, t.currency),
                formatMinorUnits(t.ledgerMinor - t.statementMinor, t.currency),
                money(t.refundedMinor), money(t.disputedMinor), money(t.netMinor()),
                money(t.afterCloseRefundedMinor), money(t.afterCloseDisputedMinor)},
            totalsKinds);
    }

    out += "\n";
    out += csv::line({"Run", "Line", "Renewal key", "Subscription", "Finding", "Amount", "Currency",
        "Paid at", "Case", "Case status", "Case reason", "Resolution", "Resolved by", "Resolved at",
        "Note", "Money back"});
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
                    currency, instantAt(l, "paidAt"), textAt(l, "caseId"), textAt(l, "caseStatus"),
                    textAt(l, "caseReason"), textAt(l, "resolution"), textAt(l, "resolvedBy"),
                    // A money back finding (#40): its movement's kind; the key, amount and date
                    // before are the movement's.
                    instantAt(l, "resolvedAt"), textAt(l, "note"), textAt(l, "moneyBack")},
                findingKinds);
        }
    }

    if (const auto a = report.find("afterClose"); a != report.end() && a->is_array()) {
        out += "\n";
        out += csv::line({"After close: movement", "Kind", "Amount", "Currency", "Occurred at",
            "Recorded at", "Renewal key", "Subscription"});
        const std::vector<Kind> afterKinds {Kind::Text, Kind::Text, Kind::Number};
        for (const auto &m : *a) {
            const std::string currency = textAt(m, "currency");
            out += csv::line({textAt(m, "movementKey"), textAt(m, "kind"),
                                 formatMinorUnits(intAt(m, "amountMinor"), currency), currency,
                                 instantAt(m, "occurredAt"), instantAt(m, "recordedAt"),
                                 textAt(m, "renewalKey"), textAt(m, "subscription")},
                afterKinds);
        }
    }
    // The sign-off an auditor fills in on paper is in the PDF; here, the file's own digest,
    // last, so that a changed cell anywhere above shows.
    out += "\n";
    out += closeReportDigestLine(out);
    return out;
}

} // namespace rd
