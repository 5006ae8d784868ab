#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/store/webhook_ingestor.h"

#include <nlohmann/json.hpp>

#include <istream>
#include <iterator>
#include <ostream>

namespace rd::cli {

int runIngest(const CommandContext &ctx)
{
    if (ctx.args.positionals().size() > 2)
        throw UsageError("usage: renewalctl ingest --provider-key KEY [--lines] [FILE|-]");
    const std::string providerKey = ctx.args.requireValue("provider-key");
    InputFile input(ctx.args.inputPath(1), ctx.in);
    WebhookIngestor ingestor(ctx.conninfo());
    ingestor.kindOf(providerKey); // an unknown provider is a usage-level error (65), up front

    bool anyRejected = false;
    const auto report = [&](const IngestResult &r, long long lineNo) {
        anyRejected = anyRejected || r.outcome == IngestOutcome::Rejected;
        auto j = r.toJson();
        if (lineNo > 0)
            j["line"] = lineNo;
        // Flushed per payload: a caller piping deliveries in reads each answer at once.
        ctx.out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    };

    if (!ctx.args.flag("lines")) {
        const std::string body {
            std::istreambuf_iterator<char>(input.stream()), std::istreambuf_iterator<char>()};
        report(ingestor.ingest(providerKey, body), 0);
    } else {
        long long lineNo = 0;
        for (std::string line; std::getline(input.stream(), line);) {
            ++lineNo;
            if (line.find_first_not_of(" \t\r") == std::string::npos)
                continue;
            report(ingestor.ingest(providerKey, line), lineNo);
        }
    }
    return anyRejected ? ExitRejected : ExitOk;
}

} // namespace rd::cli
