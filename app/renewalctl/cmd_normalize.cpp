#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/core/adapters/normalization.h"
#include "domain/core/errors.h"

#include <nlohmann/json.hpp>

#include <istream>
#include <iterator>
#include <ostream>

namespace rd::cli {
namespace {

struct NormalizeOptions
{
    ProviderKind kind = ProviderKind::Stripe; // --kind is required
    std::optional<std::string> providerKey;
    std::string file;
};

int runNormalize(const CommandContext &ctx, const NormalizeOptions &o)
{
    // The adapter alone, no database: what would ingest make of this payload?
    InputFile input(o.file, ctx.in);
    const std::string body {
        std::istreambuf_iterator<char>(input.stream()), std::istreambuf_iterator<char>()};
    const auto key = o.providerKey.value_or(toString(o.kind));
    const NormalizeResult n = normalizePayload(o.kind, key, body);
    ctx.out << toJson(n).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return n.outcome == NormalizeOutcome::Invalid ? ExitDataError : ExitOk;
}

} // namespace

void registerNormalizeCommand(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<NormalizeOptions>();
    auto *app = tree.command(
        root, "normalize", "run an adapter only (no database)",
        [o](const CommandContext &ctx) { return runNormalize(ctx, *o); }, commandGroups::kWebhooks);
    option(app, "kind", o->kind, "KIND", "the adapter: " + kindChoices())
        ->required()
        ->transform(providerKindName("--kind"));
    option(app, "provider-key", o->providerKey, "KEY",
        "the provider key to put in the event (default: KIND)");
    inputFile(app, o->file, "the payload");
}

} // namespace rd::cli
