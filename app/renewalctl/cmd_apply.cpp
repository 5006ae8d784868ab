#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/renewal_applier.h"

#include <nlohmann/json.hpp>

#include <istream>
#include <ostream>

namespace rd::cli {
namespace {

int runApply(const CommandContext &ctx, const std::string &file)
{
    InputFile input(file, ctx.in);
    // Recorded by 'cli', the login role that runs it as the actor: not a webhook delivery.
    RenewalApplier applier(ctx.conninfo(), {}, RenewalSource::Cli);
    bool anyRejected = false;
    long long badLines = 0;
    long long lineNo = 0;
    for (std::string line; std::getline(input.stream(), line);) {
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        SuccessfulRenewalEvent event;
        try {
            nlohmann::json json;
            try {
                json = parseUntrustedJson(line);
            } catch (const InputError &e) {
                // The line is the body here: "line 5: not valid JSON (…)", not "line 5: body:
                // not valid JSON", which named no line of the input (#42, 12).
                throw InputError({}, e.message());
            }
            event = renewalEventFromJson(json);
        } catch (const InputError &e) {
            // Reported, and the next lines still go in: each renewal is its own transaction.
            ++badLines;
            const auto located = e.locatedAt("line " + std::to_string(lineNo));
            ctx.err << "renewalctl: bad input: " << located.what() << std::endl;
            nlohmann::json ack {{"result", "invalid"}, {"line", lineNo}};
            if (!e.field().empty())
                ack["field"] = e.field();
            ack["message"] = e.message();
            ctx.out << ack.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                    << std::endl;
            continue;
        }
        const auto outcome = applier.apply(event);
        anyRejected = anyRejected || outcome.outcome == ApplyOutcome::Rejected;
        auto acknowledgement = outcome.toJson();
        acknowledgement["line"] = lineNo;
        // Flushed per line: a caller piping events in reads each acknowledgement at once.
        ctx.out << acknowledgement.dump() << std::endl;
    }
    // A bad line outweighs a rejected renewal: the input itself needs fixing.
    return badLines > 0 ? ExitDataError : anyRejected ? ExitRejected : ExitOk;
}

} // namespace

void registerApplyCommand(CommandTree &tree, CLI::App &root)
{
    auto file = std::make_shared<std::string>();
    auto *app = tree.command(
        root, "apply",
        "apply renewal events (JSON lines); a bad line is reported and skipped (exit 65 at "
        "the end)",
        [file](const CommandContext &ctx) { return runApply(ctx, *file); },
        commandGroups::kRenewals);
    inputFile(app, *file, "the renewal events, one JSON object a line");
    db(app);
}

} // namespace rd::cli
