#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/store/case_actions.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <iomanip>
#include <ostream>

namespace rd::cli {
namespace {

std::int64_t caseIdArgument(const ParsedArgs &args, std::size_t index)
{
    const auto &pos = args.positionals();
    if (pos.size() <= index)
        throw UsageError("a case id is required");
    try {
        std::size_t used = 0;
        const auto id = std::stoll(pos[index], &used);
        if (used != pos[index].size() || id <= 0)
            throw std::invalid_argument("not positive");
        return id;
    } catch (const std::logic_error &) {
        throw UsageError("'" + pos[index] + "' is not a case id");
    }
}

OperatorNote noteFrom(const ParsedArgs &args)
{
    return {args.requireValue("reason"), args.value("comment").value_or("")};
}

int printActionResult(const CommandContext &ctx, const nlohmann::json &result)
{
    if (ctx.json()) {
        ctx.out << result.dump() << "\n";
    } else {
        const auto r = result.value("result", "");
        ctx.out << "case " << result.value("caseId", 0LL) << ": " << r;
        if (result.contains("resolution") && result["resolution"].is_string())
            ctx.out << ", resolved " << result["resolution"].get<std::string>();
        if (result.contains("error") && result["error"].is_string())
            ctx.out << ", still open: " << result["error"].get<std::string>();
        ctx.out << "\n";
    }
    return result.value("result", "") == "rejected" ? ExitRejected : ExitOk;
}

} // namespace

int runCases(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals();
    if (pos.size() < 2)
        throw UsageError("usage: renewalctl cases list|show|reapply|dismiss ...");
    const std::string &verb = pos[1];
    auto conn = ctx.connect();
    try {
        if (verb == "list") {
            const auto cases = listCases(*conn, ctx.args.value("status"));
            if (ctx.json()) {
                ctx.out << cases.dump() << "\n";
                return ExitOk;
            }
            for (const auto &c : cases) {
                ctx.out << std::setw(6) << c["id"].get<long long>() << "  " << std::setw(9)
                        << std::left << c["status"].get<std::string>() << std::right << "  "
                        << c["errorCode"].get<std::string>() << "  "
                        << c["providerKey"].get<std::string>() << "/"
                        << c["providerSubscriptionId"].get<std::string>() << "  "
                        << c["providerRenewalKey"].get<std::string>() << "  seen "
                        << c["occurrences"].get<int>() << "x"
                        << (c["applicableNow"].get<bool>() ? "  (applicable now)" : "") << "\n";
            }
            ctx.out << cases.size() << " case(s)\n";
            return ExitOk;
        }
        if (verb == "show") {
            const auto c = showCase(*conn, caseIdArgument(ctx.args, 2));
            ctx.out << (ctx.json() ? c.dump() : c.dump(2)) << "\n";
            return ExitOk;
        }
        if (verb == "reapply")
            return printActionResult(
                ctx, reapplyCase(*conn, caseIdArgument(ctx.args, 2), noteFrom(ctx.args)));
        if (verb == "dismiss") {
            if (!ctx.args.value("comment") || ctx.args.value("comment")->empty())
                throw UsageError("dismissing a case needs --comment saying why");
            return printActionResult(
                ctx, dismissCase(*conn, caseIdArgument(ctx.args, 2), noteFrom(ctx.args)));
        }
    } catch (const ActionRefused &e) {
        return reportRefusal(ctx, e.code(), e.what());
    }
    throw UsageError("unknown cases command '" + verb + "' (list, show, reapply or dismiss)");
}

} // namespace rd::cli
