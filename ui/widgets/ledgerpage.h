#pragma once

#include "ui/models/asyncresult.h"
#include "ui/models/ledgertotals.h"

#include <QDate>
#include <QWidget>

#include <utility>

class QComboBox;
class QDateEdit;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QTableWidget;

namespace rd::ui {

class DatabasePool;
class FilterChips;
class LedgerModel;
class TableView;

/// The renewals ledger (finance): every billing period in a range of UTC days, by when it was
/// paid or when its period starts, narrowed by provider, currency and who recorded it; totals
/// per currency for the whole range (across providers), per month × currency and per provider
/// × currency below the list (never one amount over two currencies). Enter (or a double click)
/// opens the row's subscription. The list exports with machine values (the table's Export CSV), the
/// totals as their own CSV.
class LedgerPage : public QWidget
{
    Q_OBJECT

public:
    /// The range presets, in the range box's order.
    enum Range { ThisMonth, LastMonth, ThisYear, LastYear, AllTime, Custom };

    explicit LedgerPage(DatabasePool *pool, QWidget *parent = nullptr);
    LedgerModel *model() const { return m_model; }
    TableView *table() const { return m_table; }
    const LedgerTotals &totals() const { return m_totals; }
    /// The filter the list and the totals show.
    LedgerFilter filter() const;
    /// Renewals paid in [fromUtc, toUtcExclusive) (UTC days), of a provider and a currency
    /// when given: the overview's drill-down.
    void showPaidBetween(const QDate &fromUtc, const QDate &toUtcExclusive,
        const QString &provider = {}, const QString &currency = {});
    /// Sets every filter at once (tests, screenshots): the range as custom UTC days.
    void setFilter(const LedgerFilter &filter);
    /// What the page opens on: this year's renewals by when they were paid, of everyone.
    static LedgerFilter defaultFilter();
    /// The filters that differ from defaultFilter(), as chips above the list (each removes its
    /// filter).
    FilterChips *chips() const { return m_chips; }
    /// Whether a drill-down (the Overview's renewals) set the filters shown.
    bool isDrilledDown() const { return m_drilledDown; }
    /// A click on Ledger in the sidebar: the filters a drill-down set go (the page as it opens);
    /// the ones a person chose stay.
    void clearDrillDown();
    /// [from, to) of a preset for `today` (UTC): this month, last month, this/last year.
    static std::pair<QDate, QDate> presetRange(Range range, const QDate &today);
    void refresh();
    /// Something was recorded elsewhere (live updates): read the list and the totals again,
    /// in place, now if the page is shown, else when it is next shown.
    void dataChanged();
    /// Writes the totals shown as CSV; false with a message naming what went wrong.
    bool exportTotals(const QString &path, QString *error = nullptr) const;

signals:
    void subscriptionOpenRequested(const QString &subscriptionUuid);
    void statusMessage(const QString &message);
    /// The totals for the current filter arrived (tests wait for it).
    void totalsLoaded();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void applyPreset();
    void reload();
    void updateChips();
    void removeFilter(const QString &key);
    void loadChoices();
    void loadTotals();
    void showTotals();
    void exportTotalsInteractively();

    DatabasePool *m_pool;
    LedgerModel *m_model;
    QComboBox *m_dateField;
    QComboBox *m_range;
    QDateEdit *m_from;
    QDateEdit *m_to;
    QComboBox *m_provider;
    QComboBox *m_currency;
    QComboBox *m_recordedBy;
    QComboBox *m_rows;
    QPushButton *m_exportRows;
    QPushButton *m_exportTotals;
    QLabel *m_problem;
    FilterChips *m_chips;
    bool m_drilledDown = false;
    TableView *m_table;
    QLabel *m_totalsTitle;
    QTableWidget *m_monthTotals;
    QTableWidget *m_providerTotals;
    QTableWidget *m_currencyTotals;
    QHBoxLayout *m_totalsTables = nullptr; ///< the three tables side by side
    LedgerTotals m_totals;
    LedgerFilter m_totalsFilter; ///< the filter m_totals are of (what an export says it covers)
    bool m_stale = false; ///< changed while hidden: read again when shown
    LatestRequest m_totalsRequest;
    LatestRequest m_choicesRequest;
};

} // namespace rd::ui
