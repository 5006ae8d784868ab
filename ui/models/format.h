#pragma once

#include <QDateTime>
#include <QLocale>
#include <QString>
#include <QVariant>

#include <optional>

namespace rd::ui::format {

/// Money the way a finance person reads it: "$20.00", "¥500", "1.234 KWD" - the currency's own
/// exponent (ISO 4217), its symbol when it has a well-known one, never floating point. In the
/// locale's own form ("1.234,56 €" in German); English (and C) keep the desk's form above.
/// Exports and reports that are data pass QLocale::c().
QString money(qint64 minorUnits, const QString &currency, const QLocale &locale = QLocale());

/// A UTC instant from the RFC 3339 text the database renders (rd_rfc3339); null when empty.
QDateTime instant(const QString &rfc3339);
/// Microseconds since the epoch, for exact comparisons (periods are contiguous to the µs).
std::optional<qint64> micros(const QString &rfc3339);

/// Local time for the eye ("2 Mar 2026 14:05"; the locale's short format, "02.03.26 14:05",
/// in other languages than English), UTC for the tooltip.
QString localDateTime(const QDateTime &utc);
QString utcTooltip(const QDateTime &utc);
/// The local day alone ("2 Mar 2026"; "02.03.26" in German).
QString localDate(const QDateTime &utc);
QString utcTooltip(const QDateTime &start, const QDateTime &end);

/// "1 Mar → 1 Apr 2026" (the year once when both ends share it).
QString period(const QDateTime &start, const QDateTime &end);

/// "3 d", "5 h", "12 min": how long ago.
QString age(const QDateTime &since, const QDateTime &now = QDateTime::currentDateTimeUtc());

/// "gap of 29 days" / "overlap of 3 days" / "contiguous" between an end and the next start.
QString gapDescription(const QDateTime &previousEnd, const QDateTime &nextStart);

/// "renewal_period_is_not_contiguous" -> "Renewal period is not contiguous".
QString humanize(const QString &code);

/// A code the database stores and a person reads as a word ("open", "webhook", "past_due"):
/// English shows it as stored, the form the CLI, the exports and the filters use; other
/// languages show humanize()'s translated words ("Offen").
QString storedWord(const QString &code);

} // namespace rd::ui::format
