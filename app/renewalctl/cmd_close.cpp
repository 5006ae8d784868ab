#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/close_report.h"
#include "domain/core/currency.h"
#include "domain/store/month_close.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <ostream>

namespace rd::cli {
namespace {

struct CloseOptions
{
    std::string provider;
    std::string month; // YYYY-MM
    std::optional<std::string> csv;
};

void writeCsv(const std::string &path, const std::string &csv)
{
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (file)
        file << csv;
    file.close();
    if (!file)
        throw InputFileError("cannot write '" + path + "': " + std::strerror(errno));
}

int runClose(const CommandContext &ctx, const CloseOptions &o)
{
    const std::string &provider = o.provider;
    const std::string month = o.month + "-01"; // the first day, as close_month takes it
    auto conn = ctx.connect();
    nlohmann::json closed;
    try {
        closed = closeMonth(*conn, provider, month);
    } catch (const ActionRefused &e) {
        return reportRefusal(ctx, e.code(), e.what());
    }
    // The close is said first: it is done, whatever becomes of the file.
    const auto &csvPath = o.csv;
    const auto writeReport = [&] {
        if (csvPath)
            writeCsv(*csvPath, closeReportCsv(monthCloseReport(*conn, provider, month)));
    };
    if (ctx.json()) {
        ctx.out << closed.dump() << "\n";
        writeReport();
        return ExitOk;
    }
    ctx.out << provider << " " << closed.value("month", "") << ": closed by "
            << closed.value("closedBy", "") << " at " << closed.value("closedAt", "") << "\n"
            << "  statement: " << closeStatementRuns(closed) << "\n";
    for (const auto &t : closeCurrencyTotals(closed)) {
        ctx.out << "  " << t.currency << ": ledger " << t.ledgerRenewals << " renewal(s) "
                << formatMinorUnits(t.ledgerMinor, t.currency) << ", statement "
                << t.statementRenewals << " renewal(s) "
                << formatMinorUnits(t.statementMinor, t.currency);
        if (t.moneyBackCounted)
            ctx.out << "; refunded " << formatMinorUnits(t.refundedMinor, t.currency)
                    << ", disputed " << formatMinorUnits(t.disputedMinor, t.currency) << ", net "
                    << formatMinorUnits(t.netMinor(), t.currency);
        if (t.afterCloseRefundedMinor != 0 || t.afterCloseDisputedMinor != 0)
            ctx.out << "; after close of earlier months: refunded "
                    << formatMinorUnits(t.afterCloseRefundedMinor, t.currency) << ", disputed "
                    << formatMinorUnits(t.afterCloseDisputedMinor, t.currency);
        ctx.out << "\n";
    }
    ctx.out << "  findings: " << closed.value("matched", 0) << " matched, "
            << closed.value("backfilled", 0) << " backfilled, " << closed.value("unapplied", 0)
            << " unapplied, " << closed.value("differing", 0) << " differing, "
            << closed.value("notInStatement", 0) << " not in the statement; cases "
            << closed.value("casesResolved", 0) << " resolved, "
            << closed.value("casesDismissed", 0) << " dismissed\n"
            << "  statement completeness: " << closeStatementCompleteness(closed) << "\n"
            << "  audit anchor digest: " << closed.value("auditAnchorDigest", "") << "\n";
    writeReport();
    if (csvPath)
        ctx.out << "  report: " << *csvPath << "\n";
    return ExitOk;
}

} // namespace

void registerCloseCommand(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<CloseOptions>();
    auto *app = tree.command(
        root, "close",
        "close a provider's month: its renewals agree with an imported statement covering "
        "it (refused, exit 4, saying why: no such statement run, open statement cases, "
        "closed already, not ended)",
        [o](const CommandContext &ctx) { return runClose(ctx, *o); },
        commandGroups::kReconciliation);
    option(app, "provider-key", o->provider, "KEY", "the provider; required")
        ->required()
        ->check(notEmpty("--provider-key"));
    option(app, "month", o->month, "YYYY-MM", "the month (UTC); required")
        ->required()
        ->check(yearMonth("--month"));
    option(app, "csv", o->csv, "FILE", "also write the close report (totals, findings) as CSV");
    db(app);
    json(app);
}

} // namespace rd::cli
