#include "domain/store/prepared_database.h"

#include "domain/core/errors.h"
#include "domain/store/database_target.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/migrator.h"
#include "domain/store/postgres_tools.h"
#include "domain/store/roles.h"

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

/// The embedded database as its person (#42): their login made an owning operator
/// (grantOwner) by the cluster's superuser, and `conninfo` with `user` set to it, so that every
/// action, note, claim, close and backup records the person, not "postgres". A person whose
/// name is PostgreSQL's own (an account called postgres) is the superuser: nothing changes.
std::string asPerson(const std::string &ownerConninfo)
{
    const std::string person = personName();
    if (person.empty() || person == "postgres")
        return ownerConninfo;
    if (const std::string problem = personLoginProblem(person); !problem.empty())
        throw SetupError("the embedded database cannot record you as '" + person + "': " + problem
            + ". Set RENEWAL_DESK_PERSON to the name to record");
    try {
        DbSession owner(ownerConninfo);
        grantOwner(owner, person, /*ownerMayBeSuperuser=*/true);
    } catch (const InputError &e) {
        throw SetupError("the embedded database cannot record you as '" + person + "': " + e.what()
            + ". Set RENEWAL_DESK_PERSON to the name to record");
    }
    std::string out;
    for (const auto &[key, value] : parseConninfo(ownerConninfo)) {
        if (key != "user")
            out += key + "=" + conninfoValue(value) + " ";
    }
    return out + "user=" + conninfoValue(person);
}

} // namespace

PreparedDatabase prepareDatabase(const std::string &conninfo)
{
    if (conninfo.empty()) {
        const auto target = resolveDatabase(std::nullopt);
        if (!target.embedded)
            return {target.conninfo, false, target.description};
        migrateDatabase(target.conninfo); // as the owner, who owns what it creates
        return {asPerson(target.conninfo), true, target.description};
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
