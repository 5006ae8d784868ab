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
/// A stored code as a word (format::storedWord: as stored in English, translated otherwise).
Column word(const QString &title, int field);

/// Export forms shared by hand-written columns: an instant as ISO 8601 UTC
/// ("2026-11-11T09:00:00Z", ".ffffff" when it has microseconds; empty when null); a period as
/// "<title> start" and "<title> end"; an amount as "<title>" (a plain decimal in major units),
/// "<title> currency" (the ISO code) and "<title> minor units".
QString isoInstant(const QVariant &micros);
QStringList periodExportTitles(const QString &title);
QStringList moneyExportTitles(const QString &title);
QStringList moneyExportValues(const QVariant &minorUnits, const QVariant &currency);
/// The kinds of the money's three CSV columns: the amounts are numbers, the currency is text.
QVector<csv::Kind> moneyExportKinds();

/// µs since the epoch (as rows keep instants) as a UTC QDateTime; null stays invalid.
QDateTime fromMicros(const QVariant &micros);

} // namespace rd::ui::columns
