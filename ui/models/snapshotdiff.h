#pragma once

#include "ui/models/comparisonline.h"

#include "domain/core/provider_snapshot.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace rd::ui {

/// A subscription as the desk holds it, as far as attaching a snapshot can change it.
struct LocalSubscription
{
    QString status;
    std::optional<qint64> periodStartMicros; ///< both or neither
    std::optional<qint64> periodEndMicros;
    bool cancelAtPeriodEnd = false;
    QString providerVersion; ///< null when there is none
    qint64 revision = 0;

    struct Renewal
    {
        QString renewalKey;
        qint64 startMicros = 0;
        qint64 endMicros = 0;
        qint64 paidAmountMinor = 0;
        QString currency;
    };
    /// The newest billing period recorded (by period start).
    std::optional<Renewal> latestRenewal;
};

/// The subscription a case is about, and what the desk holds of it (nothing when the provider
/// renewed a subscription that was never imported).
struct CaseSubscription
{
    QString providerKey;
    QString providerSubscriptionId;
    std::optional<LocalSubscription> local;
};

/// What attaching a snapshot would change, before anyone confirms it.
struct SnapshotDiff
{
    /// status, cancels at period end, period start, period end, provider version, latest
    /// renewal: local against the snapshot, the lines that would change marked.
    QVector<ComparisonLine> lines;
    /// The snapshot creates the subscription (the desk does not hold it).
    bool createsSubscription = false;

    /// The fields that would change ("status", "period end", ...).
    QStringList changedFields() const;
};

/// What attach_provider_snapshot() would change, field by field: the snapshot's status,
/// current period and cancellation flag are taken as they are, its provider version only when
/// it has one, and its latest renewal is recorded when that renewal key is new. Whether the
/// database accepts the snapshot at all (stale, another subscription, a conflicting renewal)
/// is not judged here: the database's preview says. Pure: the local state is read beforehand.
SnapshotDiff diffSnapshot(const CaseSubscription &subject, const rd::ProviderSnapshot &snapshot);

} // namespace rd::ui
