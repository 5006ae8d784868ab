#pragma once

#include "ui/models/pagedtablemodel.h"
#include "ui/models/subscriptionsmodel.h"

#include <QDate>
#include <QStringList>

namespace rd::ui {

/// Which instant of a billing period the ledger's date range and order apply to.
enum class LedgerDate {
    PaidAt,
    PeriodStart,
};

/// Which rows the ledger lists: renewals, money back (refunds, chargebacks and their
/// reversals, #40), or both, merged by date.
enum class LedgerRows {
    All,
    Renewals,
    MoneyBack,
};

/// What the ledger is narrowed to. Dates are UTC days, `to` exclusive; an invalid date leaves
/// that end open. Empty strings mean "any".
struct LedgerFilter
{
    LedgerDate date = LedgerDate::PaidAt;
    QDate from;
    QDate to;
    QString provider;
    QString currency;
    /// webhook, operator, snapshot or import.
    QString recordedBy;
    LedgerRows rows = LedgerRows::All;

    bool operator==(const LedgerFilter &o) const
    {
        return date == o.date && from == o.from && to == o.to && provider == o.provider
            && currency == o.currency && recordedBy == o.recordedBy && rows == o.rows;
    }
    /// Whether money back is listed: asked for, by the date it happened (a movement has no
    /// period start of its own), and not narrowed to who recorded a renewal (as the totals).
    bool listsMoneyBack() const
    {
        return rows != LedgerRows::Renewals && date == LedgerDate::PaidAt && recordedBy.isEmpty();
    }
};

/// The renewals ledger: every billing period in the filter's range, oldest first by the
/// filter's date (ties by id), in keyset pages read off the GUI thread; and, beside them, money
/// back (0049) by the date it happened, signed (a refund is negative, its reversal positive),
/// with the renewal it pays back in the renewal key and period columns.
///
/// A page is one index range scan per (provider, currency, recorded_by) combination that has
/// renewals, on billing_periods_ledger_by_paid_at or _by_period_start (migration 0016), merged
/// and cut to the page: the combinations come from the daily totals of the filter's date
/// (0016's by day paid, 0020's by period start; a few rows), so a rare currency or recorded_by
/// reads as few rows as a common one.
///
/// A renewal recorded after the month it was paid in was closed (migration 0031) is marked
/// "after close" in the Recorded by column: one probe of month_closes' unique index per row
/// of the page. Money back is read the same way, one range scan of money_movements_by_day per
/// (provider, currency) found in its daily totals (0050), and carries its own mark.
class LedgerModel : public PagedTableModel
{
    Q_OBJECT

public:
    enum FieldIndex {
        Id,
        SubscriptionUuid,
        SubscriptionId,
        Provider,
        RenewalKey,
        PeriodStart,
        PeriodEnd,
        AmountMinor,
        Currency,
        PaidAt,
        RecordedBy,
        EventId,
        /// Recorded after its paid month was closed for its provider (0031): not in that close.
        AfterClose,
        /// "renewal", or a movement's kind (refund, refund_reversal, chargeback, ...).
        Kind,
        /// A movement's key (re_..., dp_..., adj_...); null for a renewal.
        MovementKey,
        /// The billing period: the row's own (Id) for a renewal, the one it pays back for money
        /// back.
        BillingPeriodId,
        FieldCount
    };
    enum ColumnIndex {
        SubscriptionColumn,
        ProviderColumn,
        KindColumn, ///< on screen only: the export has it last (after the billing period id)
        RenewalKeyColumn,
        PeriodColumn,
        AmountColumn, ///< the amount in major units, without its currency
        CurrencyColumn, ///< the ISO code, a column of its own (sorted, filtered, read apart)
        PaidAtColumn,
        RecordedByColumn,
        EventColumn,
        ColumnCount
    };

    explicit LedgerModel(
        DatabasePool *pool, const LedgerFilter &filter = {}, QObject *parent = nullptr);

    const LedgerFilter &filter() const { return m_filter; }
    void setFilter(const LedgerFilter &filter);
    /// The subscription (uuid text) of row `r`, or empty.
    QString subscriptionOf(int r) const;

    static PageQuery pageQuery(
        const LedgerFilter &filter, const QVector<QVariant> &after, int limit);
    static const QStringList &recordedByValues();

private:
    void reload();

    LedgerFilter m_filter;
};

/// The currencies billing periods were paid in (from the totals, a few rows). Worker thread.
QStringList loadLedgerCurrencies(QSqlDatabase &db);

/// What the ledger's filter boxes offer.
struct LedgerChoices
{
    QStringList providers; ///< loadProviders
    QStringList currencies; ///< loadLedgerCurrencies
};
/// Both, on one pool thread.
LedgerChoices loadLedgerChoices(QSqlDatabase &db);

} // namespace rd::ui
