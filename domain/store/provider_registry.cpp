#include "domain/store/provider_registry.h"

#include "domain/core/errors.h"
#include "domain/store/action_refused.h"
#include "domain/store/database_errors.h"
#include "domain/store/database_target.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

namespace rd {

RegisterOutcome registerBillingProvider(
    DbRef db, const std::string &key, ProviderKind kind, const std::string &displayName)
{
    pqxx::connection &conn = pqxxOf(db);
    pqxx::nontransaction tx(conn);
    try {
        const auto r = tx.exec_params1("SELECT register_billing_provider($1, $2, $3)", key,
            toString(kind), displayName.empty() ? std::optional<std::string>() : displayName);
        return r[0].as<std::string>() == "created" ? RegisterOutcome::Created
                                                   : RegisterOutcome::Exists;
    } catch (const pqxx::check_violation &) {
        throw InputError("provider key",
            "'" + key
                + "' is not a valid provider key (lower-case letters, digits, '-', '_', '.'; at "
                  "most 63)");
    } catch (const pqxx::sql_error &e) {
        if (const auto refused = refusalFromError(e.sqlstate(), e.what());
            refused && refused->refusal() == Refusal::ProviderExists)
            throw InputError("provider key", refused->what());
        throw;
    }
}

std::vector<BillingProvider> listBillingProviders(DbRef db)
{
    pqxx::connection &conn = pqxxOf(db);
    pqxx::read_transaction tx(conn);
    std::vector<BillingProvider> out;
    for (const auto &row :
        tx.exec("SELECT provider_key, kind, display_name, rd_rfc3339(created_at) "
                "FROM billing_providers ORDER BY provider_key")) {
        BillingProvider p;
        p.key = row[0].as<std::string>();
        p.kind = providerKindFromString(row[1].as<std::string>()).value_or(ProviderKind::Stripe);
        p.displayName = row[2].as<std::string>();
        p.createdAt = row[3].as<std::string>();
        out.push_back(std::move(p));
    }
    return out;
}

std::vector<BillingProvider> listBillingProviders(const std::string &conninfo)
{
    // The receiver's way in: what libpqxx throws leaves as rd:: types.
    return translatingDatabaseErrors([&] {
        const auto conn = connectTo(conninfo);
        return listBillingProviders(*conn);
    });
}

std::optional<ProviderKind> providerKindOf(DbRef db, const std::string &key)
{
    pqxx::connection &conn = pqxxOf(db);
    for (const auto &p : listBillingProviders(conn))
        if (p.key == key)
            return p.kind;
    return std::nullopt;
}

} // namespace rd
