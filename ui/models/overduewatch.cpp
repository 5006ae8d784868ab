#include "ui/models/overduewatch.h"

#include "ui/models/format.h"

#include "domain/core/overdue.h"

#include <QCoreApplication>
#include <QSettings>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::OverdueWatch)
};

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

QVariantList overdueGraceValues(std::optional<int> hours)
{
    const QVariant v = overdueGraceValue(hours);
    return {v, v};
}

QString overdueCondition(const QString &alias)
{
    const QString s = alias + u'.';
    // The first bound is the smallest grace any provider has (or the desk's): a constant, so
    // an index on the period end can serve it; the exact, per-provider test then runs on the
    // few rows past it instead of every active subscription.
    return u"("_qs + s + u"status = 'active' AND NOT "_qs + s + u"cancel_at_period_end AND "_qs + s
        + u"current_period_end < now() - COALESCE(make_interval(hours => CAST(? AS integer)), "
          "(SELECT least(min(bp.overdue_grace), interval '24 hours') "
          "FROM public.billing_providers bp)) AND "_qs
        + s + u"current_period_end < public.rd_overdue_cutoff("_qs + s
        + u"provider_key, make_interval(hours => CAST(? AS integer))))"_qs;
}

QString overdueNextStep(const QString &providerKey, const QString &missedPeriodEndRfc3339)
{
    return QString::fromStdString(
        rd::overdueNextStep(providerKey.toStdString(), missedPeriodEndRfc3339.toStdString()));
}

QString overdueNextStepText(const QString &providerKey, const QString &missedPeriodEndRfc3339)
{
    // rd::overdueNextStep's words, for lupdate (tst_ui_subscriptionsmodel keeps them alike).
    return Tr::tr("Import or fetch a statement, or attach a snapshot: %1 has no renewal recorded "
                  "for the period that ended %2")
        .arg(providerKey, format::localDateTime(format::instant(missedPeriodEndRfc3339)));
}

} // namespace rd::ui
