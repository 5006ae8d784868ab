#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/store/overdue_watch.h"
#include "domain/store/webhook_ingestor.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <iomanip>
#include <ostream>

namespace rd::cli {

int runProviders(const CommandContext &ctx)
{
    const auto &pos = ctx.args.positionals();
    constexpr const char *usage = "usage: renewalctl providers add KEY --kind KIND [--name NAME]"
                                  " | providers list [--json] | providers set-grace KEY HOURS";
    if (pos.size() == 4 && pos[1] == "set-grace") {
        errno = 0;
        char *end = nullptr;
        const long long hours = std::strtoll(pos[3].c_str(), &end, 10);
        if (errno != 0 || end == pos[3].c_str() || *end != '\0' || hours < 0
            || hours > kMaxOverdueGrace.count())
            throw UsageError("HOURS must be a whole number from 0 to "
                + std::to_string(kMaxOverdueGrace.count()) + ", not '" + pos[3] + "'");
        auto conn = ctx.connect();
        setOverdueGrace(*conn, pos[2], std::chrono::hours(hours));
        ctx.out << "provider " << pos[2] << ": overdue " << hours
                << " hours after a period end without its renewal\n";
        return ExitOk;
    }
    if (pos.size() == 3 && pos[1] == "add") {
        const std::optional<ProviderKind> kind = ctx.args.providerKind();
        auto conn = ctx.connect();
        const auto result
            = registerBillingProvider(*conn, pos[2], *kind, ctx.args.value("name").value_or(""));
        const std::string word = result == RegisterOutcome::Created ? "created" : "exists";
        if (ctx.json())
            ctx.out << nlohmann::json {{"result", word}, {"providerKey", pos[2]}}.dump() << "\n";
        else
            ctx.out << "provider " << pos[2] << ": "
                    << (result == RegisterOutcome::Created ? "created"
                                                           : "already registered, unchanged")
                    << "\n";
        return ExitOk;
    }
    if (pos.size() == 2 && pos[1] == "list") {
        auto conn = ctx.connect();
        const auto providers = listBillingProviders(*conn);
        if (ctx.json()) {
            for (const auto &p : providers)
                ctx.out << nlohmann::json {{"providerKey", p.key}, {"kind", toString(p.kind)},
                    {"displayName", p.displayName}, {"createdAt", p.createdAt}}
                               .dump()
                        << "\n";
        } else {
            for (const auto &p : providers)
                ctx.out << std::left << std::setw(24) << p.key << std::setw(14) << toString(p.kind)
                        << p.displayName << "\n";
        }
        return ExitOk;
    }
    throw UsageError(usage);
}

} // namespace rd::cli
