#include "app/renewalctl/command_context.h"
#include "domain/core/case_next_step.h"
#include "domain/core/errors.h"
#include "domain/core/operator_note.h"
#include "domain/store/case_actions.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

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

std::string text(const nlohmann::json &v)
{
    if (v.is_null())
        return "-";
    return v.is_string() ? v.get<std::string>() : v.dump();
}

/// One line a case under a header, the columns as wide as their widest cell.
void printCaseList(std::ostream &out, const nlohmann::json &cases)
{
    std::vector<std::vector<std::string>> rows {{"ID", "STATUS", "REASON/ERROR",
        "PROVIDER/SUBSCRIPTION", "RENEWAL KEY", "SEEN", "LAST SEEN", "ASSIGNED", ""}};
    for (const auto &c : cases) {
        const bool open = c["status"] == "open";
        rows.push_back({text(c["id"]), text(c["status"]),
            open || c["resolution"].is_null() ? text(c["errorCode"]) : text(c["resolution"]),
            text(c["providerKey"]) + "/" + text(c["providerSubscriptionId"]),
            text(c["providerRenewalKey"]), text(c["occurrences"]) + "x", text(c["lastSeenAt"]),
            text(c["assignedTo"]), c["applicableNow"].get<bool>() ? "(applicable now)" : ""});
    }
    std::vector<std::size_t> widths(rows.front().size(), 0);
    for (const auto &row : rows)
        for (std::size_t i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    for (const auto &row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            // The id right-aligned, the rest left-aligned, two spaces between columns.
            const std::string pad(widths[i] - row[i].size(), ' ');
            line += (i == 0 ? pad + row[i] : row[i] + pad) + "  ";
        }
        line.erase(line.find_last_not_of(' ') + 1);
        out << line << "\n";
    }
    out << cases.size() << " case(s)\n";
}

/// The leaves of a JSON object as "path: value" lines ("period.start: 2026-02-01T...").
void printLeaves(std::ostream &out, const nlohmann::json &v, const std::string &path)
{
    if (v.is_object() && !v.empty()) {
        for (const auto &[key, child] : v.items())
            printLeaves(out, child, path.empty() ? key : path + "." + key);
        return;
    }
    out << "  " << path << ": " << text(v) << "\n";
}

/// The case as a person reads it: what it is, its evidence, then its history.
void printCase(std::ostream &out, const nlohmann::json &c)
{
    out << "case " << text(c["id"]) << ": " << text(c["status"]);
    if (c["status"] == "open")
        out << " (" << text(c["errorCode"]) << ")";
    else if (!c["resolution"].is_null())
        out << " (" << text(c["resolution"]) << "; was " << text(c["errorCode"]) << ")";
    out << "\n";
    const auto field = [&out](const std::string &name, const std::string &value) {
        out << "  " << std::left << std::setw(16) << (name + ":") << value << "\n";
    };
    field("provider", text(c["providerKey"]) + "/" + text(c["providerSubscriptionId"]));
    field("subscription", text(c["subscriptionId"]));
    field("renewal key", text(c["providerRenewalKey"]));
    field("seen",
        text(c["occurrences"]) + " time(s), first " + text(c["firstSeenAt"]) + ", last "
            + text(c["lastSeenAt"]));
    if (!c["resolvedAt"].is_null())
        field("resolved",
            "by " + text(c["resolvedBy"]) + " at " + text(c["resolvedAt"])
                + (c["resolutionComment"].is_null() ? "" : ": " + text(c["resolutionComment"])));
    if (!c["snapshotId"].is_null())
        field("snapshot", text(c["snapshotId"]));
    if (!c["assignedTo"].is_null())
        field("assigned to", text(c["assignedTo"]) + " since " + text(c["assignedAt"]));
    field("applicable now", c["applicableNow"].get<bool>() ? "yes" : "no");
    if (c["status"] == "open") {
        const auto step = caseNextStep(text(c["errorCode"]));
        if (!step.empty())
            field("next step", std::string(step));
    } else if (c["status"] == "dismissed") {
        field("next step",
            "none; dismissed by mistake? renewalctl cases reopen " + text(c["id"])
                + " --comment WHY");
    }
    out << "event:\n";
    printLeaves(out, c["event"], "");
    out << "local state:\n";
    printLeaves(out, c["localState"], "");
    out << "history:\n";
    for (const auto &h : c["history"]) {
        out << "  " << text(h["seq"]) << ". " << text(h["at"]) << "  " << text(h["action"]);
        if (h["outcome"] != h["action"]) // "claimed claimed" says it once
            out << " " << text(h["outcome"]);
        if (!h["error"].is_null())
            out << " (" << text(h["error"]) << ")";
        out << " by " << text(h["actor"]);
        // Who handed the renewal in, when not a webhook delivery (migrations 0032, 0035).
        const auto &details = h["details"];
        if (h["recordedBy"] == "cli")
            out << " (renewalctl apply)";
        else if (h["recordedBy"] == "statement")
            out << " (statement import)";
        if (!h["reason"].is_null())
            out << ", reason " << text(h["reason"]);
        if (!h["comment"].is_null() && !h["comment"].get<std::string>().empty())
            out << ": " << text(h["comment"]);
        out << "\n";
        // Why a snapshot left the case's renewal unrecorded.
        if (details.is_object() && details.contains("why") && details["why"].is_string())
            out << "     " << details["why"].get<std::string>() << "\n";
    }
}

int printReapplyResult(const CommandContext &ctx, const ReapplyResult &result)
{
    if (ctx.json()) {
        ctx.out << result.json.dump() << "\n";
    } else {
        ctx.out << "case " << result.caseId << ": " << toString(result.outcome);
        if (!result.resolution.empty())
            ctx.out << ", resolved " << result.resolution;
        if (result.rejection)
            ctx.out << ", still open: " << toString(*result.rejection);
        ctx.out << "\n";
    }
    return result.resolved() ? ExitOk : ExitRejected;
}

/// What a claim, release, note, dismissal or reopening did, in words after "case N: ".
std::string words(const ClaimResult &r)
{
    if (r.outcome == ClaimOutcome::AlreadyYours)
        return "already claimed by you";
    return "claimed by " + r.assignedTo
        + (r.takenFrom.empty() ? "" : " (taken over from " + r.takenFrom + ")");
}

std::string words(const ReleaseResult &r)
{
    if (r.outcome == ReleaseOutcome::NotClaimed)
        return "not claimed by anyone; nothing to release";
    return "released (was claimed by " + r.releasedFrom + ")";
}

std::string words(const NoteResult &)
{
    return "note added";
}

std::string words(const DismissResult &)
{
    return "dismissed";
}

std::string words(const ReopenResult &r)
{
    return "open again (was dismissed by " + (r.dismissedBy.empty() ? "?" : r.dismissedBy) + ")";
}

/// The action's result: the database's answer with --json, else in words.
template<class Result>
int printCaseAction(const CommandContext &ctx, const Result &result)
{
    if (ctx.json())
        ctx.out << result.toJson().dump() << "\n";
    else
        ctx.out << "case " << result.caseId << ": " << words(result) << "\n";
    return ExitOk;
}

} // namespace

int runCases(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals();
    if (pos.size() < 2)
        throw UsageError(
            "usage: renewalctl cases list|show|reapply|dismiss|reopen|claim|release|note ...");
    const std::string &verb = pos[1];
    auto conn = ctx.connect();
    try {
        if (verb == "list") {
            const auto cases = listCases(*conn, ctx.args.value("status"));
            if (ctx.json()) {
                ctx.out << cases.dump() << "\n";
                return ExitOk;
            }
            printCaseList(ctx.out, cases);
            return ExitOk;
        }
        if (verb == "show") {
            const auto c = showCase(*conn, caseIdArgument(ctx.args, 2));
            if (ctx.json())
                ctx.out << c.dump() << "\n";
            else
                printCase(ctx.out, c);
            return ExitOk;
        }
        if (verb == "reapply")
            return printReapplyResult(
                ctx, reapplyCase(*conn, caseIdArgument(ctx.args, 2), noteFrom(ctx.args)));
        if (verb == "dismiss") {
            if (!hasVisibleText(ctx.args.value("comment").value_or("")))
                throw UsageError("dismissing a case needs --comment saying why (with something "
                                 "to read: spaces alone are not a note)");
            return printCaseAction(
                ctx, dismissCase(*conn, caseIdArgument(ctx.args, 2), noteFrom(ctx.args)));
        }
        if (verb == "reopen") {
            const std::string note = ctx.args.value("comment").value_or("");
            if (!hasVisibleText(note))
                throw UsageError("reopening a case needs --comment saying why (with something to "
                                 "read: spaces alone are not a note)");
            return printCaseAction(ctx, reopenCase(*conn, caseIdArgument(ctx.args, 2), note));
        }
        if (verb == "claim" || verb == "release" || verb == "note") {
            const auto caseId = caseIdArgument(ctx.args, 2);
            const std::string comment = ctx.args.value("comment").value_or("");
            if (verb == "note" && !hasVisibleText(comment))
                throw UsageError("a note needs --comment with its text (spaces alone are not a "
                                 "note)");
            if (verb == "claim")
                return printCaseAction(ctx, claimCase(*conn, caseId, comment));
            if (verb == "release")
                return printCaseAction(ctx, releaseCase(*conn, caseId, comment));
            return printCaseAction(ctx, noteCase(*conn, caseId, comment));
        }
    } catch (const ActionRefused &e) {
        // A case that does not exist is a wrong id, not a refusal: bad input (65), as for any
        // other unknown thing named on the command line.
        if (e.refusal() == Refusal::CaseNotFound)
            throw InputError("", "no case " + std::to_string(caseIdArgument(ctx.args, 2)));
        return reportRefusal(ctx, e.code(), e.what());
    }
    throw UsageError("unknown cases command '" + verb
        + "' (list, show, reapply, dismiss, reopen, claim, release or note)");
}

} // namespace rd::cli
