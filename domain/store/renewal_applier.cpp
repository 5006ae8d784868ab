#include "domain/store/renewal_applier.h"

#include "domain/core/errors.h"
#include "domain/store/database_target.h"
#include "domain/store/random_uuid.h"
#include "domain/store/retrying_call.h"

#include <pqxx/pqxx>

namespace rd {
namespace {

constexpr const char *kApplyWebhookSql
    = "SELECT result, billing_period_id, error_code, local_state FROM apply_webhook_renewal("
      "$1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $8, $9, $10::timestamptz, $11::uuid)";
constexpr const char *kApplyCliSql
    = "SELECT result, billing_period_id, error_code, local_state FROM apply_cli_renewal("
      "$1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $8, $9, $10::timestamptz, $11::uuid)";

ApplyResult outcomeFromRow(const pqxx::row &row)
{
    ApplyResult out;
    out.result = applyResultFromName(row[0].as<std::string>());
    if (!row[1].is_null())
        out.billingPeriodId = row[1].as<std::string>();
    if (!row[2].is_null()) {
        const auto code = row[2].as<std::string>();
        out.rejection = rejectionCodeFromString(code);
        // A code this program does not know comes from a newer schema: refuse to guess (the
        // transaction rolled back; the delivery is not acknowledged and will come again).
        if (!out.rejection)
            throw DatabaseUnavailable("the renewal core answered an unknown rejection '" + code
                + "': is this program older than the database's schema?");
    }
    if (!row[3].is_null())
        out.localState = nlohmann::json::parse(row[3].as<std::string>());
    return out;
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

nlohmann::json ApplyResult::toJson() const
{
    nlohmann::json j {{"result", resultName(result)},
        {"billingPeriodId",
            billingPeriodId.empty() ? nlohmann::json() : nlohmann::json(billingPeriodId)},
        {"caseId", caseId ? nlohmann::json(*caseId) : nlohmann::json()},
        {"error", rejection ? nlohmann::json(toString(*rejection)) : nlohmann::json()}};
    if (result == ApplyOutcome::Rejected)
        j["localState"] = localState;
    return j;
}

RenewalApplier::RenewalApplier(std::string conninfo, RetryPolicy retry, RenewalSource source)
    : m_conninfo(std::move(conninfo)), m_retry(retry), m_source(source)
{
    reconnect();
}

RenewalApplier::~RenewalApplier() = default;

pqxx::connection &RenewalApplier::connection()
{
    if (!m_conn || !m_conn->is_open())
        reconnect();
    return *m_conn;
}

void RenewalApplier::reconnect()
{
    m_conn.reset();
    m_conn = connectTo(m_conninfo);
    m_conn->prepare(
        kApplyStatement, m_source == RenewalSource::Cli ? kApplyCliSql : kApplyWebhookSql);
}

ApplyResult RenewalApplier::applyPrepared(
    const SuccessfulRenewalEvent &event, const std::string &billingPeriodId)
{
    // Autocommit: the function call is the whole transaction (one round trip).
    pqxx::nontransaction tx(connection());
    return outcomeFromRow(execApply(tx, event, billingPeriodId));
}

std::optional<ApplyResult> RenewalApplier::lookUpAfterLoss(const std::string &billingPeriodId)
{
    // Only this call could have written a billing period with this id: found, our commit
    // landed and its acknowledgement was lost; not found, nothing of ours committed and the
    // retry judges the renewal afresh (a renewal somebody else recorded is then a duplicate).
    pqxx::read_transaction tx(connection());
    if (tx.exec_params(
              "SELECT 1 FROM subscription_billing_periods WHERE id = $1::uuid", billingPeriodId)
            .empty())
        return std::nullopt;
    ApplyResult out;
    out.result = ApplyOutcome::Applied;
    out.billingPeriodId = billingPeriodId;
    out.resolvedInDoubt = true;
    return out;
}

ApplyResult RenewalApplier::apply(const SuccessfulRenewalEvent &event)
{
    const std::string billingPeriodId = randomUuid();
    return callCommittingOnce<ApplyResult>(
        m_retry,
        [&](int attempt) -> std::optional<ApplyResult> {
            ApplyResult out = applyPrepared(event, billingPeriodId);
            if (out.result == ApplyOutcome::Rejected) {
                out.caseId = recordCase(rd::toJson(event), *out.rejection, out.localState);
                if (!out.caseId) {
                    // Judged again under the row lock, the renewal is no longer rejected: its
                    // predecessor, or another delivery of it, committed in between. Apply again.
                    if (!m_retry.mayRetry(attempt))
                        throw DatabaseUnavailable("renewal " + event.providerRenewalKey
                            + " kept changing between its rejection and its case");
                    return std::nullopt;
                }
            }
            return out;
        },
        [&] { return lookUpAfterLoss(billingPeriodId); }, [this] { m_conn.reset(); },
        "applying renewal " + event.providerRenewalKey);
}

std::optional<std::int64_t> RenewalApplier::recordCase(
    const nlohmann::json &eventJson, RejectionCode rejection, const nlohmann::json &localState)
{
    for (int attempt = 1;; ++attempt) {
        try {
            pqxx::nontransaction tx(connection());
            const auto id
                = tx.exec_params1("SELECT record_reconciliation_case($1::jsonb, $2, $3::jsonb, $4)",
                    eventJson.dump(), std::string(toString(rejection)), localState.dump(),
                    std::string(m_source == RenewalSource::Cli ? "cli" : "webhook"))[0];
            if (id.is_null())
                return std::nullopt;
            return id.as<std::int64_t>();
        } catch (const pqxx::transaction_rollback &) {
            if (!m_retry.mayRetry(attempt))
                throw;
        } catch (const pqxx::broken_connection &) {
            // Recording a case again is harmless: it adds an occurrence at worst.
            if (!m_retry.mayRetry(attempt))
                throw DatabaseUnavailable("lost the database connection while recording a case");
            m_conn.reset();
        }
        m_retry.pause(attempt);
    }
}

} // namespace rd
