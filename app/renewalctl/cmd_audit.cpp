#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/audit_chains.h"
#include "domain/store/case_actions.h"
#include "domain/store/database_target.h"
#include "domain/store/roles.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <optional>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace rd::cli {

namespace {

nlohmann::json toJson(const std::vector<ChainBreak> &breaks)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto &b : breaks)
        out.push_back({{"chain", b.chain}, {"chainId", b.chainId}, {"rowId", b.rowId},
            {"seq", b.seq}, {"problem", b.problem}, {"provider", b.provider},
            {"subscription", b.subscription}});
    return out;
}

/// Progress of a long verification on stderr: rewritten in place on a terminal (twice a
/// second), a line every ten seconds otherwise (a log keeps a few lines, not thousands).
class ProgressPrinter
{
public:
    explicit ProgressPrinter(std::ostream &err)
        : m_err(err), m_tty(::isatty(STDERR_FILENO) == 1), m_start(Clock::now()), m_last(m_start)
    { }
    void operator()(const AuditVerifyProgress &p)
    {
        const auto now = Clock::now();
        if (now - m_last < (m_tty ? std::chrono::milliseconds(500) : std::chrono::seconds(10)))
            return;
        m_last = now;
        const double seconds = std::chrono::duration<double>(now - m_start).count();
        std::ostringstream line;
        line << "verifying: " << p.rows << " of about " << p.expectedRows << " rows (" << std::fixed
             << std::setprecision(0) << (p.expectedRows > 0 ? 100.0 * p.rows / p.expectedRows : 0.0)
             << " %), " << p.chains << " chains, " << std::setprecision(1) << seconds << " s";
        m_err << (m_tty ? "\r" : "") << line.str() << (m_tty ? "" : "\n") << std::flush;
        m_printed = true;
    }
    void finish()
    {
        if (m_printed && m_tty)
            m_err << "\n";
    }
    double seconds() const { return std::chrono::duration<double>(Clock::now() - m_start).count(); }

private:
    using Clock = std::chrono::steady_clock;
    std::ostream &m_err;
    bool m_tty;
    Clock::time_point m_start;
    Clock::time_point m_last;
    bool m_printed = false;
};

/// audit verify's options.
struct VerifyOptions
{
    AuditVerifyOptions verify; // --batch and --streams, else its defaults
    std::optional<std::string> anchor;
    std::optional<std::string> digest; // 64 hexadecimal digits, lower-cased
    bool noProgress = false;
};

int runAnchor(const CommandContext &ctx)
{
    auto conn = ctx.connect();
    std::string digest;
    const long long heads = exportAuditAnchor(
        *conn, ctx.out, ctx.json() ? AnchorLayout::Compact : AnchorLayout::Indented, &digest);
    // On stderr, so that stdout stays the anchor file. The digest is what to publish: a copy
    // of the file is checked against it with verify --anchor FILE --digest HEX.
    ctx.err << "renewalctl: anchor of " << heads << " heads, digest " << digest << "\n";
    return ExitOk;
}

int runVerify(const CommandContext &ctx, const VerifyOptions &o)
{
    // Before minutes of verifying: a digest is compared with an anchor file's.
    if (o.digest && !o.anchor)
        throw UsageError("--digest needs --anchor FILE: the digest is compared with that file's");
    const auto &published = o.digest;
    auto conn = ctx.connect();
    AuditVerifyOptions options = o.verify;
    ProgressPrinter progress(ctx.err);
    if (!o.noProgress)
        options.onProgress = [&progress](const AuditVerifyProgress &p) { progress(p); };
    const auto verification = verifyAuditChainsStreamed(*conn, options);
    progress.finish();
    const double seconds = progress.seconds();
    auto breaks = verification.breaks;

    std::optional<nlohmann::json> anchorReport;
    AuditAnchorCheck anchor;
    if (const auto &anchorPath = o.anchor) {
        // Parsed as it is read: a million heads are never held at once.
        InputFile file(*anchorPath, ctx.in);
        anchor = checkAuditAnchor(*conn, file.stream());
        if (published && *published != anchor.digest)
            throw InputError("--digest",
                "the anchor's digest " + anchor.digest
                    + " is not the published one: this is not the file that was published");
        breaks.insert(breaks.end(), anchor.mismatches.begin(), anchor.mismatches.end());
        anchorReport = nlohmann::json {{"heads", anchor.heads},
            {"createdAt", anchor.createdAt ? nlohmann::json(*anchor.createdAt) : nlohmann::json()},
            {"digest", anchor.digest}, {"digestPublished", published.has_value()},
            {"matches", anchor.matches()}, {"mismatchCount", anchor.mismatchCount},
            {"mismatches", toJson(anchor.mismatches)}};
    }

    if (ctx.json()) {
        nlohmann::json out {{"intact", breaks.empty()}, {"breaks", toJson(breaks)},
            {"rows", verification.rows}, {"chains", verification.chains},
            {"moreBreaks", verification.moreBreaks}, {"at", verification.at}, {"seconds", seconds}};
        if (anchorReport)
            out["anchor"] = *anchorReport;
        ctx.out << out.dump() << "\n";
        return breaks.empty() ? ExitOk : ExitDataError;
    }
    ctx.out << "verified " << verification.rows << " rows in " << verification.chains << " chains: "
            << (verification.intact() ? std::string("intact")
                                      : std::to_string(verification.breaks.size())
                           + (verification.moreBreaks ? "+" : "") + " break(s)")
            << " (snapshot of " << verification.at << ", " << std::fixed << std::setprecision(1)
            << seconds << " s)\n";
    if (anchorReport) {
        // A matching anchor vouches for the chains' newest rows only: under breaks, it says
        // so, or "matches" would read as "all is well".
        ctx.out << "anchor (" << anchor.heads << " heads, exported at "
                << anchor.createdAt.value_or("an unknown time") << ", digest " << anchor.digest
                << (published ? ", the published one" : "") << ") "
                << (!anchor.matches() ? "does not match: " + std::to_string(anchor.mismatchCount)
                               + " head(s) changed or gone"
                           : verification.intact()
                           ? std::string("matches")
                           : std::string("matches: every chain's newest row is as it was when the "
                                         "anchor was exported; the break(s) found are in older "
                                         "rows, which an anchor does not cover"))
                << "\n";
    }
    if (!breaks.empty()) {
        ctx.err << "renewalctl: audit chain broken: " << describeChainBreak(breaks.front()) << "\n";
        for (std::size_t i = 1; i < breaks.size(); ++i)
            ctx.out << "also: " << describeChainBreak(breaks[i]) << "\n";
    }
    return breaks.empty() ? ExitOk : ExitDataError;
}

} // namespace

void registerAuditCommands(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<VerifyOptions>();
    auto *group = tree.commandGroup(root, "audit",
        "verify|anchor: check the audit hash chains, export their heads",
        commandGroups::kReconciliation);
    auto *verify = tree.command(*group, "verify", "check the audit hash chains (exit 65 if broken)",
        [o](const CommandContext &ctx) { return runVerify(ctx, *o); });
    option(verify, "anchor", o->anchor, "FILE",
        "also check the heads exported by 'audit anchor' (the file's digest must be its "
        "heads')");
    option(verify, "digest", o->digest, "HEX",
        "with --anchor: the digest published when the anchor was exported; the file must "
        "carry it")
        ->transform(hexDigest("--digest", "the digest 'renewalctl audit anchor' printed"));
    option(verify, "batch", o->verify.batchRows, "ROWS",
        "rows fetched from the server at a time (default 20000): what the client holds")
        ->transform(wholeNumber("--batch", 1, 1000000));
    option(verify, "streams", o->verify.streams, "N",
        "1 (default) or 2: the subscription chains read by two connections at once")
        ->transform(wholeNumber("--streams", 1, 2));
    flag(verify, "no-progress", o->noProgress, "no progress lines on stderr");
    db(verify);
    json(verify);
    auto *anchor = tree.command(*group, "anchor",
        "export the chains' heads to keep elsewhere (the file on stdout, its digest on "
        "stderr: publish the digest)",
        runAnchor);
    db(anchor);
    json(anchor);
}

void registerRolesGrantCommand(CommandTree &tree, CLI::App &rolesGroup)
{
    struct GrantOptions
    {
        std::string login;
        std::string role;
    };
    auto o = std::make_shared<GrantOptions>();
    auto *grant = tree.command(rolesGroup, "grant", "grant a login role one of the desk's roles",
        [o](const CommandContext &ctx) {
            auto conn = ctx.connect();
            // "owner" makes a person who owns the desk (grantOwner): on the embedded cluster,
            // whose superuser owns the schema and whose socket is its user's alone, that is the
            // person at the desk; on a server, only where a role that is not a superuser owns it.
            const bool embedded = resolveDatabase(ctx.args.value("db"), false).embedded;
            grantRole(*conn, o->login, o->role, embedded);
            if (o->role == "owner")
                ctx.out << o->login << " is an operator and owns the desk's tables\n";
            else
                ctx.out << "granted renewal_" << o->role << " to " << o->login << "\n";
            return int(ExitOk);
        });
    positional(grant, "LOGIN_ROLE", o->login,
        "the login role (created without a password if needed)", true);
    positional(grant, "ROLE", o->role,
        "viewer, operator, ingest, payload_reader, or owner (an operator who may also take "
        "backups: the one person of an embedded desk)",
        true);
    db(grant);
}

} // namespace rd::cli
