#pragma once

#include "ui/models/ledgermodel.h"

#include <QDate>
#include <QString>
#include <QVector>

class QSqlDatabase;

namespace rd::ui {

/// Renewals and their amount (gross) in one currency, for a month or a provider, and the money
/// back of the same month or provider (#40): refunds less their reversals, chargebacks less
/// their reinstatements, each by its own day, never its renewal's. Amounts are never added
/// across currencies: a currency is part of every total's key.
struct LedgerTotal
{
    QDate month; ///< first day of the UTC month (month totals only)
    QString provider; ///< provider totals only
    QString currency;
    qint64 renewals = 0;
    qint64 amountMinor = 0; ///< gross: what the renewals paid
    qint64 refundedMinor = 0;
    qint64 disputedMinor = 0;

    qint64 netMinor() const { return amountMinor - refundedMinor - disputedMinor; }

    bool operator==(const LedgerTotal &o) const
    {
        return month == o.month && provider == o.provider && currency == o.currency
            && renewals == o.renewals && amountMinor == o.amountMinor
            && refundedMinor == o.refundedMinor && disputedMinor == o.disputedMinor;
    }
};

/// The ledger's totals for a filter: per month × currency and per provider × currency.
struct LedgerTotals
{
    QVector<LedgerTotal> months; ///< by month, then currency
    QVector<LedgerTotal> providers; ///< by provider, then currency
    /// The range's total per currency, across months and providers (month and provider
    /// empty), by currency.
    QVector<LedgerTotal> currencies;
    /// False when the filter names who recorded the renewals: money back has no recorder of a
    /// renewal, so it is left out rather than shown against a part of the renewals.
    bool moneyBack = true;
};

/// Reads the totals for `filter` on a worker thread: renewal_totals (migration 0016) for a
/// paid-at range, renewal_period_start_totals (0020) for a period-start one, and beside them
/// money_back_totals (0050) by each movement's own day, after folding the deltas committed so
/// far where the server allows it (a standby does not: the read is right without folding, only
/// longer). A month or provider with money back and no renewal has its row.
LedgerTotals loadLedgerTotals(QSqlDatabase &db, const LedgerFilter &filter);

/// Writes `totals` as CSV with machine values, as `renewalctl ledger export --totals` does
/// (domain/core/ledger_csv.h): group ("month", "provider" or "currency"), month (YYYY-MM),
/// provider, currency (ISO code), renewals, amount (plain decimal in major units), amount minor
/// units, then on every line what `filter` covers: basis, first and last UTC day, and its
/// provider, currency and recorded-by filters. Throws std::runtime_error when the file cannot
/// be written.
void writeLedgerTotalsCsv(
    const QString &path, const LedgerTotals &totals, const LedgerFilter &filter);

} // namespace rd::ui
