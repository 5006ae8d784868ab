#pragma once

// The ground the reconciliation suites share (tst_reconciliation, tst_snapshot, tst_caseroles,
// tst_casecli; the database's own fixture in tst_healing and tst_indoubt): sub_1 of stripe-main
// with January 2026 current, and the case its March renewal opens (a gap: February missing).

#include "domain/core/operator_note.h"
#include "domain/core/provider_snapshot.h"
#include "domain/core/timestamp.h"
#include "domain/store/renewal_applier.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"

#include <QtTest>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace rdtest {

/// Why the tests' operator acts.
inline const rd::OperatorNote kCaseNote {"provider_confirmed", "checked in the provider dashboard"};

inline rd::Timestamp ts(const std::string &text)
{
    return *rd::parseRfc3339(text);
}

/// A database of its own for the running test function, holding sub_1 of stripe-main.
inline std::unique_ptr<TestDatabase> databaseWithSub1()
{
    auto db = std::make_unique<TestDatabase>(QTest::currentTestFunction());
    importSubscriptions(db->conninfo(), subscriptionLine("stripe-main", "sub_1"));
    return db;
}

/// sub_1's March renewal: while January is current, a gap.
inline rd::SuccessfulRenewalEvent marchRenewal()
{
    auto e = februaryRenewal("sub_1", "evt_march", "in_march");
    e.period = {ts("2026-03-01T00:00:00Z"), ts("2026-04-01T00:00:00Z")};
    return e;
}

/// The case marchRenewal opens in `db` (databaseWithSub1), delivered by the core.
inline std::int64_t openGapCase(const TestDatabase &db)
{
    rd::RenewalApplier applier(db.conninfo());
    const auto out = applier.apply(marchRenewal());
    if (out.outcome != rd::ApplyOutcome::Rejected || !out.caseId)
        throw std::runtime_error("expected a rejection");
    return *out.caseId;
}

/// An open case of `kind` for a new stripe-main subscription `sub` (January 2026 current),
/// opened by its February renewal: "status" (the subscription is past due), "gap" (the renewal
/// is March's), "cancel" (set to cancel at the period's end).
inline std::int64_t openCaseOfKind(
    const TestDatabase &db, const std::string &kind, const std::string &sub)
{
    if (kind != "status" && kind != "gap" && kind != "cancel")
        throw std::invalid_argument("no case kind " + kind);
    importSubscriptions(db.conninfo(),
        subscriptionLine("stripe-main", sub, kind == "status" ? "past_due" : "active",
            "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", kind == "cancel"));
    auto renewal = februaryRenewal(sub, "evt_" + sub, "in_" + sub);
    if (kind == "gap")
        renewal.period = {ts("2026-03-01T00:00:00Z"), ts("2026-04-01T00:00:00Z")};
    rd::RenewalApplier applier(db.conninfo());
    const auto outcome = applier.apply(renewal);
    if (!outcome.caseId)
        throw std::runtime_error("no case for " + sub);
    return *outcome.caseId;
}

/// The provider's state after the February renewal: February current, in_feb its latest.
inline rd::ProviderSnapshot snapshotOfFebruary(const std::string &capturedAt)
{
    rd::ProviderSnapshot s;
    s.providerKey = "stripe-main";
    s.providerSubscriptionId = "sub_1";
    s.status = "active";
    s.currentPeriod = rd::Period {ts("2026-02-01T00:00:00Z"), ts("2026-03-01T00:00:00Z")};
    s.cancelAtPeriodEnd = false;
    s.capturedAt = ts(capturedAt);
    s.latestRenewal = februaryRenewal("sub_1", "evt_feb", "in_feb");
    return s;
}

/// The provider's state before the February renewal: January current, no renewal to record.
inline rd::ProviderSnapshot snapshotOfJanuary(const std::string &capturedAt)
{
    auto s = snapshotOfFebruary(capturedAt);
    s.currentPeriod = rd::Period {ts("2026-01-01T00:00:00Z"), ts("2026-02-01T00:00:00Z")};
    s.latestRenewal.reset();
    return s;
}

} // namespace rdtest
