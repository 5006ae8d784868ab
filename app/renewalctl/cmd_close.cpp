#include "app/renewalctl/command_context.h"
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

/// "2026-02" -> "2026-02-01", the first day close_month takes.
std::string monthFirstDay(const std::string &yearMonth)
{
    const auto digits = [&](std::size_t from, std::size_t n) {
        for (std::size_t i = from; i < from + n; ++i)
            if (yearMonth[i] < '0' || yearMonth[i] > '9')
                return false;
        return true;
    };
    const bool shaped
        = yearMonth.size() == 7 && yearMonth[4] == '-' && digits(0, 4) && digits(5, 2);
    const int month = shaped ? std::stoi(yearMonth.substr(5, 2)) : 0;
    if (!shaped || month < 1 || month > 12 || yearMonth < "1970")
        throw UsageError("--month: expected a month as YYYY-MM (2026-02), not '"
            + yearMonth.substr(0, 32) + "'");
    return yearMonth + "-01";
}

void writeCsv(const std::string &path, const std::string &csv)
{
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (file)
        file << csv;
    file.close();
    if (!file)
        throw InputFileError("cannot write '" + path + "': " + std::strerror(errno));
}

} // namespace

int runClose(const CommandContext &ctx)
{
    const std::string provider = ctx.args.requireValue("provider-key");
    const std::string month = monthFirstDay(ctx.args.requireValue("month"));
    auto conn = ctx.connect();
    nlohmann::json closed;
    try {
        closed = closeMonth(*conn, provider, month);
    } catch (const ActionRefused &e) {
        return reportRefusal(ctx, e.code(), e.what());
    }
    // The close is said first: it is done, whatever becomes of the file.
    const auto csvPath = ctx.args.value("csv");
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
            << closed.value("closedBy", "") << " at " << closed.value("closedAt", "") << "\n";
    for (const auto &t : closeCurrencyTotals(closed))
        ctx.out << "  " << t.currency << ": ledger " << t.ledgerRenewals << " renewal(s) "
                << formatMinorUnits(t.ledgerMinor, t.currency) << ", statement "
                << t.statementRenewals << " renewal(s) "
                << formatMinorUnits(t.statementMinor, t.currency) << "\n";
    ctx.out << "  findings: " << closed.value("matched", 0) << " matched, "
            << closed.value("backfilled", 0) << " backfilled, " << closed.value("unapplied", 0)
            << " unapplied, " << closed.value("differing", 0) << " differing, "
            << closed.value("notInStatement", 0) << " not in the statement; cases "
            << closed.value("casesResolved", 0) << " resolved, "
            << closed.value("casesDismissed", 0) << " dismissed\n"
            << "  audit anchor digest: " << closed.value("auditAnchorDigest", "") << "\n";
    writeReport();
    if (csvPath)
        ctx.out << "  report: " << *csvPath << "\n";
    return ExitOk;
}

} // namespace rd::cli
