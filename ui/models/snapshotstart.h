#pragma once

#include "domain/core/provider_snapshot.h"

#include <QString>

#include <optional>

class QSqlDatabase;

namespace rd::ui {

/// What the desk holds about a case's subscription and renewal, the start of a snapshot.
struct SnapshotStartFacts
{
    std::string providerKey;
    std::string providerSubscriptionId;
    std::string eventJson; ///< the case's normalized event (reconciliation_cases.event)
    bool subscriptionExists = false;
    std::string status; ///< the subscription's status ("" when it does not exist)
    std::optional<rd::Period> currentPeriod;
    bool cancelAtPeriodEnd = false;
    std::optional<std::string> providerVersion;
};

/// Renewal Desk's snapshot form prefilled from what the desk holds ("Start from current
/// state" in the attach dialog), for the operator to correct to what the provider shows: the
/// subscription's status, cancellation and provider version (an active subscription when the
/// desk has none), and the case's renewal as the latest renewal with its period as the current
/// period when the case's event is a complete renewal (else the subscription's current period
/// and no renewal). Captured `now`.
rd::ProviderSnapshot startingSnapshot(const SnapshotStartFacts &facts, rd::Timestamp now);

/// The snapshot as the operator edits it: pretty JSON with the keys in the form's order
/// (providerKey first, latestRenewal last), not alphabetical.
QString snapshotFormText(const rd::ProviderSnapshot &snapshot);

/// The facts of case `caseId` in one statement (off the GUI thread, through the DatabasePool);
/// nothing when there is no such case.
std::optional<SnapshotStartFacts> loadSnapshotStartFacts(QSqlDatabase &db, qint64 caseId);

/// Renewal Desk's form in a few lines, shown beside the snapshot text: its fields and what each
/// takes (providerVersion is a string or null, never a number).
QString snapshotFormatDescription();

} // namespace rd::ui
