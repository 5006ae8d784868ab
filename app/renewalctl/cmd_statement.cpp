#include "app/renewalctl/command_context.h"
#include "app/renewalctl/utc_day.h"
#include "domain/core/currency.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/receiver_secrets.h"
#include "domain/core/statement.h"
#include "domain/fetch/statement_fetch.h"
#include "domain/store/action_refused.h"
#include "domain/store/provider_registry.h"
#include "domain/store/statement_import.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <ostream>

namespace rd::cli {
namespace {

std::vector<StatementFile> readFiles(const CommandContext &ctx)
{
    const auto &words = ctx.args.positionals();
    std::vector<StatementFile> files;
    for (std::size_t i = 2; i < words.size(); ++i) {
        InputFile input(words[i], ctx.in);
        files.push_back({words[i],
            std::string(
                std::istreambuf_iterator<char>(input.stream()), std::istreambuf_iterator<char>())});
    }
    if (files.empty())
        throw UsageError("usage: renewalctl statement import --provider-key KEY FILE...");
    return files;
}

/// --from/--to as the store takes them: checked UTC days, or nothing.
std::optional<std::string> dayOption(const CommandContext &ctx, const std::string &name)
{
    const auto value = ctx.args.value(name);
    return value ? std::optional(dayText(parseDay(name, *value))) : std::nullopt;
}

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

void printReport(std::ostream &out, const StatementImportResult &r)
{
    const auto &s = r.summary;
    const auto count = [&](const char *key) { return std::to_string(s.value(key, 0)); };
    if (r.alreadyImported) {
        out << "This statement was imported already, as run " << r.runId() << " by "
            << s.value("importedBy", "") << " at " << s.value("finishedAt", "")
            << ": nothing changed.\n";
    } else {
        out << (r.dryRun ? "Dry run (rolled back): statement run " : "Statement run ") << r.runId()
            << "\n";
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
        return;
    }
    out << "  open cases: " << r.openFindings.size() << "\n";
    for (const auto &f : r.openFindings)
        out << "    case " << f.value("caseId", 0) << "  " << f.value("finding", "") << "  "
            << f.value("providerRenewalKey", "") << "  (subscription "
            << f.value("providerSubscriptionId", "") << "): " << f.value("errorCode", "") << "\n";
}

/// Imports `files` (read or fetched) and reports: the one path of both commands.
int importAndReport(const CommandContext &ctx, pqxx::connection &conn,
    const std::string &providerKey, const std::vector<StatementFile> &files)
{
    StatementImportResult result;
    try {
        result = importStatementFiles(conn, providerKey, files, dayOption(ctx, "from"),
            dayOption(ctx, "to"), ctx.args.flag("dry-run"));
    } catch (const ActionRefused &e) {
        return reportRefusal(ctx, e.code(), e.what());
    }
    if (ctx.json()) {
        nlohmann::json j = result.summary;
        j["dryRun"] = result.dryRun;
        j["alreadyImported"] = result.alreadyImported;
        j["openFindings"] = result.openFindings;
        ctx.out << j.dump() << "\n";
    } else {
        printReport(ctx.out, result);
    }
    return result.openFindings.empty() ? ExitOk : ExitRejected;
}

int runImport(const CommandContext &ctx)
{
    const std::string providerKey = ctx.args.requireValue("provider-key");
    const auto files = readFiles(ctx);
    auto conn = ctx.connect();
    return importAndReport(ctx, *conn, providerKey, files);
}

Timestamp midnightOf(const std::chrono::year_month_day &day)
{
    const auto sinceEpoch = std::chrono::sys_days(day).time_since_epoch();
    return Timestamp {std::chrono::duration_cast<std::chrono::microseconds>(sinceEpoch).count()};
}

int runFetch(const CommandContext &ctx)
{
    const std::string providerKey = ctx.args.requireValue("provider-key");
    const auto from = parseDay("from", ctx.args.requireValue("from"));
    const auto to = parseDay("to", ctx.args.requireValue("to"));
    if (std::chrono::sys_days(from) > std::chrono::sys_days(to))
        throw UsageError(
            "--from " + dayText(from) + " is after --to " + dayText(to) + " (both are included)");
    const std::string secretsPath = ctx.args.requireValue("secrets");
    const ReceiverSecrets secrets = loadReceiverSecrets(secretsPath);
    auto conn = ctx.connect();
    const auto kind = providerKindOf(*conn, providerKey);
    if (!kind)
        return reportRefusal(ctx, "provider_not_registered",
            "provider " + providerKey + " is not registered (see renewalctl providers list)");

    FetchRequest request;
    request.kind = *kind;
    request.apiBase = ctx.args.value("api-base").value_or("");
    request.apiKey = apiKeyFor(secrets, providerKey, secretsPath);
    request.from = midnightOf(from);
    request.to = midnightOf(to);
    FetchOptions options;
    // Progress on stderr (stdout is the report); the fetcher never logs the key.
    options.log = [&ctx](const std::string &line) { ctx.err << "renewalctl: " << line << "\n"; };
    std::vector<FetchedPage> pages;
    try {
        pages = fetchStatementPages(request, options);
    } catch (const FetchError &e) {
        // Fixed text for the code; the details (URL without the key, status) on stderr too,
        // which is this command's log.
        ctx.err << "renewalctl: fetch failed (" << e.code() << "): " << e.what() << "\n"
                << "renewalctl: " << e.details() << "\n";
        if (ctx.json())
            ctx.out << nlohmann::json {{"result", "fetch_failed"}, {"error", e.code()},
                {"message", e.what()}}
                           .dump()
                    << "\n";
        if (e.code() == "bad_request")
            return ExitUsage;
        return e.code() == "http_401" || e.code() == "http_403" ? ExitConfig : ExitUnavailable;
    }
    std::vector<StatementFile> files;
    for (auto &page : pages)
        files.push_back({page.name, std::move(page.bytes)});
    if (const auto dir = ctx.args.value("save")) {
        std::filesystem::create_directories(*dir);
        for (const auto &f : files) {
            const std::string path = *dir + "/" + f.name;
            std::ofstream out(path, std::ios::binary | std::ios::trunc);
            out << f.bytes;
            if (!out.flush())
                throw InputFileError("cannot write '" + path + "'");
        }
    }
    ctx.err << "renewalctl: fetched " << files.size() << " page(s) from " << toString(*kind)
            << "\n";
    return importAndReport(ctx, *conn, providerKey, files);
}

} // namespace

int runStatement(const CommandContext &ctx)
{
    const std::string &what = ctx.args.positionals().at(1);
    if (what == "import")
        return runImport(ctx);
    if (what == "fetch")
        return runFetch(ctx);
    throw UsageError("usage: renewalctl statement import|fetch ...");
}

} // namespace rd::cli
