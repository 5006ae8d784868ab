#include "domain/store/prepared_database.h"

#include "domain/core/errors.h"
#include "domain/store/database_target.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/migrator.h"
#include "domain/store/postgres_tools.h"

#include <filesystem>
#include <optional>

namespace rd {
namespace {

/// The host of `conninfo` when libpq can read it (a string it cannot read is left to the
/// connection attempt, which says why).
std::string hostOf(const std::string &conninfo)
{
    try {
        for (const auto &[key, value] : parseConninfo(conninfo)) {
            if (key == "host")
                return value;
        }
    } catch (const InputError &) { }
    return {};
}

} // namespace

PreparedDatabase prepareDatabase(const std::string &conninfo)
{
    if (conninfo.empty()) {
        const auto target = resolveDatabase(std::nullopt);
        if (target.embedded)
            migrateDatabase(target.conninfo);
        return {target.conninfo, target.embedded, target.description};
    }
    // A database restored into a new embedded directory (the desk's File › Restore…) is saved
    // as its socket: after a reboot nothing runs there until it is started again, as the
    // default embedded cluster is.
    if (const std::string host = hostOf(conninfo); host.ends_with("/socket")) {
        const auto root = std::filesystem::path(host).parent_path();
        std::error_code ec;
        if (std::filesystem::exists(root / "data" / "PG_VERSION", ec))
            EmbeddedCluster(root).start();
    }
    checkConnects(conninfo); // fail early with libpq's reason
    return {conninfo, false, toolConnection(conninfo).description};
}

} // namespace rd
