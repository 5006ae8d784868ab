#include "app/renewalctl/command_context.h"
#include "app/renewalctl/utc_day.h"
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
        ctx.out << describeStatementImport(result);
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
    std::vector<StatementFile> files;
    try {
        files = fetchStatementPages(request, options);
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
