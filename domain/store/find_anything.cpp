#include "domain/store/find_anything.h"

#include "domain/core/errors.h"
#include "domain/store/database_errors.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

namespace rd {
namespace {

std::string textOr(const pqxx::field &f)
{
    return f.is_null() ? std::string() : f.as<std::string>();
}

// The server's message alone: no "ERROR:" and no CONTEXT lines.
std::string serverMessage(std::string what)
{
    if (const auto end = what.find('\n'); end != std::string::npos)
        what.resize(end);
    if (what.rfind("ERROR:", 0) == 0)
        what.erase(0, what.find_first_not_of(' ', 6));
    return what;
}

// One line for people, in the words the desk's Find anything uses.
std::string labelOf(const nlohmann::json &hit)
{
    const auto text = [&hit](const char *key) {
        const auto it = hit.find(key);
        return it == hit.end() || !it->is_string() ? std::string() : it->get<std::string>();
    };
    const std::string kind = text("kind");
    const std::string of
        = "subscription " + text("providerSubscriptionId") + " (" + text("providerKey") + ")";
    const auto words = [](std::string code) {
        for (char &c : code)
            c = c == '_' ? ' ' : c;
        return code;
    };
    if (kind == "subscription")
        return "Subscription " + text("providerSubscriptionId") + " (" + text("providerKey") + "), "
            + text("status")
            + (hit.contains("periodStart")
                    ? ", period " + text("periodStart") + " to " + text("periodEnd")
                    : std::string());
    if (kind == "renewal")
        return "Renewal " + text("renewalKey") + " of " + of + ", " + text("periodStart") + " to "
            + text("periodEnd");
    if (kind == "failed_payment")
        return "Failed payment of " + text("renewalKey") + " of " + of + ", "
            + std::to_string(hit.value("attempts", 0)) + " attempts, the last failed " + text("at");
    if (kind == "case")
        return "Case " + std::to_string(hit.value("id", 0LL)) + " · " + words(text("reason"))
            + " · " + text("status") + " · " + of;
    const std::string outcome = text("status");
    return "Inbox delivery " + std::to_string(hit.value("id", 0LL)) + " · "
        + (outcome.empty() ? std::string("not processed yet") : words(outcome)) + " · event "
        + text("eventId") + " (" + text("providerKey") + ")";
}

} // namespace

nlohmann::json findAnything(DbRef db, const std::string &text, int limit)
{
    if (limit < 1 || limit > kMaxFindLimit)
        throw InputError("limit", "must be from 1 to " + std::to_string(kMaxFindLimit));
    try {
        return translatingDatabaseErrors([&] {
            pqxx::read_transaction tx(pqxxOf(db));
            nlohmann::json hits = nlohmann::json::array();
            for (const auto &r : tx.exec_params(
                     "SELECT kind, matched_by, subscription_id, billing_period_id, case_id, "
                     "delivery_id, provider_key, provider_subscription_id, status, reason, "
                     "renewal_key, event_id, public.rd_rfc3339(period_start), "
                     "public.rd_rfc3339(period_end), public.rd_rfc3339(at), amount_minor, "
                     "currency, attempts FROM public.find_anything($1, $2)",
                     text, limit)) {
                nlohmann::json hit {{"kind", r[0].as<std::string>()}};
                const std::string &kind = hit["kind"].get_ref<const std::string &>();
                if (kind == "case")
                    hit["id"] = r[4].as<long long>();
                else if (kind == "delivery")
                    hit["id"] = r[5].as<long long>();
                else if (kind == "renewal")
                    hit["id"] = r[3].as<std::string>();
                else if (kind == "failed_payment")
                    hit["id"] = r[10].as<std::string>();
                else
                    hit["id"] = r[2].as<std::string>();
                hit["matchedBy"] = r[1].as<std::string>();
                hit["providerKey"] = r[6].as<std::string>();
                hit["providerSubscriptionId"] = textOr(r[7]);
                const auto put = [&hit](const char *key, const pqxx::field &f) {
                    if (!f.is_null())
                        hit[key] = f.as<std::string>();
                };
                put("subscriptionId", r[2]);
                put("billingPeriodId", r[3]);
                put("status", r[8]);
                put("reason", r[9]);
                put("renewalKey", r[10]);
                put("eventId", r[11]);
                put("periodStart", r[12]);
                put("periodEnd", r[13]);
                put("at", r[14]);
                if (!r[15].is_null())
                    hit["amountMinor"] = r[15].as<long long>();
                put("currency", r[16]);
                if (!r[17].is_null())
                    hit["attempts"] = r[17].as<long long>();
                hit["label"] = labelOf(hit);
                hits.push_back(std::move(hit));
            }
            return hits;
        });
    } catch (const DatabaseFailure &e) {
        // find_anything's 22023: text that can be no id (empty, too long, a line break).
        if (e.sqlstate() == "22023")
            throw InputError("TEXT", serverMessage(e.what()));
        throw;
    }
}

} // namespace rd
