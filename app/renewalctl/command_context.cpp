#include "app/renewalctl/command_context.h"

#include "domain/store/database_target.h"
#include "domain/store/migrator.h"

#include <mutex>
#include <set>

namespace rd::cli {
namespace {

/// Migrates the embedded database at `conninfo` the first time this process asks for it: a
/// command asks for its database more than once (its conninfo, then a connection), and each
/// migration run reads every migration file and checks every recorded checksum.
void migrateOncePerProcess(const std::string &conninfo)
{
    static std::mutex mutex;
    static std::set<std::string> migrated;
    const std::lock_guard lock(mutex);
    if (migrated.count(conninfo))
        return;
    migrateDatabase(conninfo);
    migrated.insert(conninfo);
}

} // namespace

std::string CommandContext::conninfo() const
{
    const auto target = resolveDatabase(args.value("db"));
    // The embedded database is ours: keep its schema current, as the desk does.
    if (target.embedded)
        migrateOncePerProcess(target.conninfo);
    return target.conninfo;
}

std::unique_ptr<DbSession> CommandContext::connect() const
{
    return std::make_unique<DbSession>(conninfo());
}

} // namespace rd::cli
