#include "ui/models/ledgertotals.h"

#include "ui/models/columns.h"
#include "ui/models/csvwriter.h"
#include "ui/models/databasepool.h"

#include <QSqlDatabase>
#include <QSqlQuery>

namespace rd::ui {
namespace {

/// The filter's conditions on rows with provider_key, currency and recorded_by columns.
QString dimensionConditions(const LedgerFilter &filter, QVariantList &values)
{
    QString where;
    if (!filter.provider.isEmpty()) {
        where += u" AND provider_key = ?"_qs;
        values << filter.provider;
    }
    if (!filter.currency.isEmpty()) {
        where += u" AND currency = ?"_qs;
        values << filter.currency;
    }
    if (!filter.recordedBy.isEmpty()) {
        where += u" AND recorded_by = ?"_qs;
        values << filter.recordedBy;
    }
    return where;
}

QVector<LedgerTotal> readTotals(QSqlQuery &q, bool byMonth)
{
    QVector<LedgerTotal> totals;
    while (q.next()) {
        LedgerTotal t;
        if (byMonth)
            t.month = QDate::fromString(q.value(0).toString(), Qt::ISODate);
        else
            t.provider = q.value(0).toString();
        t.currency = q.value(1).toString();
        t.renewals = q.value(2).toLongLong();
        // numeric text: a sum of bigint minor units; a year of any real ledger fits in 64 bits.
        t.amountMinor = q.value(3).toString().toLongLong();
        totals << t;
    }
    return totals;
}

} // namespace

LedgerTotals loadLedgerTotals(QSqlDatabase &db, const LedgerFilter &filter)
{
    LedgerTotals totals;
    QVariantList values;
    QString source;
    QString monthOf;
    if (filter.date == LedgerDate::PaidAt) {
        // Folding keeps the unfolded deltas few; refused or impossible (a standby, an old
        // role), the read is still right.
        QSqlQuery fold(db);
        fold.exec(u"SELECT public.fold_renewal_totals()"_qs);
        source = u"public.renewal_totals(CAST(? AS date), CAST(? AS date)) WHERE true"_qs;
        values << (filter.from.isValid() ? filter.from.toString(Qt::ISODate) : u"-infinity"_qs)
               << (filter.to.isValid() ? filter.to.toString(Qt::ISODate) : u"infinity"_qs);
        monthOf = u"date_trunc('month', day)::date"_qs;
    } else {
        totals.fromDailyTotals = false;
        source = u"public.subscription_billing_periods WHERE true"_qs;
        if (filter.from.isValid()) {
            source += u" AND period_start >= CAST(? AS timestamptz)"_qs;
            values << filter.from.toString(Qt::ISODate) + u"T00:00:00Z"_qs;
        }
        if (filter.to.isValid()) {
            source += u" AND period_start < CAST(? AS timestamptz)"_qs;
            values << filter.to.toString(Qt::ISODate) + u"T00:00:00Z"_qs;
        }
        monthOf = u"date_trunc('month', period_start AT TIME ZONE 'UTC')::date"_qs;
    }
    source += dimensionConditions(filter, values);
    const bool daily = filter.date == LedgerDate::PaidAt;
    const QString count = daily ? u"sum(renewals)"_qs : u"count(*)"_qs;
    const QString amount = daily ? u"sum(amount_minor)"_qs : u"sum(paid_amount_minor)"_qs;
    QSqlQuery months = execSql(db,
        u"SELECT "_qs + monthOf + u"::text, currency, "_qs + count + u", ("_qs + amount
            + u")::text FROM "_qs + source + u" GROUP BY 1, 2 ORDER BY 1, 2"_qs,
        values);
    totals.months = readTotals(months, true);
    QSqlQuery providers = execSql(db,
        u"SELECT provider_key, currency, "_qs + count + u", ("_qs + amount + u")::text FROM "_qs
            + source + u" GROUP BY 1, 2 ORDER BY 1, 2"_qs,
        values);
    totals.providers = readTotals(providers, false);
    return totals;
}

void writeLedgerTotalsCsv(const QString &path, const LedgerTotals &totals)
{
    CsvWriter csv(path);
    csv.writeRow({u"group"_qs, u"month"_qs, u"provider"_qs, u"currency"_qs, u"renewals"_qs,
        u"amount"_qs, u"amount minor units"_qs});
    auto write = [&csv](const QString &group, const LedgerTotal &t) {
        const QStringList money = columns::moneyExportValues(t.amountMinor, t.currency);
        csv.writeRow({group, t.month.isValid() ? t.month.toString(u"yyyy-MM"_qs) : QString(),
            t.provider, t.currency, QString::number(t.renewals), money.value(0), money.value(2)});
    };
    for (const LedgerTotal &t : totals.months)
        write(u"month"_qs, t);
    for (const LedgerTotal &t : totals.providers)
        write(u"provider"_qs, t);
    csv.commit();
}

} // namespace rd::ui
