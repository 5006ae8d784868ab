#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/receiver/receiver_keys.h"
#include "domain/receiver/webhook_receiver.h"
#include "domain/store/schema_version.h"

#include <ostream>

namespace rd::cli {

int runServe(const CommandContext &ctx)
{
    if (ctx.args.positionals().size() != 1)
        throw UsageError("usage: renewalctl serve --listen HOST:PORT [--listen ...] --secrets FILE "
                         "[--connections N] [--max-body BYTES] [--max-header-bytes BYTES] "
                         "[--max-header-fields N] [--tolerance-seconds S] "
                         "[--overdue-refresh S] [--tls-cert F --tls-key F]");
    ReceiverConfig config;
    for (const auto &l : ctx.args.values("listen"))
        config.listen.push_back(parseListenAddress(l));
    if (config.listen.empty())
        throw UsageError("option --listen is required (e.g. --listen 127.0.0.1:8080)");
    config.secretsPath = ctx.args.requireValue("secrets");
    config.databaseConnections
        = static_cast<int>(ctx.args.integer("connections", config.databaseConnections, 1, 256));
    config.queueDepth = static_cast<std::size_t>(
        ctx.args.integer("queue", static_cast<long long>(config.queueDepth), 1, 100000));
    config.maxClients
        = static_cast<int>(ctx.args.integer("max-clients", config.maxClients, 1, 100000));
    config.maxBodyBytes = static_cast<std::size_t>(ctx.args.integer(
        "max-body", static_cast<long long>(config.maxBodyBytes), 1024, 64LL * 1024 * 1024));
    // Up to 1 MiB: any single field stays under Beast's 64 KiB per field whatever this says
    // (the parser refuses longer ones).
    config.maxHeaderBytes = static_cast<std::size_t>(ctx.args.integer(
        "max-header-bytes", static_cast<long long>(config.maxHeaderBytes), 1024, 1024LL * 1024));
    config.maxHeaderFields = static_cast<std::size_t>(ctx.args.integer(
        "max-header-fields", static_cast<long long>(config.maxHeaderFields), 1, 10000));
    config.tolerance = std::chrono::seconds(
        ctx.args.integer("tolerance-seconds", config.tolerance.count(), 1, 7 * 24 * 3600));
    config.readTimeout = std::chrono::seconds(
        ctx.args.integer("read-timeout", config.readTimeout.count(), 1, 3600));
    config.ioThreads = static_cast<int>(ctx.args.integer("io-threads", config.ioThreads, 1, 64));
    config.overdueRefresh = std::chrono::seconds(ctx.args.integer("overdue-refresh",
        std::chrono::duration_cast<std::chrono::seconds>(config.overdueRefresh).count(), 1, 3600));
    config.tlsCertPath = ctx.args.value("tls-cert").value_or("");
    config.tlsKeyPath = ctx.args.value("tls-key").value_or("");
    config.conninfo = ctx.conninfo();
    config.newestMigration = newestKnownMigration();

    // SIGHUP re-reads the secrets file and the registered providers the same way, after
    // checking that the database's schema is not newer than this program: at the start, a
    // newer one is a SetupError, exit 78 (a restart will not help; systemd does not retry it).
    const auto load
        = [path = config.secretsPath, conninfo = config.conninfo, newest = config.newestMigration] {
              requireSchemaNotNewer(conninfo, newest);
              return loadReceiverKeys(path, conninfo);
          };
    ReceiverKeys keys;
    try {
        keys = load();
    } catch (const InputError &e) {
        // A secrets file that cannot be read is a configuration error like an unsafe one.
        throw SetupError("secrets file " + config.secretsPath + ": " + e.what());
    }
    WebhookReceiver receiver(config, std::move(keys), load, ctx.out);
    receiver.run();
    return ExitOk;
}

} // namespace rd::cli
