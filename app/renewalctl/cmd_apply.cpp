#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/renewal_applier.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <istream>
#include <ostream>

namespace rd::cli {

int runApply(const CommandContext &ctx)
{
    if (ctx.args.positionals().size() > 2)
        throw UsageError("usage: renewalctl apply [FILE|-]");
    InputFile input(ctx.args.inputPath(1), ctx.in);
    RenewalApplier applier(ctx.conninfo());
    bool anyRejected = false;
    long long lineNo = 0;
    for (std::string line; std::getline(input.stream(), line);) {
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        SuccessfulRenewalEvent event;
        try {
            event = renewalEventFromJson(parseUntrustedJson(line));
        } catch (const InputError &e) {
            // Earlier lines stay applied: each renewal is its own transaction.
            throw e.locatedAt("line " + std::to_string(lineNo));
        }
        const auto outcome = applier.apply(event, Actor {"webhook", event.providerKey});
        anyRejected = anyRejected || outcome.result == ApplyResult::Rejected;
        // Flushed per line: a caller piping events in reads each acknowledgement at once.
        ctx.out << outcome.toJson().dump() << std::endl;
    }
    return anyRejected ? ExitRejected : ExitOk;
}

} // namespace rd::cli
