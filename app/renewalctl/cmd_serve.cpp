#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/errors.h"
#include "domain/receiver/receiver_keys.h"
#include "domain/receiver/webhook_receiver.h"
#include "domain/store/database_target.h"
#include "domain/store/schema_version.h"

#include <ostream>

namespace rd::cli {
namespace {

struct ServeOptions
{
    ReceiverConfig config; // what is bound to its fields, else its defaults
    std::vector<std::string> listen;
    long long toleranceSeconds = ReceiverConfig {}.tolerance.count();
    long long readTimeoutSeconds = ReceiverConfig {}.readTimeout.count();
    long long overdueRefreshSeconds
        = std::chrono::duration_cast<std::chrono::seconds>(ReceiverConfig {}.overdueRefresh)
              .count();
};

int runServe(const CommandContext &ctx, const ServeOptions &o)
{
    ReceiverConfig config = o.config;
    for (const auto &l : o.listen)
        config.listen.push_back(parseListenAddress(l));
    config.tolerance = std::chrono::seconds(o.toleranceSeconds);
    config.readTimeout = std::chrono::seconds(o.readTimeoutSeconds);
    config.overdueRefresh = std::chrono::seconds(o.overdueRefreshSeconds);
    // A database that accepts connections and never answers (#39, item 12) fails a worker's
    // or a reload's connect after ten seconds instead of holding it for ever.
    config.conninfo = withConnectTimeout(ctx.conninfo(), 10);
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

} // namespace

void registerServeCommand(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<ServeOptions>();
    ReceiverConfig &c = o->config;
    auto *app = tree.command(
        root, "serve",
        "receive provider webhooks over HTTP(S): POST /webhooks/{providerKey}, signature "
        "checked, answered 200 once committed; GET /healthz, GET /metrics",
        [o](const CommandContext &ctx) { return runServe(ctx, *o); }, commandGroups::kWebhooks);
    repeatedOption(app, "listen", o->listen, "HOST:PORT", "an address to listen on (repeatable)")
        ->required();
    option(app, "secrets", c.secretsPath, "FILE",
        "the providers' signing secrets, JSON (mode 600); SIGHUP re-reads it")
        ->required()
        ->check(notEmpty("--secrets"));
    option(app, "connections", c.databaseConnections, "N",
        "database connections, one per delivery worker (default 8)")
        ->transform(wholeNumber("--connections", 1, 256));
    option(
        app, "queue", c.queueDepth, "N", "deliveries waiting for a worker before 503 (default 64)")
        ->transform(wholeNumber("--queue", 1, 100000));
    option(app, "max-clients", c.maxClients, "N", "open client connections at most (default 512)")
        ->transform(wholeNumber("--max-clients", 1, 100000));
    option(app, "max-body", c.maxBodyBytes, "BYTES",
        "the largest body accepted, else 413 (default 1048576)")
        ->transform(wholeNumber("--max-body", 1024, 64LL * 1024 * 1024));
    // Up to 1 MiB: any single field stays under Beast's 64 KiB per field whatever this says
    // (the parser refuses longer ones).
    option(app, "max-header-bytes", c.maxHeaderBytes, "BYTES",
        "request line, header and chunked trailer together at most, else 431 (default 16384)")
        ->transform(wholeNumber("--max-header-bytes", 1024, 1024LL * 1024));
    option(app, "max-header-fields", c.maxHeaderFields, "N",
        "header and trailer fields together at most, else 431 (default 100)")
        ->transform(wholeNumber("--max-header-fields", 1, 10000));
    option(app, "tolerance-seconds", o->toleranceSeconds, "S",
        "how old a signed timestamp may be (default 300)")
        ->transform(wholeNumber("--tolerance-seconds", 1, 7 * 24 * 3600));
    option(app, "read-timeout", o->readTimeoutSeconds, "S",
        "a request must arrive, and an idle connection is closed, within S (default 10)")
        ->transform(wholeNumber("--read-timeout", 1, 3600));
    option(app, "io-threads", c.ioThreads, "N", "network threads (default 1)")
        ->transform(wholeNumber("--io-threads", 1, 64));
    option(app, "overdue-refresh", o->overdueRefreshSeconds, "S",
        "how often /metrics' renewal_overdue_subscriptions is read from the database, 1 to "
        "3600 (default 15)")
        ->transform(wholeNumber("--overdue-refresh", 1, 3600));
    option(app, "tls-cert", c.tlsCertPath, "FILE", "serve HTTPS with this PEM certificate chain");
    option(app, "tls-key", c.tlsKeyPath, "FILE", "the certificate's PEM private key");
    db(app);
}

} // namespace rd::cli
