#include "ui/models/ledgermodel.h"

#include "ui/models/columns.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/utcmidnight.h"

#include "domain/core/currency.h"
#include "domain/core/money_movement.h"
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
        Field::Bool, Field::Interned, Field::Text, Field::Uuid};
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
    c[L::KindColumn] = columns::code(Tr::tr("Kind"), L::Kind);
    c[L::KindColumn].exported = false;
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
    // A movement's own date (when the money went back) in the same column: the list is in
    // one order, by the day each row counts in.
    c[L::PaidAtColumn] = columns::instant(Tr::tr("Paid at"), L::PaidAt);
    c[L::PaidAtColumn].title = Tr::tr("Date");
    c[L::PaidAtColumn].exportTitles = {Tr::tr("Paid at")};
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
                                                    "month's close report (money back is "
                                                    "in the provider's next one)");
                                  return {};
                              }};
    c[L::EventColumn] = columns::text(Tr::tr("Provider event"), L::EventId);
    // The billing period's own id goes with the export, for a reconciliation that joins on it;
    // then the row's kind and a movement's key (appended: a reader by position finds the
    // columns before where they were).
    c[L::EventColumn].exportTitles = {Tr::tr("Provider event"), Tr::tr("Billing period id"),
        Tr::tr("Kind"), Tr::tr("Movement key")};
    c[L::EventColumn].exportValues = [](RowRef r) {
        return QStringList {r[L::EventId].toString(), keyText(r[L::BillingPeriodId]),
            r[L::Kind].toString(), r[L::MovementKey].toString()};
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
    const bool renewals = filter.rows != LedgerRows::MoneyBack;
    const bool moneyBack = filter.listsMoneyBack();
    const QString lim = QString::number(limit);
    QVariantList values;

    // The days' filter of the daily totals and their deltas, with the provider and currency;
    // `recordedBy`: and the recorder of a renewal.
    const auto dayFilter = [&](const QString &day, bool recordedBy) {
        QStringList where {day + u" >= CAST(? AS date)"_qs, day + u" < CAST(? AS date)"_qs};
        values << (filter.from.isValid() ? filter.from.toString(Qt::ISODate) : u"-infinity"_qs)
               << (filter.to.isValid() ? filter.to.toString(Qt::ISODate) : u"infinity"_qs);
        if (!filter.provider.isEmpty()) {
            where << u"provider_key = ?"_qs;
            values << filter.provider;
        }
        if (!filter.currency.isEmpty()) {
            where << u"currency = ?"_qs;
            values << filter.currency;
        }
        if (recordedBy && !filter.recordedBy.isEmpty()) {
            where << u"recorded_by = ?"_qs;
            values << filter.recordedBy;
        }
        return u" WHERE "_qs + where.join(u" AND "_qs);
    };
    // The range and the page's keyset on `x`'s date column `date`.
    const auto rangeAndAfter = [&](const QString &date, QStringList conds) {
        if (filter.from.isValid()) {
            conds << date + u" >= CAST(? AS timestamptz)"_qs;
            values << utcMidnight(filter.from);
        }
        if (filter.to.isValid()) {
            conds << date + u" < CAST(? AS timestamptz)"_qs;
            values << utcMidnight(filter.to);
        }
        if (!after.isEmpty()) {
            const int field = byPaidAt ? PaidAt : PeriodStart;
            conds << u"("_qs + date + u", x.id) > (CAST(? AS timestamptz), CAST(? AS uuid))"_qs;
            values << rfc3339(after[field]) << keyText(after[Id]);
        }
        return conds.join(u" AND "_qs);
    };

    // The combinations that hold rows: those with renewals in the range's days, by the UTC
    // day paid (0016's daily totals) or the day the period starts (0020's), with the deltas
    // not folded yet; money back's from its own (0050), by the day it happened. A few rows,
    // read from their primary keys.
    QStringList ctes;
    QStringList keys;
    if (renewals) {
        const QString totalsTable = byPaidAt ? u"public.renewal_daily_totals"_qs
                                             : u"public.renewal_period_start_totals"_qs;
        QString combos = u"combos AS (SELECT provider_key, currency, recorded_by FROM "_qs
            + totalsTable + dayFilter(u"day"_qs, true);
        combos += u" UNION SELECT provider_key, currency, recorded_by FROM "
                  "public.renewal_total_deltas"_qs
            + dayFilter(byPaidAt ? u"day"_qs : u"period_start_day"_qs, true) + u")"_qs;
        ctes << combos;
    }
    if (moneyBack) {
        QString combos = u"moneyback AS (SELECT provider_key, currency FROM "
                         "public.money_back_daily_totals"_qs
            + dayFilter(u"day"_qs, false);
        combos += u" UNION SELECT provider_key, currency FROM public.money_back_deltas"_qs
            + dayFilter(u"day"_qs, false) + u")"_qs;
        ctes << combos;
    }
    // The page's keys first, from the indexes alone (an index-only scan where the visibility
    // map allows), merged and cut to the page; then only those rows are read.
    if (renewals)
        keys << u"SELECT x."_qs + column
                + u" AS k, x.id, false AS moved FROM combos c CROSS JOIN LATERAL (SELECT x."_qs
                + column + u", x.id FROM public.subscription_billing_periods x WHERE "_qs
                + rangeAndAfter(u"x."_qs + column,
                    {u"x.provider_key = c.provider_key"_qs, u"x.currency = c.currency"_qs,
                        u"x.recorded_by = c.recorded_by"_qs})
                + u" ORDER BY x."_qs + column + u", x.id LIMIT "_qs + lim + u") x"_qs;
    if (moneyBack)
        keys << u"SELECT x.occurred_at AS k, x.id, true AS moved FROM moneyback c CROSS JOIN "
                "LATERAL (SELECT x.occurred_at, x.id FROM public.money_movements x WHERE "_qs
                + rangeAndAfter(u"x.occurred_at"_qs,
                    {u"x.provider_key = c.provider_key"_qs, u"x.currency = c.currency"_qs})
                + u" ORDER BY x.occurred_at, x.id LIMIT "_qs + lim + u") x"_qs;
    if (keys.isEmpty()) // money back only, where none is listed: no row
        keys << u"SELECT NULL::timestamptz AS k, NULL::uuid AS id, false AS moved WHERE false"_qs;
    ctes << u"page AS (SELECT * FROM ("_qs + keys.join(u" UNION ALL "_qs)
            + u") u ORDER BY u.k, u.id LIMIT "_qs + lim + u")"_qs;

    const QString sql = u"WITH "_qs + ctes.join(u", "_qs)
        + u" SELECT b.id::text, b.subscription_id::text, s.provider_subscription_id, "
          "b.provider_key, b.provider_renewal_key, rd_rfc3339(b.period_start), "
          "rd_rfc3339(b.period_end), b.paid_amount_minor, b.currency, rd_rfc3339(b.paid_at), "
          "b.recorded_by, b.provider_event_id, EXISTS (SELECT 1 FROM public.month_closes mc "
          "WHERE mc.provider_key = b.provider_key AND mc.month = "
          "date_trunc('month', b.paid_at AT TIME ZONE 'UTC')::date "
          "AND mc.closed_at < b.created_at), 'renewal', NULL, b.id::text, p.k, p.id "
          "FROM page p JOIN public.subscription_billing_periods b ON b.id = p.id "
          "JOIN public.subscriptions s ON s.id = b.subscription_id WHERE NOT p.moved "
          "UNION ALL "
          // Money back, signed as it moves the ledger: a refund or a chargeback takes money
          // away, its reversal gives it back.
          "SELECT m.id::text, m.subscription_id::text, s.provider_subscription_id, "
          "m.provider_key, b.provider_renewal_key, rd_rfc3339(b.period_start), "
          "rd_rfc3339(b.period_end), "_qs
        + QString::fromStdString(rd::signedAmountSql("m"))
        + u", m.currency, "
          "rd_rfc3339(m.occurred_at), m.recorded_by, m.provider_event_id, m.after_close, "
          "m.kind, m.movement_key, b.id::text, p.k, p.id "
          "FROM page p JOIN public.money_movements m ON m.id = p.id "
          "JOIN public.subscription_billing_periods b ON b.id = m.billing_period_id "
          "JOIN public.subscriptions s ON s.id = m.subscription_id WHERE p.moved "
          "ORDER BY 17, 18"_qs;
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
