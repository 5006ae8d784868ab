#pragma once

#include "ui/models/records.h"

#include <QDateTime>

namespace rd::ui::columns {

/// Column builders over flat rows: the same rendering rules everywhere (text left, money and
/// counts right-aligned, instants in local time with UTC in the tooltip).
Column text(const QString &title, int field);
Column instant(const QString &title, int field);
Column period(const QString &title, int startField, int endField);
Column money(const QString &title, int amountField, int currencyField);
Column count(const QString &title, int field, bool alarmWhenPositive = false);
Column age(const QString &title, int field);
/// A humanized code ("renewal_period_is_not_contiguous" → "Renewal period is not contiguous"),
/// the raw code in the tooltip.
Column code(const QString &title, int field);

/// µs since the epoch (as rows keep instants) as a UTC QDateTime; null stays invalid.
QDateTime fromMicros(const QVariant &micros);

} // namespace rd::ui::columns
