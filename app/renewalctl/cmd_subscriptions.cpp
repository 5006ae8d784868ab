#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/store/subscription_import.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <ostream>
#include <unistd.h>

namespace rd::cli {

int runSubscriptions(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals();
    if (pos.size() < 2 || pos[1] != "import")
        throw UsageError("usage: renewalctl subscriptions import [FILE|-]");
    InputFile input(ctx.args.inputPath(2), ctx.in);
    auto conn = ctx.connect();
    const auto report
        = importSubscriptions(*conn, input.stream(), "uid:" + std::to_string(getuid()));
    if (ctx.json()) {
        ctx.out << nlohmann::json {{"lines", report.lines}, {"created", report.created},
            {"existing", report.existing}}
                       .dump()
                << "\n";
    } else {
        for (const auto &key : report.existing)
            ctx.out << "exists, not changed: " << key << "\n";
        ctx.out << report.created << " created, " << report.existing.size() << " already existed\n";
    }
    return ExitOk;
}

} // namespace rd::cli
