#include "app/renewalctl/renewalctl.h"

#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/store/database_target.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/migrator.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace rd::cli {
namespace {

std::string oneLine(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

} // namespace

int reportRefusal(const CommandContext &ctx, const std::string &code, const std::string &message)
{
    if (ctx.json())
        ctx.out
            << nlohmann::json {{"result", "refused"}, {"error", code}, {"message", message}}.dump()
            << "\n";
    ctx.err << "renewalctl: refused (" << code << "): " << message << "\n";
    return ExitRefused;
}

InputFile::InputFile(const std::string &path, std::istream &stdinStream) : m_stream(&stdinStream)
{
    if (path != "-") {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec))
            throw InputFileError("cannot open '" + path + "': " + std::strerror(EISDIR));
        errno = 0;
        auto file = std::make_unique<std::ifstream>(path, std::ios::binary);
        if (!*file) {
            const int why = errno;
            throw InputFileError("cannot open '" + path
                + "': " + (why != 0 ? std::strerror(why) : "cannot be read"));
        }
        m_owned = std::move(file);
        m_stream = m_owned.get();
    }
}

InputFile::~InputFile() = default;

int runRenewalctl(
    const std::vector<std::string> &words, std::istream &in, std::ostream &out, std::ostream &err)
{
    try {
        CommandLine commandLine;
        if (words.empty() || words.front() == "help") {
            // `renewalctl help [COMMAND...]`: the overview, or a command's own help.
            if (words.empty()) {
                err << commandLine.help();
                return ExitUsage;
            }
            std::vector<std::string> helpOf(words.begin() + 1, words.end());
            helpOf.push_back("--help");
            commandLine.parse(helpOf, out);
            return ExitOk;
        }
        const auto args = commandLine.parse(words, out);
        if (!args)
            return ExitOk; // --help or --version, printed
        const CommandContext ctx {*args, in, out, err};
        const std::string &command = args->positionals().front();
        if (command == "db")
            return runDb(ctx);
        if (command == "migrate")
            return runMigrate(ctx);
        if (command == "fold")
            return runFold(ctx);
        if (command == "inbox")
            return runInbox(ctx);
        if (command == "ledger")
            return runLedger(ctx);
        if (command == "statement")
            return runStatement(ctx);
        if (command == "subscriptions")
            return runSubscriptions(ctx);
        if (command == "apply")
            return runApply(ctx);
        if (command == "bench")
            return runBench(ctx);
        if (command == "cases")
            return runCases(ctx);
        if (command == "snapshot")
            return runSnapshot(ctx);
        if (command == "audit")
            return runAudit(ctx);
        if (command == "close")
            return runClose(ctx);
        if (command == "roles")
            return runRoles(ctx);
        if (command == "providers")
            return runProviders(ctx);
        if (command == "ingest")
            return runIngest(ctx);
        if (command == "replay")
            return runReplay(ctx);
        if (command == "normalize")
            return runNormalize(ctx);
        if (command == "outbox")
            return runOutbox(ctx);
        if (command == "demo")
            return runDemo(ctx);
        if (command == "serve")
            return runServe(ctx);
        if (command == "simulate")
            return runSimulate(ctx);
        throw UsageError("unknown command '" + command + "' (see renewalctl --help)");
    } catch (const UsageError &e) {
        err << "renewalctl: " << e.what() << "\n";
        return ExitUsage;
    } catch (const InputFileError &e) {
        err << "renewalctl: " << e.what() << "\n";
        return ExitDataError;
    } catch (const InputError &e) {
        err << "renewalctl: bad input: " << e.what() << "\n";
        return ExitDataError;
    } catch (const DatabaseUnavailable &e) {
        err << "renewalctl: " << oneLine(e.what()) << "\n";
        return ExitUnavailable;
    } catch (const pqxx::broken_connection &e) {
        err << "renewalctl: lost the database connection: " << oneLine(e.what()) << "\n";
        return ExitUnavailable;
    } catch (const SetupError &e) {
        err << "renewalctl: " << e.what() << "\n";
        return ExitConfig;
    } catch (const pqxx::undefined_table &e) {
        err << "renewalctl: the database has no Renewal Desk schema (run 'renewalctl migrate'): "
            << oneLine(e.what()) << "\n";
        return ExitUnavailable;
    } catch (const pqxx::insufficient_privilege &e) {
        err << "renewalctl: permission denied by the database: " << oneLine(e.what()) << "\n";
        return ExitUnavailable;
    } catch (const std::exception &e) {
        err << "renewalctl: internal error: " << oneLine(e.what()) << "\n";
        return ExitInternal;
    }
}

} // namespace rd::cli
