#include "app/renewalctl/command_context.h"
#include "domain/core/adapters/normalization.h"
#include "domain/core/errors.h"

#include <nlohmann/json.hpp>

#include <istream>
#include <iterator>
#include <ostream>

namespace rd::cli {

int runNormalize(const CommandContext &ctx)
{
    // The adapter alone, no database: what would ingest make of this payload?
    const std::optional<ProviderKind> kind = ctx.args.providerKind();
    InputFile input(ctx.args.inputPath(1), ctx.in);
    const std::string body {
        std::istreambuf_iterator<char>(input.stream()), std::istreambuf_iterator<char>()};
    const auto key = ctx.args.value("provider-key").value_or(toString(*kind));
    const NormalizeResult n = normalizePayload(*kind, key, body);
    ctx.out << toJson(n).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return n.outcome == NormalizeOutcome::Invalid ? ExitDataError : ExitOk;
}

} // namespace rd::cli
