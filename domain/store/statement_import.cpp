#include "domain/store/statement_import.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/renewal_event.h"
#include "domain/core/statement_pages.h"
#include "domain/store/action_refused.h"
#include "domain/store/internal/pqxx_session.h"
#include "domain/store/internal/retrying_call.h"
#include "domain/store/provider_registry.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <set>
#include <tuple>

namespace rd {
namespace {

// Lines per statement_add_lines call: large enough that round trips do not count, small
// enough that one parameter stays a few megabytes.
constexpr std::size_t kBatch = 1000;

// "YYYY-MM-DD": the UTC day of an instant, the date part of its RFC 3339 form.
std::string utcDay(Timestamp t)
{
    return formatRfc3339(t).substr(0, 10);
}

// The days a statement covers when it names none (#42, 4): a month's file, all of whose paid
// days fall in one month, covers that whole month, so that it can close the month (its first
// and last paid day would leave the month's other days uncovered and the close refused). One
// whose paid days span months covers its first to last paid day: it claims no whole month.
StatementDays defaultDaysOf(const StatementDays &paid)
{
    if (paid.from.substr(0, 7) != paid.to.substr(0, 7))
        return paid;
    using namespace std::chrono;
    const year_month ym {year(std::stoi(paid.from.substr(0, 4))),
        month(unsigned(std::stoi(paid.from.substr(5, 2))))};
    const year_month_day_last end {ym / last};
    // The last day is 28 to 31: two digits, after the month's "YYYY-MM-".
    return {paid.from.substr(0, 8) + "01",
        paid.from.substr(0, 8) + std::to_string(unsigned(end.day()))};
}

bool isRenewalEntry(const StatementEntry &e)
{
    return e.normalization.event
        && (e.normalization.outcome == NormalizeOutcome::Renewal
            || e.normalization.outcome == NormalizeOutcome::NeedsSnapshot);
}

// The order the core is asked in: each subscription's periods oldest first, so a statement
// that backfills several renewals of one subscription continues each from the last (a later
// one first would wait as a gap case for the healing to close). Renewals without a period
// (NeedsSnapshot) last, by payment.
std::vector<const StatementEntry *> inCoreOrder(const Statement &statement)
{
    std::vector<const StatementEntry *> order;
    for (const auto &e : statement.entries)
        if (isRenewalEntry(e))
            order.push_back(&e);
    const auto key = [](const StatementEntry *e) {
        const auto &ev = *e->normalization.event;
        const bool hasPeriod = e->normalization.outcome == NormalizeOutcome::Renewal;
        return std::tuple(!hasPeriod, hasPeriod ? ev.period.start.micros : ev.paidAt.micros);
    };
    std::stable_sort(order.begin(), order.end(),
        [&](const StatementEntry *a, const StatementEntry *b) { return key(a) < key(b); });
    return order;
}

nlohmann::json lineJson(std::size_t lineNo, const StatementEntry &e)
{
    nlohmann::json event = toJson(*e.normalization.event);
    const bool hasPeriod = e.normalization.outcome == NormalizeOutcome::Renewal;
    if (!hasPeriod)
        event.erase("period");
    return {{"line", lineNo}, {"objectId", e.objectId}, {"objectSha256", e.objectSha256},
        {"outcome", hasPeriod ? "renewal" : "needs_snapshot"}, {"event", std::move(event)}};
}

// An object the reader could not read (#39, item 15): the ids it names and why, for a case
// statement_object_unreadable. A subscription it does not name is "unknown": a case is always
// filed under one.
nlohmann::json unreadableLineJson(
    std::size_t lineNo, const StatementEntry &e, const std::string &providerKey)
{
    const auto &n = e.normalization;
    const auto &u = *e.unreadable;
    nlohmann::json event {{"providerKey", providerKey}, {"providerEventId", n.providerEventId},
        {"providerSubscriptionId",
            n.providerSubscriptionId.empty() ? std::string("unknown") : n.providerSubscriptionId},
        {"providerRenewalKey", e.objectId}, {"providerVersion", nullptr},
        {"unreadable",
            {{"file", printableAscii(e.file)}, {"index", e.index}, {"where", u.where},
                {"problem", u.problem}}}};
    return {{"line", lineNo}, {"objectId", e.objectId}, {"objectSha256", e.objectSha256},
        {"outcome", "unreadable"}, {"event", std::move(event)}};
}

// A listed refund, dispute or adjustment (#40), or the money back a listed renewal carries
// (Lemon Squeezy's refunded_amount): record_money_movements' event.
nlohmann::json moneyBackLineJson(
    std::size_t lineNo, const StatementEntry &e, const std::string &providerKey)
{
    const auto &n = e.normalization;
    nlohmann::json movements = nlohmann::json::array();
    for (const auto &m : n.movements)
        movements.push_back(toJson(m));
    nlohmann::json event {{"providerKey", providerKey}, {"providerEventId", n.providerEventId},
        {"providerSubscriptionId",
            n.providerSubscriptionId.empty() ? nlohmann::json()
                                             : nlohmann::json(n.providerSubscriptionId)},
        {"movements", std::move(movements)}};
    return {{"line", lineNo}, {"objectId", e.objectId}, {"objectSha256", e.objectSha256},
        {"outcome", "money_back"}, {"event", std::move(event)}};
}

// The money back in the order it happened: a refund before the failure that reverses it, each
// renewal's refunds in their order (a running total's increase is worked out from those
// recorded before it).
std::vector<const StatementEntry *> moneyBackInOrder(const Statement &statement)
{
    std::vector<const StatementEntry *> order;
    for (const auto &e : statement.entries)
        if (!e.unreadable && !e.normalization.movements.empty())
            order.push_back(&e);
    std::stable_sort(order.begin(), order.end(), [](const auto *a, const auto *b) {
        return a->normalization.movements.front().occurredAt.micros
            < b->normalization.movements.front().occurredAt.micros;
    });
    return order;
}

nlohmann::json filesJson(const Statement &statement)
{
    nlohmann::json files = nlohmann::json::array();
    for (const auto &f : statement.files)
        files.push_back(
            {{"name", f.name}, {"sha256", f.sha256}, {"bytes", f.bytes}, {"objects", f.objects}});
    return files;
}

nlohmann::json openFindingsOf(pqxx::work &tx, std::int64_t runId)
{
    nlohmann::json out = nlohmann::json::array();
    const auto rows
        = tx.exec_params("SELECT l.finding, l.provider_renewal_key, c.id, c.error_code, "
                         "c.provider_subscription_id FROM public.statement_lines l "
                         "JOIN public.reconciliation_cases c ON c.id = l.case_id "
                         "WHERE l.run_id = $1 AND c.status = 'open' ORDER BY l.line_no",
            runId);
    for (const auto &r : rows)
        out.push_back({{"finding", r[0].c_str()}, {"providerRenewalKey", r[1].c_str()},
            {"caseId", r[2].as<std::int64_t>()}, {"errorCode", r[3].c_str()},
            {"providerSubscriptionId", r[4].c_str()}});
    return out;
}

StatementImportResult importOnce(pqxx::connection &conn, const std::string &providerKey,
    const Statement &statement, const StatementDays &days, bool dryRun, PagesProof proof,
    bool listsMoneyBack)
{
    for (const auto &e : statement.entries) {
        if (isRenewalEntry(e) && e.normalization.event->providerKey != providerKey)
            throw InputError(e.file + "[" + std::to_string(e.index) + "]",
                "the renewal is read for provider " + e.normalization.event->providerKey + ", not "
                    + providerKey);
    }
    StatementImportResult result;
    result.dryRun = dryRun;
    pqxx::work tx(conn);
    // A dry run takes none of the run and case numbers users cite (rd_new_id, #42, 12); its
    // rows could not be committed.
    if (dryRun)
        tx.exec("SELECT set_config('renewal_desk.preview', 'on', true)");
    // A statement imported before is compared again, as a new run naming the earlier one:
    // the ledger may have changed since (a renewal recorded, a case resolved).
    const auto begun = tx.exec_params1(
        "SELECT run_id, earlier_run FROM public.statement_begin($1, $2::date, $3::date, $4, "
        "$5::jsonb, $6, $7, $8)",
        providerKey, days.from, days.to, statementDigest(statement), filesJson(statement).dump(),
        static_cast<long long>(statement.entries.size()), std::string(toString(proof)),
        listsMoneyBack);
    result.alreadyImported = !begun[1].is_null();
    const auto runId = begun[0].as<std::int64_t>();
    const auto order = inCoreOrder(statement);
    nlohmann::json batch = nlohmann::json::array();
    std::size_t lineNo = 0;
    const auto flush = [&] {
        if (batch.empty())
            return;
        tx.exec_params("SELECT public.statement_add_lines($1, $2::jsonb)", runId, batch.dump());
        batch = nlohmann::json::array();
    };
    for (const StatementEntry *e : order) {
        batch.push_back(lineJson(++lineNo, *e));
        if (batch.size() == kBatch)
            flush();
    }
    // After the renewals: a refund of a renewal this statement backfills finds it recorded.
    for (const StatementEntry *e : moneyBackInOrder(statement)) {
        batch.push_back(moneyBackLineJson(++lineNo, *e, providerKey));
        if (batch.size() == kBatch)
            flush();
    }
    for (const auto &e : statement.entries) {
        if (!e.unreadable)
            continue;
        batch.push_back(unreadableLineJson(++lineNo, e, providerKey));
        if (batch.size() == kBatch)
            flush();
    }
    flush();
    result.summary = nlohmann::json::parse(
        tx.exec_params1("SELECT public.statement_finish($1)::text", runId)[0].c_str());
    result.openFindings = openFindingsOf(tx, runId);
    if (dryRun)
        tx.abort();
    else
        tx.commit();
    return result;
}

} // namespace

std::optional<StatementDays> paidDaysOf(const Statement &statement)
{
    std::optional<Timestamp> first;
    std::optional<Timestamp> last;
    for (const auto &e : statement.entries) {
        if (!isRenewalEntry(e))
            continue;
        const Timestamp paid = e.normalization.event->paidAt;
        if (!first || paid < *first)
            first = paid;
        if (!last || paid > *last)
            last = paid;
    }
    if (!first)
        return std::nullopt;
    return StatementDays {utcDay(*first), utcDay(*last)};
}

StatementImportResult importStatement(DbRef db, const std::string &providerKey,
    const Statement &statement, const StatementDays &days, bool dryRun, PagesProof proof,
    bool listsMoneyBack)
{
    pqxx::connection &conn = pqxxOf(db);
    // A deadlock with a delivery or an operator (they lock a case, then its subscription) or
    // a case that kept changing: nothing was kept; the whole import runs again.
    return retryingAction([&] {
        return importOnce(conn, providerKey, statement, days, dryRun, proof, listsMoneyBack);
    });
}

StatementImportResult importStatementFiles(DbRef db, const std::string &providerKey,
    const std::vector<StatementFile> &files, const std::optional<std::string> &from,
    const std::optional<std::string> &to, bool dryRun, PagesProof claimed)
{
    pqxx::connection &conn = pqxxOf(db);
    const auto kind = providerKindOf(conn, providerKey);
    if (!kind)
        throw ActionRefused(Refusal::ProviderNotRegistered,
            "provider " + providerKey + " is not registered (see renewalctl providers list)");
    // The manifest among the files, if one was given: the pages are the others.
    std::optional<PagesManifest> manifest;
    std::vector<StatementFile> pages;
    for (const auto &f : files) {
        auto m = readPagesManifest(f);
        if (!m)
            continue;
        if (manifest)
            throw InputError("manifest", "two manifests given; give one statement at a time");
        manifest = std::move(m);
        std::copy_if(files.begin(), files.end(), std::back_inserter(pages),
            [&f](const StatementFile &other) { return &other != &f; });
    }
    const Statement statement = readStatement(*kind, providerKey, manifest ? pages : files);
    PagesProof proof = claimed;
    // Whether every money back list of the kind is here, page by page (0052): the lists a
    // manifest names, or those this run fetched. Pages given by hand name none.
    std::set<std::string> lists;
    if (manifest)
        lists = manifest->lists();
    else if (claimed == PagesProof::Fetched)
        for (const auto &f : files)
            lists.insert(f.list);
    const bool listsMoneyBack = listsEveryMoneyBackList(*kind, lists);
    std::optional<std::string> dayFrom = from;
    std::optional<std::string> dayTo = to;
    if (manifest) {
        checkPagesAgainstManifest(*manifest, statement, providerKey);
        if (proof != PagesProof::Fetched)
            proof = PagesProof::Manifest;
        // The pages answer the fetch's days: beyond them, a renewal would be "not in the
        // statement" only because nobody asked for it.
        dayFrom = dayFrom.value_or(manifest->from);
        dayTo = dayTo.value_or(manifest->to);
        if (*dayFrom < manifest->from || *dayTo > manifest->to)
            throw InputError("manifest",
                "the days asked, " + *dayFrom + " to " + *dayTo + ", reach beyond those fetched, "
                    + manifest->from + " to " + manifest->to);
    }
    const auto paid = paidDaysOf(statement);
    if (!paid && (!dayFrom || !dayTo))
        throw InputError("statement",
            "it holds no paid renewal, so it cannot say which days "
            "it covers: give the first and last day");
    const StatementDays byDefault = paid ? defaultDaysOf(*paid) : StatementDays {};
    StatementDays days {dayFrom.value_or(byDefault.from), dayTo.value_or(byDefault.to)};
    if (days.from > days.to)
        throw InputError("statement",
            "the first day " + days.from + " is after the last day " + days.to
                + " (both are included)");
    return importStatement(conn, providerKey, statement, days, dryRun, proof, listsMoneyBack);
}

} // namespace rd
