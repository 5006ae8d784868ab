#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "app/renewalctl/utc_day.h"
#include "domain/core/json_input.h"
#include "domain/store/database_answer.h"
#include "domain/store/ledger_export.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace rd::cli {
namespace {

namespace chrono = std::chrono;

/// Writes the export to `path` whole or not at all: a temporary file beside it, renamed over
/// it once complete (as the desk's QSaveFile does).
class OutputFile
{
public:
    explicit OutputFile(const std::string &path) : m_path(path), m_temp(path + ".XXXXXX")
    {
        const int fd = ::mkstemp(m_temp.data());
        if (fd < 0)
            throw InputFileError("cannot write '" + path + "': " + std::strerror(errno));
        ::close(fd);
        m_out.open(m_temp, std::ios::binary | std::ios::trunc);
        if (!m_out) {
            ::unlink(m_temp.c_str());
            throw InputFileError("cannot write '" + path + "'");
        }
    }
    ~OutputFile()
    {
        if (!m_committed)
            ::unlink(m_temp.c_str());
    }
    OutputFile(const OutputFile &) = delete;
    OutputFile &operator=(const OutputFile &) = delete;
    std::ostream &stream() { return m_out; }
    void commit()
    {
        m_out.close();
        if (!m_out || std::rename(m_temp.c_str(), m_path.c_str()) != 0)
            throw InputFileError("cannot write '" + m_path + "': " + std::strerror(errno));
        m_committed = true;
    }

private:
    std::string m_path;
    std::string m_temp;
    std::ofstream m_out;
    bool m_committed = false;
};

struct LedgerOptions
{
    std::optional<std::string> from; // UTC days, checked as they were parsed
    std::optional<std::string> to;
    bool totals = false;
    std::optional<std::string> out;
};

int runLedger(const CommandContext &ctx, const LedgerOptions &o)
{
    // Default: the current UTC month; each end defaults on its own.
    const chrono::year_month_day today {chrono::floor<chrono::days>(chrono::system_clock::now())};
    const chrono::year_month_day monthStart {today.year(), today.month(), chrono::day {1}};
    const chrono::year_month_day monthEnd {today.year() / today.month() / chrono::last};
    const auto from = o.from ? parseDay("from", *o.from) : monthStart;
    const auto to = o.to ? parseDay("to", *o.to) : monthEnd;
    if (chrono::sys_days(from) > chrono::sys_days(to))
        throw UsageError(
            "--from " + dayText(from) + " is after --to " + dayText(to) + " (both are included)");
    const bool totals = o.totals;

    auto conn = ctx.connect();
    const auto &outPath = o.out;
    std::unique_ptr<OutputFile> file;
    if (outPath && *outPath != "-")
        file = std::make_unique<OutputFile>(*outPath);
    std::ostream &out = file ? file->stream() : ctx.out;
    const long long lines = totals ? exportLedgerTotals(*conn, dayText(from), dayText(to), out)
                                   : exportLedgerRows(*conn, dayText(from), dayText(to), out);
    if (file)
        file->commit();
    // On stderr: stdout may be the file.
    ctx.err << "renewalctl: " << lines
            << (totals ? " total line(s) paid " : " row(s), renewals and money back, dated ")
            << dayText(from) << " to " << dayText(to) << " (UTC, both included)"
            << (file ? " written to " + *outPath : std::string()) << "\n";
    return ExitOk;
}

struct TotalsOptions
{
    std::optional<std::string> from;
    std::optional<std::string> to;
};

// A sum of minor units as its major-unit decimal; the database's numeric text, never parsed
// into 64 bits.
std::string major(const std::string &minor, const std::string &currency)
{
    return majorUnitsAnswer(minor, currency, "the ledger's totals");
}

int runTotals(const CommandContext &ctx, const TotalsOptions &o)
{
    const chrono::year_month_day today {chrono::floor<chrono::days>(chrono::system_clock::now())};
    const auto from = o.from
        ? parseDay("from", *o.from)
        : chrono::year_month_day {today.year(), today.month(), chrono::day {1}};
    const auto to = o.to ? parseDay("to", *o.to)
                         : chrono::year_month_day {today.year() / today.month() / chrono::last};
    if (chrono::sys_days(from) > chrono::sys_days(to))
        throw UsageError(
            "--from " + dayText(from) + " is after --to " + dayText(to) + " (both are included)");
    auto conn = ctx.connect();
    const auto lines = ledgerNetTotals(*conn, dayText(from), dayText(to));
    if (ctx.json()) {
        nlohmann::json out {{"from", dayText(from)}, {"to", dayText(to)},
            {"byMonth", nlohmann::json::array()}, {"byProvider", nlohmann::json::array()}};
        for (const auto &l : lines) {
            const bool month = l.group == "month";
            nlohmann::json j;
            if (month)
                j["month"] = l.month;
            else
                j["providerKey"] = l.providerKey;
            j["currency"] = l.currency;
            j["renewals"] = l.renewals;
            j["gross"] = major(l.grossMinor, l.currency);
            j["refunded"] = major(l.refundedMinor, l.currency);
            j["disputed"] = major(l.disputedMinor, l.currency);
            j["net"] = major(l.netMinor, l.currency);
            out[month ? "byMonth" : "byProvider"].push_back(std::move(j));
        }
        ctx.out << out.dump() << "\n";
        return ExitOk;
    }
    ctx.out << "gross, refunded, disputed and net, " << dayText(from) << " to " << dayText(to)
            << " (UTC, both included; money back by its own day):\n";
    for (const auto &l : lines)
        ctx.out << "  " << (l.group == "month" ? l.month : l.providerKey) << " " << l.currency
                << ": " << l.renewals << " renewal(s), gross " << major(l.grossMinor, l.currency)
                << ", refunded " << major(l.refundedMinor, l.currency) << ", disputed "
                << major(l.disputedMinor, l.currency) << ", net " << major(l.netMinor, l.currency)
                << "\n";
    if (lines.empty())
        ctx.out << "  nothing paid or paid back\n";
    return ExitOk;
}

} // namespace

void registerLedgerCommands(CommandTree &tree, CLI::App &root)
{
    auto t = std::make_shared<TotalsOptions>();
    auto o = std::make_shared<LedgerOptions>();
    auto *group = tree.commandGroup(root, "ledger",
        "export|totals: the renewals ledger as CSV, as the desk's Ledger page exports it; gross, "
        "refunded, disputed and net",
        commandGroups::kRenewals);
    auto *app = tree.command(*group, "export",
        "the renewals paid in a range of UTC days, and the money back of those days (signed, by "
        "the day it happened, kind and movement key last), as CSV (the desk's Ledger export: "
        "ISO 8601 UTC instants, amounts in major units); a text field that starts like a "
        "spreadsheet "
        "formula is written with a leading apostrophe",
        [o](const CommandContext &ctx) { return runLedger(ctx, *o); });
    option(app, "from", o->from, "DAY",
        "the first UTC day, YYYY-MM-DD (default: the current month's first)")
        ->check(utcDay("from"));
    option(
        app, "to", o->to, "DAY", "the last UTC day, included (default: the current month's last)")
        ->check(utcDay("to"));
    flag(app, "totals", o->totals,
        "write the totals per month and currency, then per provider and currency, instead of "
        "the rows");
    option(app, "out", o->out, "FILE",
        "write to FILE (whole or not at all) instead of standard output");
    db(app);

    auto *totals = tree.command(*group, "totals",
        "gross, refunded, disputed and net per month and currency, then per provider and "
        "currency: renewals by the day they were paid, money back by its own day",
        [t](const CommandContext &ctx) { return runTotals(ctx, *t); });
    option(totals, "from", t->from, "DAY",
        "the first UTC day, YYYY-MM-DD (default: the current month's first)")
        ->check(utcDay("from"));
    option(totals, "to", t->to, "DAY",
        "the last UTC day, included (default: the current month's last)")
        ->check(utcDay("to"));
    json(totals);
    db(totals);
}

} // namespace rd::cli
