#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/audit_chains.h"
#include "domain/store/case_actions.h"
#include "domain/store/roles.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

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

/// --digest: the digest published when the anchor was exported, lower-cased; UsageError when it
/// is not 64 hexadecimal digits or comes without --anchor.
std::optional<std::string> publishedDigest(const ParsedArgs &args)
{
    const auto digest = args.value("digest");
    if (!digest)
        return std::nullopt;
    if (!args.value("anchor"))
        throw UsageError("--digest needs --anchor FILE: the digest is compared with that file's");
    std::string hex = *digest;
    bool ok = hex.size() == 64;
    for (char &c : hex) {
        ok = ok && std::isxdigit(static_cast<unsigned char>(c));
        c = char(std::tolower(static_cast<unsigned char>(c)));
    }
    if (!ok)
        throw UsageError("--digest must be 64 hexadecimal digits (the digest 'renewalctl audit "
                         "anchor' printed), not '"
            + printableAscii(*digest) + "'");
    return hex;
}

} // namespace

int runAudit(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals();
    const auto published = publishedDigest(ctx.args); // before minutes of verifying
    auto conn = ctx.connect();
    if (pos[1] == "anchor") {
        std::string digest;
        const long long heads = exportAuditAnchor(
            *conn, ctx.out, ctx.json() ? AnchorLayout::Compact : AnchorLayout::Indented, &digest);
        // On stderr, so that stdout stays the anchor file. The digest is what to publish: a copy
        // of the file is checked against it with verify --anchor FILE --digest HEX.
        ctx.err << "renewalctl: anchor of " << heads << " heads, digest " << digest << "\n";
        return ExitOk;
    }
    AuditVerifyOptions options;
    if (const auto batch = ctx.args.value("batch")) {
        try {
            options.batchRows = std::stoi(*batch);
        } catch (const std::exception &) {
            options.batchRows = 0;
        }
        if (options.batchRows < 1 || options.batchRows > 1000000)
            throw InputError(
                "--batch", "expected a number of rows from 1 to 1000000, not '" + *batch + "'");
    }
    if (const auto streams = ctx.args.value("streams")) {
        if (*streams != "1" && *streams != "2")
            throw InputError("--streams", "expected 1 or 2, not '" + *streams + "'");
        options.streams = std::stoi(*streams);
    }
    ProgressPrinter progress(ctx.err);
    if (!ctx.args.flag("no-progress"))
        options.onProgress = [&progress](const AuditVerifyProgress &p) { progress(p); };
    const auto verification = verifyAuditChainsStreamed(*conn, options);
    progress.finish();
    const double seconds = progress.seconds();
    auto breaks = verification.breaks;

    std::optional<nlohmann::json> anchorReport;
    AuditAnchorCheck anchor;
    if (const auto anchorPath = ctx.args.value("anchor")) {
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

int runRoles(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals(); // roles grant LOGIN_ROLE ROLE | roles check
    if (pos.size() == 2 && pos[1] == "check")
        return runRolesCheck(ctx);
    if (pos.size() != 4 || pos[1] != "grant")
        throw UsageError("usage: renewalctl roles grant LOGIN_ROLE ROLE | roles check [--create]");
    auto conn = ctx.connect();
    grantRole(*conn, pos[2], pos[3]);
    ctx.out << "granted renewal_" << pos[3] << " to " << pos[2] << "\n";
    return ExitOk;
}

} // namespace rd::cli
