#include "app/renewalctl/command_context.h"
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

} // namespace

int runOutbox(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals();
    if (pos.size() != 2 || pos[1] != "publish")
        throw UsageError("usage: renewalctl outbox publish [--exec CMD | --jsonl FILE|-] "
                         "[--batch N] [--follow] [--max-attempts N] [--retry-delay-ms MS] "
                         "[--poll-seconds S] [--exec-timeout S]");
    const auto exec = ctx.args.value("exec");
    const auto jsonl = ctx.args.value("jsonl");
    if (exec && jsonl)
        throw UsageError("--exec and --jsonl exclude each other");
    if (!exec && !jsonl)
        throw UsageError("outbox publish needs a sink: --exec CMD or --jsonl FILE|-");

    PublishOptions options;
    options.batch = static_cast<int>(ctx.args.integer("batch", 10, 1, 10000));
    if (ctx.args.value("max-attempts"))
        options.maxAttempts = static_cast<int>(ctx.args.integer("max-attempts", 0, 1, 1000000));
    options.retryDelay
        = std::chrono::milliseconds(ctx.args.integer("retry-delay-ms", 1000, 0, 86400000));
    options.follow = ctx.args.flag("follow");
    options.pollInterval = std::chrono::milliseconds(
        static_cast<long long>(ctx.args.number("poll-seconds", 1, 0.1, 3600) * 1000));
    // One line per transition to waiting, for whoever watches a follower (tests do).
    options.onIdle = [&ctx] { ctx.err << "outbox: idle, waiting for new intents" << std::endl; };

    std::unique_ptr<OutboxSink> sink;
    try {
        if (exec)
            sink = std::make_unique<ExecSink>(*exec,
                std::chrono::milliseconds(static_cast<long long>(
                    ctx.args.number("exec-timeout", 30, 0.1, 86400) * 1000)));
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

} // namespace rd::cli
