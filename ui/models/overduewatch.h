#pragma once

// The desk's side of the overdue watch (migration 0030): the grace override people set in the
// desk, and what an overdue row tells them to do.

#include <QString>
#include <QVariant>

#include <optional>

namespace rd::ui {

/// The grace the desk applies to every provider (QSettings "overdue/graceHours"); nullopt:
/// each provider's own (billing_providers.overdue_grace, 24 hours unless set).
std::optional<int> overdueGraceHoursSetting();
/// Stores it; nullopt removes the override.
void setOverdueGraceHoursSetting(std::optional<int> hours);
/// The override as the value of `make_interval(hours => CAST(? AS integer))`: NULL for none.
QVariant overdueGraceValue(std::optional<int> hours);
/// The SQL condition "subscription `alias` is overdue", with two `?`: overdueGraceValues.
QString overdueCondition(const QString &alias);
QVariantList overdueGraceValues(std::optional<int> hours);
/// What to do about an overdue subscription: the CLI's sentence, naming the provider and the
/// period end whose renewal is missing (RFC 3339): the machine form a CSV keeps.
QString overdueNextStep(const QString &providerKey, const QString &missedPeriodEndRfc3339);
/// The same sentence in the desk's language, the period end in the locale's form: what the
/// Subscriptions page shows.
QString overdueNextStepText(const QString &providerKey, const QString &missedPeriodEndRfc3339);

} // namespace rd::ui
