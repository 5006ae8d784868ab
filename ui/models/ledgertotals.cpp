#include "ui/models/ledgertotals.h"

#include "ui/models/columns.h"
#include "ui/models/csvwriter.h"
#include "ui/models/databasepool.h"

#include "domain/core/ledger_csv.h"

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

/// Rows of (month or NULL, provider or NULL, currency, renewals, amount): a month total when the
/// month is set, else a provider total.
LedgerTotals readTotals(QSqlQuery &q)
{
    LedgerTotals totals;
    while (q.next()) {
        LedgerTotal t;
        const bool byMonth = !q.isNull(0);
        if (byMonth)
            t.month = QDate::fromString(q.value(0).toString(), Qt::ISODate);
        else
            t.provider = q.value(1).toString();
        t.currency = q.value(2).toString();
        t.renewals = q.value(3).toLongLong();
        // numeric text: a sum of bigint minor units; a year of any real ledger fits in 64 bits.
        t.amountMinor = q.value(4).toString().toLongLong();
        (byMonth ? totals.months : totals.providers) << t;
    }
    return totals;
}

} // namespace

LedgerTotals loadLedgerTotals(QSqlDatabase &db, const LedgerFilter &filter)
{
    // Folding keeps the unfolded deltas few; refused or impossible (a standby, an old role),
    // the read is still right.
    QSqlQuery fold(db);
    fold.exec(u"SELECT public.fold_renewal_totals()"_qs);
    // Daily totals by the UTC day paid (0016) or the UTC day the period starts (0020): the
    // same shape, each read from its own primary key.
    const QString function = filter.date == LedgerDate::PaidAt
        ? u"public.renewal_totals"_qs
        : u"public.renewal_period_start_totals"_qs;
    QVariantList values;
    values << (filter.from.isValid() ? filter.from.toString(Qt::ISODate) : u"-infinity"_qs)
           << (filter.to.isValid() ? filter.to.toString(Qt::ISODate) : u"infinity"_qs);
    const QString source = function + u"(CAST(? AS date), CAST(? AS date)) WHERE true"_qs
        + dimensionConditions(filter, values);

    // Both groupings in one statement: one read of the daily totals, one snapshot, so the
    // months and the providers always add up to the same renewals.
    QSqlQuery q = execSql(db,
        u"SELECT date_trunc('month', day)::date::text, provider_key, currency, sum(renewals), "
        "sum(amount_minor)::text FROM "_qs
            + source
            + u" GROUP BY GROUPING SETS ((date_trunc('month', day), currency), "
              "(provider_key, currency)) ORDER BY 1, 2, 3"_qs,
        values);
    return readTotals(q);
}

void writeLedgerTotalsCsv(const QString &path, const LedgerTotals &totals)
{
    CsvWriter csv(path);
    // renewalctl ledger export --totals writes the same columns.
    QStringList titles;
    for (const std::string &t : ledger_csv::totalsTitles())
        titles << QString::fromStdString(t);
    const auto &kinds = ledger_csv::totalsKinds();
    csv.writeHeader(titles, QVector<csv::Kind>(kinds.cbegin(), kinds.cend()));
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
