#pragma once

#include "domain/core/renewal_event.h"
#include "domain/store/renewal_applier.h"

#include <QByteArray>
#include <QString>

#include <pqxx/pqxx>

#include <string>

namespace rdtest {

/// The rejection code of an outcome as the database spells it, "" when it was not rejected.
inline std::string rejectionOf(const rd::ApplyResult &out)
{
    return out.rejection ? std::string(rd::toString(*out.rejection)) : std::string();
}

/// The February renewal of a subscription whose current period is January 2026.
inline rd::SuccessfulRenewalEvent februaryRenewal(const std::string &subscriptionId = "sub_1",
    const std::string &eventId = "evt_1", const std::string &renewalKey = "in_1")
{
    rd::SuccessfulRenewalEvent e;
    e.providerKey = "stripe-main";
    e.providerEventId = eventId;
    e.providerSubscriptionId = subscriptionId;
    e.providerRenewalKey = renewalKey;
    e.period
        = {*rd::parseRfc3339("2026-02-01T00:00:00Z"), *rd::parseRfc3339("2026-03-01T00:00:00Z")};
    e.paidAmountMinor = 1999;
    e.currency = "USD";
    e.paidAt = *rd::parseRfc3339("2026-02-01T00:03:12.345678Z");
    return e;
}

/// A snapshot's capturedAt for "fetched just now": `aheadSeconds` past this machine's clock, so
/// that it follows every change the test made before attaching it (else the snapshot is stale),
/// and well within the 5 minutes of clock skew the database allows (migration 0027).
inline std::string capturedNow(int aheadSeconds = 60)
{
    return rd::formatRfc3339(
        rd::Timestamp {rd::Timestamp::now().micros + aheadSeconds * 1000000LL});
}

/// SQL that attaches a snapshot of sub_1 whose period is February 2026 and whose latest renewal
/// is February's (in_feb, 1999 USD, paid at `paidAt`), after the session has set
/// renewal_desk.core_counts to 'on' as if it were the core: the renewal is the snapshot's to
/// record and to count all the same.
inline std::string februarySnapshotClaimingCoreCounts(const std::string &paidAt)
{
    return "SET renewal_desk.core_counts = 'on'; "
           "SELECT attach_provider_snapshot('{\"providerKey\":\"stripe-main\","
           "\"providerSubscriptionId\":\"sub_1\",\"status\":\"active\","
           "\"currentPeriod\":{\"start\":\"2026-02-01T00:00:00Z\",\"end\":"
           "\"2026-03-01T00:00:00Z\"},\"cancelAtPeriodEnd\":false,\"providerVersion\":"
           "null,\"capturedAt\":\""
        + capturedNow()
        + "\",\"latestRenewal\":{"
          "\"providerKey\":\"stripe-main\",\"providerEventId\":\"evt_feb\","
          "\"providerSubscriptionId\":\"sub_1\",\"providerRenewalKey\":\"in_feb\","
          "\"providerVersion\":null,\"period\":{\"start\":\"2026-02-01T00:00:00Z\","
          "\"end\":\"2026-03-01T00:00:00Z\"},\"paidAmountMinor\":1999,\"currency\":"
          "\"USD\",\"paidAt\":\""
        + paidAt + "\"}}', NULL, 'other', 'x')";
}

/// What an observer can see of one subscription and the tables around it.
struct Observed
{
    std::string periodStart;
    std::string periodEnd;
    long long revision = 0;
    long long billingPeriods = 0;
    long long renewalAudits = 0;
    long long outbox = 0;
    long long openCases = 0;

    bool operator==(const Observed &) const = default;
};

inline Observed observe(pqxx::connection &conn, const std::string &subscriptionId = "sub_1")
{
    pqxx::read_transaction tx(conn);
    const auto r = tx.exec_params1(
        R"(SELECT rd_rfc3339(s.current_period_start), rd_rfc3339(s.current_period_end), s.revision,
                  (SELECT count(*) FROM subscription_billing_periods b WHERE b.subscription_id = s.id),
                  (SELECT count(*) FROM subscription_transition_audits a
                    WHERE a.subscription_id = s.id AND a.transition = 'subscription_renewed'),
                  (SELECT count(*) FROM subscription_outbox o WHERE o.subscription_id = s.id),
                  (SELECT count(*) FROM reconciliation_cases c
                    WHERE c.provider_subscription_id = s.provider_subscription_id
                      AND c.status = 'open')
             FROM subscriptions s
            WHERE s.provider_key = 'stripe-main' AND s.provider_subscription_id = $1)",
        subscriptionId);
    return {r[0].as<std::string>(std::string()), r[1].as<std::string>(std::string()),
        r[2].as<long long>(), r[3].as<long long>(), r[4].as<long long>(), r[5].as<long long>(),
        r[6].as<long long>()};
}

/// An apply outcome as QCOMPARE can print it (it prints QStrings, not this enum).
inline QString outcomeName(rd::ApplyOutcome outcome)
{
    return QString::fromStdString(std::string(rd::toString(outcome)));
}

} // namespace rdtest
