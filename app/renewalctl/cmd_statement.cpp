#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "app/renewalctl/utc_day.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/receiver_secrets.h"
#include "domain/core/statement.h"
#include "domain/core/statement_pages.h"
#include "domain/fetch/statement_fetch.h"
#include "domain/store/action_refused.h"
#include "domain/store/private_files.h"
#include "domain/store/provider_registry.h"
#include "domain/store/statement_import.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <ostream>

namespace rd::cli {
namespace {

/// What statement import and fetch were told (each declares the options it takes).
struct StatementOptions
{
    std::string providerKey;
    std::optional<std::string> from; // UTC days, checked as they were parsed
    std::optional<std::string> to;
    bool dryRun = false;
    std::vector<std::string> files;
    std::string secrets;
    std::optional<std::string> apiBase;
    std::optional<std::string> save;
    bool pagesComplete = false;
    // statement fetch's bounds (FetchOptions): all pages are held until they are imported.
    long long maxBytes = 256LL * 1024 * 1024;
    long long maxPages = 10000;
    double deadlineSeconds = 15 * 60;
};

StatementFile readFile(const CommandContext &ctx, const std::string &path)
{
    InputFile input(path, ctx.in);
    return {path,
        std::string(
            std::istreambuf_iterator<char>(input.stream()), std::istreambuf_iterator<char>())};
}

/// A directory as `statement fetch --save` wrote it: its manifest and the pages it lists that
/// are there (one missing is named by the manifest's check).
void readSavedDirectory(
    const CommandContext &ctx, const std::string &dir, std::vector<StatementFile> &files)
{
    const std::string path = dir + "/" + std::string(kPagesManifestName);
    if (!std::filesystem::is_regular_file(path))
        throw InputFileError("cannot open '" + path
            + "': a directory is read as `statement "
              "fetch --save` wrote it, with its manifest");
    files.push_back(readFile(ctx, path));
    const auto manifest = readPagesManifest(files.back());
    if (!manifest)
        throw InputError(path, "is not a manifest of statement pages");
    for (const auto &page : manifest->pages) {
        // A name, never a path: the manifest names files beside it.
        if (page.file.empty() || page.file.find('/') != std::string::npos || page.file == ".."
            || page.file == ".")
            throw InputError(path, "lists \"" + page.file + "\", which is not a file name");
        if (std::filesystem::is_regular_file(dir + "/" + page.file))
            files.push_back(readFile(ctx, dir + "/" + page.file));
    }
}

std::vector<StatementFile> readFiles(const CommandContext &ctx, const StatementOptions &o)
{
    std::vector<StatementFile> files;
    for (const auto &path : o.files) {
        if (path != "-" && std::filesystem::is_directory(path))
            readSavedDirectory(ctx, path, files);
        else
            files.push_back(readFile(ctx, path));
    }
    return files;
}

/// --from/--to as the store takes them: the days written canonically, or nothing.
std::optional<std::string> dayOption(const std::optional<std::string> &value, const char *name)
{
    return value ? std::optional(dayText(parseDay(name, *value))) : std::nullopt;
}

/// --from after --to: a usage error of either command, before anything is read or fetched.
void checkDayRange(const StatementOptions &o)
{
    if (!o.from || !o.to)
        return;
    const auto from = parseDay("from", *o.from);
    const auto to = parseDay("to", *o.to);
    if (std::chrono::sys_days(from) > std::chrono::sys_days(to))
        throw UsageError(
            "--from " + dayText(from) + " is after --to " + dayText(to) + " (both are included)");
}

/// Imports `files` (read or fetched) and reports: the one path of both commands.
int importAndReport(const CommandContext &ctx, const StatementOptions &o, DbRef conn,
    const std::vector<StatementFile> &files, PagesProof proof)
{
    StatementImportResult result;
    try {
        result = importStatementFiles(conn, o.providerKey, files, dayOption(o.from, "from"),
            dayOption(o.to, "to"), o.dryRun, proof);
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

int runImport(const CommandContext &ctx, const StatementOptions &o)
{
    checkDayRange(o);
    const auto files = readFiles(ctx, o);
    auto conn = ctx.connect();
    return importAndReport(
        ctx, o, *conn, files, o.pagesComplete ? PagesProof::Stated : PagesProof::Unproven);
}

/// How a FetchError ends the command: sysexits as docs/operations.md lists them, and the
/// option whose bound was passed, if one was.
struct FetchFailure
{
    int exitCode;
    const char *bound = nullptr;
};

FetchFailure fetchFailure(const std::string &code)
{
    if (code == "bad_request")
        return {ExitUsage};
    if (code == "http_401" || code == "http_403")
        return {ExitConfig};
    if (code == "too_many_bytes")
        return {ExitTempFail, "--max-bytes"};
    if (code == "too_many_pages")
        return {ExitTempFail, "--max-pages"};
    if (code == "deadline")
        return {ExitTempFail, "--deadline"};
    // What may answer otherwise later: the provider busy or down, the network, a page over the
    // fetcher's own bound.
    if (code == "http_5xx" || code == "rate_limited" || code == "unreachable"
        || code == "tls_failed" || code == "too_large" || code == "http_408")
        return {ExitTempFail};
    // The provider's answer cannot be taken: a page not its list, a next link that loops or
    // points elsewhere, a 404 or another refusal of the request.
    return {ExitDataError};
}

Timestamp midnightOf(const std::chrono::year_month_day &day)
{
    const auto sinceEpoch = std::chrono::sys_days(day).time_since_epoch();
    return Timestamp {std::chrono::duration_cast<std::chrono::microseconds>(sinceEpoch).count()};
}

int runFetch(const CommandContext &ctx, const StatementOptions &o)
{
    const std::string &providerKey = o.providerKey;
    checkDayRange(o);
    const auto from = parseDay("from", o.from.value_or(""));
    const auto to = parseDay("to", o.to.value_or(""));
    if (const auto &dir = o.save) {
        // Before any request: pages are customer data, and a folder others may read is refused
        // rather than found out after the fetch.
        try {
            requirePrivateDirectory(*dir);
        } catch (const UnsafeDirectory &e) {
            ctx.err << "renewalctl: --save refused: " << e.what() << "\n";
            return ExitConfig;
        }
    }
    const std::string &secretsPath = o.secrets;
    const ReceiverSecrets secrets = loadReceiverSecrets(secretsPath);
    auto conn = ctx.connect();
    const auto kind = providerKindOf(*conn, providerKey);
    if (!kind)
        return reportRefusal(ctx, "provider_not_registered",
            "provider " + providerKey + " is not registered (see renewalctl providers list)");

    FetchRequest request;
    request.kind = *kind;
    request.apiBase = o.apiBase.value_or("");
    request.apiKey = apiKeyFor(secrets, providerKey, secretsPath);
    request.from = midnightOf(from);
    request.to = midnightOf(to);
    FetchOptions options;
    // Progress on stderr (stdout is the report); the fetcher never logs the key.
    options.log = [&ctx](const std::string &line) { ctx.err << "renewalctl: " << line << "\n"; };
    options.maxTotalBytes = static_cast<std::size_t>(o.maxBytes);
    options.maxPages = static_cast<std::size_t>(o.maxPages);
    options.deadline = std::chrono::milliseconds(std::llround(o.deadlineSeconds * 1000));
    std::vector<StatementFile> files;
    try {
        files = fetchStatementPages(request, options);
    } catch (const FetchError &e) {
        // The reason on the first line, fixed text (the bound passed, if one was); the details
        // (URL without the key, status) after it, on stderr too, which is this command's log.
        const FetchFailure failure = fetchFailure(e.code());
        if (failure.bound)
            ctx.err << "renewalctl: fetch stopped at " << failure.bound << ": " << e.what() << "\n";
        else
            ctx.err << "renewalctl: fetch failed: " << e.what() << "\n";
        ctx.err << "renewalctl: (" << e.code() << ") " << e.details() << "\n";
        if (ctx.json())
            ctx.out << nlohmann::json {{"result", "fetch_failed"}, {"error", e.code()},
                {"message", e.what()}}
                           .dump()
                    << "\n";
        return failure.exitCode;
    }
    if (const auto &dir = o.save) {
        for (const auto &f : files)
            writePrivateFile(std::filesystem::path(*dir) / f.name, f.bytes);
        writePrivateFile(std::filesystem::path(*dir) / std::string(kPagesManifestName),
            pagesManifestJson(*kind, providerKey, dayText(from), dayText(to), files));
    }
    ctx.err << "renewalctl: fetched " << files.size() << " page(s) from " << toString(*kind)
            << "\n";
    // Every page of this run, each followed to the last: complete by construction.
    return importAndReport(ctx, o, *conn, files, PagesProof::Fetched);
}

} // namespace

void registerStatementCommands(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<StatementOptions>();
    const auto providerKey = [&o](CLI::App *app, const std::string &description) {
        option(app, "provider-key", o->providerKey, "KEY", description)
            ->required()
            ->check(notEmpty("--provider-key"));
    };
    auto *group = tree.commandGroup(root, "statement",
        "import|fetch: compare the provider's own list of paid renewals with what is "
        "recorded; backfill what is missing, open cases for what differs",
        commandGroups::kReconciliation);
    auto *import = tree.command(*group, "import",
        "import the provider's list output (its API's pages as written by curl or its CLI, "
        "or JSON lines of the objects): each renewal is matched, backfilled through the "
        "renewal core, or becomes a case; exits 3 while cases remain open, 65 for a partial "
        "or unreadable statement",
        [o](const CommandContext &ctx) { return runImport(ctx, *o); });
    providerKey(import, "the registered provider the statement comes from");
    option(import, "from", o->from, "DAY",
        "the first UTC day the statement covers, YYYY-MM-DD (default: the first day of the "
        "month its paid days fall in; its first paid day when they span months)")
        ->check(utcDay("from"));
    option(import, "to", o->to, "DAY",
        "the last UTC day it covers, included (default: the last day of that month; its last "
        "paid day when they span months)")
        ->check(utcDay("to"));
    flag(import, "dry-run", o->dryRun,
        "report what the import would do, from the database's own run rolled back");
    flag(import, "pages-complete", o->pagesComplete,
        "state that the pages given are every page of the list for the days (recorded in the "
        "run and on the close report); without it or a manifest, nothing is looked for as "
        "missing from the statement and it cannot close a month");
    positional(import, "FILE", o->files,
        "the statement's files (pages or JSON lines), with the manifest `statement fetch "
        "--save` wrote (recognized by its format), or that --save directory",
        true)
        ->type_name("FILE...");
    db(import);
    json(import);
    auto *fetch = tree.command(*group, "fetch",
        "read the provider's list of paid invoices for the days from its API (its own "
        "pagination, 429 Retry-After honoured), then import it exactly as 'statement "
        "import' does; the API key is the provider key's apiKey in the secrets file",
        [o](const CommandContext &ctx) { return runFetch(ctx, *o); });
    providerKey(fetch, "the registered provider to fetch for");
    option(fetch, "from", o->from, "DAY", "the first UTC day, YYYY-MM-DD; required")
        ->required()
        ->check(utcDay("from"));
    option(fetch, "to", o->to, "DAY", "the last UTC day, included; required")
        ->required()
        ->check(utcDay("to"));
    option(fetch, "secrets", o->secrets, "FILE",
        "the secrets file (mode 600) whose entry for KEY has an apiKey; required")
        ->required()
        ->check(notEmpty("--secrets"));
    option(fetch, "api-base", o->apiBase, "URL",
        "the API's base URL (default: the provider's own; Chargebee: "
        "https://SITE.chargebee.com, "
        "required)");
    option(fetch, "save", o->save, "DIR",
        "also keep the pages fetched in DIR, as the provider sent them, with DIR/manifest.json "
        "(each page's request and sha256), which proves them complete to a later import (files "
        "0600; DIR is created 0700, and an existing one must be yours and closed to others)");
    option(fetch, "max-bytes", o->maxBytes, "BYTES",
        "the pages together at most, else exit 75 (default 268435456, 256 MiB)")
        ->transform(wholeNumber("--max-bytes", 1024, 16LL * 1024 * 1024 * 1024));
    option(fetch, "max-pages", o->maxPages, "N", "pages at most, else exit 75 (default 10000)")
        ->transform(wholeNumber("--max-pages", 1, 10000000));
    option(fetch, "deadline", o->deadlineSeconds, "S",
        "the whole fetch, retries included, within S seconds, else exit 75 (default 900)")
        ->transform(decimalNumber("--deadline", 0.1, 7 * 24 * 3600));
    flag(fetch, "dry-run", o->dryRun, "fetch, then report what the import would do, rolled back");
    db(fetch);
    json(fetch);
}

} // namespace rd::cli
