#include "domain/store/database_move.h"

#include "domain/core/errors.h"
#include "domain/core/timestamp.h"
#include "domain/store/audit_verification.h"
#include "domain/store/database_target.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/internal/pqxx_session.h"
#include "domain/store/migrator.h"
#include "domain/store/postgres_tools.h"
#include "domain/store/roles.h"

#include <libpq-fe.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <fstream>
#include <memory>
#include <sstream>
#include <utility>

namespace fs = std::filesystem;

namespace rd {
namespace {

using Settings = ConninfoSettings;

std::string valueOf(const Settings &settings, const std::string &key)
{
    for (const auto &[k, v] : settings) {
        if (k == key)
            return v;
    }
    return {};
}

std::string quoted(const std::string &value)
{
    bool plain = !value.empty();
    for (const char c : value)
        plain = plain && c != ' ' && c != '\'' && c != '\\' && c != '=';
    if (plain)
        return value;
    std::string out = "'";
    for (const char c : value) {
        if (c == '\'' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "'";
}

std::string joined(const Settings &settings)
{
    std::string out;
    for (const auto &[key, value] : settings) {
        if (key != "password")
            out += (out.empty() ? "" : " ") + key + "=" + quoted(value);
    }
    return out;
}

/// "host=db.example port=5432 dbname=renewal_desk user=finance": what people need to know
/// which server it is.
std::string describe(const Settings &settings)
{
    Settings shown;
    for (const char *key : {"host", "hostaddr", "port", "dbname", "user"}) {
        if (auto v = valueOf(settings, key); !v.empty())
            shown.emplace_back(key, v);
    }
    return joined(shown);
}

std::string now()
{
    auto s = formatRfc3339(Timestamp::now());
    // Seconds are enough for people; the backup file carries the exact snapshot time.
    if (const auto dot = s.find('.'); dot != std::string::npos)
        s = s.substr(0, dot) + "Z";
    return s;
}

/// Stops the embedded cluster again on the way out when the move had to start it.
class LeaveAsItWas
{
public:
    LeaveAsItWas(EmbeddedCluster &cluster, bool wasRunning)
        : m_cluster(cluster), m_wasRunning(wasRunning)
    { }
    ~LeaveAsItWas()
    {
        if (m_wasRunning)
            return;
        try {
            m_cluster.stop();
        } catch (...) {
            // It keeps running: harmless, and `renewalctl db stop` stops it.
        }
    }
    LeaveAsItWas(const LeaveAsItWas &) = delete;
    LeaveAsItWas &operator=(const LeaveAsItWas &) = delete;

private:
    EmbeddedCluster &m_cluster;
    bool m_wasRunning;
};

/// The target must be a database with nothing in it: restoring next to other tables would mix
/// two applications, and over a Renewal Desk database would lose one of the two.
void checkTargetEmpty(pqxx::connection &server, const std::string &where)
{
    pqxx::read_transaction tx(server);
    const auto tables = tx.exec(
        "SELECT pg_catalog.quote_ident(n.nspname) || '.' || pg_catalog.quote_ident(c.relname) "
        "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') "
        "AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
        "AND n.nspname !~ '^pg_(toast|temp_)' ORDER BY 1");
    if (tables.empty())
        return;
    const bool ours = !tx.exec("SELECT 1 FROM pg_catalog.pg_class "
                               "WHERE oid = pg_catalog.to_regclass('public.schema_migrations')")
                           .empty();
    if (ours) {
        const auto version = tx.exec1("SELECT coalesce(max(version)::text, 'none') "
                                      "FROM public.schema_migrations")[0]
                                 .as<std::string>();
        throw MoveRefused("the target database (" + where
            + ") already holds a Renewal Desk database (newest migration " + version
            + "): move into an empty database, e.g. one made with createdb; nothing was copied "
              "or switched");
    }
    std::string some;
    for (pqxx::result::size_type i = 0; i < tables.size() && i < 3; ++i)
        some += (i ? ", " : "") + tables[i][0].as<std::string>();
    throw MoveRefused("the target database (" + where + ") is not empty: it holds "
        + std::to_string(tables.size()) + " table(s) or other relation(s) (" + some
        + (tables.size() > 3 ? ", ..." : "")
        + "): move into an empty database, e.g. one made with createdb; nothing was copied or "
          "switched");
}

/// pg_restore creates the schema's tables, functions and the pg_trgm extension (trusted):
/// the login needs CREATE on the database and on schema public, as its owner has.
void checkTargetWritable(pqxx::connection &server, const std::string &where)
{
    pqxx::read_transaction tx(server);
    const auto r = tx.exec1("SELECT session_user::text, pg_catalog.current_database()::text, "
                            "pg_catalog.has_database_privilege(pg_catalog.current_database(), "
                            "'CREATE'), pg_catalog.has_schema_privilege('public', 'CREATE')");
    if (r[2].as<bool>() && r[3].as<bool>())
        return;
    const auto login = r[0].as<std::string>();
    const auto database = r[1].as<std::string>();
    throw MoveRefused("the login " + login + " may not create "
        + (r[2].as<bool>() ? "tables in schema public" : "objects") + " in database " + database
        + " (" + where + "): make it the database's owner (ALTER DATABASE " + database
        + " OWNER TO " + login
        + ") or move into a database it owns; nothing was copied or "
          "switched");
}

std::string listed(const std::vector<std::string> &items)
{
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

void checkRolesPossible(pqxx::connection &server)
{
    const auto check = checkGroupRoles(server);
    if (check.complete() || check.mayCreateRoles)
        return;
    std::vector<std::string> missing = check.missingRoles;
    for (const auto &grant : check.missingGrants)
        missing.push_back("the grant of " + grant);
    throw MoveRefused("the server lacks " + listed(missing) + ", and the login " + check.login
        + " may not create roles (it has no CREATEROLE): ask the server's administrator to run "
          "'renewalctl roles check --create' there as a login that may, or to grant "
        + check.login + " CREATEROLE; nothing was copied or switched");
}

/// Anyone still connected to the embedded database could write to it after the snapshot, and
/// what they write would stay behind.
void checkEmbeddedIdle(const std::string &embedded)
{
    auto conn = connectTo(embedded);
    pqxx::read_transaction tx(*conn);
    const auto others = tx.exec(
        "SELECT coalesce(nullif(application_name, ''), 'a program') FROM "
        "pg_catalog.pg_stat_activity "
        "WHERE datname = pg_catalog.current_database() AND pid <> pg_catalog.pg_backend_pid() "
        "AND backend_type = 'client backend' ORDER BY 1");
    if (others.empty())
        return;
    std::vector<std::string> names;
    for (const auto &row : others) {
        const auto name = row[0].as<std::string>();
        if (names.empty() || names.back() != name)
            names.push_back(name);
    }
    throw MoveRefused(std::to_string(others.size())
        + " other connection(s) use the embedded database (" + listed(names)
        + "): close the desk and stop 'renewalctl serve' and the timers first, so that nothing "
          "is written after the copy; nothing was copied or switched");
}

/// The custom parameters (renewal_desk.core_counts, ...) the schema's functions set: creating
/// such a function needs the right to set them, which PostgreSQL 15 gives superusers only
/// unless granted (GRANT SET ON PARAMETER).
std::vector<std::string> customParametersOf(const std::string &embedded)
{
    auto conn = connectTo(embedded);
    pqxx::read_transaction tx(*conn);
    std::vector<std::string> names;
    for (const auto &row :
        tx.exec("SELECT DISTINCT pg_catalog.split_part(c, '=', 1) FROM pg_catalog.pg_proc p, "
                "pg_catalog.unnest(p.proconfig) c WHERE p.pronamespace = 'public'::regnamespace "
                "AND pg_catalog.split_part(c, '=', 1) LIKE '%.%' ORDER BY 1"))
        names.push_back(row[0].as<std::string>());
    return names;
}

void checkParametersSettable(pqxx::connection &server, const std::vector<std::string> &names)
{
    if (server.server_version() < 150000 || names.empty())
        return;
    pqxx::read_transaction tx(server);
    std::vector<std::string> denied;
    for (const auto &name : names) {
        if (!tx.exec_params1("SELECT pg_catalog.has_parameter_privilege($1, 'SET')", name)[0]
                 .as<bool>())
            denied.push_back(name);
    }
    if (denied.empty())
        return;
    const std::string login = server.username();
    std::string grants;
    for (const auto &name : denied)
        grants += (grants.empty() ? "" : "; ") + std::string("GRANT SET ON PARAMETER ") + name
            + " TO " + login;
    throw MoveRefused("the login " + login + " may not set " + listed(denied)
        + ", which the desk's functions set (PostgreSQL 15 leaves that to superusers unless "
          "granted): ask the server's administrator to run "
        + grants + "; nothing was copied or switched");
}

/// Whether the embedded database still is what the backup holds: every audit chain's head as
/// in the backup's anchor, and no new chain.
bool embeddedUnchanged(const std::string &embedded, const BackupManifest &manifest)
{
    std::istringstream anchor(manifest.anchor);
    if (!checkAuditAnchor(embedded, anchor, 1).matches())
        return false;
    std::ostringstream now;
    return exportAuditAnchor(embedded, now, AnchorLayout::Compact) == manifest.anchorHeads;
}

/// The connection string the desk and renewalctl will use: --to without its password, with
/// the server, port, database and login the connection used spelled out, so that it means the
/// same server whatever PGUSER or PGDATABASE say later.
std::string savedConninfo(const Settings &given, pqxx::connection &server)
{
    Settings saved;
    for (const auto &[key, value] : given) {
        if (key != "password")
            saved.emplace_back(key, value);
    }
    auto add = [&](const char *key, const char *value) {
        if (value && *value && valueOf(saved, key).empty())
            saved.emplace_back(key, value);
    };
    if (valueOf(saved, "hostaddr").empty())
        add("host", server.hostname());
    add("port", server.port());
    add("dbname", server.dbname());
    add("user", server.username());
    return joined(saved);
}

void writeMarker(const fs::path &dataDir, const MovedTo &m)
{
    const nlohmann::json doc {{"format", 1}, {"conninfo", m.conninfo}, {"server", m.server},
        {"movedAt", m.movedAt}, {"backupFile", m.backupFile}, {"schemaVersion", m.schemaVersion},
        {"note",
            "Renewal Desk moved this embedded database to the server above. Delete this file "
            "(or run 'renewalctl db move --undo') to use the embedded cluster again."}};
    const auto marker = movedToMarker(dataDir);
    const auto temporary = fs::path(marker.string() + ".new");
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << doc.dump(2) << "\n";
        out.close();
        if (!out)
            throw DatabaseUnavailable("cannot write " + temporary.string());
    }
    fs::rename(temporary, marker);
}

} // namespace

fs::path movedToMarker(const fs::path &dataDir)
{
    return dataDir / "moved-to.json";
}

std::optional<MovedTo> readMovedTo(const fs::path &dataDir)
{
    const auto marker = movedToMarker(dataDir);
    std::error_code ec;
    if (!fs::exists(marker, ec))
        return std::nullopt;
    const auto unreadable = [&](const std::string &why) {
        return DatabaseUnavailable("the embedded database was moved to a server, but "
            + marker.string() + " " + why
            + ": repair it, or delete it to use the embedded cluster (its data as of the move) "
              "again");
    };
    std::ifstream in(marker);
    if (!in)
        throw unreadable("cannot be read");
    try {
        const auto doc = nlohmann::json::parse(in);
        MovedTo m;
        m.conninfo = doc.at("conninfo").get<std::string>();
        m.server = doc.value("server", std::string());
        m.movedAt = doc.value("movedAt", std::string());
        m.backupFile = doc.value("backupFile", std::string());
        m.schemaVersion = doc.value("schemaVersion", std::string());
        if (m.conninfo.empty())
            throw unreadable("names no server");
        if (m.server.empty())
            m.server = describe(parseConninfo(m.conninfo));
        return m;
    } catch (const nlohmann::json::exception &) {
        throw unreadable("is not the JSON 'renewalctl db move' writes");
    } catch (const InputError &) {
        throw unreadable("holds a connection string libpq cannot read");
    }
}

std::string conninfoWithoutPassword(const std::string &conninfo)
{
    return joined(parseConninfo(conninfo));
}

MoveReport moveDatabase(const MoveOptions &options)
{
    const auto step = [&](const std::string &what) {
        if (options.onStep)
            options.onStep(what);
    };
    const auto &dataDir = options.dataDir;
    if (const auto moved = readMovedTo(dataDir))
        throw MoveRefused("the embedded database in " + dataDir.string() + " was moved to "
            + moved->server + " on " + moved->movedAt
            + " already: run 'renewalctl db move --undo' first to move it again");
    EmbeddedCluster cluster(dataDir);
    const auto state = cluster.state();
    if (state == EmbeddedCluster::State::NotInitialized)
        throw MoveRefused(
            "there is no embedded database in " + dataDir.string() + ": nothing to move");

    const Settings given = parseConninfo(options.target);
    const std::string password = valueOf(given, "password");
    MoveReport report;
    report.server = describe(given);

    step("checking the server " + report.server);
    std::unique_ptr<pqxx::connection> server;
    try {
        server = connectTo(options.target);
    } catch (const DatabaseUnavailable &e) {
        throw DatabaseUnavailable(scrubbedOf(
            std::string("the server given with --to: ") + e.what(), password, "(password)"));
    }
    checkTargetEmpty(*server, report.server);
    checkTargetWritable(*server, report.server);
    checkRolesPossible(*server);
    const std::string saved = savedConninfo(given, *server);
    report.server = describe(parseConninfo(saved));

    LeaveAsItWas leave(cluster, state == EmbeddedCluster::State::Running);
    cluster.start();
    const std::string embedded = cluster.connectionString();
    migrateDatabase(embedded); // the server gets the program's schema, as the desk keeps it
    checkEmbeddedIdle(embedded);
    checkParametersSettable(*server, customParametersOf(embedded));

    const auto backupDir = dataDir / "backups";
    fs::create_directories(backupDir);
    step("backing up the embedded database into " + backupDir.string());
    BackupOptions backupOptions;
    backupOptions.onProgress = options.onProgress;
    backupOptions.cancel = options.cancel;
    // The directory, not a name: the backup picks a fresh one there (a backup taken in the
    // same second, e.g. by the desk just before, keeps its file).
    const auto backup = backupDatabase(embedded, backupDir, backupOptions);
    report.backupFile = backup.file;
    report.backupBytes = backup.fileBytes;

    step("creating the group roles on the server where missing");
    ensureGroupRoles(*server, &report.rolesCreated);
    server.reset(); // the restore opens its own connections

    step("restoring " + backup.file.string() + " into " + report.server);
    RestoreOptions restoreOptions;
    restoreOptions.onProgress = options.onProgress;
    restoreOptions.cancel = options.cancel;
    report.restore = restoreDatabase(backup.file, options.target, restoreOptions);

    step("checking the group roles on the server");
    {
        auto conn = connectTo(options.target);
        const auto roles = ensureGroupRoles(*conn, &report.rolesCreated);
        report.roleProblems = roles.missingRoles;
        for (const auto &grant : roles.missingGrants)
            report.roleProblems.push_back("the grant of " + grant);
    }
    report.embeddedChanged = !embeddedUnchanged(embedded, backup.manifest);
    if (!report.verified())
        return report;

    MovedTo movedTo;
    movedTo.conninfo = saved;
    movedTo.server = report.server;
    movedTo.movedAt = now();
    movedTo.backupFile = backup.file.string();
    movedTo.schemaVersion = backup.manifest.schemaVersion;
    step("switching the desk and renewalctl to " + report.server);
    writeMarker(dataDir, movedTo);
    report.switched = true;
    report.movedTo = movedTo;
    try {
        checkConnects(saved);
        report.savedConnectionConnects = true;
    } catch (const DatabaseUnavailable &e) {
        report.savedConnectionError = scrubbedOf(e.what(), password, "(password)");
    }
    return report;
}

std::optional<MovedTo> undoMove(const fs::path &dataDir)
{
    std::optional<MovedTo> moved;
    try {
        moved = readMovedTo(dataDir);
    } catch (const DatabaseUnavailable &) {
        moved = MovedTo {}; // unreadable: deleting it is the way out
    }
    if (!moved)
        return std::nullopt;
    fs::remove(movedToMarker(dataDir));
    return moved;
}

} // namespace rd
