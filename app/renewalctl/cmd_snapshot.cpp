#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/adapters/normalization.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/case_actions.h"
#include "domain/store/snapshot_attachment_text.h"

#include <nlohmann/json.hpp>

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

struct AttachOptions
{
    std::string file;
    std::optional<ProviderKind> kind;
    std::string providerKey;
    std::optional<std::string> capturedAt; // RFC 3339, checked as it was parsed
    std::optional<std::int64_t> caseId;
    std::string reason;
    std::string comment;
    bool preview = false;
};

int runAttach(const CommandContext &ctx, const AttachOptions &o)
{
    const bool preview = o.preview;
    if (!preview && o.reason.empty())
        throw UsageError("option --reason is required (or --preview)");
    const OperatorNote note {preview ? std::string() : o.reason, o.comment};
    const std::optional<std::int64_t> &caseId = o.caseId;

    InputFile input(o.file, ctx.in);
    std::stringstream body;
    body << input.stream().rdbuf();
    const auto json = parseUntrustedJson(body.str());

    const Timestamp now = Timestamp::now();
    ProviderSnapshot snapshot;
    if (const auto &kind = o.kind) {
        // The provider's own subscription object, as fetched from its API.
        Timestamp capturedAt = now;
        if (o.capturedAt)
            capturedAt = parseRfc3339(*o.capturedAt).value_or(now);
        if (o.providerKey.empty())
            throw UsageError("option --provider-key is required with --kind");
        snapshot = snapshotFromProviderObject(*kind, o.providerKey, json, capturedAt);
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

} // namespace

void registerSnapshotCommands(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<AttachOptions>();
    auto *group = tree.commandGroup(root, "snapshot",
        "attach: a provider snapshot, or --preview what it would change",
        commandGroups::kReconciliation);
    auto *app = tree.command(*group, "attach",
        "attach a provider snapshot (--reason R [--comment C]), or say with --preview what "
        "attaching would change and whether the case's renewal would be recorded",
        [o](const CommandContext &ctx) { return runAttach(ctx, *o); });
    inputFile(app, o->file, "the snapshot (or with --kind the provider's own subscription object)");
    option(app, "kind", o->kind, "KIND",
        "the file is the provider's subscription object of this kind: " + kindChoices())
        ->transform(providerKindName("--kind"));
    option(app, "provider-key", o->providerKey, "KEY", "with --kind: the provider key");
    option(app, "captured-at", o->capturedAt, "T",
        "with --kind: when it was fetched (RFC 3339; default now)")
        ->check(rfc3339("--captured-at"));
    option(app, "case", o->caseId, "ID", "the case the snapshot is for")
        ->transform(wholeNumber("--case", 1, std::numeric_limits<std::int64_t>::max()));
    option(app, "reason", o->reason, "R", reasonHelp() + "; required unless --preview");
    option(app, "comment", o->comment, "C", "a note");
    flag(app, "preview", o->preview, "change nothing: say what attaching would do");
    db(app);
    json(app);
}

} // namespace rd::cli
