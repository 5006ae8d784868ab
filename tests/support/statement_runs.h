#pragma once

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <string>
#include <vector>

namespace rdtest {

/// A SuccessfulRenewalEvent of stripe-main as a statement line carries it (tst_cli's shape),
/// paid at the period's start.
inline nlohmann::json statementEvent(const std::string &renewalKey, const std::string &start,
    const std::string &end, long long amount = 1999, const std::string &subscription = "sub_1",
    const std::string &currency = "USD")
{
    return {{"providerKey", "stripe-main"}, {"providerEventId", "statement:" + renewalKey},
        {"providerSubscriptionId", subscription}, {"providerRenewalKey", renewalKey},
        {"providerVersion", nullptr}, {"period", {{"start", start}, {"end", end}}},
        {"paidAmountMinor", amount}, {"currency", currency}, {"paidAt", start}};
}

/// Imports a statement of stripe-main covering `from`..`to` (UTC days, inclusive) as the lead's
/// `renewalctl statement import` does: statement_begin, statement_add_lines, statement_finish
/// in one transaction. Returns the run's summary (statement_run_json).
inline nlohmann::json importStatement(pqxx::connection &conn, const std::string &from,
    const std::string &to, const std::vector<nlohmann::json> &events,
    const std::string &provider = "stripe-main")
{
    nlohmann::json lines = nlohmann::json::array();
    int n = 0;
    for (const auto &e : events) {
        ++n;
        lines.push_back({{"line", n}, {"objectId", e["providerRenewalKey"]},
            {"objectSha256", std::string(64, 'b')}, {"outcome", "renewal"}, {"event", e}});
    }
    // The lines' digest as the statement's: two different statements of one range are two runs.
    pqxx::work tx(conn);
    const auto row = tx.exec_params1(
        "SELECT statement_finish(r.run_id) FROM statement_begin($1, $2::date, $3::date, "
        "encode(sha256(convert_to($4, 'UTF8')), 'hex'), '[]', $5) r "
        "CROSS JOIN LATERAL statement_add_lines(r.run_id, $4::jsonb) a",
        provider, from, to, lines.dump(), n);
    tx.commit();
    return nlohmann::json::parse(row[0].c_str());
}

/// Records a renewal of stripe-main as a webhook would (the core, actor webhook).
inline void recordRenewal(pqxx::connection &conn, const nlohmann::json &e)
{
    pqxx::nontransaction tx(conn);
    tx.exec_params("SELECT * FROM apply_successful_renewal($1, $2, $3, $4, NULL, $5, $6, $7, $8, "
                   "$9, 'webhook', 'test')",
        e["providerKey"].get<std::string>(), e["providerEventId"].get<std::string>(),
        e["providerSubscriptionId"].get<std::string>(), e["providerRenewalKey"].get<std::string>(),
        e["period"]["start"].get<std::string>(), e["period"]["end"].get<std::string>(),
        e["paidAmountMinor"].get<long long>(), e["currency"].get<std::string>(),
        e["paidAt"].get<std::string>());
}

/// Registers stripe-main (the runs name a registered provider).
inline void registerStripe(pqxx::connection &conn)
{
    pqxx::nontransaction tx(conn);
    tx.exec0("INSERT INTO billing_providers (provider_key, kind, display_name) "
             "VALUES ('stripe-main', 'stripe', 'Stripe') ON CONFLICT DO NOTHING");
}

} // namespace rdtest
