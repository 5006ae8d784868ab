#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/audit_chains.h"
#include "domain/store/case_actions.h"
#include "domain/store/roles.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <optional>
#include <ostream>
#include <sstream>

namespace rd::cli {

namespace {

std::string describe(const ChainBreak &b)
{
    return b.chain + " row " + std::to_string(b.rowId) + " (chain " + b.chainId + ", position "
        + std::to_string(b.seq) + "): " + b.problem;
}

nlohmann::json toJson(const std::vector<ChainBreak> &breaks)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto &b : breaks)
        out.push_back({{"chain", b.chain}, {"chainId", b.chainId}, {"rowId", b.rowId},
            {"seq", b.seq}, {"problem", b.problem}});
    return out;
}

} // namespace

int runAudit(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals();
    auto conn = ctx.connect();
    if (pos[1] == "anchor") {
        ctx.out << exportAuditAnchor(*conn).dump(ctx.json() ? -1 : 2) << "\n";
        return ExitOk;
    }
    const auto verification = verifyAuditChainsCounted(*conn);
    auto breaks = verification.breaks;

    std::optional<nlohmann::json> anchorReport;
    std::vector<ChainBreak> anchorBreaks;
    if (const auto anchorPath = ctx.args.value("anchor")) {
        InputFile file(*anchorPath, ctx.in);
        std::stringstream text;
        text << file.stream().rdbuf();
        const auto anchor = parseUntrustedJson(text.str(), {16u << 20, 8});
        anchorBreaks = checkAuditAnchor(*conn, anchor);
        breaks.insert(breaks.end(), anchorBreaks.begin(), anchorBreaks.end());
        anchorReport = nlohmann::json {{"heads", anchor["heads"].size()},
            {"createdAt", anchor.value("createdAt", nlohmann::json())},
            {"matches", anchorBreaks.empty()}, {"mismatches", toJson(anchorBreaks)}};
    }

    if (ctx.json()) {
        nlohmann::json out {{"intact", breaks.empty()}, {"breaks", toJson(breaks)},
            {"rows", verification.rows}, {"chains", verification.chains}};
        if (anchorReport)
            out["anchor"] = *anchorReport;
        ctx.out << out.dump() << "\n";
        return breaks.empty() ? ExitOk : ExitDataError;
    }
    ctx.out << "verified " << verification.rows << " rows in " << verification.chains << " chains: "
            << (verification.intact() ? std::string("intact")
                                      : std::to_string(verification.breaks.size()) + " break(s)")
            << "\n";
    if (anchorReport) {
        const auto &createdAt = (*anchorReport)["createdAt"];
        ctx.out << "anchor (" << (*anchorReport)["heads"].get<std::size_t>()
                << " heads, exported at "
                << (createdAt.is_string() ? createdAt.get<std::string>() : "an unknown time")
                << ") "
                << (anchorBreaks.empty() ? std::string("matches")
                                         : "does not match: " + std::to_string(anchorBreaks.size())
                               + " head(s) changed or gone")
                << "\n";
    }
    if (!breaks.empty()) {
        ctx.err << "renewalctl: audit chain broken: " << describe(breaks.front()) << "\n";
        for (std::size_t i = 1; i < breaks.size(); ++i)
            ctx.out << "also: " << describe(breaks[i]) << "\n";
    }
    return breaks.empty() ? ExitOk : ExitDataError;
}

int runRoles(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals(); // roles grant LOGIN_ROLE ROLE
    auto conn = ctx.connect();
    grantRole(*conn, pos[2], pos[3]);
    ctx.out << "granted renewal_" << pos[3] << " to " << pos[2] << "\n";
    return ExitOk;
}

} // namespace rd::cli
