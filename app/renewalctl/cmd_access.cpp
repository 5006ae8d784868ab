// renewalctl access show|list|sweep|extend (#41): a subscription's access verdict, the
// subscriptions in payment trouble, the sweep that records the transitions time makes due, and
// an operator's extension of grace. The verdicts are the database's (rd_access_verdict).

#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "app/renewalctl/utc_day.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/access_verdicts.h"
#include "domain/store/action_refused.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>

namespace rd::cli {
namespace {

struct AccessOptions
{
    std::string providerKey;
    std::string subscription;
    std::string now; ///< RFC 3339, checked; empty: the database's clock
    std::string verdict;
    std::string until; ///< YYYY-MM-DD, checked
    std::string note;
    int batch = 5000;
    int limit = 1000;
};

std::optional<Timestamp> nowOf(const AccessOptions &o)
{
    return o.now.empty() ? std::nullopt : parseRfc3339(o.now);
}

void printVerdict(std::ostream &out, const nlohmann::json &v)
{
    out << v.value("providerKey", "") << " " << v.value("providerSubscriptionId", "") << ": "
        << stringOrEmpty(v, "verdict");
    if (const auto until = stringOrEmpty(v, "until"); !until.empty())
        out << " until " << until;
    out << " (" << stringOrEmpty(v, "source") << ", since " << stringOrEmpty(v, "since") << ")\n"
        << "  " << stringOrEmpty(v, "reason") << "\n";
    for (const auto &a : v.value("attempts", nlohmann::json::array())) {
        out << "  attempt " << a.value("attempt", 0) << " of " << stringOrEmpty(a, "invoiceKey")
            << " failed " << stringOrEmpty(a, "at");
        if (const auto code = stringOrEmpty(a, "declineCode"); !code.empty())
            out << " (" << code << ")";
        if (const auto next = stringOrEmpty(a, "nextAttemptAt"); !next.empty())
            out << ", next attempt " << next;
        if (a.value("recovered", false))
            out << ", paid since";
        out << "\n";
    }
    if (const auto &s = v.find("standing"); s != v.end() && s->is_object())
        out << "  the provider's standing: " << stringOrEmpty(*s, "standing") << " at "
            << stringOrEmpty(*s, "observedAt") << "\n";
}

int runShow(const CommandContext &ctx, const AccessOptions &o)
{
    auto conn = ctx.connect();
    const auto verdict = accessVerdict(*conn, o.providerKey, o.subscription, nowOf(o));
    if (!verdict) {
        if (ctx.json())
            ctx.out << nlohmann::json {{"result", "not_found"}, {"providerKey", o.providerKey},
                {"subscription", o.subscription}}
                           .dump()
                    << "\n";
        ctx.err << "renewalctl: subscription " << o.subscription << " of provider " << o.providerKey
                << " is not known here\n";
        return ExitRejected;
    }
    if (ctx.json())
        ctx.out << verdict->dump() << "\n";
    else
        printVerdict(ctx.out, *verdict);
    return ExitOk;
}

int runList(const CommandContext &ctx, const AccessOptions &o)
{
    auto conn = ctx.connect();
    const auto rows = accessTrouble(*conn, nowOf(o),
        o.providerKey.empty() ? std::nullopt : std::optional<std::string>(o.providerKey), o.limit);
    bool anyBlocked = false;
    for (const auto &r : rows) {
        if (!o.verdict.empty() && r.verdict != o.verdict)
            continue;
        anyBlocked = anyBlocked || r.verdict == "blocked";
        if (ctx.json()) {
            ctx.out << nlohmann::json {{"providerKey", r.providerKey},
                {"providerSubscriptionId", r.providerSubscriptionId},
                {"subscriptionId", r.subscriptionId}, {"verdict", r.verdict}, {"since", r.since},
                {"until", r.until.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.until)},
                {"source", r.source}, {"reason", r.reason}, {"attempts", r.attempts},
                {"declineCode",
                    r.declineCode.empty() ? nlohmann::json(nullptr)
                                          : nlohmann::json(r.declineCode)}}
                           .dump()
                    << "\n";
        } else {
            ctx.out << std::left << std::setw(20) << r.providerKey << std::setw(32)
                    << r.providerSubscriptionId << std::setw(10) << r.verdict << std::setw(36)
                    << (r.until.empty() ? "since " + r.since : "until " + r.until) << r.source
                    << ": " << r.reason << "\n";
        }
    }
    // Exit 3 tells a script that someone has lost access.
    return anyBlocked ? ExitRejected : ExitOk;
}

int runSweep(const CommandContext &ctx, const AccessOptions &o)
{
    auto conn = ctx.connect();
    const auto result = sweepAccess(*conn, nowOf(o), o.batch);
    if (ctx.json())
        ctx.out << nlohmann::json {{"examined", result.examined}, {"changed", result.changed},
            {"batches", result.batches}}
                       .dump()
                << "\n";
    else
        ctx.out << "access sweep: " << result.changed << " verdicts changed of " << result.examined
                << " subscriptions looked at\n";
    return ExitOk;
}

int runExtend(const CommandContext &ctx, const AccessOptions &o)
{
    auto conn = ctx.connect();
    const auto day = parseDay("--until", o.until);
    // Through the day named: its grace ends at the start of the next (UTC).
    Timestamp until = makeUtc(static_cast<int>(day.year()), static_cast<unsigned>(day.month()),
        static_cast<unsigned>(day.day()));
    until.micros += 24LL * 3600 * 1000000;
    try {
        const auto verdict = extendAccess(*conn, o.providerKey, o.subscription, until, o.note);
        if (ctx.json())
            ctx.out << verdict.dump() << "\n";
        else
            printVerdict(ctx.out, verdict);
        return ExitOk;
    } catch (const ActionRefused &e) {
        return reportRefusal(ctx, e.code(), e.what());
    }
}

} // namespace

void registerAccessCommands(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<AccessOptions>();
    auto *group = tree.commandGroup(root, "access",
        "show|list|sweep|extend: access verdicts from payment trouble", commandGroups::kRenewals);
    const auto providerKey = [&o](CLI::App *app, bool required) {
        auto *opt = option(app, "provider-key", o->providerKey, "K", "the provider key")
                        ->check(notEmpty("--provider-key"));
        if (required)
            opt->required();
    };
    const auto now = [&o](CLI::App *app) {
        option(app, "now", o->now, "T",
            "the instant to judge at (RFC 3339), for tests and demos; the database's clock "
            "otherwise")
            ->check(rfc3339("--now"));
    };
    auto *show = tree.command(*group, "show",
        "a subscription's verdict (good_standing, in_grace, blocked, ended), its source, reason "
        "and failed attempts, from the facts as they stand",
        [o](const CommandContext &ctx) { return runShow(ctx, *o); });
    providerKey(show, true);
    option(show, "subscription", o->subscription, "ID", "the provider's subscription id")
        ->required()
        ->check(notEmpty("--subscription"));
    now(show);
    db(show);
    json(show);
    auto *list = tree.command(*group, "list",
        "the subscriptions in grace or blocked; exits 3 when any is blocked",
        [o](const CommandContext &ctx) { return runList(ctx, *o); });
    option(list, "verdict", o->verdict, "V", "in_grace or blocked")
        ->check(CLI::IsMember({"in_grace", "blocked"}));
    providerKey(list, false);
    option(list, "limit", o->limit, "N", "at most N subscriptions (1 to 100000)")
        ->transform(wholeNumber("--limit", 1, 100000));
    now(list);
    db(list);
    json(list);
    auto *sweep = tree.command(*group, "sweep",
        "record every verdict change that is due (a row, an audit entry and an outbox intent "
        "access.changed each, once); run by a timer",
        [o](const CommandContext &ctx) { return runSweep(ctx, *o); });
    now(sweep);
    option(sweep, "batch", o->batch, "N", "subscriptions a transaction (1 to 10000; 5000)")
        ->transform(wholeNumber("--batch", 1, 10000));
    db(sweep);
    json(sweep);
    auto *extend = tree.command(
        *group, "extend",
        "extend a subscription's grace through a day (an operator's, with a note; it ends by "
        "itself)",
        [o](const CommandContext &ctx) { return runExtend(ctx, *o); },
        commandGroups::kReconciliation);
    positional(extend, "SUB", o->subscription, "the provider's subscription id", true)
        ->check(notEmpty("SUB"));
    providerKey(extend, true);
    option(extend, "until", o->until, "DAY", "the last day of grace, YYYY-MM-DD (UTC)")
        ->required()
        ->check(utcDay("until"));
    option(extend, "note", o->note, "TEXT", "why; required")
        ->required()
        ->check(visibleText("extending grace needs --note saying why (spaces alone are not a "
                            "note)"));
    db(extend);
    json(extend);
}

} // namespace rd::cli
