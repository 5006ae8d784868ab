#include "domain/store/case_actions.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/database_answer.h"
#include "domain/store/internal/pqxx_session.h"
#include "domain/store/internal/retrying_call.h"

#include <pqxx/pqxx>

namespace rd {
namespace {

/// Runs one action function call in its own (implicit) transaction (retryingAction: the whole
/// call again on serialization failure and deadlock; a refusal becomes ActionRefused).
template<typename... Args>
nlohmann::json callAction(pqxx::connection &conn, const std::string &sql, Args &&...args)
{
    return retryingAction([&] {
        pqxx::nontransaction tx(conn);
        const pqxx::row row = tx.exec_params1(sql, args...);
        return nlohmann::json::parse(row[0].c_str());
    });
}

std::optional<std::string> optionalString(const nlohmann::json &obj, const char *key)
{
    const auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? std::optional<std::string>(it->get<std::string>())
                                              : std::nullopt;
}

/// A rejection code in `obj[key]`, strictly: nothing when there is none, UnknownAnswer for a
/// code this program does not know.
std::optional<RejectionCode> rejectionFrom(
    const nlohmann::json &obj, const char *key, std::string_view from)
{
    const auto code = optionalString(obj, key);
    return code ? std::optional<RejectionCode>(rejectionAnswer(*code, from)) : std::nullopt;
}

/// An action with one outcome: its answer must say it ("noted", "dismissed", "reopened").
void expectResult(const nlohmann::json &j, std::string_view result, std::string_view from)
{
    const std::string answered = stringOrEmpty(j, "result");
    if (answered != result)
        throwUnknownAnswer("the result", answered, from);
}

/// The current period of `j["subscriptionAfter"]` (rd_subscription_state_json): nothing when
/// the answer has no subscription or the subscription no period.
std::optional<CurrentPeriod> periodAfter(const nlohmann::json &j)
{
    const auto s = j.find("subscriptionAfter");
    if (s == j.end() || !s->is_object())
        return std::nullopt;
    const auto p = s->find("currentPeriod");
    if (p == s->end() || !p->is_object())
        return std::nullopt;
    return CurrentPeriod {stringOrEmpty(*p, "start"), stringOrEmpty(*p, "end")};
}

CaseRenewal caseRenewalFrom(const nlohmann::json &j)
{
    CaseRenewal r;
    r.caseId = j.value("caseId", std::int64_t {0});
    r.renewalKey = stringOrEmpty(j, "renewalKey");
    if (const auto p = j.find("period"); p != j.end() && p->is_object()) {
        r.periodStart = stringOrEmpty(*p, "start");
        r.periodEnd = stringOrEmpty(*p, "end");
    }
    if (const auto a = j.find("paidAmountMinor"); a != j.end() && a->is_number_integer())
        r.paidAmountMinor = a->get<std::int64_t>();
    r.currency = stringOrEmpty(j, "currency");
    return r;
}

SnapshotAttachment attachmentFrom(const nlohmann::json &j)
{
    using Outcome = SnapshotAttachment::Outcome;
    constexpr std::string_view from = "attach_provider_snapshot";
    SnapshotAttachment a;
    a.outcome = namedAnswer<Outcome>(stringOrEmpty(j, "result"),
        {Outcome::Attached, Outcome::Created, Outcome::Unchanged}, "the result", from);
    a.snapshotId = j.value("snapshotId", std::int64_t {0});
    a.subscriptionId = stringOrEmpty(j, "subscriptionId");
    a.changes = j.value("changes", nlohmann::json::object());
    if (const auto c = j.find("case"); c != j.end() && c->is_object()) {
        CaseAfterSnapshot after;
        after.id = c->value("id", std::int64_t {0});
        after.resolved = stringOrEmpty(*c, "status") == "resolved";
        after.renewalOutcome = applyOutcomeAnswer(stringOrEmpty(*c, "renewal"), from);
        after.rejection = rejectionFrom(*c, "error", from);
        after.why = stringOrEmpty(*c, "why");
        a.caseAfter = after;
    }
    if (const auto ids = j.find("applicableCases"); ids != j.end() && ids->is_array()) {
        for (const auto &id : *ids)
            a.applicableCases.push_back(id.get<std::int64_t>());
    }
    if (const auto r = j.find("renewalFromCase"); r != j.end() && r->is_object())
        a.renewalFromCase = caseRenewalFrom(*r);
    if (const auto left = j.find("leftBehind"); left != j.end() && left->is_array()) {
        for (const auto &r : *left)
            a.leftBehind.push_back(caseRenewalFrom(r));
    }
    a.periodAfter = periodAfter(j);
    a.json = j;
    return a;
}

std::optional<std::string> nullIfEmpty(const std::string &s)
{
    return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

} // namespace

std::string_view toString(SnapshotAttachment::Outcome outcome)
{
    switch (outcome) {
    case SnapshotAttachment::Outcome::Attached:
        return "attached";
    case SnapshotAttachment::Outcome::Created:
        return "created";
    case SnapshotAttachment::Outcome::Unchanged:
        break;
    }
    return "unchanged";
}

ReapplyResult reapplyCase(DbRef db, std::int64_t caseId, const OperatorNote &note)
{
    pqxx::connection &conn = pqxxOf(db);
    constexpr std::string_view from = "reapply_case";
    const auto j = callAction(conn, "SELECT reapply_case($1, $2, $3)::text", caseId, note.reason,
        nullIfEmpty(note.comment));
    ReapplyResult r;
    r.caseId = caseId;
    r.outcome = applyOutcomeAnswer(stringOrEmpty(j, "result"), from);
    r.rejection = r.outcome == ApplyOutcome::Rejected
        ? rejectionOfRejected(optionalString(j, "error"), from)
        : rejectionFrom(j, "error", from);
    r.resolution = stringOrEmpty(j, "resolution");
    r.billingPeriodId = stringOrEmpty(j, "billingPeriodId");
    r.periodAfter = periodAfter(j);
    r.json = j;
    return r;
}

DismissResult dismissCase(DbRef db, std::int64_t caseId, const OperatorNote &note)
{
    pqxx::connection &conn = pqxxOf(db);
    expectResult(callAction(conn, "SELECT dismiss_case($1, $2, $3)::text", caseId, note.reason,
                     nullIfEmpty(note.comment)),
        "dismissed", "dismiss_case");
    return {caseId};
}

ReopenResult reopenCase(DbRef db, std::int64_t caseId, const std::string &note)
{
    pqxx::connection &conn = pqxxOf(db);
    const auto j = callAction(conn, "SELECT reopen_case($1, $2)::text", caseId, nullIfEmpty(note));
    expectResult(j, "reopened", "reopen_case");
    return {caseId, stringOrEmpty(j, "errorCode"), stringOrEmpty(j, "dismissedBy")};
}

ClaimResult claimCase(DbRef db, std::int64_t caseId, const std::string &comment)
{
    pqxx::connection &conn = pqxxOf(db);
    const auto j
        = callAction(conn, "SELECT claim_case($1, $2)::text", caseId, nullIfEmpty(comment));
    ClaimResult r;
    r.caseId = caseId;
    r.outcome = namedAnswer<ClaimOutcome>(stringOrEmpty(j, "result"),
        {ClaimOutcome::Claimed, ClaimOutcome::AlreadyYours}, "the result", "claim_case");
    r.assignedTo = stringOrEmpty(j, "assignedTo");
    r.takenFrom = stringOrEmpty(j, "takenFrom");
    return r;
}

ReleaseResult releaseCase(DbRef db, std::int64_t caseId, const std::string &comment)
{
    pqxx::connection &conn = pqxxOf(db);
    const auto j
        = callAction(conn, "SELECT release_case($1, $2)::text", caseId, nullIfEmpty(comment));
    ReleaseResult r;
    r.caseId = caseId;
    r.outcome = namedAnswer<ReleaseOutcome>(stringOrEmpty(j, "result"),
        {ReleaseOutcome::Released, ReleaseOutcome::NotClaimed}, "the result", "release_case");
    r.releasedFrom = stringOrEmpty(j, "releasedFrom");
    return r;
}

NoteResult noteCase(DbRef db, std::int64_t caseId, const std::string &comment)
{
    pqxx::connection &conn = pqxxOf(db);
    expectResult(callAction(conn, "SELECT note_case($1, $2)::text", caseId, nullIfEmpty(comment)),
        "noted", "note_case");
    return {caseId};
}

SnapshotAttachment attachSnapshot(DbRef db, const ProviderSnapshot &snapshot,
    std::optional<std::int64_t> caseId, const OperatorNote &note)
{
    pqxx::connection &conn = pqxxOf(db);
    return attachmentFrom(
        callAction(conn, "SELECT attach_provider_snapshot($1::jsonb, $2, $3, $4)::text",
            toJson(snapshot).dump(), caseId, note.reason, nullIfEmpty(note.comment)));
}

SnapshotPreview previewSnapshot(
    DbRef db, const ProviderSnapshot &snapshot, std::optional<std::int64_t> caseId)
{
    pqxx::connection &conn = pqxxOf(db);
    const auto j = callAction(conn, "SELECT preview_provider_snapshot($1::jsonb, $2)::text",
        toJson(snapshot).dump(), caseId);
    SnapshotPreview preview;
    if (const auto refused = j.find("refused"); refused != j.end()) {
        const auto sqlstate = stringOrEmpty(*refused, "sqlstate");
        const auto message = stringOrEmpty(*refused, "message");
        preview.refused = refusalFromError(sqlstate, message);
        if (!preview.refused)
            throw std::runtime_error("the database refused with a code this program does not "
                                     "know ("
                + sqlstate + "): " + message);
    } else {
        preview.wouldBe = attachmentFrom(j.value("wouldBe", nlohmann::json::object()));
    }
    return preview;
}

nlohmann::json listCases(DbRef db, const std::optional<std::string> &status, int limit)
{
    pqxx::connection &conn = pqxxOf(db);
    if (status && *status != "open" && *status != "resolved" && *status != "dismissed")
        throw InputError("--status", "'" + *status + "' is not open, resolved or dismissed");
    pqxx::read_transaction tx(conn);
    const auto r = tx.exec_params1(
        R"(SELECT coalesce(jsonb_agg(jsonb_build_object(
                'id', c.id, 'status', c.status, 'resolution', c.resolution,
                'errorCode', c.error_code, 'providerKey', c.provider_key,
                'providerSubscriptionId', c.provider_subscription_id,
                'providerRenewalKey', c.provider_renewal_key, 'occurrences', c.occurrences,
                'firstSeenAt', rd_rfc3339(c.first_seen_at),
                'lastSeenAt', rd_rfc3339(c.last_seen_at),
                'resolvedBy', c.resolved_by, 'resolvedAt', rd_rfc3339(c.resolved_at),
                'assignedTo', c.assigned_to,
                'applicableNow', rd_case_is_applicable(c)) ORDER BY c.last_seen_at DESC, c.id),
                '[]')::text
             FROM (SELECT * FROM reconciliation_cases
                    WHERE $1::text IS NULL OR status = $1
                    ORDER BY last_seen_at DESC, id LIMIT $2) c)",
        status, limit);
    return nlohmann::json::parse(r[0].as<std::string>());
}

nlohmann::json showCase(DbRef db, std::int64_t caseId)
{
    // case_detail is the one reading of a case (the desk's panel reads its history too).
    pqxx::connection &conn = pqxxOf(db);
    pqxx::read_transaction tx(conn);
    const auto r = tx.exec_params1("SELECT public.case_detail($1)::text", caseId);
    if (r[0].is_null())
        throw ActionRefused(Refusal::CaseNotFound, "there is no case " + std::to_string(caseId));
    return nlohmann::json::parse(r[0].as<std::string>());
}

} // namespace rd
