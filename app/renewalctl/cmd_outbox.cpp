#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/errors.h"
#include "domain/store/outbox_publisher.h"
#include "domain/store/outbox_sinks.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <csignal>
#include <iostream>
#include <memory>
#include <ostream>

namespace rd::cli {
namespace {

std::atomic<bool> s_stop {false};

void requestStop(int)
{
    s_stop.store(true);
}

struct PublishCommandOptions
{
    std::optional<std::string> exec; // the sink: --exec or --jsonl
    std::optional<std::string> jsonl;
    PublishOptions publish; // --batch, --max-attempts and --follow, else its defaults
    long long retryDelayMs = 1000;
    double pollSeconds = 1;
    double execTimeoutSeconds = 30;
};

int runOutbox(const CommandContext &ctx, const PublishCommandOptions &o)
{
    const auto &exec = o.exec;
    const auto &jsonl = o.jsonl;
    if (!exec && !jsonl) // both: the parser refuses (--exec excludes --jsonl)
        throw UsageError("outbox publish needs a sink: --exec CMD or --jsonl FILE|-");

    PublishOptions options = o.publish;
    options.retryDelay = std::chrono::milliseconds(o.retryDelayMs);
    options.pollInterval = std::chrono::milliseconds(static_cast<long long>(o.pollSeconds * 1000));
    // One line per transition to waiting, for whoever watches a follower (tests do).
    options.onIdle = [&ctx] { ctx.err << "outbox: idle, waiting for new intents" << std::endl; };

    std::unique_ptr<OutboxSink> sink;
    try {
        if (exec)
            sink = std::make_unique<ExecSink>(*exec,
                std::chrono::milliseconds(static_cast<long long>(o.execTimeoutSeconds * 1000)));
        else
            sink = std::make_unique<JsonLinesSink>(*jsonl);
    } catch (const std::runtime_error &e) {
        throw InputError("--jsonl", e.what());
    }
    const std::string conninfo = ctx.conninfo();

    // SIGINT/SIGTERM finish the current delivery and its transaction, then stop.
    s_stop.store(false);
    struct sigaction sa
    {
    };
    sa.sa_handler = requestStop;
    sigemptyset(&sa.sa_mask);
    struct sigaction oldInt
    {
    }, oldTerm {};
    sigaction(SIGINT, &sa, &oldInt);
    sigaction(SIGTERM, &sa, &oldTerm);
    PublishReport report;
    try {
        report = publishOutbox(conninfo, *sink, options, s_stop);
    } catch (...) {
        sigaction(SIGINT, &oldInt, nullptr);
        sigaction(SIGTERM, &oldTerm, nullptr);
        throw;
    }
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGTERM, &oldTerm, nullptr);

    // With --jsonl - the intents own standard output: the summary goes to standard error.
    std::ostream &summary = jsonl && *jsonl == "-" ? ctx.err : ctx.out;
    if (ctx.json())
        summary << nlohmann::json {{"delivered", report.delivered}, {"failed", report.failed},
            {"batches", report.batches}, {"pending", report.pending}}
                       .dump()
                << "\n";
    else
        summary << report.delivered << " delivered, " << report.failed
                << " failed (retried later), " << report.pending << " still pending\n";
    return report.failed > 0 ? ExitTempFail : ExitOk;
}

} // namespace

void registerOutboxCommands(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<PublishCommandOptions>();
    auto *group = tree.commandGroup(root, "outbox",
        "publish: deliver pending outbox intents (at least once)", commandGroups::kWebhooks);
    auto *app = tree.command(*group, "publish", "deliver pending outbox intents (at least once)",
        [o](const CommandContext &ctx) { return runOutbox(ctx, *o); });
    auto *exec = option(
        app, "exec", o->exec, "CMD", "deliver each intent to this shell command's standard input");
    option(app, "jsonl", o->jsonl, "FILE|-", "append each intent to this file as a JSON line")
        ->excludes(exec);
    option(app, "batch", o->publish.batch, "N", "intents per transaction (default 10)")
        ->transform(wholeNumber("--batch", 1, 10000));
    flag(app, "follow", o->publish.follow, "keep waiting for new intents");
    option(app, "max-attempts", o->publish.maxAttempts, "N",
        "give an intent up after N failed deliveries")
        ->transform(wholeNumber("--max-attempts", 1, 1000000));
    option(app, "retry-delay-ms", o->retryDelayMs, "MS",
        "wait before retrying a failed intent (default 1000)")
        ->transform(wholeNumber("--retry-delay-ms", 0, 86400000));
    option(app, "poll-seconds", o->pollSeconds, "S", "with --follow, how often to look (default 1)")
        ->transform(decimalNumber("--poll-seconds", 0.1, 3600));
    option(app, "exec-timeout", o->execTimeoutSeconds, "S",
        "a --exec command's time limit (default 30)")
        ->transform(decimalNumber("--exec-timeout", 0.1, 86400));
    db(app);
    json(app);
}

} // namespace rd::cli
