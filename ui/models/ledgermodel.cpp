#include "ui/models/ledgermodel.h"

#include "ui/models/columns.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/utcmidnight.h"

#include "domain/core/currency.h"
#include "domain/core/timestamp.h"

#include <QCoreApplication>
#include <QLocale>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::LedgerModel)
};

} // namespace
namespace {

using L = LedgerModel;

QString rfc3339(const QVariant &micros)
{
    return QString::fromStdString(rd::formatRfc3339(rd::Timestamp {micros.toLongLong()}));
}

/// An amount in major units in the reader's number format, without a currency sign: the
/// currency has a column of its own ("1,250.500" KWD, "3,000" JPY).
QString plainAmount(qint64 minorUnits, const QString &currency)
{
    const QString plain
        = QString::fromStdString(rd::formatMinorUnits(minorUnits, currency.toStdString()));
    const QLocale locale;
    const qsizetype dot = plain.indexOf(u'.');
    const QString whole = plain.left(dot < 0 ? plain.size() : dot);
    QString text = locale.toString(whole.toLongLong());
    if (whole.startsWith(u"-0"_qs)) // -0.50: the integer part alone has lost its sign
        text.prepend(locale.negativeSign());
    if (dot >= 0)
        text += locale.decimalPoint() + plain.mid(dot + 1);
    return text;
}

QVector<Field> ledgerFields()
{
    return {Field::Uuid, Field::Uuid, Field::Text, Field::Interned, Field::Text, Field::Micros,
        Field::Micros, Field::Int, Field::Interned, Field::Micros, Field::Interned, Field::Text,
        Field::Bool};
}

QVector<Column> ledgerColumns()
{
    QVector<Column> c(L::ColumnCount);
    c[L::SubscriptionColumn] = {Tr::tr("Subscription"),
        [](RowRef r, int role) -> QVariant {
            if (role == Qt::DisplayRole || role == int(Role::Raw))
                return r[L::SubscriptionId];
            if (role == Qt::ToolTipRole)
                return Tr::tr("Internal id %1 · Enter opens the subscription")
                    .arg(keyText(r[L::SubscriptionUuid]));
            return {};
        },
        Qt::AlignLeft | Qt::AlignVCenter,
        {Tr::tr("Subscription"), Tr::tr("Subscription internal id")},
        [](RowRef r) {
            return QStringList {r[L::SubscriptionId].toString(), keyText(r[L::SubscriptionUuid])};
        }};
    c[L::ProviderColumn] = columns::text(Tr::tr("Provider"), L::Provider);
    c[L::RenewalKeyColumn] = columns::text(Tr::tr("Renewal key"), L::RenewalKey);
    c[L::PeriodColumn] = columns::period(Tr::tr("Period"), L::PeriodStart, L::PeriodEnd);
    // The amount and its currency side by side, each a column of its own; the export keeps
    // the money's three columns (amount, currency, minor units) in the same order as before.
    const Column money = columns::money(Tr::tr("Amount"), L::AmountMinor, L::Currency);
    c[L::AmountColumn] = {Tr::tr("Amount"),
        [money](RowRef r, int role) -> QVariant {
            if (role == Qt::DisplayRole && !r[L::AmountMinor].isNull())
                return plainAmount(r[L::AmountMinor].toLongLong(), r[L::Currency].toString());
            return money.data(r, role);
        },
        Qt::AlignRight | Qt::AlignVCenter, {money.exportTitles.value(0)},
        [money](RowRef r) { return QStringList {money.exportValues(r).value(0)}; },
        {money.exportKinds.value(0)}};
    c[L::CurrencyColumn] = {Tr::tr("Currency"),
        [](RowRef r, int role) -> QVariant {
            if (role == Qt::DisplayRole || role == int(Role::Raw))
                return r[L::Currency];
            return {};
        },
        Qt::AlignLeft | Qt::AlignVCenter, money.exportTitles.mid(1),
        [money](RowRef r) { return money.exportValues(r).mid(1); }, money.exportKinds.mid(1)};
    c[L::PaidAtColumn] = columns::instant(Tr::tr("Paid at"), L::PaidAt);
    // The mark is on screen only: the export keeps recorded_by, as `renewalctl ledger export`.
    c[L::RecordedByColumn] = {Tr::tr("Recorded by"), [](RowRef r, int role) -> QVariant {
                                  const bool after = r[L::AfterClose].toBool();
                                  if (role == int(Role::Raw))
                                      return r[L::RecordedBy];
                                  if (role == Qt::DisplayRole) {
                                      const QString who
                                          = format::storedWord(r[L::RecordedBy].toString());
                                      return after ? Tr::tr("%1 · after close").arg(who) : who;
                                  }
                                  if (role == Qt::ToolTipRole && after)
                                      return Tr::tr("Recorded after its month was closed "
                                                    "for this provider: not in that "
                                                    "month's close report");
                                  return {};
                              }};
    c[L::EventColumn] = columns::text(Tr::tr("Provider event"), L::EventId);
    // The billing period's own id goes with the export, for a reconciliation that joins on it.
    c[L::EventColumn].exportTitles = {Tr::tr("Provider event"), Tr::tr("Billing period id")};
    c[L::EventColumn].exportValues = [](RowRef r) {
        return QStringList {r[L::EventId].toString(), keyText(r[L::Id])};
    };
    return c;
}

} // namespace

LedgerModel::LedgerModel(DatabasePool *pool, const LedgerFilter &filter, QObject *parent)
    : PagedTableModel(pool, ledgerFields(), ledgerColumns(), Id, parent), m_filter(filter)
{
    reload();
}

const QStringList &LedgerModel::recordedByValues()
{
    // Every value of the rd_recorded_by domain (migrations 0025, 0029, 0032).
    static const QStringList values {
        u"webhook"_qs, u"operator"_qs, u"snapshot"_qs, u"import"_qs, u"statement"_qs, u"cli"_qs};
    return values;
}

void LedgerModel::setFilter(const LedgerFilter &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    reload();
}

QString LedgerModel::subscriptionOf(int r) const
{
    const RowRef cells = row(r);
    return cells ? keyText(cells[SubscriptionUuid]) : QString();
}

void LedgerModel::reload()
{
    const LedgerFilter filter = m_filter;
    const QVector<Field> fields = ledgerFields();
    setFetcher([=](QSqlDatabase &db, const QVector<QVariant> &after, int limit) {
        const PageQuery q = pageQuery(filter, after, limit);
        QSqlQuery query = execSql(db, q.sql, q.values);
        Page page;
        page.rows = readRows(query, fields, page.cells);
        return page;
    });
}

PageQuery LedgerModel::pageQuery(
    const LedgerFilter &filter, const QVector<QVariant> &after, int limit)
{
    const bool byPaidAt = filter.date == LedgerDate::PaidAt;
    const QString column = byPaidAt ? u"paid_at"_qs : u"period_start"_qs;
    QVariantList values;

    // The combinations that hold rows: those with renewals in the range's days, by the UTC
    // day paid (0016's daily totals) or the day the period starts (0020's), with the deltas
    // not folded yet. A few rows, read from their primary key.
    const QString totalsTable
        = byPaidAt ? u"public.renewal_daily_totals"_qs : u"public.renewal_period_start_totals"_qs;
    const QString deltaDay = byPaidAt ? u"day"_qs : u"period_start_day"_qs;
    QStringList comboWhere {u"%1 >= CAST(? AS date)"_qs, u"%1 < CAST(? AS date)"_qs};
    QVariantList comboValues;
    comboValues << (filter.from.isValid() ? filter.from.toString(Qt::ISODate) : u"-infinity"_qs)
                << (filter.to.isValid() ? filter.to.toString(Qt::ISODate) : u"infinity"_qs);
    if (!filter.provider.isEmpty()) {
        comboWhere << u"provider_key = ?"_qs;
        comboValues << filter.provider;
    }
    if (!filter.currency.isEmpty()) {
        comboWhere << u"currency = ?"_qs;
        comboValues << filter.currency;
    }
    if (!filter.recordedBy.isEmpty()) {
        comboWhere << u"recorded_by = ?"_qs;
        comboValues << filter.recordedBy;
    }
    const QString comboFilter = u" WHERE "_qs + comboWhere.join(u" AND "_qs);
    const QString combos = u"SELECT provider_key, currency, recorded_by FROM "_qs + totalsTable
        + comboFilter.arg(u"day"_qs)
        + u" UNION SELECT provider_key, currency, recorded_by FROM public.renewal_total_deltas"_qs
        + comboFilter.arg(deltaDay);
    values << comboValues << comboValues;

    QStringList conds {u"b.provider_key = c.provider_key"_qs, u"b.currency = c.currency"_qs,
        u"b.recorded_by = c.recorded_by"_qs};
    if (filter.from.isValid()) {
        conds << u"b."_qs + column + u" >= CAST(? AS timestamptz)"_qs;
        values << utcMidnight(filter.from);
    }
    if (filter.to.isValid()) {
        conds << u"b."_qs + column + u" < CAST(? AS timestamptz)"_qs;
        values << utcMidnight(filter.to);
    }
    if (!after.isEmpty()) {
        const int field = byPaidAt ? PaidAt : PeriodStart;
        conds << u"(b."_qs + column + u", b.id) > (CAST(? AS timestamptz), CAST(? AS uuid))"_qs;
        values << rfc3339(after[field]) << keyText(after[Id]);
    }
    // The page's keys first, from the indexes alone (an index-only scan where the visibility
    // map allows), merged and cut to the page; then only those rows are read.
    const QString lim = QString::number(limit);
    const QString sql = u"WITH combos AS ("_qs + combos
        + u"), page AS (SELECT x.* FROM combos c CROSS JOIN LATERAL (SELECT b."_qs + column
        + u" AS k, b.id FROM public.subscription_billing_periods b WHERE "_qs
        + conds.join(u" AND "_qs) + u" ORDER BY b."_qs + column + u", b.id LIMIT "_qs + lim
        + u") x ORDER BY x.k, x.id LIMIT "_qs + lim
        + u") SELECT b.id::text, b.subscription_id::text, s.provider_subscription_id, "
          "b.provider_key, b.provider_renewal_key, rd_rfc3339(b.period_start), "
          "rd_rfc3339(b.period_end), b.paid_amount_minor, b.currency, rd_rfc3339(b.paid_at), "
          "b.recorded_by, b.provider_event_id, EXISTS (SELECT 1 FROM public.month_closes mc "
          "WHERE mc.provider_key = b.provider_key AND mc.month = "
          "date_trunc('month', b.paid_at AT TIME ZONE 'UTC')::date "
          "AND mc.closed_at < b.created_at) FROM page p "
          "JOIN public.subscription_billing_periods b ON b.id = p.id "
          "JOIN public.subscriptions s ON s.id = b.subscription_id ORDER BY p.k, p.id"_qs;
    return {sql, values};
}

QStringList loadLedgerCurrencies(QSqlDatabase &db)
{
    QSqlQuery q = execSql(db,
        u"SELECT currency FROM public.renewal_daily_totals UNION "
        "SELECT currency FROM public.renewal_total_deltas ORDER BY 1"_qs);
    QStringList currencies;
    while (q.next())
        currencies << q.value(0).toString();
    return currencies;
}

LedgerChoices loadLedgerChoices(QSqlDatabase &db)
{
    return {loadProviders(db), loadLedgerCurrencies(db)};
}

} // namespace rd::ui
