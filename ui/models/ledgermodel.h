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

    bool operator==(const LedgerFilter &o) const
    {
        return date == o.date && from == o.from && to == o.to && provider == o.provider
            && currency == o.currency && recordedBy == o.recordedBy;
    }
};

/// The renewals ledger: every billing period in the filter's range, oldest first by the
/// filter's date (ties by id), in keyset pages read off the GUI thread.
///
/// A page is one index range scan per (provider, currency, recorded_by) combination that has
/// renewals, on billing_periods_ledger_by_paid_at or _by_period_start (migration 0016), merged
/// and cut to the page: the combinations come from the daily totals of the filter's date
/// (0016's by day paid, 0020's by period start; a few rows), so a rare currency or recorded_by
/// reads as few rows as a common one.
///
/// A renewal recorded after the month it was paid in was closed (migration 0031) is marked
/// "after close" in the Recorded by column: one probe of month_closes' unique index per row
/// of the page.
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
        FieldCount
    };
    enum ColumnIndex {
        SubscriptionColumn,
        ProviderColumn,
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
