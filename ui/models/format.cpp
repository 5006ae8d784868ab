#include "ui/models/format.h"

#include "domain/core/currency.h"
#include "domain/core/timestamp.h"

#include <QLocale>
#include <QTimeZone>

namespace rd::ui::format {

QString money(qint64 minorUnits, const QString &currency)
{
    const std::string code = currency.toUpper().toStdString();
    const QString amount = QString::fromStdString(rd::formatMinorUnits(minorUnits, code));
    // Group the integer part for reading; the decimals stay exactly as formatted.
    const qsizetype dot = amount.indexOf(u'.');
    QString integer = dot < 0 ? amount : amount.left(dot);
    const QString fraction = dot < 0 ? QString() : amount.mid(dot);
    const bool negative = integer.startsWith(u'-');
    if (negative)
        integer.remove(0, 1);
    for (qsizetype i = integer.size() - 3; i > 0; i -= 3)
        integer.insert(i, u',');
    const QString number = (negative ? u"-"_qs : QString()) + integer + fraction;
    static const QHash<QString, QString> prefix {{u"USD"_qs, u"$"_qs}, {u"EUR"_qs, u"€"_qs},
        {u"GBP"_qs, u"£"_qs}, {u"JPY"_qs, u"¥"_qs}, {u"INR"_qs, u"₹"_qs}, {u"KRW"_qs, u"₩"_qs},
        {u"CAD"_qs, u"CA$"_qs}, {u"AUD"_qs, u"A$"_qs}};
    const QString upper = currency.toUpper();
    if (const auto it = prefix.constFind(upper); it != prefix.constEnd())
        return it.value() + number;
    return number + u' ' + upper;
}

std::optional<qint64> micros(const QString &rfc3339)
{
    if (rfc3339.isEmpty())
        return std::nullopt;
    const auto t = rd::parseRfc3339(rfc3339.toStdString());
    if (!t)
        return std::nullopt;
    return t->micros;
}

QDateTime instant(const QString &rfc3339)
{
    const auto m = micros(rfc3339);
    if (!m)
        return {};
    return QDateTime::fromMSecsSinceEpoch(*m / 1000, QTimeZone::utc());
}

QString localDateTime(const QDateTime &utc)
{
    if (!utc.isValid())
        return {};
    return QLocale().toString(utc.toLocalTime(), u"d MMM yyyy HH:mm"_qs);
}

QString utcTooltip(const QDateTime &utc)
{
    if (!utc.isValid())
        return {};
    return utc.toUTC().toString(u"yyyy-MM-dd HH:mm:ss.zzz 'UTC'"_qs);
}

QString utcTooltip(const QDateTime &start, const QDateTime &end)
{
    if (!start.isValid())
        return {};
    return utcTooltip(start) + u" → "_qs + utcTooltip(end);
}

QString period(const QDateTime &start, const QDateTime &end)
{
    if (!start.isValid() || !end.isValid())
        return QObject::tr("no current period");
    const QDateTime s = start.toLocalTime();
    const QDateTime e = end.toLocalTime();
    const QLocale locale;
    const QString startText = s.date().year() == e.date().year()
        ? locale.toString(s, u"d MMM"_qs)
        : locale.toString(s, u"d MMM yyyy"_qs);
    return startText + u" → "_qs + locale.toString(e, u"d MMM yyyy"_qs);
}

QString age(const QDateTime &since, const QDateTime &now)
{
    if (!since.isValid())
        return {};
    const qint64 secs = since.secsTo(now);
    if (secs < 3600)
        return QObject::tr("%1 min").arg(std::max<qint64>(secs / 60, 0));
    if (secs < 2 * 86400)
        return QObject::tr("%1 h").arg(secs / 3600);
    return QObject::tr("%1 d").arg(secs / 86400);
}

static QString spanText(qint64 msecs)
{
    const qint64 days = msecs / 86400000;
    if (days >= 1 && msecs % 86400000 == 0)
        return days == 1 ? QObject::tr("1 day") : QObject::tr("%1 days").arg(days);
    if (days >= 1)
        return QObject::tr("%1 days %2 h").arg(days).arg((msecs % 86400000) / 3600000);
    if (msecs >= 3600000)
        return QObject::tr("%1 h %2 min").arg(msecs / 3600000).arg((msecs % 3600000) / 60000);
    if (msecs >= 1000)
        return QObject::tr("%1 s").arg(msecs / 1000);
    return QObject::tr("less than a second");
}

QString gapDescription(const QDateTime &previousEnd, const QDateTime &nextStart)
{
    const qint64 diff = previousEnd.msecsTo(nextStart);
    if (diff == 0)
        return QObject::tr("contiguous");
    if (diff > 0)
        return QObject::tr("gap of %1").arg(spanText(diff));
    return QObject::tr("overlap of %1").arg(spanText(-diff));
}

QString humanize(const QString &code)
{
    QString text = code;
    text.replace(u'_', u' ');
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

} // namespace rd::ui::format
