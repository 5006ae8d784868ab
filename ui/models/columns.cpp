#include "ui/models/columns.h"

#include "ui/models/format.h"

#include "domain/core/currency.h"
#include "domain/core/timestamp.h"

#include <QBrush>
#include <QColor>
#include <QCoreApplication>
#include <QFont>
#include <QTimeZone>

namespace rd::ui::columns {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::Columns)
};

} // namespace

QDateTime fromMicros(const QVariant &micros)
{
    if (micros.isNull())
        return {};
    return QDateTime::fromMSecsSinceEpoch(micros.toLongLong() / 1000, QTimeZone::utc());
}

QString isoInstant(const QVariant &micros)
{
    if (micros.isNull() || !micros.isValid())
        return {};
    return QString::fromStdString(rd::formatRfc3339(rd::Timestamp {micros.toLongLong()}));
}

QStringList moneyExportTitles(const QString &title)
{
    return {title, title + Tr::tr(" currency"), title + Tr::tr(" minor units")};
}

QStringList moneyExportValues(const QVariant &minor, const QVariant &currency)
{
    if (minor.isNull() || !minor.isValid())
        return {QString(), currency.toString(), QString()};
    const QString code = currency.toString();
    return {QString::fromStdString(rd::formatMinorUnits(minor.toLongLong(), code.toStdString())),
        code, QString::number(minor.toLongLong())};
}

QVector<csv::Kind> moneyExportKinds()
{
    return {csv::Kind::Number, csv::Kind::Text, csv::Kind::Number};
}

QStringList periodExportTitles(const QString &title)
{
    return {title + Tr::tr(" start"), title + Tr::tr(" end")};
}

Column text(const QString &title, int field)
{
    return {title, [field](RowRef r, int role) -> QVariant {
                if (role == Qt::DisplayRole || role == int(Role::Raw))
                    return r[field];
                if (role == Qt::ToolTipRole && r[field].toString().size() > 40)
                    return r[field];
                return {};
            }};
}

// An instant shown as `display` makes it (a local date and time, an age), with its UTC value
// as the tooltip and the raw microseconds for sorting and export.
static Column instantAs(const QString &title, int field, QString (*display)(const QDateTime &),
    Qt::Alignment alignment = Qt::AlignLeft | Qt::AlignVCenter)
{
    return {title,
        [field, display](RowRef r, int role) -> QVariant {
            switch (role) {
            case Qt::DisplayRole:
                return display(fromMicros(r[field]));
            case Qt::ToolTipRole:
                return format::utcTooltip(fromMicros(r[field]));
            case int(Role::Raw):
                return r[field];
            default:
                return {};
            }
        },
        alignment, {}, [field](RowRef r) { return QStringList {isoInstant(r[field])}; }};
}

Column instant(const QString &title, int field)
{
    return instantAs(title, field, format::localDateTime);
}

Column period(const QString &title, int startField, int endField)
{
    return {title,
        [=](RowRef r, int role) -> QVariant {
            switch (role) {
            case Qt::DisplayRole:
                return format::period(fromMicros(r[startField]), fromMicros(r[endField]));
            case Qt::ToolTipRole:
                return format::utcTooltip(fromMicros(r[startField]), fromMicros(r[endField]));
            case int(Role::Raw):
                return r[startField];
            default:
                return {};
            }
        },
        Qt::AlignLeft | Qt::AlignVCenter, periodExportTitles(title),
        [=](RowRef r) {
            return QStringList {isoInstant(r[startField]), isoInstant(r[endField])};
        }};
}

Column money(const QString &title, int amountField, int currencyField)
{
    return {title,
        [=](RowRef r, int role) -> QVariant {
            if (r[amountField].isNull())
                return {};
            switch (role) {
            case Qt::DisplayRole:
                return format::money(r[amountField].toLongLong(), r[currencyField].toString());
            case Qt::ToolTipRole:
                return Tr::tr("%1 minor units of %2")
                    .arg(r[amountField].toLongLong())
                    .arg(r[currencyField].toString());
            case int(Role::Raw):
                return r[amountField];
            default:
                return {};
            }
        },
        Qt::AlignRight | Qt::AlignVCenter, moneyExportTitles(title),
        [=](RowRef r) { return moneyExportValues(r[amountField], r[currencyField]); },
        moneyExportKinds()};
}

Column count(const QString &title, int field, bool alarmWhenPositive)
{
    return {title,
        [=](RowRef r, int role) -> QVariant {
            const qint64 n = r[field].toLongLong();
            switch (role) {
            case Qt::DisplayRole:
                return QString::number(n);
            case int(Role::Raw):
                return n;
            case Qt::ForegroundRole:
                return alarmWhenPositive && n > 0 ? QVariant(QBrush(QColor(0xb0, 0x20, 0x20)))
                                                  : QVariant();
            default:
                return {};
            }
        },
        Qt::AlignRight | Qt::AlignVCenter, {}, {}, {csv::Kind::Number}};
}

Column age(const QString &title, int field)
{
    return instantAs(
        title, field, [](const QDateTime &t) { return format::age(t); },
        Qt::AlignRight | Qt::AlignVCenter);
}

namespace {

Column codeColumn(const QString &title, int field, QString (*display)(const QString &))
{
    return {title, [=](RowRef r, int role) -> QVariant {
                switch (role) {
                case Qt::DisplayRole:
                    return display(r[field].toString());
                case Qt::ToolTipRole:
                case int(Role::Raw):
                    return r[field];
                default:
                    return {};
                }
            }};
}

} // namespace

Column code(const QString &title, int field)
{
    return codeColumn(title, field, format::humanize);
}

Column word(const QString &title, int field)
{
    return codeColumn(title, field, format::storedWord);
}

} // namespace rd::ui::columns
