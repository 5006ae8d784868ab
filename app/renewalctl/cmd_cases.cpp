#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/case_next_step.h"
#include "domain/core/errors.h"
#include "domain/core/operator_note.h"
#include "domain/store/case_actions.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

namespace rd::cli {
namespace {

/// What the cases commands were told (each declares the options it takes).
struct CaseOptions
{
    std::optional<std::string> status;
    std::int64_t id = 0;
    std::string reason;
    std::string comment;
};

OperatorNote noteFrom(const CaseOptions &o)
{
    return {o.reason, o.comment};
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
    // Whether a re-apply would apply it is a question about an open case only: a resolved one's
    // renewal is recorded, a dismissed one is reopened first (#42, 12).
    if (c["status"] == "open") {
        field("applicable now", c["applicableNow"].get<bool>() ? "yes" : "no");
        const auto step = caseNextStep(text(c["errorCode"]));
        if (!step.empty())
            field("next step", std::string(step));
    } else if (c["status"] == "dismissed") {
        // Offered only where the database would reopen it (rd_case_reopen_refusal, #42, 5).
        if (c.value("reopenable", true))
            field("next step",
                "none; dismissed by mistake? renewalctl cases reopen " + text(c["id"])
                    + " --comment WHY");
        else
            field("next step", "none; it cannot be reopened: " + text(c["reopenRefusal"]));
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

int runCases(const CommandContext &ctx, const CaseOptions &o)
{
    const auto &pos = ctx.args.positionals();
    const std::string &verb = pos[1];
    auto conn = ctx.connect();
    try {
        if (verb == "list") {
            const auto cases = listCases(*conn, o.status);
            if (ctx.json()) {
                ctx.out << cases.dump() << "\n";
                return ExitOk;
            }
            printCaseList(ctx.out, cases);
            return ExitOk;
        }
        if (verb == "show") {
            const auto c = showCase(*conn, o.id);
            if (ctx.json())
                ctx.out << c.dump() << "\n";
            else
                printCase(ctx.out, c);
            return ExitOk;
        }
        if (verb == "reapply")
            return printReapplyResult(ctx, reapplyCase(*conn, o.id, noteFrom(o)));
        if (verb == "dismiss")
            return printCaseAction(ctx, dismissCase(*conn, o.id, noteFrom(o)));
        if (verb == "reopen")
            return printCaseAction(ctx, reopenCase(*conn, o.id, o.comment));
        // claim, release or note: the parser lets no other verb through
        if (verb == "claim")
            return printCaseAction(ctx, claimCase(*conn, o.id, o.comment));
        if (verb == "release")
            return printCaseAction(ctx, releaseCase(*conn, o.id, o.comment));
        return printCaseAction(ctx, noteCase(*conn, o.id, o.comment));
    } catch (const ActionRefused &e) {
        // A case that does not exist is a wrong id, not a refusal: bad input (65), as for any
        // other unknown thing named on the command line.
        if (e.refusal() == Refusal::CaseNotFound)
            throw InputError("", "no case " + std::to_string(o.id));
        return reportRefusal(ctx, e.code(), e.what());
    }
}

void registerCasesCommands(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<CaseOptions>();
    const CommandRunner run = [o](const CommandContext &ctx) { return runCases(ctx, *o); };
    const auto id = [&o](CLI::App *app) {
        positional(app, "ID", o->id, "the case id", true)->transform(caseId());
    };
    // A --comment that must say something: `complaint` when it is spaces alone.
    const auto note
        = [&o](CLI::App *app, const std::string &description, const std::string &complaint) {
              option(app, "comment", o->comment, "C", description)
                  ->required()
                  ->check(visibleText(complaint));
          };
    const auto reason = [&o](CLI::App *app) {
        option(app, "reason", o->reason, "R", reasonHelp() + "; required")
            ->required()
            ->check(notEmpty("--reason"));
    };
    auto *group = tree.commandGroup(root, "cases",
        "list|show|reapply|dismiss|reopen|claim|release|note: reconciliation cases",
        commandGroups::kReconciliation);
    auto *list = tree.command(*group, "list", "the cases, latest first", run);
    option(list, "status", o->status, "STATUS", "only open, resolved or dismissed cases");
    db(list);
    json(list);
    auto *show = tree.command(*group, "show", "a case with its evidence and history", run);
    id(show);
    db(show);
    json(show);
    auto *reapply = tree.command(
        *group, "reapply", "apply the case's renewal again through the renewal core", run);
    id(reapply);
    reason(reapply);
    option(reapply, "comment", o->comment, "C", "a note");
    db(reapply);
    json(reapply);
    auto *dismiss
        = tree.command(*group, "dismiss", "close the case without recording its renewal", run);
    id(dismiss);
    reason(dismiss);
    note(dismiss, "a note saying why; required",
        "dismissing a case needs --comment saying why (with something to read: spaces alone are "
        "not a note)");
    db(dismiss);
    json(dismiss);
    auto *reopen = tree.command(*group, "reopen",
        "put a dismissed case back in the queue, open (dismissed by mistake); refused for "
        "an open or resolved case, a renewal recorded since, another open case of the "
        "renewal, or a renewal paid in a closed month",
        run);
    id(reopen);
    note(reopen, "a note saying why it is reopened; required",
        "reopening a case needs --comment saying why (with something to read: spaces alone are "
        "not a note)");
    db(reopen);
    json(reopen);
    auto *claim = tree.command(*group, "claim",
        "assign the open case to you (the login role); taking over another's claim needs "
        "--comment",
        run);
    id(claim);
    option(claim, "comment", o->comment, "C", "why, when the case is claimed by someone else");
    db(claim);
    json(claim);
    auto *release = tree.command(*group, "release",
        "give the case back to the queue; releasing another's claim needs --comment", run);
    id(release);
    option(release, "comment", o->comment, "C", "why, when the case is claimed by someone else");
    db(release);
    json(release);
    auto *noteCommand = tree.command(
        *group, "note", "add a note to the case's history (not an action; open or closed)", run);
    id(noteCommand);
    note(noteCommand, "the note; required",
        "a note needs --comment with its text (spaces alone are not a note)");
    db(noteCommand);
    json(noteCommand);
}

} // namespace rd::cli
