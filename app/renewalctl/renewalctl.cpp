#include "app/renewalctl/renewalctl.h"

#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/store/database_target.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/migrator.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <fstream>
#include <iostream>

namespace rd::cli {
namespace {

constexpr const char *kUsage = R"(usage: renewalctl COMMAND [options]

Database:
  db start|stop|status|url [--data-dir DIR]   manage the embedded PostgreSQL cluster
  migrate                                     apply pending migrations
Subscriptions and renewals:
  subscriptions import [FILE|-]               create subscriptions from JSON lines
  apply [FILE|-]                              apply renewal events (JSON lines)
  bench --subscriptions N --renewals M --workers K --duplicates F
                                              measure the renewal core (scratch database!)
Webhooks and the outbox:
  providers add KEY --kind KIND [--name NAME] register a billing provider (KIND: stripe,
                                              paddle, chargebee, recurly, lemonsqueezy)
  providers list                              the registered providers
  ingest --provider-key KEY [--lines] [FILE|-]
                                              keep and process provider payloads (one body,
                                              or one per line with --lines)
  replay --provider-key KEY [FILE|-]         a provider's event export, one payload per line,
                                              in any order; says how many applied at once,
                                              how many healed, and the cases left open
  normalize --kind KIND [FILE|-]              run an adapter only (no database)
  outbox publish [--exec CMD | --jsonl FILE|-] [--batch N] [--follow] [--max-attempts N]
                 [--retry-delay-ms MS] [--poll-seconds S] [--exec-timeout S]
                                              deliver pending outbox intents (at least once)
  demo [--subscriptions N] [--months M] [--seed S] [--now RFC3339] [--if-empty]
                                              build a believable history through ingest
  demo --replay-set DIR [--subscriptions N] [--months M] [--seed S]
                                              write a shuffled Stripe event export and its
                                              subscriptions to DIR (no database)
Reconciliation (the acting operator is the database login role):
  cases list [--status open|resolved|dismissed]
  cases show ID
  cases reapply ID --reason R [--comment C]
  cases dismiss ID --reason R --comment C
  snapshot attach [FILE|-] [--kind KIND --provider-key KEY [--captured-at T]] [--case ID]
                  (--reason R [--comment C] | --preview)
                                              --preview: say what attaching would change and
                                              whether the case's renewal would be recorded
  audit verify [--anchor FILE]                check the audit hash chains (exit 65 if broken)
  audit anchor                                export the chains' heads to keep elsewhere
  roles grant LOGIN_ROLE viewer|operator|ingest

Common options:
  --db CONNINFO   a libpq connection string; default: the PG* environment if it names a
                  server, else the embedded cluster (started on demand)
  --json          machine-readable output
Exit codes: 0 ok, 3 some renewals rejected, 64 usage, 65 bad input data,
            4 an operator action was refused, 69 database unavailable, 70 internal error,
            75 outbox deliveries failed (retried later), 78 schema history refused.
)";

// Every option that takes a value, across commands: one list keeps their spelling consistent.
const std::set<std::string> kValueOptions {"db", "data-dir", "subscriptions", "renewals", "workers",
    "duplicates", "seed", "status", "reason", "comment", "case", "kind", "provider-key",
    "captured-at", "anchor", "name", "exec", "jsonl", "batch", "max-attempts", "retry-delay-ms",
    "poll-seconds", "exec-timeout", "months", "now", "replay-set"};
const std::set<std::string> kFlags {"json", "help", "lines", "follow", "if-empty", "preview"};

std::string oneLine(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

} // namespace

std::string CommandContext::conninfo() const
{
    const auto target = resolveDatabase(args.value("db"));
    if (target.embedded) {
        // The embedded database is ours: keep its schema current, as the desk does.
        auto conn = connectTo(target.conninfo);
        migrate(*conn, loadMigrations(defaultMigrationsDir()));
    }
    return target.conninfo;
}

std::unique_ptr<pqxx::connection> CommandContext::connect() const
{
    return connectTo(conninfo());
}

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
        auto file = std::make_unique<std::ifstream>(path, std::ios::binary);
        if (!*file)
            throw InputError(path, "cannot open the file");
        m_owned = std::move(file);
        m_stream = m_owned.get();
    }
}

InputFile::~InputFile() = default;

int runRenewalctl(
    const std::vector<std::string> &words, std::istream &in, std::ostream &out, std::ostream &err)
{
    try {
        const Args args(words, kValueOptions, kFlags);
        const auto &pos = args.positionals();
        if (args.flag("help") || pos.empty() || pos[0] == "help") {
            (pos.empty() && !args.flag("help") ? err : out) << kUsage;
            return pos.empty() && !args.flag("help") ? ExitUsage : ExitOk;
        }
        const CommandContext ctx {args, in, out, err};
        const std::string &command = pos[0];
        if (command == "db")
            return runDb(ctx);
        if (command == "migrate")
            return runMigrate(ctx);
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
        throw UsageError("unknown command '" + command + "' (see renewalctl --help)");
    } catch (const UsageError &e) {
        err << "renewalctl: " << e.what() << "\n";
        return ExitUsage;
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
