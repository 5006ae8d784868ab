#include "domain/store/inbox_retention.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/internal/pqxx_session.h"
#include "domain/store/internal/retrying_call.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <cerrno>
#include <cstdlib>

namespace rd {
namespace {

std::optional<std::int64_t> idOr(const nlohmann::json &j, const char *key)
{
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<std::int64_t>();
}

InboxRetention readRetention(pqxx::transaction_base &tx)
{
    const auto row
        = tx.exec1("SELECT days, set_by, public.rd_rfc3339(set_at) FROM public.inbox_retention");
    InboxRetention r;
    if (!row[0].is_null())
        r.days = row[0].as<int>();
    r.setBy = row[1].as<std::string>();
    r.setAt = row[2].as<std::string>();
    return r;
}

std::string plural(long long n, const std::string &one, const std::string &many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace

InboxRetention readInboxRetention(DbRef db)
{
    pqxx::connection &conn = pqxxOf(db);
    pqxx::read_transaction tx(conn);
    return readRetention(tx);
}

InboxRetention setInboxRetention(DbRef db, std::optional<int> days)
{
    pqxx::connection &conn = pqxxOf(db);
    return retryingAction([&] {
        pqxx::work tx(conn);
        if (days)
            tx.exec_params("SELECT public.set_inbox_retention($1)", *days);
        else
            tx.exec("SELECT public.set_inbox_retention(NULL)");
        auto r = readRetention(tx);
        tx.commit();
        return r;
    });
}

std::optional<int> retentionDaysFromEnvironment(const char *value)
{
    const std::string text = value ? value : "";
    if (text.empty() || text == "off")
        return std::nullopt;
    errno = 0;
    char *end = nullptr;
    const long n = std::strtol(text.c_str(), &end, 10);
    if (errno != 0 || end == text.c_str() || *end != '\0' || n < 0 || n > 36500)
        throw InputError("RENEWAL_DESK_RETENTION_DAYS",
            "must be a whole number of days from 0 to 36500, or off, not '" + text + "'");
    return static_cast<int>(n);
}

PurgeReport purgeInboxBodies(DbRef db, const PurgeOptions &options)
{
    pqxx::connection &conn = pqxxOf(db);
    PurgeReport report;
    report.dryRun = options.dryRun;
    std::optional<std::string> run;
    std::optional<std::string> afterAt;
    std::optional<std::int64_t> afterId;
    // One batch a transaction: each locks at most `batch` inbox rows for a moment, never a
    // subscription, so deliveries and renewals go on while a million bodies go.
    for (;;) {
        const nlohmann::json batch = retryingAction([&] {
            pqxx::nontransaction tx(conn);
            const auto row = tx.exec_params1(
                "SELECT public.purge_inbox_bodies($1, $2, $3::uuid, $4::timestamptz, $5, $6)::text",
                options.olderThanDays, options.dryRun, run, afterAt, afterId, options.batch);
            return nlohmann::json::parse(row[0].c_str());
        });
        report.retentionDays = batch.value("retentionDays", 0);
        report.configured = batch.value("configured", false);
        report.receivedBefore = stringOrEmpty(batch, "receivedBefore");
        const long long removed = batch.value("removed", 0LL);
        report.removed += removed;
        report.bytes += batch.value("bytes", 0LL);
        if (removed > 0) {
            if (!options.dryRun)
                ++report.batches;
            const auto first = idOr(batch, "firstId");
            const auto last = idOr(batch, "lastId");
            if (first && (!report.firstId || *first < *report.firstId))
                report.firstId = first;
            if (last && (!report.lastId || *last > *report.lastId))
                report.lastId = last;
            if (report.firstReceivedAt.empty())
                report.firstReceivedAt = stringOrEmpty(batch, "firstReceivedAt");
            report.lastReceivedAt = stringOrEmpty(batch, "lastReceivedAt");
        }
        if (options.dryRun) {
            report.kept = batch.value("keptForOpenCases", 0LL);
            return report;
        }
        run = stringOrEmpty(batch, "run");
        report.run = *run;
        if (batch.value("done", true)) {
            if (const auto it = batch.find("kept"); it != batch.end() && it->is_number())
                report.kept = it->get<long long>();
            return report;
        }
        afterAt = stringOrEmpty(batch, "afterReceivedAt");
        afterId = idOr(batch, "afterId");
    }
}

nlohmann::json PurgeReport::toJson() const
{
    nlohmann::json j {{"result", dryRun ? "would_remove" : "removed"}, {"dryRun", dryRun},
        {"retentionDays", retentionDays}, {"configured", configured},
        {"receivedBefore", receivedBefore}, {"removed", removed}, {"bytes", bytes}, {"kept", kept}};
    if (!dryRun) {
        j["run"] = run;
        j["records"] = batches;
    }
    if (firstId) {
        j["firstInboxId"] = *firstId;
        j["lastInboxId"] = *lastId;
        j["firstReceivedAt"] = firstReceivedAt;
        j["lastReceivedAt"] = lastReceivedAt;
    }
    return j;
}

std::string PurgeReport::text() const
{
    const std::string why = configured
        ? "the configured retention of " + plural(retentionDays, "day", "days")
        : "older than " + plural(retentionDays, "day", "days");
    std::string s = dryRun ? "would remove " : "removed ";
    s += plural(removed, "body", "bodies") + " (" + std::to_string(bytes) + " bytes) of processed "
        + "deliveries received before " + receivedBefore + " (" + why + ")";
    if (firstId)
        s += ": deliveries " + std::to_string(*firstId) + " to " + std::to_string(*lastId)
            + ", received " + firstReceivedAt + " to " + lastReceivedAt;
    s += "\n";
    if (kept > 0)
        s += dryRun ? "would keep " + plural(kept, "body", "bodies")
                + " whose case is open or that are invalid deliveries nobody has reviewed\n"
                    : "kept " + plural(kept, "body", "bodies")
                + " old enough but kept: their case is open, or they are invalid deliveries "
                  "nobody has reviewed\n";
    if (!dryRun && removed > 0)
        s += "recorded as run " + run + " in "
            + plural(batches, "removal record", "removal records")
            + " (renewalctl inbox removals)\n";
    return s;
}

ErasureReport eraseInboxBodies(DbRef db, const std::optional<std::string> &providerKey,
    const std::string &providerSubscriptionId, const std::string &request)
{
    pqxx::connection &conn = pqxxOf(db);
    const nlohmann::json j = retryingAction([&] {
        pqxx::nontransaction tx(conn);
        const auto row = tx.exec_params1("SELECT public.erase_inbox_bodies($1, $2, $3)::text",
            providerKey, providerSubscriptionId, request);
        return nlohmann::json::parse(row[0].c_str());
    });
    ErasureReport r;
    r.removalId = j.value("removalId", std::int64_t {0});
    r.providerKey = providerKey;
    r.providerSubscriptionId = stringOrEmpty(j, "providerSubscriptionId");
    r.removed = j.value("removed", 0LL);
    r.bytes = j.value("bytes", 0LL);
    r.openCases = j.value("openCases", 0LL);
    r.alreadyRemoved = j.value("alreadyRemoved", 0LL);
    r.erasedBy = stringOrEmpty(j, "erasedBy");
    return r;
}

ErasureReport eraseCustomerEmail(DbRef db, const std::string &email, const std::string &request)
{
    pqxx::connection &conn = pqxxOf(db);
    nlohmann::json j;
    try {
        j = retryingAction([&] {
            pqxx::nontransaction tx(conn);
            const auto row = tx.exec_params1(
                "SELECT public.erase_customer_email($1, $2)::text", email, request);
            return nlohmann::json::parse(row[0].c_str());
        });
    } catch (const DatabaseFailure &e) {
        if (e.sqlstate() == "22023") // no address: the function does not repeat it
            throw InputError("--email",
                "not an e-mail address (it has an @ between its local part and its domain, no "
                "spaces, at most 254 bytes)");
        throw;
    }
    ErasureReport r;
    r.removalId = j.value("removalId", std::int64_t {0});
    r.removed = j.value("removed", 0LL);
    r.bytes = j.value("bytes", 0LL);
    r.openCases = j.value("openCases", 0LL);
    r.alreadyRemoved = j.value("alreadyRemoved", 0LL);
    r.erasedBy = stringOrEmpty(j, "erasedBy");
    r.customerEmailHashes = j.value("hashesRemoved", 0LL);
    return r;
}

nlohmann::json ErasureReport::toJson() const
{
    if (customerEmailHashes)
        return {{"result", "erased"}, {"removalId", removalId}, {"by", "email"},
            {"removed", removed}, {"bytes", bytes}, {"customerEmailHashes", *customerEmailHashes},
            {"openCases", openCases}, {"alreadyRemoved", alreadyRemoved}, {"erasedBy", erasedBy}};
    return {{"result", "erased"}, {"removalId", removalId},
        {"providerKey", providerKey ? nlohmann::json(*providerKey) : nlohmann::json(nullptr)},
        {"providerSubscriptionId", providerSubscriptionId}, {"removed", removed}, {"bytes", bytes},
        {"openCases", openCases}, {"alreadyRemoved", alreadyRemoved}, {"erasedBy", erasedBy}};
}

std::string ErasureReport::text() const
{
    std::string s = "erased " + plural(removed, "body", "bodies") + " (" + std::to_string(bytes)
        + " bytes) of the deliveries of "
        + (customerEmailHashes ? "the e-mail address, and its hash from "
                    + plural(*customerEmailHashes, "delivery", "deliveries")
                               : "subscription " + providerSubscriptionId
                    + (providerKey ? " of " + *providerKey : std::string(" (every provider)")));
    if (alreadyRemoved > 0)
        s += "; " + plural(alreadyRemoved, "delivery", "deliveries") + " had no body left";
    s += "\n";
    if (openCases > 0)
        s += plural(openCases, "body", "bodies")
            + " erased although the case is open: the case keeps its normalized event\n";
    s += "recorded as removal " + std::to_string(removalId) + " by " + erasedBy
        + " (renewalctl inbox removals)\n";
    return s;
}

} // namespace rd

namespace rd {

nlohmann::json listInboxRemovals(DbRef db, int limit)
{
    pqxx::connection &conn = pqxxOf(db);
    pqxx::read_transaction tx(conn);
    const auto rows = tx.exec_params(
        "SELECT pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object("
        "'id', r.id, 'kind', r.kind, 'removedBy', r.removed_by, "
        "'removedAt', public.rd_rfc3339(r.removed_at), 'run', r.run, "
        "'retentionDays', r.retention_days, 'configured', r.configured, "
        "'receivedBefore', public.rd_rfc3339(r.received_before), 'request', r.request, "
        "'providerKey', r.provider_key, 'providerSubscriptionId', r.provider_subscription_id, "
        "'bodies', r.bodies, 'bytes', r.bytes, 'firstInboxId', r.first_inbox_id, "
        "'lastInboxId', r.last_inbox_id, "
        "'firstReceivedAt', public.rd_rfc3339(r.first_received_at), "
        "'lastReceivedAt', public.rd_rfc3339(r.last_received_at), "
        "'openCases', r.open_cases, 'alreadyRemoved', r.already_removed))::text "
        "FROM public.webhook_inbox_removals r ORDER BY r.id DESC LIMIT $1",
        limit);
    nlohmann::json list = nlohmann::json::array();
    for (const auto &row : rows)
        list.push_back(nlohmann::json::parse(row[0].c_str()));
    return list;
}

} // namespace rd
