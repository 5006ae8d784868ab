#pragma once

#include "provider_snapshot.hpp"

#include <nlohmann/json.hpp>
#include <pqxx/connection> // pqxx::connection is an alias in 6.4: no forward declaration

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rd {

/// An operator action the database refused, with its code ("case_already_closed",
/// "stale_snapshot", "note_required", "invalid_reason", "case_not_found",
/// "case_not_reapplicable", "provider_renewal_key_payload_conflict") and a sentence for people
/// ("case 42 was already resolved (reapplied) by alice at 2026-...").
class ActionRefused : public std::runtime_error
{
public:
    ActionRefused(std::string code, const std::string &sentence)
        : std::runtime_error(sentence), m_code(std::move(code))
    { }
    const std::string &code() const { return m_code; }

private:
    std::string m_code;
};

/// Why an operator acts: a reason code (lower case, e.g. "provider_confirmed") and a comment.
struct OperatorNote
{
    std::string reason;
    std::string comment;
};

/// The reason codes the desk and the CLI offer (the database accepts any lower-case code).
const std::vector<std::string> &standardReasonCodes();

/// The operator actions. Each is one transaction in the database (a SECURITY DEFINER
/// function): the acting operator is the connection's login role. They return the function's
/// JSON result and throw ActionRefused for a refusal; serialization failures and deadlocks are
/// retried.
///
/// Re-apply: the case's renewal through the same core as the webhooks. {"result":
/// "applied"|"duplicate"|"rejected", "resolution": "reapplied"|"already_applied"|null, ...}
nlohmann::json reapplyCase(pqxx::connection &conn, std::int64_t caseId, const OperatorNote &note);
/// Dismiss: closes the case; the comment (a note saying why) is required.
nlohmann::json dismissCase(pqxx::connection &conn, std::int64_t caseId, const OperatorNote &note);
/// Attach a provider snapshot: brings the subscription to the provider's state, records the
/// latest renewal, audits before/after. With a case, the case's renewal is judged again by the
/// core in the same transaction: recorded -> the case is resolved, else it stays open with the
/// reason it still fails. {"result": "attached"|"created"|"unchanged", "changes": {...},
/// "case": {"id","status":"resolved"|"open","renewal","error","billingPeriodId"}|null,
/// "applicableCases": [...]}
nlohmann::json attachSnapshot(pqxx::connection &conn, const ProviderSnapshot &snapshot,
    std::optional<std::int64_t> caseId, const OperatorNote &note);

/// What attaching would do, judged by the database's own attach in a transaction it rolls back:
/// {"wouldBe": <attachSnapshot's result>} or {"refused": "<code>: <sentence>"}.
nlohmann::json previewSnapshot(
    pqxx::connection &conn, const ProviderSnapshot &snapshot, std::optional<std::int64_t> caseId);

/// Cases for lists and detail views.
nlohmann::json listCases(
    pqxx::connection &conn, const std::optional<std::string> &status, int limit = 500);
/// The case with its evidence, history and whether it is applicable now. ActionRefused
/// "case_not_found" when there is none.
nlohmann::json showCase(pqxx::connection &conn, std::int64_t caseId);

/// One place where an audit chain does not hold.
struct ChainBreak
{
    std::string chain; ///< "subscription_transition_audits" or "reconciliation_case_history"
    std::string chainId; ///< the subscription id or case id the chain belongs to
    std::int64_t rowId = 0;
    std::int64_t seq = 0;
    std::string problem;
};

/// Walks every chain (in the database) and returns the breaks, first first.
std::vector<ChainBreak> verifyAuditChains(pqxx::connection &conn);

/// The head of every chain plus one digest over all of them, to keep outside the database:
/// {"createdAt", "digest", "heads": [{"chain","chainId","seq","hash"}]}.
nlohmann::json exportAuditAnchor(pqxx::connection &conn);
/// Checks that every head of an exported anchor is still in place with the same hash (rows
/// removed or rewritten since the export, even at the tail, show up here).
std::vector<ChainBreak> checkAuditAnchor(pqxx::connection &conn, const nlohmann::json &anchor);

/// Gives a login role one of the group roles ("viewer", "operator", "ingest"), creating the
/// login role (without a password) when it does not exist. Throws InputError for a bad kind
/// or name.
void grantRole(pqxx::connection &conn, const std::string &login, const std::string &kind);

} // namespace rd
