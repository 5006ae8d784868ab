#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/audit_chains.h"
#include "domain/store/case_actions.h"
#include "domain/store/roles.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <ostream>
#include <sstream>

namespace rd::cli {

int runAudit(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals();
    if (pos.size() != 2 || (pos[1] != "verify" && pos[1] != "anchor"))
        throw UsageError("usage: renewalctl audit verify [--anchor FILE] | audit anchor");
    auto conn = ctx.connect();
    if (pos[1] == "anchor") {
        ctx.out << exportAuditAnchor(*conn).dump(ctx.json() ? -1 : 2) << "\n";
        return ExitOk;
    }
    auto breaks = verifyAuditChains(*conn);
    if (const auto anchorPath = ctx.args.value("anchor")) {
        InputFile file(*anchorPath, ctx.in);
        std::stringstream text;
        text << file.stream().rdbuf();
        const auto anchored
            = checkAuditAnchor(*conn, parseUntrustedJson(text.str(), {16u << 20, 8}));
        breaks.insert(breaks.end(), anchored.begin(), anchored.end());
    }
    if (ctx.json()) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto &b : breaks)
            out.push_back({{"chain", b.chain}, {"chainId", b.chainId}, {"rowId", b.rowId},
                {"seq", b.seq}, {"problem", b.problem}});
        ctx.out << nlohmann::json {{"intact", breaks.empty()}, {"breaks", out}}.dump() << "\n";
    } else if (breaks.empty()) {
        ctx.out << "audit chains intact\n";
    } else {
        const auto &first = breaks.front();
        ctx.err << "renewalctl: audit chain broken: " << first.chain << " row " << first.rowId
                << " (chain " << first.chainId << ", position " << first.seq
                << "): " << first.problem << "\n";
        for (std::size_t i = 1; i < breaks.size(); ++i)
            ctx.out << "also: " << breaks[i].chain << " row " << breaks[i].rowId << " (chain "
                    << breaks[i].chainId << ", position " << breaks[i].seq
                    << "): " << breaks[i].problem << "\n";
    }
    return breaks.empty() ? ExitOk : ExitDataError;
}

int runRoles(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals();
    if (pos.size() != 4 || pos[1] != "grant")
        throw UsageError("usage: renewalctl roles grant LOGIN_ROLE viewer|operator|ingest");
    auto conn = ctx.connect();
    grantRole(*conn, pos[2], pos[3]);
    ctx.out << "granted renewal_" << pos[3] << " to " << pos[2] << "\n";
    return ExitOk;
}

} // namespace rd::cli
