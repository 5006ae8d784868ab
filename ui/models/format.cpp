#include "ui/models/format.h"

#include "domain/core/currency.h"
#include "domain/core/timestamp.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>
#include <QTimeZone>

namespace rd::ui::format {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::Format)
};

} // namespace

namespace {

/// English (and the C locale programs start in) keeps the desk's own forms, "$1,234.56" and
/// "2 Mar 2026 14:05": en_US's short date "3/2/26" reads as 3 February to half the world.
/// Every other language gets its locale's separators, currency placement and short dates.
bool desksOwnForms(const QLocale &locale)
{
    return locale.language() == QLocale::English || locale.language() == QLocale::C;
}

} // namespace

QString money(qint64 minorUnits, const QString &currency, const QLocale &locale)
{
    const std::string code = currency.toUpper().toStdString();
    const QString amount = QString::fromStdString(rd::formatMinorUnits(minorUnits, code));
    const bool english = desksOwnForms(locale);
    // Group the integer part for reading; the decimals stay exactly as formatted.
    const qsizetype dot = amount.indexOf(u'.');
    QString integer = dot < 0 ? amount : amount.left(dot);
    const QString fraction = dot < 0 ? QString() : amount.mid(dot + 1);
    const bool negative = integer.startsWith(u'-');
    if (negative)
        integer.remove(0, 1);
    const QString group = english ? u","_qs : locale.groupSeparator();
    for (qsizetype i = integer.size() - 3; i > 0; i -= 3)
        integer.insert(i, group);
    const QString number = (negative ? (english ? u"-"_qs : locale.negativeSign()) : QString())
        + integer
        + (fraction.isEmpty() ? QString() : (english ? u"."_qs : locale.decimalPoint()) + fraction);
    static const QHash<QString, QString> prefix {{u"USD"_qs, u"$"_qs}, {u"EUR"_qs, u"€"_qs},
        {u"GBP"_qs, u"£"_qs}, {u"JPY"_qs, u"¥"_qs}, {u"INR"_qs, u"₹"_qs}, {u"KRW"_qs, u"₩"_qs},
        {u"CAD"_qs, u"CA$"_qs}, {u"AUD"_qs, u"A$"_qs}};
    const QString upper = currency.toUpper();
    const auto symbol = prefix.constFind(upper);
    if (english)
        return symbol != prefix.constEnd() ? symbol.value() + number : number + u' ' + upper;
    // Where the locale writes a currency, and with what between: "1,00 €" in German. Only the
    // layout is read from the double here; the amount never goes through one.
    const QString layout = locale.toCurrencyString(1.0, u"¤"_qs);
    const QString sign = symbol != prefix.constEnd() ? symbol.value() : upper;
    if (layout.startsWith(u'¤'))
        return sign + layout.mid(1, layout.indexOf(u'1') - 1) + number;
    const qsizetype last = layout.lastIndexOf(QRegularExpression(u"\\d"_qs));
    const QString between = layout.mid(last + 1, layout.indexOf(u'¤') - last - 1);
    return number + (between.isEmpty() ? u"\u00a0"_qs : between) + sign;
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
    const QLocale locale;
    return desksOwnForms(locale) ? locale.toString(utc.toLocalTime(), u"d MMM yyyy HH:mm"_qs)
                                 : locale.toString(utc.toLocalTime(), QLocale::ShortFormat);
}

QString localDate(const QDateTime &utc)
{
    if (!utc.isValid())
        return {};
    const QLocale locale;
    const QDate day = utc.toLocalTime().date();
    return desksOwnForms(locale) ? locale.toString(day, u"d MMM yyyy"_qs)
                                 : locale.toString(day, QLocale::ShortFormat);
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
        return Tr::tr("no current period");
    const QDateTime s = start.toLocalTime();
    const QDateTime e = end.toLocalTime();
    const QLocale locale;
    if (!desksOwnForms(locale))
        return locale.toString(s.date(), QLocale::ShortFormat) + u" → "_qs
            + locale.toString(e.date(), QLocale::ShortFormat);
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
        return Tr::tr("%1 min").arg(std::max<qint64>(secs / 60, 0));
    if (secs < 2 * 86400)
        return Tr::tr("%1 h").arg(secs / 3600);
    return Tr::tr("%1 d").arg(secs / 86400);
}

static QString spanText(qint64 msecs)
{
    const qint64 days = msecs / 86400000;
    if (days >= 1 && msecs % 86400000 == 0)
        return days == 1 ? Tr::tr("1 day") : Tr::tr("%1 days").arg(days);
    if (days >= 1)
        return Tr::tr("%1 days %2 h").arg(days).arg((msecs % 86400000) / 3600000);
    if (msecs >= 3600000)
        return Tr::tr("%1 h %2 min").arg(msecs / 3600000).arg((msecs % 3600000) / 60000);
    if (msecs >= 1000)
        return Tr::tr("%1 s").arg(msecs / 1000);
    return Tr::tr("less than a second");
}

QString gapDescription(const QDateTime &previousEnd, const QDateTime &nextStart)
{
    const qint64 diff = previousEnd.msecsTo(nextStart);
    if (diff == 0)
        return Tr::tr("contiguous");
    if (diff > 0)
        return Tr::tr("gap of %1").arg(spanText(diff));
    return Tr::tr("overlap of %1").arg(spanText(-diff));
}

/// The codes the core and the database speak (rejections, outcomes, case and subscription
/// statuses, statement findings, actors), in the words humanize() makes of them: listed for
/// lupdate, so that the desk shows them translated. A code not listed shows in English words.
[[maybe_unused]] constexpr const char *kCodeWords[] = {
    QT_TRANSLATE_NOOP("rd::ui::Format", "Renewal"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "First invoice"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Invalid payload"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Latest invoice"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Manual invoice"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Missing period"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Invalid provider billing period"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Needs snapshot"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Provider renewal key payload conflict"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Rejected"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Renewal conflicts with scheduled cancellation"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Renewal not allowed for subscription status"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Renewal period is not contiguous"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Subscription has no current period"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Subscription not found"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Applied"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Already applied"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Duplicate"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Duplicate delivery"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Invalid"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Not a renewal"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Malformed"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Mismatch"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Missing"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Stale timestamp"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Unchanged"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Unknown"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Valid"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Refused"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Error"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Already yours"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Attached"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Claimed"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Released"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Created"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Not claimed"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Not configured"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "None"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Done"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Pending"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Published"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Failed"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Open"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Resolved"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Dismissed"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Healed"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Opened"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Noted"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Reopened"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Reapply"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Reapplied"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Dismiss"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Claim"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Release"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Note"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Reopen"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Snapshot attached"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Other"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Active"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Trialing"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Past due"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Paused"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Canceled"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Cancelled"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Incomplete"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Matched"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Backfilled"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Unapplied"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Differing"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Not in statement"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Unreadable"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Statement disagrees"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Statement object unreadable"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Refund without renewal"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Refund exceeds payment"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Money movement conflict"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Recorded"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Money movement recorded"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Refund"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Refund reversal"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Chargeback"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Chargeback reversal"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Webhook"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Operator"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Import"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "System"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Statement"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Cli"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Snapshot"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Subscription renewed"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Subscription reconciled"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Renewed"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Reconciled"),
    QT_TRANSLATE_NOOP("rd::ui::Format", "Created from snapshot"),
};

QString humanize(const QString &code)
{
    QString text = code;
    text.replace(u'_', u' ');
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return Tr::tr(text.toUtf8().constData());
}

QString storedWord(const QString &code)
{
    return desksOwnForms(QLocale()) ? code : humanize(code);
}

} // namespace rd::ui::format
