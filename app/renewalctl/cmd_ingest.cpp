#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/errors.h"
#include "domain/store/webhook_ingestor.h"

#include <nlohmann/json.hpp>

#include <istream>
#include <iterator>
#include <ostream>

namespace rd::cli {
namespace {

struct IngestOptions
{
    std::string providerKey;
    bool lines = false;
    std::string file;
};

int runIngest(const CommandContext &ctx, const IngestOptions &o)
{
    const std::string &providerKey = o.providerKey;
    InputFile input(o.file, ctx.in);
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

    if (!o.lines) {
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

} // namespace

void registerIngestCommand(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<IngestOptions>();
    auto *app = tree.command(
        root, "ingest",
        "keep and process provider payloads (one body, or one per line with --lines)",
        [o](const CommandContext &ctx) { return runIngest(ctx, *o); }, commandGroups::kWebhooks);
    option(app, "provider-key", o->providerKey, "KEY",
        "the registered provider the payloads come from")
        ->required()
        ->check(notEmpty("--provider-key"));
    flag(app, "lines", o->lines, "one payload per line");
    inputFile(app, o->file, "the payload(s)");
    db(app);
}

} // namespace rd::cli
