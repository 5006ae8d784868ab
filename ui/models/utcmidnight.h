#pragma once

#include <QDate>
#include <QString>

namespace rd::ui {

/// A UTC day's first instant, as text PostgreSQL casts to timestamptz ("2026-12-01T00:00:00Z"):
/// the bound of a range of UTC days over a timestamptz column.
inline QString utcMidnight(const QDate &day)
{
    return day.toString(Qt::ISODate) + QStringLiteral("T00:00:00Z");
}

} // namespace rd::ui
