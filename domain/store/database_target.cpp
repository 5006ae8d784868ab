#include "domain/store/database_target.h"

#include "domain/core/errors.h"
#include "domain/store/database_move.h"
#include "domain/store/embedded_cluster.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

#include <cstdlib>

namespace rd {

DatabaseTarget resolveDatabase(const std::optional<std::string> &db, bool startEmbedded)
{
    if (db)
        return {*db, false, "the server given with --db"};
    for (const char *var : {"PGHOST", "PGHOSTADDR", "PGDATABASE", "PGSERVICE", "PGPORT"}) {
        if (const char *v = std::getenv(var); v && *v)
            return {
                "", false, std::string("the server named by the PG* environment (") + var + ")"};
    }
    const auto root = EmbeddedCluster::defaultRoot();
    // `renewalctl db move` left a marker: the embedded cluster's data now lives on a server.
    // Its copy here is as of the move and no longer written: never fall back to it.
    if (const auto moved = readMovedTo(root))
        return {
            moved->conninfo, false, "moved to server " + moved->server + " on " + moved->movedAt};
    EmbeddedCluster cluster(root);
    if (startEmbedded)
        cluster.start();
    return {cluster.connectionString(), true, "the embedded cluster in " + cluster.root().string()};
}

std::unique_ptr<pqxx::connection> connectTo(const std::string &conninfo)
{
    try {
        return std::make_unique<pqxx::connection>(conninfo);
    } catch (const pqxx::broken_connection &e) {
        // libpq's reasons span lines ("...\n\tIs the server running..."): make it one.
        std::string reason;
        for (const char c : std::string(e.what())) {
            if (c == '\n' || c == '\t') {
                if (!reason.empty() && reason.back() != ' ')
                    reason += ' ';
            } else {
                reason += c;
            }
        }
        while (!reason.empty() && reason.back() == ' ')
            reason.pop_back();
        throw DatabaseUnavailable("cannot connect to the database: " + reason);
    } catch (const std::invalid_argument &e) {
        throw DatabaseUnavailable(std::string("invalid connection string: ") + e.what());
    }
}

void checkConnects(const std::string &conninfo)
{
    connectTo(conninfo);
}

std::string withConnectTimeout(const std::string &conninfo, int seconds)
{
    if (conninfo.find("connect_timeout") != std::string::npos
        || std::getenv("PGCONNECT_TIMEOUT") != nullptr)
        return conninfo;
    const std::string value = "connect_timeout=" + std::to_string(seconds);
    if (conninfo.starts_with("postgresql://") || conninfo.starts_with("postgres://"))
        return conninfo + (conninfo.find('?') == std::string::npos ? "?" : "&") + value;
    return conninfo.empty() ? value : conninfo + " " + value;
}

} // namespace rd
