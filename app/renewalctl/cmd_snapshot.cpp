#include "app/renewalctl/command_context.h"
#include "domain/core/adapters/normalization.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/case_actions.h"
#include "domain/store/snapshot_attachment_text.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <ostream>
#include <sstream>

namespace rd::cli {
namespace {

void printAttachResult(const CommandContext &ctx, const SnapshotAttachment &result, bool preview)
{
    for (const auto &[field, change] : result.changes.items())
        ctx.out << "  " << field << ": " << change["before"].dump() << " -> "
                << change["after"].dump() << "\n";
    if (const auto &c = result.caseAfter) {
        if (c->resolved)
            ctx.out << "  case " << c->id << (preview ? " would be" : " is")
                    << " resolved: its renewal "
                    << (c->renewalOutcome == ApplyOutcome::Applied
                               ? (preview ? "would be applied" : "was applied")
                               : "is recorded")
                    << "\n";
        else
            ctx.out << "  case " << c->id << (preview ? " would stay" : " stays")
                    << " open: its renewal is still rejected ("
                    << (c->rejection ? toString(*c->rejection) : std::string_view("unknown"))
                    << ")\n";
    }
    for (const auto &sentence : renewalSentences(result, preview))
        ctx.out << "  " << sentence << "\n";
    for (const auto id : result.applicableCases)
        ctx.out << "  case " << id
                << (preview ? " could then be re-applied" : " can now be re-applied")
                << " (renewalctl cases reapply " << id << ")\n";
}

} // namespace

int runSnapshot(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals();
    if (pos.size() < 2 || pos[1] != "attach")
        throw UsageError("usage: renewalctl snapshot attach [FILE|-] [--kind KIND --provider-key "
                         "KEY [--captured-at T]] [--case ID] (--reason R [--comment C] | "
                         "--preview)");
    const bool preview = ctx.args.flag("preview");
    const OperatorNote note {preview ? std::string() : ctx.args.requireValue("reason"),
        ctx.args.value("comment").value_or("")};
    std::optional<std::int64_t> caseId;
    if (const auto c = ctx.args.value("case"))
        caseId = ctx.args.integer("case", 0, 1, std::numeric_limits<std::int64_t>::max());

    InputFile input(ctx.args.inputPath(2), ctx.in);
    std::stringstream body;
    body << input.stream().rdbuf();
    const auto json = parseUntrustedJson(body.str());

    const Timestamp now = Timestamp::now();
    ProviderSnapshot snapshot;
    if (ctx.args.value("kind")) {
        // The provider's own subscription object, as fetched from its API.
        const std::optional<ProviderKind> kind = ctx.args.providerKind();
        Timestamp capturedAt = now;
        if (const auto at = ctx.args.value("captured-at")) {
            const auto parsed = parseRfc3339(*at);
            if (!parsed)
                throw UsageError("--captured-at must be an RFC 3339 timestamp");
            capturedAt = *parsed;
        }
        snapshot = snapshotFromProviderObject(
            *kind, ctx.args.requireValue("provider-key"), json, capturedAt);
    } else {
        snapshot = providerSnapshotFromJson(json);
    }
    requireCapturedBy(snapshot, now);

    auto conn = ctx.connect();
    try {
        if (preview) {
            const auto result = previewSnapshot(*conn, snapshot, caseId);
            if (ctx.json()) {
                const nlohmann::json j = result.refused
                    ? nlohmann::json {{"refused",
                        {{"code", result.refused->code()}, {"message", result.refused->what()}}}}
                    : nlohmann::json {{"wouldBe", result.wouldBe->json}};
                ctx.out << j.dump() << "\n";
                return ExitOk;
            }
            if (result.refused) {
                ctx.out << "attaching would be refused (" << result.refused->code()
                        << "): " << result.refused->what() << "\n";
                return ExitOk;
            }
            ctx.out << previewHeadline(*result.wouldBe, snapshot.providerSubscriptionId) << ":\n";
            printAttachResult(ctx, *result.wouldBe, true);
            return ExitOk;
        }
        const auto result = attachSnapshot(*conn, snapshot, caseId, note);
        if (ctx.json()) {
            ctx.out << result.json.dump() << "\n";
        } else {
            ctx.out << "snapshot " << result.snapshotId << ": " << toString(result.outcome) << "\n";
            printAttachResult(ctx, result, false);
        }
        return ExitOk;
    } catch (const ActionRefused &e) {
        return reportRefusal(ctx, e.code(), e.what());
    }
}

} // namespace rd::cli
