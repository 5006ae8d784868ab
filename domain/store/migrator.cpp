#include "domain/store/migrator.h"

#include "domain/store/database_target.h"

#include "domain/core/errors.h"
#include "domain/core/sha256.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

namespace fs = std::filesystem;

namespace rd {
namespace {

// Serializes migrators: the first SHARE ROW EXCLUSIVE lock of schema_migrations waits for the
// other's commit. Taking it needs UPDATE, DELETE or TRUNCATE on the table, which only its owner
// has; an advisory lock (what this was) can be taken by any login role, and a viewer holding
// it would stall every upgrade.
void lockMigrations(pqxx::work &tx)
{
    tx.exec0("LOCK TABLE schema_migrations IN SHARE ROW EXCLUSIVE MODE");
}

void createMigrationsTable(pqxx::connection &conn)
{
    for (int attempt = 1;; ++attempt) {
        try {
            pqxx::work tx(conn);
            tx.exec0("CREATE TABLE IF NOT EXISTS schema_migrations ("
                     " version integer PRIMARY KEY,"
                     " name text NOT NULL,"
                     " checksum text NOT NULL,"
                     " applied_at timestamptz NOT NULL DEFAULT now())");
            tx.commit();
            return;
        } catch (const pqxx::sql_error &e) {
            // Two first runs created it at once: IF NOT EXISTS does not serialize them, and the
            // later one is told by the catalog's unique index (23505) or, when it gets as far as
            // the row type, "type schema_migrations already exists" (42710). It exists now.
            const std::string state = e.sqlstate();
            if (attempt >= 2 || (state != "23505" && state != "42710" && state != "42P07"))
                throw;
        }
    }
}

std::string readFile(const fs::path &path, const char *what)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    if (!in)
        throw SetupError(std::string("cannot read ") + what + " " + path.string());
    return content.str();
}

/// Each repeatable definition's recorded checksum, by name (none before the table exists).
std::map<std::string, std::string> recordedRepeatableSums(pqxx::transaction_base &tx)
{
    std::map<std::string, std::string> sums;
    if (tx.exec1("SELECT to_regclass('public.schema_repeatables') IS NULL")[0].as<bool>())
        return sums;
    for (const auto &row : tx.exec("SELECT name, checksum FROM public.schema_repeatables"))
        sums[row[0].as<std::string>()] = row[1].as<std::string>();
    return sums;
}

/// One definition file. A function's file grants before it defines (docs/migrations.md, rule
/// 3), and its grants find nothing when the function does not exist: new, or dropped by a
/// numbered file just now (a signature change, a DROP ... CASCADE). Then the definition runs
/// alone first, and the whole file after it, so that the grants are made and the definition is
/// still the last write of the function's pg_proc row (else its argument arrays are stored
/// compressed, and every call decompresses them).
void applyDefinition(pqxx::work &tx, const RepeatableFile &r)
{
    try {
        pqxx::subtransaction attempt(tx, "definition");
        attempt.exec(r.sql);
        attempt.commit();
        return;
    } catch (const pqxx::undefined_function &) {
        // Rolled back to before the file; the definition is what follows the grants.
    }
    const auto definition = r.sql.find("\nCREATE OR REPLACE FUNCTION ");
    if (definition == std::string::npos)
        throw SetupError("repeatable definition " + r.name
            + " names a function that does not exist, and defines none");
    tx.exec(r.sql.substr(definition + 1));
    tx.exec(r.sql);
}

// The repeatable definitions whose checksum differs from the recorded one (all of them when
// `all`), applied in `tx`, which holds the migrations lock; returns their names. The table is
// created here, under the lock, rather than beside schema_migrations: a run of versioned files
// alone (a test migrating to an old version) leaves the schema as those files made it.
std::vector<std::string> applyRepeatables(pqxx::work &tx,
    const std::vector<RepeatableFile> &repeatables, const std::map<std::string, std::string> &sums,
    bool all)
{
    tx.exec0("CREATE TABLE IF NOT EXISTS public.schema_repeatables ("
             " name text PRIMARY KEY,"
             " checksum text NOT NULL,"
             " applied_at timestamptz NOT NULL DEFAULT now())");
    // Readable by whoever may read the schema's history, as schema_migrations is (0003's
    // grant to the viewer predates this table): a viewer's backup counts every table.
    tx.exec0("GRANT SELECT ON public.schema_repeatables TO renewal_viewer");
    const auto recorded = recordedRepeatableSums(tx);
    std::vector<std::string> applied;
    for (const auto &r : repeatables) {
        const std::string &sum = sums.at(r.name);
        const auto found = recorded.find(r.name);
        if (!all && found != recorded.end() && found->second == sum)
            continue;
        try {
            applyDefinition(tx, r);
        } catch (const pqxx::sql_error &e) {
            throw SetupError("repeatable definition " + r.name + " failed: " + e.what());
        }
        tx.exec_params0("INSERT INTO public.schema_repeatables (name, checksum) VALUES ($1, $2)"
                        " ON CONFLICT (name) DO UPDATE"
                        " SET checksum = excluded.checksum, applied_at = excluded.applied_at",
            r.name, sum);
        applied.push_back(r.name);
    }
    return applied;
}

} // namespace

fs::path defaultMigrationsDir()
{
    if (const char *env = std::getenv("RENEWAL_DESK_MIGRATIONS"); env && *env)
        return env;
    std::error_code ec;
    // An installed program finds its migrations next to its prefix.
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed
            = self.parent_path().parent_path() / "share" / "renewal-desk" / "migrations";
        if (fs::is_directory(installed, ec))
            return installed;
    }
    const fs::path configured = fs::path(RD_INSTALLED_DATA_DIR) / "migrations";
    const fs::path source = RD_SOURCE_MIGRATIONS_DIR;
    if (fs::is_directory(source, ec))
        return source;
    return configured;
}

std::vector<MigrationFile> loadMigrations(const fs::path &dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw SetupError("migrations directory " + dir.string() + " does not exist");
    std::map<int, MigrationFile> byVersion;
    for (const auto &entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() != ".sql")
            continue;
        std::size_t digits = 0;
        while (digits < name.size() && name[digits] >= '0' && name[digits] <= '9')
            ++digits;
        if (digits == 0 || digits > 6 || name[digits] != '_')
            throw SetupError("migration file " + name + " must be named NNNN_description.sql");
        const int version = std::stoi(name.substr(0, digits));
        auto [it, inserted] = byVersion.emplace(
            version, MigrationFile {version, name, readFile(entry.path(), "migration")});
        if (!inserted)
            throw SetupError(
                "migrations " + it->second.name + " and " + name + " have the same version number");
    }
    if (ec)
        throw SetupError("cannot list " + dir.string() + ": " + ec.message());
    std::vector<MigrationFile> out;
    for (auto &[version, file] : byVersion)
        out.push_back(std::move(file));
    return out;
}

std::vector<RepeatableFile> loadRepeatables(const fs::path &dir)
{
    std::error_code ec;
    const fs::path list = dir / "repeatables.txt";
    if (!fs::exists(list, ec))
        return {};
    std::vector<RepeatableFile> out;
    std::set<std::string> listed;
    std::istringstream lines(readFile(list, "the list of repeatable definitions"));
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line.front() == '#')
            continue;
        if (!listed.insert(line).second)
            throw SetupError("repeatables.txt lists " + line + " twice");
        out.push_back({line, readFile(dir / line, "repeatable definition")});
    }
    // A definition that is not listed would silently never be applied.
    for (const char *kind : {"functions", "views"}) {
        if (!fs::is_directory(dir / kind, ec))
            continue; // none of this kind
        for (const auto &entry : fs::directory_iterator(dir / kind, ec)) {
            const std::string name = std::string(kind) + "/" + entry.path().filename().string();
            if (entry.path().extension() == ".sql" && !listed.count(name))
                throw SetupError("repeatable definition " + name
                    + " is not listed in repeatables.txt (docs/migrations.md)");
        }
        if (ec)
            throw SetupError("cannot list " + (dir / kind).string() + ": " + ec.message());
    }
    return out;
}

MigrationReport migrate(DbRef db, const std::vector<MigrationFile> &files,
    const std::vector<RepeatableFile> &repeatables)
{
    pqxx::connection &conn = pqxxOf(db);
    createMigrationsTable(conn);

    std::map<int, std::pair<std::string, std::string>> recorded; // version -> (name, checksum)
    {
        pqxx::read_transaction tx(conn);
        for (const auto &row : tx.exec("SELECT version, name, checksum FROM schema_migrations"))
            recorded[row[0].as<int>()] = {row[1].as<std::string>(), row[2].as<std::string>()};
    }

    // Check everything before applying anything: a changed history is a setup problem that
    // a half-applied schema would only make worse.
    std::map<int, std::string> checksums;
    std::map<std::string, std::string> repeatableSums;
    // The checksums are the server's encode(sha256(...), 'hex') that older versions recorded:
    // computed here, without a round trip a file at every program start.
    for (const auto &f : files)
        checksums[f.version] = sha256Hex(f.sql);
    for (const auto &r : repeatables)
        repeatableSums[r.name] = sha256Hex(r.sql);
    bool repeatablesCurrent = true; // every repeatable recorded with its checksum
    if (!repeatables.empty()) {
        pqxx::read_transaction tx(conn);
        const auto recordedSums = recordedRepeatableSums(tx);
        for (const auto &[name, sum] : repeatableSums) {
            const auto found = recordedSums.find(name);
            if (found == recordedSums.end() || found->second != sum)
                repeatablesCurrent = false;
        }
    }
    for (const auto &[version, entry] : recorded) {
        const auto file = std::find_if(
            files.begin(), files.end(), [v = version](const auto &f) { return f.version == v; });
        if (file == files.end())
            throw SetupError("the database has migration " + entry.first
                + " applied, which this program does not have: it is newer than "
                  "this program");
        if (checksums[version] != entry.second)
            throw SetupError("migration " + file->name
                + " was changed after it was applied to this database (recorded "
                  "checksum "
                + entry.second.substr(0, 12) + "…, file " + checksums[version].substr(0, 12)
                + "…); restore the file and put the change in a new migration");
    }

    MigrationReport report;
    bool repeatablesDone = repeatables.empty();
    for (const auto &f : files) {
        if (recorded.count(f.version)) {
            ++report.alreadyApplied;
            continue;
        }
        // Group roles are the cluster's, not the database's: two databases of a new cluster
        // migrated at once both find a role missing and create it, and the second CREATE ROLE
        // fails once the first commits (the schema_migrations lock is per database). Its
        // transaction rolled back whole, so the migration runs again and finds the role.
        for (int attempt = 1;; ++attempt) {
            pqxx::work tx(conn);
            lockMigrations(tx);
            // Another migrator may have applied it while this one waited for the lock.
            if (!tx.exec_params("SELECT 1 FROM schema_migrations WHERE version = $1", f.version)
                     .empty()) {
                ++report.alreadyApplied;
                break;
            }
            try {
                tx.exec(f.sql);
            } catch (const pqxx::sql_error &e) {
                const bool roleRace = (e.sqlstate() == "23505" || e.sqlstate() == "42710")
                    && std::string_view(e.what()).find("CREATE ROLE") != std::string_view::npos;
                if (roleRace && attempt < 3)
                    continue;
                throw SetupError("migration " + f.name + " failed: " + e.what());
            }
            tx.exec_params0(
                "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                f.version, f.name, checksums[f.version]);
            // The last versioned file carries the repeatable definitions into its commit: all
            // of them, since a versioned file may have dropped any (a signature change, a
            // DROP ... CASCADE) and only re-creating them all puts back what it took.
            std::vector<std::string> reapplied;
            if (&f == &files.back() && !repeatables.empty())
                reapplied = applyRepeatables(tx, repeatables, repeatableSums, true);
            tx.commit();
            report.applied.push_back(f.name);
            if (&f == &files.back() && !repeatables.empty()) {
                report.reapplied = std::move(reapplied);
                repeatablesDone = true;
            }
            break;
        }
    }
    // No versioned file to carry them (or another migrator applied the last one): the changed
    // definitions alone, in a transaction of their own under the same lock. A database whose
    // definitions are all current takes no lock at all, as before.
    if (!repeatablesDone && !repeatablesCurrent) {
        pqxx::work tx(conn);
        lockMigrations(tx);
        auto reapplied = applyRepeatables(tx, repeatables, repeatableSums, false);
        tx.commit();
        report.reapplied = std::move(reapplied);
    }
    return report;
}

MigrationReport migrateDatabase(const std::string &conninfo)
{
    auto conn = connectTo(conninfo);
    const fs::path dir = defaultMigrationsDir();
    return migrate(*conn, loadMigrations(dir), loadRepeatables(dir));
}

} // namespace rd
