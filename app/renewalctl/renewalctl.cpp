#include "app/renewalctl/renewalctl.h"

#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/store/action_refused.h"
#include "domain/store/database_errors.h"
#include "domain/store/database_target.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/migrator.h"

#include <nlohmann/json.hpp>

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
    // Busy work (another import or close holding its lock past the timeout) is temporary:
    // the same command succeeds once that one has finished.
    return code == toString(Refusal::WorkBusy) ? ExitTempFail : ExitRefused;
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
        const auto chosen = commandLine.parse(words, out);
        if (!chosen)
            return ExitOk; // --help or --version, printed
        // What a command's store calls let through of libpqxx arrives as rd:: types.
        return translatingDatabaseErrors([&] {
            return chosen->run(CommandContext {chosen->args, in, out, err});
        });
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
    } catch (const ConnectionLost &e) {
        err << "renewalctl: lost the database connection: " << oneLine(e.what()) << "\n";
        return ExitUnavailable;
    } catch (const SetupError &e) {
        err << "renewalctl: " << e.what() << "\n";
        return ExitConfig;
    } catch (const DatabaseFailure &e) {
        if (e.sqlstate() == kUndefinedTable) {
            err << "renewalctl: the database has no Renewal Desk schema (run 'renewalctl "
                   "migrate'): "
                << oneLine(e.what()) << "\n";
            return ExitUnavailable;
        }
        if (e.sqlstate() == kInsufficientPrivilege) {
            err << "renewalctl: permission denied by the database: " << oneLine(e.what()) << "\n";
            return ExitUnavailable;
        }
        err << "renewalctl: internal error: " << oneLine(e.what()) << "\n";
        return ExitInternal;
    } catch (const std::exception &e) {
        err << "renewalctl: internal error: " << oneLine(e.what()) << "\n";
        return ExitInternal;
    }
}

} // namespace rd::cli
