#include "app/renewalctl/command_line.h"

#include "app/renewalctl/usage_error.h"
#include "domain/core/adapters/provider_kinds.h"
#include "domain/core/operator_note.h"
#include "rd_version.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <ostream>

namespace rd::cli {
namespace {

constexpr const char *kFooter = R"(Common options (on the commands that take them):
  --db CONNINFO   a libpq connection string; default: the PG* environment if it names a
                  server, else the embedded cluster (started on demand)
  --json          machine-readable output
Exit codes: 0 ok, 3 some renewals rejected (subscriptions overdue: some are overdue),
            4 refused (an operator action the database refused, or bench on a database
            holding other data), 64 usage, 65 bad input data, 69 database unavailable,
            70 internal error, 75 outbox deliveries failed (retried later), 78 schema
            history refused.
Every command has its own help: renewalctl COMMAND [SUBCOMMAND] --help)";

constexpr const char *kDatabase = "Database";
constexpr const char *kRenewals = "Subscriptions and renewals";
constexpr const char *kWebhooks = "Webhooks and the outbox";
constexpr const char *kReconciliation
    = "Reconciliation (the acting operator is the database login role)";

std::string joined(const std::vector<std::string> &words, const std::string &last = " or ",
    const std::string &separator = ", ")
{
    std::string s;
    for (std::size_t i = 0; i < words.size(); ++i)
        s += (i == 0 ? "" : i + 1 == words.size() ? last : separator) + words[i];
    return s;
}

/// Help text in lines of at most 68 characters (CLI11 indents the lines after the first).
std::string wrapped(const std::string &text)
{
    std::string out;
    std::size_t lineLength = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        auto end = text.find(' ', start);
        if (end == std::string::npos)
            end = text.size();
        const auto word = text.substr(start, end - start);
        if (lineLength > 0 && lineLength + 1 + word.size() > 68) {
            out += "\n";
            lineLength = 0;
        } else if (lineLength > 0) {
            out += " ";
            ++lineLength;
        }
        out += word;
        lineLength += word.size();
        start = end + 1;
    }
    return out;
}

CLI::App *command(CLI::App &parent, const std::string &name, const std::string &description,
    const std::string &group = {})
{
    auto *app = parent.add_subcommand(name, wrapped(description));
    app->footer(""); // the overview's footer is for the overview
    if (!group.empty())
        app->group(group);
    // Extras are not an error of CLI11's: parse() reports them, with the closest declared name.
    app->allow_extras();
    return app;
}

/// A command of commands (db, cases, ...): once one is chosen, later words are its arguments,
/// never another command.
CLI::App *commandGroup(CLI::App &parent, const std::string &name, const std::string &description,
    const std::string &group)
{
    auto *app = command(parent, name, description, group);
    app->require_subcommand(0, 1);
    return app;
}

void value(CLI::App *app, const std::string &name, const std::string &typeName,
    const std::string &description)
{
    const std::string text = wrapped(description); // CLI11 takes a description by reference
    app->add_option("--" + name, text)
        ->type_name(typeName)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

/// An option that may be given several times (`--listen A --listen B`): ParsedArgs::values.
void repeatedValue(CLI::App *app, const std::string &name, const std::string &typeName,
    const std::string &description)
{
    const std::string text = wrapped(description);
    app->add_option("--" + name, text)
        ->type_name(typeName)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void flag(CLI::App *app, const std::string &name, const std::string &description)
{
    const std::string text = wrapped(description); // CLI11 takes a flag's description by reference
    app->add_flag("--" + name, text);
}

void positional(CLI::App *app, const std::string &name, const std::string &description,
    bool required, const std::string &typeName = {})
{
    const std::string text = wrapped(description);
    auto *opt = app->add_option(name, text)->type_name(typeName);
    if (required)
        opt->required();
}

void inputFile(CLI::App *app, const std::string &what)
{
    positional(app, "FILE", what + "; '-' or none: standard input", false);
}

void db(CLI::App *app)
{
    value(app, "db", "CONNINFO",
        "a libpq connection string; default: the PG* environment if it names a server, else the "
        "embedded cluster (started on demand)");
}

void json(CLI::App *app)
{
    flag(app, "json", "machine-readable output");
}

std::string reasonHelp()
{
    return "the reason code: " + joined(standardReasonCodes())
        + " (the database accepts any lower-case code)";
}

/// "stripe, paddle, chargebee, recurly or lemonsqueezy", from the provider-kind table.
std::string kindChoices()
{
    return joined(providerKindNames());
}

const std::string kKinds = kindChoices();

/// db backup and db restore (#29; app/renewalctl/cmd_db_backup.cpp).
void declareBackupCommands(CLI::App *dbCmd)
{
    auto *backup = command(*dbCmd, "backup",
        "write a backup that proves itself: pg_dump, the counts and the audit anchor of one "
        "snapshot, in one file (default: renewal-desk-YYYYMMDD-HHMMSS.backup in the data "
        "directory's backups/)");
    value(backup, "to", "FILE",
        "the file to write (never replaced); a directory, or a path ending in '/', gets the "
        "default name inside it");
    flag(backup, "no-progress", "no progress on stderr");
    db(backup);
    json(backup);
    auto *restore = command(*dbCmd, "restore",
        "restore a backup into an empty database or a new embedded cluster, then verify it "
        "against its manifest (counts, audit anchor, chains; exit 65 naming what differs) and "
        "migrate it; refused (exit 4) over a database that holds data, unless --force");
    positional(restore, "FILE", "the backup file", true);
    value(restore, "db", "CONNINFO", "the target database (must be empty unless --force)");
    value(restore, "data-dir", "DIR",
        "or: a new embedded cluster in DIR (created and started), restored into its "
        "renewal_desk database");
    flag(restore, "force",
        "restore over a database that holds data: its schema public is dropped with everything "
        "in it");
    value(restore, "digest", "HEX",
        "the anchor digest published when the backup was taken: the file must carry it");
    flag(restore, "no-progress", "no progress on stderr");
    json(restore);
}

void declareCommands(CLI::App &root)
{
    {
        auto *dbCmd = commandGroup(
            root, "db", "start|stop|status|url|backup|restore: the embedded PostgreSQL cluster; backups", kDatabase);
        for (const auto &[verb, description] : std::vector<std::pair<std::string, std::string>> {
                 {"start", "start the cluster"}, {"stop", "stop the cluster"},
                 {"status", "say whether it runs (exit 0 when running, 3 when not)"},
                 {"url", "print its connection string"}}) {
            auto *app = command(*dbCmd, verb, description);
            value(app, "data-dir", "DIR", "the cluster's directory (default: the user's own)");
            if (verb != "url")
                json(app);
        }
        declareBackupCommands(dbCmd);
    }
    {
        auto *app = command(root, "migrate", "apply pending migrations", kDatabase);
        db(app);
        json(app);
    }
    {
        auto *group = commandGroup(root, "subscriptions",
            "import|overdue: create subscriptions from JSON lines; list the overdue ones",
            kRenewals);
        auto *app = command(*group, "import", "create subscriptions from JSON lines (one a line)");
        inputFile(app, "the subscriptions, one JSON object a line");
        db(app);
        json(app);
        auto *overdue = command(*group, "overdue",
            "the active subscriptions whose period ended more than a grace ago with no renewal "
            "recorded since, not set to cancel at period end: the payment failed at the provider "
            "or its renewal never reached us (exit 3 when there are any, 0 when none)");
        value(overdue, "grace", "HOURS",
            "the grace for every provider, 0 to 2160 (default: each provider's own, 24 unless "
            "set with 'providers set-grace')");
        value(overdue, "provider-key", "KEY", "only this provider's subscriptions");
        db(overdue);
        json(overdue);
    }
    {
        auto *app = command(root, "apply",
            "apply renewal events (JSON lines); a bad line is reported and skipped (exit 65 at "
            "the end)",
            kRenewals);
        inputFile(app, "the renewal events, one JSON object a line");
        db(app);
    }
    {
        auto *group = commandGroup(root, "ledger",
            "export: the renewals ledger as CSV, as the desk's Ledger page exports it", kRenewals);
        auto *app = command(*group, "export",
            "the renewals paid in a range of UTC days as CSV (the desk's Ledger export: ISO 8601 "
            "UTC instants, amounts in major units); a text field that starts like a spreadsheet "
            "formula is written with a leading apostrophe");
        value(app, "from", "DAY",
            "the first UTC day, YYYY-MM-DD (default: the current month's first)");
        value(app, "to", "DAY", "the last UTC day, included (default: the current month's last)");
        flag(app, "totals",
            "write the totals per month and currency, then per provider and currency, instead of "
            "the rows");
        value(app, "out", "FILE", "write to FILE (whole or not at all) instead of standard output");
        db(app);
    }
    {
        auto *app = command(root, "bench",
            "measure the renewal core (writes bench-* data: use a scratch database)", kRenewals);
        value(app, "subscriptions", "N", "subscriptions to seed (default 1000)");
        value(app, "renewals", "M", "renewals to apply (default 10000)");
        value(app, "workers", "K", "concurrent workers (default 8)");
        value(app, "duplicates", "F", "share of renewals delivered twice, 0 to 1 (default 0.1)");
        value(app, "seed", "S", "random seed (default 1)");
        flag(app, "force", "run even though the database holds data that is not the bench's");
        db(app);
        json(app);
    }
    {
        auto *group = commandGroup(
            root, "providers", "add|list|set-grace: the registered billing providers", kWebhooks);
        auto *add = command(*group, "add", "register a billing provider");
        positional(add, "KEY", "the provider key (e.g. stripe-main)", true);
        value(add, "kind", "KIND", std::string("the provider's kind: ") + kKinds);
        value(add, "name", "NAME", "a display name");
        db(add);
        json(add);
        auto *list = command(*group, "list", "the registered providers");
        db(list);
        json(list);
        auto *grace = command(*group, "set-grace",
            "how long after a period end a subscription without its renewal counts as overdue "
            "(the database owner's)");
        positional(grace, "KEY", "the provider key", true);
        positional(grace, "HOURS", "0 to 2160", true);
        db(grace);
    }
    {
        auto *app = command(root, "ingest",
            "keep and process provider payloads (one body, or one per line with --lines)",
            kWebhooks);
        value(app, "provider-key", "KEY", "the registered provider the payloads come from");
        flag(app, "lines", "one payload per line");
        inputFile(app, "the payload(s)");
        db(app);
    }
    {
        auto *app = command(root, "serve",
            "receive provider webhooks over HTTP(S): POST /webhooks/{providerKey}, signature "
            "checked, answered 200 once committed; GET /healthz, GET /metrics",
            kWebhooks);
        repeatedValue(app, "listen", "HOST:PORT", "an address to listen on (repeatable)");
        value(app, "secrets", "FILE",
            "the providers' signing secrets, JSON (mode 600); SIGHUP re-reads it");
        value(app, "connections", "N", "database connections, one per delivery worker (default 8)");
        value(app, "queue", "N", "deliveries waiting for a worker before 503 (default 64)");
        value(app, "max-clients", "N", "open client connections at most (default 512)");
        value(app, "max-body", "BYTES", "the largest body accepted, else 413 (default 1048576)");
        value(app, "max-header-bytes", "BYTES",
            "request line, header and chunked trailer together at most, else 431 (default 16384)");
        value(app, "max-header-fields", "N",
            "header and trailer fields together at most, else 431 (default 100)");
        value(app, "tolerance-seconds", "S", "how old a signed timestamp may be (default 300)");
        value(app, "read-timeout", "S",
            "a request must arrive, and an idle connection is closed, within S (default 10)");
        value(app, "io-threads", "N", "network threads (default 1)");
        value(app, "overdue-refresh", "S",
            "how often /metrics' renewal_overdue_subscriptions is read from the database, 1 to "
            "3600 (default 15)");
        value(app, "tls-cert", "FILE", "serve HTTPS with this PEM certificate chain");
        value(app, "tls-key", "FILE", "the certificate's PEM private key");
        db(app);
    }
    {
        auto *app = command(root, "replay",
            "a provider's event export, one payload per line, in any order; says how many "
            "applied at once, how many healed, and the cases left open",
            kWebhooks);
        value(app, "provider-key", "KEY", "the registered provider the export comes from");
        inputFile(app, "the export, one payload a line");
        value(app, "delivery", "N",
            "instead of an export: re-run invalid inbox delivery N with its stored body "
            "(after an adapter fix); a new delivery marks it reviewed");
        db(app);
        json(app);
    }
    {
        auto *app = command(root, "normalize", "run an adapter only (no database)", kWebhooks);
        value(app, "kind", "KIND", std::string("the adapter: ") + kKinds);
        value(app, "provider-key", "KEY", "the provider key to put in the event (default: KIND)");
        inputFile(app, "the payload");
    }
    {
        auto *group = commandGroup(
            root, "outbox", "publish: deliver pending outbox intents (at least once)", kWebhooks);
        auto *app = command(*group, "publish", "deliver pending outbox intents (at least once)");
        value(app, "exec", "CMD", "deliver each intent to this shell command's standard input");
        value(app, "jsonl", "FILE|-", "append each intent to this file as a JSON line");
        value(app, "batch", "N", "intents per transaction (default 10)");
        flag(app, "follow", "keep waiting for new intents");
        value(app, "max-attempts", "N", "give an intent up after N failed deliveries");
        value(app, "retry-delay-ms", "MS", "wait before retrying a failed intent (default 1000)");
        value(app, "poll-seconds", "S", "with --follow, how often to look (default 1)");
        value(app, "exec-timeout", "S", "a --exec command's time limit (default 30)");
        db(app);
        json(app);
    }
    {
        auto *app = command(root, "demo",
            "build a believable history through ingest; with --replay-set DIR, write a shuffled "
            "Stripe event export and its subscriptions to DIR (no database)",
            kWebhooks);
        value(app, "subscriptions", "N", "subscriptions (default 60)");
        value(app, "months", "M", "months of history (default 6)");
        value(app, "seed", "S", "random seed (default 1)");
        value(app, "now", "RFC3339", "the history's present (default: now)");
        flag(app, "if-empty", "only into a database without subscriptions");
        value(app, "replay-set", "DIR", "write the replay set to DIR instead");
        value(app, "statements", "DIR",
            "also write stripe-main's statements to DIR, one file per month of paid invoices "
            "(stripe-main-YYYY-MM.json), for 'renewalctl statement import'; a few of the latest "
            "renewals in them were never delivered");
        db(app);
        json(app);
    }
    {
        auto *app = command(root, "simulate",
            "a provider simulator: the demo's kinds of payloads, signed as each provider signs "
            "them, POSTed to a receiver at --rate per second with the providers' retries; "
            "prints a JSON summary line (no database)",
            kWebhooks);
        app->footer(R"(Every non-2xx answer and broken connection is retried with capped exponential
backoff and jitter, each attempt signed anew; exit 75 when deliveries were given up
or left unfinished.
The simulator never opens the database. For its renewals to apply, the receiver's
database must know the providers and the subscriptions:
  1. renewalctl demo        (registers the demo's providers stripe-main, paddle-eu,
                             chargebee-us, recurly-main and lemon-shop)
  2. renewalctl simulate --write-subscriptions subs.jsonl [--seed S ...]
  3. renewalctl subscriptions import subs.jsonl
  4. renewalctl simulate --target http://HOST:PORT --secrets FILE with the same
     --seed, --subscriptions, --months, --now and --provider (step 2 prints it)
Other provider keys: register them (renewalctl providers add) and name them with
--provider KEY:KIND. Lemon Squeezy renewals carry no period: they need a snapshot.
--live (in steps 2 and 4) pays today's renewals now: the desk's "Renewals today"
moves while it runs; use --rate 1 for a presenter.)");
        value(app, "target", "URL", "the receiver: http://HOST:PORT");
        value(app, "secrets", "FILE",
            "the receiver's secrets file (mode 600): each provider key's secrets or basicAuth");
        repeatedValue(app, "provider", "KEY:KIND",
            std::string("post for this provider key of this kind (") + kKinds
                + "); repeatable; default: the demo's providers the secrets file holds");
        value(app, "rate", "N", "new deliveries per second (default 20)");
        value(app, "duration", "S", "stop after S seconds (unfinished retries are counted)");
        value(app, "count", "N",
            "deliveries to make (default: the generated set once; more goes through it again, "
            "as redeliveries)");
        value(app, "max-attempts", "N", "give a delivery up after N failed attempts (default 6)");
        value(app, "seed", "S", "random seed of the subscriptions and payloads (default 1)");
        value(app, "subscriptions", "N", "subscriptions to renew (default 30)");
        value(app, "months", "M", "months of renewals (default 3)");
        value(app, "now", "RFC3339", "the simulation's present (default: now)");
        flag(app, "live",
            "the live demo: every subscription's period starts today and only today's renewals "
            "are posted, paid now (give it to --write-subscriptions as well)");
        value(app, "write-subscriptions", "FILE",
            "only write the subscriptions for 'renewalctl subscriptions import' and say what to "
            "run next");
    }
    {
        auto *group = commandGroup(root, "statement",
            "import|fetch: compare the provider's own list of paid renewals with what is "
            "recorded; backfill what is missing, open cases for what differs",
            kReconciliation);
        auto *import = command(*group, "import",
            "import the provider's list output (its API's pages as written by curl or its CLI, "
            "or JSON lines of the objects): each renewal is matched, backfilled through the "
            "renewal core, or becomes a case; exits 3 while cases remain open, 65 for a partial "
            "or unreadable statement");
        value(import, "provider-key", "KEY", "the registered provider the statement comes from");
        value(import, "from", "DAY",
            "the first UTC day the statement covers, YYYY-MM-DD (default: the first paid day in "
            "it)");
        value(import, "to", "DAY",
            "the last UTC day it covers, included (default: the last paid day in it)");
        flag(import, "dry-run",
            "report what the import would do, from the database's own run rolled back");
        // Bound to a vector, which is what makes CLI11 take every FILE given (its results are
        // read like any positional's; the vector itself is not).
        static std::vector<std::string> statementFiles;
        import
            ->add_option(
                "FILE", statementFiles, wrapped("the statement's files (pages or JSON lines)"))
            ->type_name("FILE...")
            ->required();
        db(import);
        json(import);
        auto *fetch = command(*group, "fetch",
            "read the provider's list of paid invoices for the days from its API (its own "
            "pagination, 429 Retry-After honoured), then import it exactly as 'statement "
            "import' does; the API key is the provider key's apiKey in the secrets file");
        value(fetch, "provider-key", "KEY", "the registered provider to fetch for");
        value(fetch, "from", "DAY", "the first UTC day, YYYY-MM-DD; required");
        value(fetch, "to", "DAY", "the last UTC day, included; required");
        value(fetch, "secrets", "FILE",
            "the secrets file (mode 600) whose entry for KEY has an apiKey; required");
        value(fetch, "api-base", "URL",
            "the API's base URL (default: the provider's own; Chargebee: "
            "https://SITE.chargebee.com, "
            "required)");
        value(
            fetch, "save", "DIR", "also keep the pages fetched in DIR, as the provider sent them");
        flag(fetch, "dry-run", "fetch, then report what the import would do, rolled back");
        db(fetch);
        json(fetch);
    }
    {
        auto *group = commandGroup(root, "cases",
            "list|show|reapply|dismiss|reopen|claim|release|note: reconciliation cases",
            kReconciliation);
        auto *list = command(*group, "list", "the cases, latest first");
        value(list, "status", "STATUS", "only open, resolved or dismissed cases");
        db(list);
        json(list);
        auto *show = command(*group, "show", "a case with its evidence and history");
        positional(show, "ID", "the case id", true);
        db(show);
        json(show);
        auto *reapply
            = command(*group, "reapply", "apply the case's renewal again through the renewal core");
        positional(reapply, "ID", "the case id", true);
        value(reapply, "reason", "R", reasonHelp() + "; required");
        value(reapply, "comment", "C", "a note");
        db(reapply);
        json(reapply);
        auto *dismiss = command(*group, "dismiss", "close the case without recording its renewal");
        positional(dismiss, "ID", "the case id", true);
        value(dismiss, "reason", "R", reasonHelp() + "; required");
        value(dismiss, "comment", "C", "a note saying why; required");
        db(dismiss);
        json(dismiss);
        auto *reopen = command(*group, "reopen",
            "put a dismissed case back in the queue, open (dismissed by mistake); refused for "
            "an open or resolved case, a renewal recorded since, another open case of the "
            "renewal, or a renewal paid in a closed month");
        positional(reopen, "ID", "the case id", true);
        value(reopen, "comment", "C", "a note saying why it is reopened; required");
        db(reopen);
        json(reopen);
        auto *claim = command(*group, "claim",
            "assign the open case to you (the login role); taking over another's claim needs "
            "--comment");
        positional(claim, "ID", "the case id", true);
        value(claim, "comment", "C", "why, when the case is claimed by someone else");
        db(claim);
        json(claim);
        auto *release = command(*group, "release",
            "give the case back to the queue; releasing another's claim needs --comment");
        positional(release, "ID", "the case id", true);
        value(release, "comment", "C", "why, when the case is claimed by someone else");
        db(release);
        json(release);
        auto *note = command(
            *group, "note", "add a note to the case's history (not an action; open or closed)");
        positional(note, "ID", "the case id", true);
        value(note, "comment", "C", "the note; required");
        db(note);
        json(note);
    }
    {
        auto *group = commandGroup(root, "snapshot",
            "attach: a provider snapshot, or --preview what it would change", kReconciliation);
        auto *app = command(*group, "attach",
            "attach a provider snapshot (--reason R [--comment C]), or say with --preview what "
            "attaching would change and whether the case's renewal would be recorded");
        inputFile(app, "the snapshot (or with --kind the provider's own subscription object)");
        value(app, "kind", "KIND",
            std::string("the file is the provider's subscription object of this kind: ") + kKinds);
        value(app, "provider-key", "KEY", "with --kind: the provider key");
        value(app, "captured-at", "T", "with --kind: when it was fetched (RFC 3339; default now)");
        value(app, "case", "ID", "the case the snapshot is for");
        value(app, "reason", "R", reasonHelp() + "; required unless --preview");
        value(app, "comment", "C", "a note");
        flag(app, "preview", "change nothing: say what attaching would do");
        db(app);
        json(app);
    }
    {
        auto *app = command(root, "close",
            "close a provider's month: its renewals agree with an imported statement covering "
            "it (refused, exit 4, saying why: no such statement run, open statement cases, "
            "closed already, not ended)",
            kReconciliation);
        value(app, "provider-key", "KEY", "the provider; required");
        value(app, "month", "YYYY-MM", "the month (UTC); required");
        value(app, "csv", "FILE", "also write the close report (totals, findings) as CSV");
        db(app);
        json(app);
    }
    {
        auto *group = commandGroup(root, "audit",
            "verify|anchor: check the audit hash chains, export their heads", kReconciliation);
        auto *verify = command(*group, "verify", "check the audit hash chains (exit 65 if broken)");
        value(verify, "anchor", "FILE",
            "also check the heads exported by 'audit anchor' (the file's digest must be its "
            "heads')");
        value(verify, "digest", "HEX",
            "with --anchor: the digest published when the anchor was exported; the file must "
            "carry it");
        value(verify, "batch", "ROWS",
            "rows fetched from the server at a time (default 20000): what the client holds");
        value(verify, "streams", "N",
            "1 (default) or 2: the subscription chains read by two connections at once");
        flag(verify, "no-progress", "no progress lines on stderr");
        db(verify);
        json(verify);
        auto *anchor = command(*group, "anchor",
            "export the chains' heads to keep elsewhere (the file on stdout, its digest on "
            "stderr: publish the digest)");
        db(anchor);
        json(anchor);
    }
    {
        auto *app = command(root, "fold",
            "fold the renewal totals and finished inbox days into the summaries the ledger and "
            "the Overview read (run it from a timer; readers are right without it)",
            kDatabase);
        db(app);
        json(app);
    }
    {
        // Retention and erasure of delivery bodies (migration 0037; app/renewalctl/cmd_inbox.cpp).
        auto *group = commandGroup(root, "inbox",
            "purge|erase|retention|removals: delivery bodies that forget personal data",
            kWebhooks);
        auto *purge = command(*group, "purge",
            "remove the raw bodies of processed deliveries older than the configured retention "
            "(a delivery whose case is open keeps its body); recorded, idempotent");
        value(purge, "older-than", "DAYS",
            "instead of the configured retention: bodies older than DAYS (0: every processed "
            "delivery); an operator's act");
        flag(purge, "dry-run", "count what would go, remove nothing");
        value(purge, "batch", "N", "deliveries per transaction (default 5000)");
        db(purge);
        json(purge);
        auto *erase = command(*group, "erase",
            "a data-subject request: remove the raw bodies of one subscription's deliveries, "
            "whatever their age (operators only)");
        value(erase, "subscription", "ID", "the provider's subscription id; required");
        value(erase, "provider-key", "KEY", "only this provider's deliveries (default: every one)");
        value(erase, "request", "TEXT", "the request served (a ticket or reference); required");
        db(erase);
        json(erase);
        auto *retention = command(*group, "retention",
            "show the retention of delivery bodies, or set it (the database owner)");
        value(retention, "days", "N", "keep bodies N days (0 to 36500)");
        flag(retention, "off", "no retention: keep bodies");
        db(retention);
        json(retention);
        auto *removals = command(*group, "removals", "list the recorded removals, newest first");
        value(removals, "limit", "N", "at most N records (default 50)");
        db(removals);
        json(removals);
    }
    {
        auto *group = commandGroup(root, "roles",
            "grant: give a login role viewer, operator, ingest or payload_reader", kReconciliation);
        auto *grant = command(*group, "grant", "grant a login role one of the desk's roles");
        positional(
            grant, "LOGIN_ROLE", "the login role (created without a password if needed)", true);
        positional(grant, "ROLE", "viewer, operator, ingest or payload_reader", true);
        db(grant);
    }
}

/// The chosen commands, from the root down to the one that runs.
std::vector<CLI::App *> chosenPath(CLI::App &root)
{
    std::vector<CLI::App *> path {&root};
    while (!path.back()->get_subcommands().empty())
        path.push_back(path.back()->get_subcommands().front());
    return path;
}

std::string commandName(const std::vector<CLI::App *> &path)
{
    std::string name;
    for (std::size_t i = 1; i < path.size(); ++i)
        name += (i > 1 ? " " : "") + path[i]->get_name();
    return name;
}

std::string seeHelp(const std::vector<CLI::App *> &path)
{
    const auto name = commandName(path);
    return " (see renewalctl " + (name.empty() ? "" : name + " ") + "--help)";
}

std::vector<std::string> subcommandNames(CLI::App *app)
{
    std::vector<std::string> names;
    for (const auto *sub : app->get_subcommands([](CLI::App *) { return true; }))
        names.push_back(sub->get_name());
    return names;
}

std::vector<std::string> optionNames(CLI::App *app)
{
    std::vector<std::string> names;
    for (const auto *opt : app->get_options())
        for (const auto &l : opt->get_lnames())
            names.push_back("--" + l);
    return names;
}

[[noreturn]] void reportExtra(
    const std::vector<CLI::App *> &path, std::size_t at, const std::vector<std::string> &extras)
{
    CLI::App *app = path[at];
    const std::vector<CLI::App *> upTo(path.begin(), path.begin() + static_cast<long>(at) + 1);
    const std::string &word = extras.front();
    if (word.size() > 1 && word[0] == '-') {
        const std::string name = word.substr(0, word.find('='));
        std::string message = "unknown option " + name;
        if (const auto near = closestName(name, optionNames(app)))
            message += "; did you mean " + *near + "?";
        throw UsageError(message + seeHelp(upTo));
    }
    const auto commands = subcommandNames(app);
    if (!commands.empty()) {
        const auto name = commandName(upTo);
        std::string message = "unknown " + (name.empty() ? "" : name + " ") + "command '" + word
            + "'" + (name.empty() ? "" : " (" + joined(commands) + ")");
        if (const auto near = closestName(word, commands))
            message += "; did you mean '" + *near + "'?";
        throw UsageError(message + seeHelp(upTo));
    }
    throw UsageError("unexpected argument '" + word + "'" + seeHelp(upTo));
}

/// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`.
std::size_t editDistance(const std::string &a, const std::string &b)
{
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min(
                {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

} // namespace

std::optional<std::string> closestName(
    const std::string &word, const std::vector<std::string> &candidates)
{
    // A typo: at most a third of the word (at least one edit, at most three) is wrong.
    const auto strip = [](const std::string &s) { return s.substr(s.find_first_not_of('-')); };
    if (word.find_first_not_of('-') == std::string::npos)
        return std::nullopt;
    const std::string bare = strip(word);
    const std::size_t limit = std::clamp<std::size_t>(bare.size() / 3, 1, 3);
    std::optional<std::string> best;
    std::size_t bestDistance = limit + 1;
    for (const auto &c : candidates) {
        const auto d = editDistance(bare, strip(c));
        if (d < bestDistance) {
            best = c;
            bestDistance = d;
        }
    }
    return best;
}

std::optional<std::string> ParsedArgs::value(const std::string &name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return std::nullopt;
    return it->second;
}

std::string ParsedArgs::requireValue(const std::string &name) const
{
    const auto v = value(name);
    if (!v || v->empty())
        throw UsageError("option --" + name + " is required");
    return *v;
}

std::vector<std::string> ParsedArgs::values(const std::string &name) const
{
    const auto it = m_allValues.find(name);
    return it == m_allValues.end() ? std::vector<std::string> {} : it->second;
}

long long ParsedArgs::integer(
    const std::string &name, long long fallback, long long min, long long max) const
{
    const auto v = value(name);
    if (!v)
        return fallback;
    errno = 0;
    char *end = nullptr;
    const long long n = std::strtoll(v->c_str(), &end, 10);
    if (errno != 0 || end == v->c_str() || *end != '\0' || n < min || n > max)
        throw UsageError("--" + name + " must be a whole number from " + std::to_string(min)
            + " to " + std::to_string(max) + ", not '" + *v + "'");
    return n;
}

double ParsedArgs::number(const std::string &name, double fallback, double min, double max) const
{
    const auto v = value(name);
    if (!v)
        return fallback;
    errno = 0;
    char *end = nullptr;
    const double n = std::strtod(v->c_str(), &end);
    if (errno != 0 || end == v->c_str() || *end != '\0' || !(n >= min && n <= max))
        throw UsageError("--" + name + " must be a number from " + std::to_string(min) + " to "
            + std::to_string(max) + ", not '" + *v + "'");
    return n;
}

std::string ParsedArgs::inputPath(std::size_t skip) const
{
    if (m_positionals.size() > skip + 1)
        throw UsageError("expected at most one input file, got '" + m_positionals[skip + 1] + "'");
    return m_positionals.size() == skip + 1 ? m_positionals[skip] : "-";
}

CommandLine::CommandLine()
    : m_root(std::make_unique<CLI::App>("Renewal Desk's command line.", "renewalctl"))
{
    m_root->footer(kFooter);
    m_root->allow_extras();
    m_root->require_subcommand(0, 1);
    flag(m_root.get(), "version", "print the version and exit");
    declareCommands(*m_root);
}

CommandLine::~CommandLine() = default;

std::string CommandLine::help() const
{
    return m_root->help();
}

std::optional<ParsedArgs> CommandLine::parse(
    const std::vector<std::string> &words, std::ostream &out)
{
    std::vector<std::string> reversed(words.rbegin(), words.rend());
    try {
        m_root->parse(reversed);
    } catch (const CLI::CallForHelp &) {
        out << m_root->help(); // the chosen command's own help
        return std::nullopt;
    } catch (const CLI::CallForAllHelp &) {
        out << m_root->help();
        return std::nullopt;
    } catch (const CLI::ArgumentMismatch &e) {
        // "--db: 1 required CONNINFO missing"
        const std::string what = e.what();
        const auto colon = what.find(':');
        if (colon != std::string::npos && what.find("missing") != std::string::npos)
            throw UsageError("option " + what.substr(0, colon) + " needs a value"
                + seeHelp(chosenPath(*m_root)));
        throw UsageError(what + seeHelp(chosenPath(*m_root)));
    } catch (const CLI::ParseError &e) {
        throw UsageError(e.what() + seeHelp(chosenPath(*m_root)));
    }

    const auto path = chosenPath(*m_root);
    for (std::size_t i = 0; i < path.size(); ++i)
        if (const auto extras = path[i]->remaining(); !extras.empty())
            reportExtra(path, i, extras);
    if (m_root->get_option("--version")->count() > 0) {
        if (path.size() > 1)
            throw UsageError("--version goes alone: renewalctl --version");
        out << "renewalctl " << RD_VERSION << "\n";
        return std::nullopt;
    }
    if (path.size() == 1)
        throw UsageError("usage: renewalctl COMMAND [options] (see renewalctl --help)");
    if (const auto commands = subcommandNames(path.back()); !commands.empty())
        throw UsageError("usage: renewalctl " + commandName(path) + " " + joined(commands, "|", "|")
            + " ..." + seeHelp(path));

    ParsedArgs args;
    for (std::size_t i = 1; i < path.size(); ++i)
        args.m_positionals.push_back(path[i]->get_name());
    for (auto *app : path) {
        for (const auto *opt : app->get_options()) {
            if (opt->count() == 0 || opt == app->get_help_ptr())
                continue;
            if (!opt->nonpositional()) {
                for (const auto &r : opt->results())
                    args.m_positionals.push_back(r);
            } else if (opt->get_expected_max() == 0) {
                args.m_flags.insert(opt->get_lnames().front());
            } else {
                args.m_values[opt->get_lnames().front()] = opt->results().back();
                args.m_allValues[opt->get_lnames().front()] = opt->results();
            }
        }
    }
    return args;
}

ProviderKind ParsedArgs::providerKind() const
{
    const std::string name = requireValue("kind");
    if (const auto kind = providerKindFromString(name))
        return *kind;
    throw UsageError("--kind must be " + kindChoices() + ", not '" + name + "'");
}

} // namespace rd::cli
