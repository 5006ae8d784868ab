#include "domain/store/renewal_applier.h"

#include "domain/core/errors.h"
#include "domain/store/database_answer.h"
#include "domain/store/database_errors.h"
#include "domain/store/database_target.h"
#include "domain/store/internal/pqxx_session.h"
#include "domain/store/internal/retrying_call.h"
#include "domain/store/random_uuid.h"

#include <pqxx/pqxx>

namespace rd {
namespace {

constexpr const char *kApplyWebhookSql
    = "SELECT result, billing_period_id, error_code, local_state FROM apply_webhook_renewal("
      "$1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $8, $9, $10::timestamptz, $11::uuid)";
constexpr const char *kApplyCliSql
    = "SELECT result, billing_period_id, error_code, local_state FROM apply_cli_renewal("
      "$1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $8, $9, $10::timestamptz, $11::uuid)";

ApplyResult resultFromRow(const pqxx::row &row)
{
    const auto text = [&row](int i) {
        return row[i].is_null() ? std::nullopt : std::optional<std::string>(row[i].c_str());
    };
    return applyResultFromAnswer(row[0].c_str(), text(1), text(2), text(3));
}

constexpr const char *kApplyStatement = "rd_apply_successful_renewal";

// The statement RenewalApplier prepares on each connection: the server parses and plans the
// call once per connection instead of once per renewal.
template<typename Tx>
pqxx::row execApply(Tx &tx, const SuccessfulRenewalEvent &e, const std::string &billingPeriodId)
{
    return tx.exec_prepared1(kApplyStatement, e.providerKey, e.providerEventId,
        e.providerSubscriptionId, e.providerRenewalKey, e.providerVersion,
        formatRfc3339(e.period.start), formatRfc3339(e.period.end), e.paidAmountMinor, e.currency,
        formatRfc3339(e.paidAt), billingPeriodId);
}

} // namespace

ApplyResult applyResultFromAnswer(std::string_view outcome,
    const std::optional<std::string> &billingPeriodId,
    const std::optional<std::string> &rejectionCode, const std::optional<std::string> &localState)
{
    // A name or code this program does not know comes from a newer schema: refuse to guess (a
    // rejection wrote nothing; the delivery is not acknowledged and comes again).
    constexpr std::string_view from = "the renewal core";
    ApplyResult out;
    out.outcome = applyOutcomeAnswer(outcome, from);
    if (billingPeriodId)
        out.billingPeriodId = *billingPeriodId;
    if (out.outcome == ApplyOutcome::Rejected)
        out.rejection = rejectionOfRejected(rejectionCode, from);
    else if (rejectionCode)
        out.rejection = rejectionAnswer(*rejectionCode, from);
    if (localState)
        out.localState = nlohmann::json::parse(*localState);
    return out;
}

nlohmann::json ApplyResult::toJson() const
{
    nlohmann::json j {{"result", toString(outcome)},
        {"billingPeriodId",
            billingPeriodId.empty() ? nlohmann::json() : nlohmann::json(billingPeriodId)},
        {"caseId", caseId ? nlohmann::json(*caseId) : nlohmann::json()},
        {"error", rejection ? nlohmann::json(toString(*rejection)) : nlohmann::json()}};
    if (outcome == ApplyOutcome::Rejected)
        j["localState"] = localState;
    return j;
}

RenewalApplier::RenewalApplier(std::string conninfo, RetryPolicy retry, RenewalSource source)
    : m_conninfo(std::move(conninfo)), m_retry(retry), m_source(source)
{
    reconnect();
}

RenewalApplier::~RenewalApplier() = default;

DbRef RenewalApplier::connection()
{
    if (!m_session || !pqxxOf(*m_session).is_open())
        reconnect();
    return *m_session;
}

void RenewalApplier::reconnect()
{
    m_session.reset();
    m_session = std::make_unique<DbSession>(m_conninfo);
    pqxxOf(*m_session)
        .prepare(kApplyStatement, m_source == RenewalSource::Cli ? kApplyCliSql : kApplyWebhookSql);
}

ApplyResult RenewalApplier::applyPrepared(
    const SuccessfulRenewalEvent &event, const std::string &billingPeriodId)
{
    // Autocommit: the function call is the whole transaction (one round trip).
    pqxx::nontransaction tx(pqxxOf(connection()));
    return resultFromRow(execApply(tx, event, billingPeriodId));
}

std::optional<ApplyResult> RenewalApplier::lookUpAfterLoss(const std::string &billingPeriodId)
{
    // Only this call could have written a billing period with this id: found, our commit
    // landed and its acknowledgement was lost; not found, nothing of ours committed and the
    // retry judges the renewal afresh (a renewal somebody else recorded is then a duplicate).
    pqxx::read_transaction tx(pqxxOf(connection()));
    if (tx.exec_params(
              "SELECT 1 FROM subscription_billing_periods WHERE id = $1::uuid", billingPeriodId)
            .empty())
        return std::nullopt;
    ApplyResult out;
    out.outcome = ApplyOutcome::Applied;
    out.billingPeriodId = billingPeriodId;
    out.resolvedInDoubt = true;
    return out;
}

ApplyResult RenewalApplier::apply(const SuccessfulRenewalEvent &event)
{
    return translatingDatabaseErrors([&] {
        const std::string billingPeriodId = randomUuid();
        return retryingCall(
            m_retry,
            [&](int attempt) -> std::optional<ApplyResult> {
                ApplyResult out = applyPrepared(event, billingPeriodId);
                out.attempts = attempt;
                if (out.outcome == ApplyOutcome::Rejected) {
                    out.caseId
                        = recordCaseRetrying(rd::toJson(event), *out.rejection, out.localState);
                    if (!out.caseId) {
                        // Judged again under the row lock, the renewal is no longer rejected:
                        // its predecessor, or another delivery of it, committed in between.
                        // Apply again.
                        if (!m_retry.mayRetry(attempt))
                            throw DatabaseUnavailable("renewal " + event.providerRenewalKey
                                + " kept changing between its rejection and its case");
                        return std::nullopt;
                    }
                }
                return out;
            },
            [&](int attempt) {
                auto found = lookUpAfterLoss(billingPeriodId);
                if (found)
                    found->attempts = attempt;
                return found;
            },
            [this] { m_session.reset(); }, "applying renewal " + event.providerRenewalKey);
    });
}

std::optional<std::int64_t> RenewalApplier::recordCase(
    const nlohmann::json &eventJson, RejectionCode rejection, const nlohmann::json &localState)
{
    return translatingDatabaseErrors(
        [&] { return recordCaseRetrying(eventJson, rejection, localState); });
}

std::optional<std::int64_t> RenewalApplier::recordCaseRetrying(
    const nlohmann::json &eventJson, RejectionCode rejection, const nlohmann::json &localState)
{
    // The same loop as the renewal's; recording a case again after a lost connection is
    // harmless (an occurrence more at worst), so nothing is looked up: it just runs again.
    struct Recorded
    {
        std::optional<std::int64_t> caseId; ///< none: no longer rejected
    };
    return retryingCall(
        m_retry,
        [&](int) {
            pqxx::nontransaction tx(pqxxOf(connection()));
            const auto id
                = tx.exec_params1("SELECT record_reconciliation_case($1::jsonb, $2, $3::jsonb, $4)",
                    eventJson.dump(), std::string(toString(rejection)), localState.dump(),
                    std::string(m_source == RenewalSource::Cli ? "cli" : "webhook"))[0];
            return std::optional<Recorded>(Recorded {
                id.is_null() ? std::nullopt : std::optional<std::int64_t>(id.as<std::int64_t>())});
        },
        [](int) { return std::optional<Recorded>(); }, [this] { m_session.reset(); },
        "recording a case")
        .caseId;
}

} // namespace rd
