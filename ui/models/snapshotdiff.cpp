#include "ui/models/snapshotdiff.h"

#include "ui/models/format.h"

#include <QCoreApplication>
#include <QTimeZone>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::SnapshotDiff)
};

QDateTime utc(qint64 micros)
{
    return QDateTime::fromMSecsSinceEpoch(micros / 1000, QTimeZone::utc());
}

QString when(std::optional<qint64> micros)
{
    return micros ? format::localDateTime(utc(*micros)) : Tr::tr("none");
}

QString tip(std::optional<qint64> micros)
{
    return micros ? format::utcTooltip(utc(*micros)) : QString();
}

QString yesNo(bool value)
{
    return value ? Tr::tr("yes") : Tr::tr("no");
}

QString renewalText(
    const QString &key, qint64 start, qint64 end, qint64 amountMinor, const QString &currency)
{
    return Tr::tr("%1 · %2 · %3")
        .arg(key, format::period(utc(start), utc(end)), format::money(amountMinor, currency));
}

} // namespace

QStringList SnapshotDiff::changedFields() const
{
    QStringList fields;
    for (const auto &line : lines) {
        if (line.differs)
            fields << line.field;
    }
    return fields;
}

SnapshotDiff diffSnapshot(const CaseSubscription &subject, const rd::ProviderSnapshot &snapshot)
{
    SnapshotDiff diff;
    const std::optional<LocalSubscription> &local = subject.local;
    diff.createsSubscription = !local.has_value();
    const QString absent = Tr::tr("not in the desk");
    // A subscription the snapshot creates: every field is new.
    auto add = [&](const QString &field, const QString &localText, const QString &snapshotText,
                   bool changes, const QString &localTip = {}, const QString &snapshotTip = {}) {
        const bool differs = changes || !local;
        diff.lines.append({field, local ? localText : absent, snapshotText, localTip, snapshotTip,
            differs, local ? Tr::tr("changes") : Tr::tr("new")});
    };

    const QString status = QString::fromStdString(snapshot.status);
    add(Tr::tr("status"), local ? local->status : QString(), status,
        local && local->status != status);
    add(Tr::tr("cancels at period end"), local ? yesNo(local->cancelAtPeriodEnd) : QString(),
        yesNo(snapshot.cancelAtPeriodEnd),
        local && local->cancelAtPeriodEnd != snapshot.cancelAtPeriodEnd);

    std::optional<qint64> snapStart;
    std::optional<qint64> snapEnd;
    if (snapshot.currentPeriod) {
        snapStart = snapshot.currentPeriod->start.micros;
        snapEnd = snapshot.currentPeriod->end.micros;
    }
    const std::optional<qint64> localStart = local ? local->periodStartMicros : std::nullopt;
    const std::optional<qint64> localEnd = local ? local->periodEndMicros : std::nullopt;
    add(Tr::tr("period start"), when(localStart), when(snapStart), local && localStart != snapStart,
        tip(localStart), tip(snapStart));
    add(Tr::tr("period end"), when(localEnd), when(snapEnd), local && localEnd != snapEnd,
        tip(localEnd), tip(snapEnd));

    // coalesce(snapshot, local): a snapshot without a version keeps ours.
    const QString localVersion = local ? local->providerVersion : QString();
    if (snapshot.providerVersion) {
        const QString version = QString::fromStdString(*snapshot.providerVersion);
        add(Tr::tr("provider version"), localVersion.isNull() ? Tr::tr("none") : localVersion,
            version, local && localVersion != version);
    } else {
        add(Tr::tr("provider version"), localVersion.isNull() ? Tr::tr("none") : localVersion,
            Tr::tr("none (ours is kept)"), false);
    }

    const auto &localRenewal = local ? local->latestRenewal : std::nullopt;
    const QString localRenewalText = localRenewal
        ? renewalText(localRenewal->renewalKey, localRenewal->startMicros, localRenewal->endMicros,
            localRenewal->paidAmountMinor, localRenewal->currency)
        : Tr::tr("none recorded");
    if (const auto &lr = snapshot.latestRenewal) {
        const QString renewalKey = QString::fromStdString(lr->providerRenewalKey);
        const QString currency = QString::fromStdString(lr->currency);
        const bool sameKey = localRenewal && localRenewal->renewalKey == renewalKey;
        const QString text = renewalText(renewalKey, lr->period.start.micros, lr->period.end.micros,
            lr->paidAmountMinor, currency);
        diff.lines.append({Tr::tr("latest renewal"), local ? localRenewalText : absent, text, {},
            {}, !sameKey, sameKey ? Tr::tr("changes") : Tr::tr("new billing period")});
    } else {
        diff.lines.append({Tr::tr("latest renewal"), local ? localRenewalText : absent,
            Tr::tr("none in the snapshot"), {}, {}, false, {}});
    }

    return diff;
}

} // namespace rd::ui
