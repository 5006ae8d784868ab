#include "ui/models/overduewatch.h"

#include "domain/core/overdue.h"

#include <QSettings>

namespace rd::ui {
namespace {

const QString kGraceKey = u"overdue/graceHours"_qs;

} // namespace

std::optional<int> overdueGraceHoursSetting()
{
    bool ok = false;
    const int hours = QSettings().value(kGraceKey).toInt(&ok);
    // What another version or a hand-edited file left there is ignored, not applied.
    if (!ok || hours < 0 || hours > int(rd::kMaxOverdueGrace.count()))
        return std::nullopt;
    return hours;
}

void setOverdueGraceHoursSetting(std::optional<int> hours)
{
    QSettings settings;
    if (hours)
        settings.setValue(kGraceKey, *hours);
    else
        settings.remove(kGraceKey);
}

QVariant overdueGraceValue(std::optional<int> hours)
{
    return hours ? QVariant(*hours) : QVariant(QMetaType::fromType<int>());
}

QString overdueCondition(const QString &alias)
{
    const QString s = alias + u'.';
    return u"("_qs + s + u"status = 'active' AND NOT "_qs + s + u"cancel_at_period_end AND "_qs + s
        + u"current_period_end < public.rd_overdue_cutoff("_qs + s
        + u"provider_key, make_interval(hours => CAST(? AS integer))))"_qs;
}

QString overdueNextStep(const QString &providerKey, const QString &missedPeriodEndRfc3339)
{
    return QString::fromStdString(
        rd::overdueNextStep(providerKey.toStdString(), missedPeriodEndRfc3339.toStdString()));
}

} // namespace rd::ui
