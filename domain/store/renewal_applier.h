#pragma once

#include "domain/core/apply_result.h"
#include "domain/core/rejection_code.h"
#include "domain/core/renewal_event.h"
#include "domain/store/db_session.h"
#include "domain/store/retry_policy.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace rd {

/// The outcome of one renewal. A rejection carries its typed code and the local state it was
/// judged against.
struct ApplyResult
{
    ApplyOutcome outcome = ApplyOutcome::Rejected;
    std::string billingPeriodId; ///< applied or duplicate: the one billing-period row
    std::optional<RejectionCode> rejection; ///< rejected: why
    nlohmann::json localState; ///< rejected: subscription state (and conflicting period)
    std::optional<std::int64_t> caseId; ///< rejected: the reconciliation case
    int attempts = 1; ///< transaction attempts (retries after 40001/40P01/loss)
    bool resolvedInDoubt = false; ///< the connection dropped and the outcome was looked up

    nlohmann::json toJson() const;
};

/// The renewal core's answer (result, billing_period_id, error_code, local_state), read strictly:
/// UnknownAnswer for an outcome or a rejection code this program does not know, and for a
/// rejection without its code (never a Rejected without a reason).
ApplyResult applyResultFromAnswer(std::string_view outcome,
    const std::optional<std::string> &billingPeriodId,
    const std::optional<std::string> &rejectionCode, const std::optional<std::string> &localState);

/// Who hands the renewals to the core, as the billing period's recorded_by and the audit's
/// actor say: a webhook delivery of its provider key (apply_webhook_renewal), or `renewalctl
/// apply` run by the connection's login role (apply_cli_renewal, recorded by 'cli'; migration
/// 0032). The database function, not the caller, names the actor.
enum class RenewalSource { WebhookDelivery, Cli };

/// Applies renewals over one connection (one per thread), the way every entry point does:
/// retries the whole transaction on serialization failure (40001), deadlock (40P01) and a
/// lost connection with bounded, jittered backoff (safe: the operation is idempotent); a
/// connection lost with the outcome unknown is resolved by looking up the billing period id
/// this call chose (only its own commit can have written it);
/// a rejection is recorded, in its own transaction, as a reconciliation case.
class RenewalApplier
{
public:
    explicit RenewalApplier(std::string conninfo, RetryPolicy retry = {},
        RenewalSource source = RenewalSource::WebhookDelivery);
    ~RenewalApplier();

    /// Applies `event` as its source (apply_webhook_renewal, migration 0027, or
    /// apply_cli_renewal, 0032): who acted is the function's to say, not the caller's.
    ApplyResult apply(const SuccessfulRenewalEvent &event);

    /// Records a rejection as a case (or one more occurrence of its open case). The database
    /// judges the renewal again under the subscription's row lock first: nothing (no case)
    /// when it is no longer rejected, and the caller applies it again.
    std::optional<std::int64_t> recordCase(
        const nlohmann::json &eventJson, RejectionCode rejection, const nlohmann::json &localState);

private:
    DbRef connection();
    void reconnect();
    std::optional<ApplyResult> lookUpAfterLoss(const std::string &billingPeriodId);
    std::optional<std::int64_t> recordCaseRetrying(
        const nlohmann::json &eventJson, RejectionCode rejection, const nlohmann::json &localState);
    ApplyResult applyPrepared(
        const SuccessfulRenewalEvent &event, const std::string &billingPeriodId);

    std::string m_conninfo;
    RetryPolicy m_retry;
    RenewalSource m_source;
    std::unique_ptr<DbSession> m_session;
};

} // namespace rd
