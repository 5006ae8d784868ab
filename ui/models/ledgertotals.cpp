#include "ui/models/ledgertotals.h"

#include "ui/models/columns.h"
#include "ui/models/csvwriter.h"
#include "ui/models/databasepool.h"

#include "domain/core/ledger_csv.h"

#include <QSqlDatabase>
#include <QSqlQuery>

namespace rd::ui {
namespace {

/// The filter's conditions on rows with provider_key, currency and (`withRecorder`)
/// recorded_by columns.
QString dimensionConditions(const LedgerFilter &filter, QVariantList &values, bool withRecorder)
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
    if (withRecorder && !filter.recordedBy.isEmpty()) {
        where += u" AND recorded_by = ?"_qs;
        values << filter.recordedBy;
    }
    return where;
}

/// Rows of (month or NULL, provider or NULL, currency, renewals, amount, group, refunded,
/// disputed): group says whether it is a month's, a provider's or the whole range's total in
/// its currency.
LedgerTotals readTotals(QSqlQuery &q)
{
    LedgerTotals totals;
    while (q.next()) {
        LedgerTotal t;
        const QString group = q.value(5).toString();
        if (group == u"month")
            t.month = QDate::fromString(q.value(0).toString(), Qt::ISODate);
        else if (group == u"provider")
            t.provider = q.value(1).toString();
        t.currency = q.value(2).toString();
        t.renewals = q.value(3).toLongLong();
        // numeric text: a sum of bigint minor units; a year of any real ledger fits in 64 bits.
        t.amountMinor = q.value(4).toString().toLongLong();
        t.refundedMinor = q.value(6).toString().toLongLong();
        t.disputedMinor = q.value(7).toString().toLongLong();
        (group == u"month"             ? totals.months
                : group == u"provider" ? totals.providers
                                       : totals.currencies)
            << t;
    }
    return totals;
}

} // namespace

LedgerTotals loadLedgerTotals(QSqlDatabase &db, const LedgerFilter &filter)
{
    // Folding keeps the unfolded deltas few; refused or impossible (a standby, an old role),
    // the read is still right.
    QSqlQuery fold(db);
    fold.exec(u"SELECT public.fold_renewal_totals(), public.fold_money_back_totals()"_qs);
    // Daily totals by the UTC day paid (0016) or the UTC day the period starts (0020): the
    // same shape, each read from its own primary key.
    const QString function = filter.date == LedgerDate::PaidAt
        ? u"public.renewal_totals"_qs
        : u"public.renewal_period_start_totals"_qs;
    const QString from
        = filter.from.isValid() ? filter.from.toString(Qt::ISODate) : u"-infinity"_qs;
    const QString to = filter.to.isValid() ? filter.to.toString(Qt::ISODate) : u"infinity"_qs;
    QVariantList values {from, to};
    QString lines = u"SELECT day, provider_key, currency, renewals, amount_minor, "
                    "0::numeric AS refunded, 0::numeric AS disputed FROM "_qs
        + function + u"(CAST(? AS date), CAST(? AS date)) WHERE true"_qs
        + dimensionConditions(filter, values, true);
    const bool moneyBack = filter.recordedBy.isEmpty();
    if (moneyBack) {
        values << from << to;
        lines += u" UNION ALL SELECT day, provider_key, currency, 0, 0, refunded_minor, "
                 "disputed_minor FROM public.money_back_totals(CAST(? AS date), CAST(? AS date)) "
                 "WHERE true"_qs
            + dimensionConditions(filter, values, false);
    }

    // The three groupings in one statement: one read of the daily totals, one snapshot, so the
    // months, the providers and the currencies always add up to the same renewals.
    QSqlQuery q = execSql(db,
        u"SELECT date_trunc('month', day)::date::text, provider_key, currency, sum(renewals), "
        "sum(amount_minor)::text, CASE WHEN grouping(date_trunc('month', day)) = 0 THEN 'month' "
        "WHEN grouping(provider_key) = 0 THEN 'provider' ELSE 'currency' END, "
        "sum(refunded)::text, sum(disputed)::text FROM ("_qs
            + lines
            + u") l GROUP BY GROUPING SETS ((date_trunc('month', day), currency), "
              "(provider_key, currency), (currency)) ORDER BY 1, 2, 3"_qs,
        values);
    LedgerTotals totals = readTotals(q);
    totals.moneyBack = moneyBack;
    return totals;
}

void writeLedgerTotalsCsv(
    const QString &path, const LedgerTotals &totals, const LedgerFilter &filter)
{
    ledger_csv::TotalsScope scope;
    scope.basis = filter.date == LedgerDate::PaidAt ? "paid_at" : "period_start";
    if (filter.from.isValid())
        scope.from = filter.from.toString(Qt::ISODate).toStdString();
    if (filter.to.isValid()) // the filter's end is exclusive; the file's is the last day
        scope.to = filter.to.addDays(-1).toString(Qt::ISODate).toStdString();
    scope.provider = filter.provider.toStdString();
    scope.currency = filter.currency.toStdString();
    scope.recordedBy = filter.recordedBy.toStdString();
    QStringList scoped;
    for (const std::string &f : ledger_csv::scopeFields(scope))
        scoped << QString::fromStdString(f);

    CsvWriter csv(path);
    // renewalctl ledger export --totals writes the same columns.
    QStringList titles;
    for (const std::string &t : ledger_csv::totalsTitles())
        titles << QString::fromStdString(t);
    const auto &kinds = ledger_csv::totalsKinds();
    csv.writeHeader(titles, QVector<csv::Kind>(kinds.cbegin(), kinds.cend()));
    const bool moneyBack = totals.moneyBack;
    auto write = [&csv, &scoped, moneyBack](const QString &group, const LedgerTotal &t) {
        const QStringList money = columns::moneyExportValues(t.amountMinor, t.currency);
        QStringList back;
        for (const qint64 minor : {t.refundedMinor, t.disputedMinor, t.netMinor()}) {
            const QStringList m = columns::moneyExportValues(minor, t.currency);
            // Left out (a recorder filter): empty, not a zero that was never counted.
            back << (moneyBack ? m.value(0) : QString()) << (moneyBack ? m.value(2) : QString());
        }
        csv.writeRow(
            QStringList {group, t.month.isValid() ? t.month.toString(u"yyyy-MM"_qs) : QString(),
                t.provider, t.currency, QString::number(t.renewals), money.value(0), money.value(2)}
            + scoped + back);
    };
    for (const LedgerTotal &t : totals.months)
        write(u"month"_qs, t);
    for (const LedgerTotal &t : totals.providers)
        write(u"provider"_qs, t);
    for (const LedgerTotal &t : totals.currencies)
        write(u"currency"_qs, t);
    csv.commit();
}

} // namespace rd::ui
