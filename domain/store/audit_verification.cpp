#include "domain/store/audit_verification.h"

#include "domain/core/audit_canonical.h"
#include "domain/core/sha256.h"
#include "domain/store/audit_chains.h"
#include "domain/store/internal/audit_chains_tx.h"
#include "domain/store/internal/pqxx_session.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <optional>
#include <thread>

namespace rd {
namespace {

// The columns each chain is verified from, in chain order: the subscription_audits_chain and
// reconciliation_case_history_chain indexes read forwards (a cursor prefers the index's fast
// start to a sort of millions of rows). Timestamps print in UTC ISO form (the session's
// TimeZone and DateStyle are set for the transaction) and become rd_rfc3339's form here.
std::string auditCursor(const std::string &name, const std::string &where)
{
    return "DECLARE " + name
        + " NO SCROLL CURSOR FOR "
          "SELECT id, subscription_id, transition, billing_period_id, actor_type, actor_id, "
          "db_role, provider_event_id, provider_renewal_key, period_start, period_end, reason, "
          "comment, details::text, created_at, chain_seq, prev_hash, row_hash "
          "FROM public.subscription_transition_audits WHERE "
        + where + " ORDER BY subscription_id, chain_seq";
}
constexpr const char *kHistoryCursor
    = "DECLARE rd_verify_history NO SCROLL CURSOR FOR "
      "SELECT id, case_id, action, outcome, error_code, actor, reason, comment, details::text, "
      "created_at, chain_seq, prev_hash, row_hash "
      "FROM public.reconciliation_case_history ORDER BY case_id, chain_seq";
// With two streams, the subscription chains are read as two halves of the uuid range, each by
// a connection of its own in the same snapshot (pg_export_snapshot): the server's side (the
// index scan, each row's heap fetch and text output) is most of the work, and two backends
// can share it. On the shared 2-vCPU machine one stream was faster (docs/desk.md).
constexpr const char *kLowerHalf = "subscription_id < '80000000-0000-0000-0000-000000000000'";
constexpr const char *kUpperHalf = "subscription_id >= '80000000-0000-0000-0000-000000000000'";

SqlText textOf(const pqxx::field &f)
{
    if (f.is_null())
        return std::nullopt;
    return std::string_view(f.c_str(), f.size());
}

std::string_view viewOf(const pqxx::field &f)
{
    return {f.c_str(), f.size()};
}

/// Walks one table's chains, row by row in chain order, as audit_chain_breaks() judges them.
class ChainWalker
{
public:
    ChainWalker(std::string chain, AuditVerification &out, std::size_t maxBreaks)
        : m_chain(std::move(chain)), m_out(out), m_maxBreaks(maxBreaks)
    { }

    void row(std::string_view chainId, std::int64_t rowId, std::int64_t seq,
        std::string_view prevHash, std::string_view rowHash, const std::string &expected)
    {
        ++m_out.rows;
        const bool first = chainId != m_chainId;
        if (first) {
            ++m_out.chains;
            m_chainId.assign(chainId);
        }
        std::string_view problem;
        if (expected != rowHash)
            problem = chain_problem::kAltered;
        else if (first && seq != 1)
            problem = chain_problem::kRowsBeforeMissing;
        else if (first && !prevHash.empty())
            problem = chain_problem::kPreviousHash;
        else if (!first && seq != m_prevSeq + 1)
            problem = chain_problem::kRowBeforeMissing;
        else if (!first && prevHash != m_prevRowHash)
            problem = chain_problem::kPreviousHash;
        if (!problem.empty()) {
            if (m_out.breaks.size() < m_maxBreaks) {
                ChainBreak b {m_chain, m_chainId, rowId, seq, std::string(problem), {}, {}};
                b.rowHash.assign(rowHash);
                b.contentHash = expected;
                if (!first)
                    b.previousRowHash = m_prevRowHash;
                m_out.breaks.push_back(std::move(b));
            } else
                m_out.moreBreaks = true;
        }
        m_prevSeq = seq;
        m_prevRowHash.assign(rowHash);
    }

private:
    std::string m_chain;
    AuditVerification &m_out;
    std::size_t m_maxBreaks;
    std::string m_chainId;
    std::int64_t m_prevSeq = 0;
    std::string m_prevRowHash;
};

template<typename Tx>
std::string serverCanonical(Tx &tx, const char *function, const char *table, std::int64_t id)
{
    return tx
        .exec_params1(std::string("SELECT public.") + function + "(t) FROM public." + table
                + " t WHERE t.id = $1",
            id)[0]
        .template as<std::string>();
}

std::optional<std::optional<std::string>> rfc3339(const pqxx::field &f)
{
    if (f.is_null())
        return std::optional<std::string>();
    auto converted = pgTimestampToRfc3339(viewOf(f));
    if (!converted)
        return std::nullopt; // not the simple form: the server's canonical text decides
    return converted;
}

SqlText asSql(const std::optional<std::string> &s)
{
    return s ? SqlText(*s) : std::nullopt;
}

/// Walks the subscription chains `where` selects through a cursor; `afterBatch` runs after
/// each batch (progress, cancel).
template<typename Tx>
void walkAudits(Tx &tx, const std::string &where, const std::string &fetchSize,
    AuditVerification &out, std::size_t maxBreaks, const std::function<void()> &afterBatch)
{
    ChainWalker walker("subscription_transition_audits", out, maxBreaks);
    tx.exec(auditCursor("rd_verify_audits", where));
    for (;;) {
        const auto rows = tx.exec("FETCH FORWARD " + fetchSize + " FROM rd_verify_audits");
        if (rows.empty())
            break;
        out.largestBatch = std::max<long long>(out.largestBatch, rows.size());
        for (const auto &r : rows) {
            const auto id = r[0].template as<std::int64_t>();
            const auto start = rfc3339(r[9]);
            const auto end = rfc3339(r[10]);
            const auto created = rfc3339(r[14]);
            std::string canonical;
            if (start && end && created && *created) {
                canonical = auditCanonicalText({viewOf(r[1]), viewOf(r[2]), textOf(r[3]),
                    viewOf(r[4]), viewOf(r[5]), viewOf(r[6]), textOf(r[7]), textOf(r[8]),
                    asSql(*start), asSql(*end), textOf(r[11]), textOf(r[12]), viewOf(r[13]),
                    **created, viewOf(r[15]), viewOf(r[16])});
            } else {
                canonical = serverCanonical(
                    tx, "rd_audit_canonical", "subscription_transition_audits", id);
            }
            walker.row(viewOf(r[1]), id, r[15].template as<std::int64_t>(), viewOf(r[16]),
                viewOf(r[17]), sha256Hex(canonical));
        }
        afterBatch();
    }
    tx.exec("CLOSE rd_verify_audits");
}

} // namespace

std::string describeChainBreak(const ChainBreak &b)
{
    const bool isCase = b.chain == "reconciliation_case_history";
    std::string subject = b.subscription.empty()
        ? std::string()
        : "subscription " + b.provider + " " + b.subscription;
    std::string whose = isCase
        ? "case " + b.chainId + (subject.empty() ? "" : " of " + subject)
        : (subject.empty() ? "subscription" : subject) + " (chain " + b.chainId + ")";
    std::string where = b.rowId > 0
        ? (isCase ? ", history row " : ", audit row ") + std::to_string(b.rowId) + " at position "
        : std::string(", position ");
    return whose + where + std::to_string(b.seq) + ": " + b.problem;
}

void nameChainBreaks(pqxx::transaction_base &tx, std::vector<ChainBreak> &breaks)
{
    if (breaks.empty())
        return;
    nlohmann::json chains = nlohmann::json::array();
    for (const auto &b : breaks)
        chains.push_back({b.chain, b.chainId});
    // CASE, not AND: a case's id is not a uuid, and is never cast as one.
    const auto rows
        = tx.exec_params("SELECT coalesce(s.provider_key, c.provider_key), "
                         "coalesce(s.provider_subscription_id, c.provider_subscription_id) "
                         "FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(b, ord) "
                         "LEFT JOIN public.subscriptions s ON s.id = CASE WHEN e.b->>0 = "
                         "'subscription_transition_audits' THEN (e.b->>1)::uuid END "
                         "LEFT JOIN public.reconciliation_cases c ON c.id = CASE WHEN e.b->>0 = "
                         "'reconciliation_case_history' THEN (e.b->>1)::bigint END ORDER BY e.ord",
            chains.dump());
    for (std::size_t i = 0; i < breaks.size() && i < rows.size(); ++i) {
        const auto &r = rows[static_cast<int>(i)];
        breaks[i].provider = r[0].is_null() ? std::string() : r[0].as<std::string>();
        breaks[i].subscription = r[1].is_null() ? std::string() : r[1].as<std::string>();
    }
}

AuditVerification verifyAuditChainsStreamed(DbRef db, const AuditVerifyOptions &options)
{
    pqxx::connection &conn = pqxxOf(db);
    // One snapshot for every chain: the figures and breaks describe one moment.
    pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::read_only> tx(conn);
    if (!options.snapshot.empty()) // before any query of the transaction
        tx.exec("SET TRANSACTION SNAPSHOT " + tx.quote(options.snapshot));
    tx.exec("SET LOCAL TimeZone = 'UTC'");
    tx.exec("SET LOCAL DateStyle = 'ISO, YMD'");
    AuditVerification out;
    out.at = tx.exec1("SELECT public.rd_rfc3339(now())")[0].as<std::string>();
    const long long expected
        = tx.exec1("SELECT coalesce(sum(greatest(reltuples, 0)), 0)::bigint FROM pg_class "
                   "WHERE oid IN ('public.subscription_transition_audits'::regclass, "
                   "'public.reconciliation_case_history'::regclass)")[0]
              .as<long long>();
    const std::string snapshot = tx.exec1("SELECT pg_export_snapshot()")[0].as<std::string>();
    const std::string fetchSize = std::to_string(std::max(1, options.batchRows));
    long long batches = 0;
    const auto canceled = [&options] { return options.cancel && options.cancel->load(); };

    std::vector<ChainBreak> periods;
    // The upper half on a thread and a connection of its own, in this transaction's snapshot.
    AuditVerification upper;
    std::atomic<long long> upperRows {0}, upperChains {0};
    std::atomic<bool> stop {false};
    std::exception_ptr upperError;
    const bool twoStreams = options.streams >= 2;
    std::thread worker([&] {
        if (!twoStreams)
            return;
        try {
            pqxx::connection other(conn.options());
            pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::read_only> otx(other);
            otx.exec("SET TRANSACTION SNAPSHOT " + otx.quote(snapshot));
            otx.exec("SET LOCAL TimeZone = 'UTC'");
            otx.exec("SET LOCAL DateStyle = 'ISO, YMD'");
            walkAudits(otx, kUpperHalf, fetchSize, upper, options.maxBreaks, [&] {
                upperRows = upper.rows;
                upperChains = upper.chains;
                if (stop || canceled())
                    throw AuditVerificationCanceled();
            });
        } catch (...) {
            upperError = std::current_exception();
        }
    });
    const auto report = [&] {
        if (canceled())
            throw AuditVerificationCanceled();
        if (options.onProgress) {
            const long long rows = out.rows + upperRows;
            options.onProgress({rows, out.chains + upperChains, std::max(expected, rows), batches});
        }
    };
    try {
        report();
        walkAudits(tx, twoStreams ? kLowerHalf : "true", fetchSize, out, options.maxBreaks, [&] {
            ++batches;
            report();
        });
        ChainWalker walker("reconciliation_case_history", out, options.maxBreaks);
        tx.exec(kHistoryCursor);
        for (;;) {
            const auto rows = tx.exec("FETCH FORWARD " + fetchSize + " FROM rd_verify_history");
            if (rows.empty())
                break;
            out.largestBatch = std::max<long long>(out.largestBatch, rows.size());
            for (const auto &r : rows) {
                const auto id = r[0].as<std::int64_t>();
                const auto created = rfc3339(r[9]);
                std::string canonical;
                if (created && *created) {
                    canonical = caseHistoryCanonicalText({viewOf(r[1]), viewOf(r[2]), viewOf(r[3]),
                        textOf(r[4]), viewOf(r[5]), textOf(r[6]), textOf(r[7]), viewOf(r[8]),
                        **created, viewOf(r[10]), viewOf(r[11])});
                } else {
                    canonical = serverCanonical(
                        tx, "rd_case_history_canonical", "reconciliation_case_history", id);
                }
                walker.row(viewOf(r[1]), id, r[10].as<std::int64_t>(), viewOf(r[11]), viewOf(r[12]),
                    sha256Hex(canonical));
            }
            ++batches;
            report();
        }
        tx.exec("CLOSE rd_verify_history");
        // Last, every billing period against the hashed audit row that recorded it: the chains
        // hash the audit rows, not the billing periods (#39, item 3). A schema older than the
        // check (a restored backup, verified before it is migrated) has no such function.
        if (!tx.exec1("SELECT pg_catalog.to_regprocedure('public.audit_billing_period_breaks()') "
                      "IS NULL")[0]
                 .as<bool>())
            for (const auto &r : tx.exec("SELECT chain, chain_id, row_id, chain_seq, problem "
                                         "FROM public.audit_billing_period_breaks()"))
                periods.push_back(breakFromRow(r));
    } catch (...) {
        stop = true;
        worker.join();
        throw;
    }
    worker.join();
    if (upperError)
        std::rethrow_exception(upperError);

    // In audit_chain_breaks()'s order: the audits' chains (lower half, then upper), then the
    // cases', then the billing periods'; the lower half's audit breaks come before its case
    // history's in `out`.
    AuditVerification merged;
    merged.at = out.at;
    merged.rows = out.rows + upper.rows;
    merged.chains = out.chains + upper.chains;
    merged.largestBatch = std::max(out.largestBatch, upper.largestBatch);
    std::vector<ChainBreak> audits, cases;
    for (const auto &b : out.breaks)
        (b.chain == "subscription_transition_audits" ? audits : cases).push_back(b);
    for (const auto *list : {&audits, &upper.breaks, &cases, &periods})
        for (const auto &b : *list) {
            if (merged.breaks.size() < options.maxBreaks)
                merged.breaks.push_back(b);
            else
                merged.moreBreaks = true;
        }
    merged.moreBreaks = merged.moreBreaks || out.moreBreaks || upper.moreBreaks;
    nameChainBreaks(tx, merged.breaks);
    report();
    return merged;
}

AuditVerification verifyAuditChains(const std::string &conninfo, const AuditVerifyOptions &options)
{
    pqxx::connection conn(conninfo);
    return verifyAuditChainsStreamed(conn, options);
}

long long exportAuditAnchor(
    const std::string &conninfo, std::ostream &out, AnchorLayout layout, std::string *digest)
{
    pqxx::connection conn(conninfo);
    return exportAuditAnchor(conn, out, layout, digest);
}

AuditAnchorCheck checkAuditAnchor(
    const std::string &conninfo, std::istream &anchor, std::size_t maxMismatches)
{
    pqxx::connection conn(conninfo);
    return checkAuditAnchor(conn, anchor, maxMismatches);
}

} // namespace rd
