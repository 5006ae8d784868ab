#include "ui/widgets/ledgerpage.h"

#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/ledgermodel.h"
#include "ui/models/subscriptionsmodel.h"
#include "ui/widgets/filterchips.h"
#include "ui/widgets/tableview.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDateEdit>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTimeZone>
#include <QVBoxLayout>

#include <stdexcept>
#include <tuple>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::LedgerPage)
};

} // namespace
namespace {

QTableWidget *totalsTable(const QString &name, const QString &first)
{
    auto *t = new QTableWidget(0, 7);
    t->setObjectName(name);
    // Gross is what the renewals paid; refunded and disputed are the money back of the same
    // month or provider, each by its own day; net is what stays (#40).
    t->setHorizontalHeaderLabels({first, Tr::tr("Currency"), Tr::tr("Renewals"), Tr::tr("Gross"),
        Tr::tr("Refunded"), Tr::tr("Disputed"), Tr::tr("Net")});
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Compact rows, the amount beside its count (not pushed to the far edge).
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->setAlternatingRowColors(true);
    return t;
}

QTableWidgetItem *cell(const QString &text, bool right = false, const QString &tip = {})
{
    auto *item = new QTableWidgetItem(text);
    if (right)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (!tip.isEmpty())
        item->setToolTip(tip);
    return item;
}

QDate todayUtc()
{
    return QDateTime::currentDateTimeUtc().date();
}

} // namespace

LedgerPage::LedgerPage(DatabasePool *pool, QWidget *parent)
    : QWidget(parent)
    , m_pool(pool)
    , m_model(new LedgerModel(pool, defaultFilter(), this))
    , m_dateField(new QComboBox)
    , m_range(new QComboBox)
    , m_from(new QDateEdit)
    , m_to(new QDateEdit)
    , m_provider(new QComboBox)
    , m_currency(new QComboBox)
    , m_recordedBy(new QComboBox)
    , m_rows(new QComboBox)
    , m_exportRows(new QPushButton(tr("Export rows…")))
    , m_exportTotals(new QPushButton(tr("Export totals…")))
    , m_problem(new QLabel)
    , m_chips(new FilterChips)
    , m_table(new TableView)
    , m_totalsTitle(new QLabel)
    , m_monthTotals(totalsTable(u"ledger-month-totals"_qs, tr("Month (UTC)")))
    , m_providerTotals(totalsTable(u"ledger-provider-totals"_qs, tr("Provider")))
    , m_currencyTotals(totalsTable(u"ledger-currency-totals"_qs, tr("Range")))
{
    // The range's total in each currency, whatever the provider: the figure finance books.
    m_currencyTotals->setColumnHidden(0, true);
    m_dateField->setObjectName(u"ledger-date-field"_qs);
    m_dateField->addItem(tr("Paid at"), int(LedgerDate::PaidAt));
    m_dateField->addItem(tr("Period start"), int(LedgerDate::PeriodStart));
    m_dateField->setToolTip(tr("Which date of a billing period the range applies to (UTC days)"));
    m_range->setObjectName(u"ledger-range"_qs);
    for (const QString &name : {tr("This month"), tr("Last month"), tr("This year"),
             tr("Last year"), tr("All time"), tr("Custom dates")})
        m_range->addItem(name);
    for (QDateEdit *edit : {m_from, m_to}) {
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(u"d MMM yyyy"_qs);
    }
    m_from->setObjectName(u"ledger-from"_qs);
    m_to->setObjectName(u"ledger-to"_qs);
    m_from->setToolTip(tr("First UTC day of the range"));
    m_to->setToolTip(tr("Last UTC day of the range (included)"));
    m_provider->setObjectName(u"ledger-provider"_qs);
    m_provider->addItem(tr("All providers"), QString());
    m_currency->setObjectName(u"ledger-currency"_qs);
    m_currency->addItem(tr("All currencies"), QString());
    m_recordedBy->setObjectName(u"ledger-recorded-by"_qs);
    m_recordedBy->addItem(tr("Recorded by anyone"), QString());
    for (const QString &by : LedgerModel::recordedByValues())
        m_recordedBy->addItem(tr("By %1").arg(by), by);
    m_rows->setObjectName(u"ledger-rows"_qs);
    m_rows->addItem(tr("All kinds"), int(LedgerRows::All));
    m_rows->addItem(tr("Renewals"), int(LedgerRows::Renewals));
    m_rows->addItem(tr("Money back"), int(LedgerRows::MoneyBack));
    m_rows->setToolTip(tr("Renewals, money back, or both. Money back (refunds, chargebacks and "
                          "their reversals) is listed by the day it happened, signed; not by "
                          "period start, nor under a Recorded by filter"));
    m_exportRows->setObjectName(u"ledger-export-rows"_qs);
    m_exportRows->setToolTip(tr("Every row of this filter as CSV: ISO 8601 UTC instants, "
                                "decimal amounts with their ISO currency code"));
    m_exportTotals->setObjectName(u"ledger-export-totals"_qs);
    m_exportTotals->setToolTip(tr("The totals below as CSV"));
    m_problem->setObjectName(u"ledger-problem"_qs);
    m_problem->setStyleSheet(u"color:#b02020"_qs);
    m_problem->hide();

    // Two rows, so that every filter shows whole at 1024 px: when, then what.
    auto *when = new QHBoxLayout;
    when->addWidget(m_dateField);
    when->addWidget(m_range);
    when->addWidget(m_from);
    when->addWidget(new QLabel(u"–"_qs));
    when->addWidget(m_to);
    auto *utc = new QLabel(tr("UTC days, the last one included"));
    utc->setStyleSheet(u"color:gray"_qs);
    utc->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    when->addWidget(utc, 1);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_provider);
    bar->addWidget(m_currency);
    bar->addWidget(m_recordedBy);
    bar->addWidget(m_rows);
    bar->addStretch(1);
    bar->addWidget(m_exportRows);
    bar->addWidget(m_exportTotals);

    m_table->setObjectName(u"ledger"_qs);
    m_table->setModel(m_model);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setWholeColumns(
        {LedgerModel::PeriodColumn, LedgerModel::AmountColumn, LedgerModel::PaidAtColumn});

    m_totalsTitle->setObjectName(u"ledger-totals-title"_qs);
    m_totalsTitle->setStyleSheet(u"font-weight:bold"_qs);
    // Wraps in a narrow window instead of setting the window's minimum width.
    m_totalsTitle->setWordWrap(true);
    auto *totals = new QWidget;
    auto *totalsLayout = new QVBoxLayout(totals);
    totalsLayout->setContentsMargins(0, 4, 0, 0);
    totalsLayout->addWidget(m_totalsTitle);
    m_totalsTables = new QHBoxLayout;
    m_totalsTables->addWidget(m_currencyTotals, 2);
    m_totalsTables->addWidget(m_monthTotals, 3);
    m_totalsTables->addWidget(m_providerTotals, 3);
    totalsLayout->addLayout(m_totalsTables, 1);

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(totals);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(when);
    layout->addLayout(bar);
    layout->addWidget(m_problem);
    layout->addWidget(m_chips);
    layout->addWidget(split, 1);
    m_chips->setFocusFallback(m_table);
    connect(m_chips, &FilterChips::removed, this, &LedgerPage::removeFilter);
    connect(m_chips, &FilterChips::clearAllRequested, this, [this] {
        m_drilledDown = false;
        setFilter(defaultFilter());
    });

    connect(m_range, &QComboBox::currentIndexChanged, this, [this] {
        applyPreset();
        reload();
    });
    for (QDateEdit *edit : {m_from, m_to}) {
        connect(edit, &QDateEdit::dateChanged, this, [this] {
            // Typing a date makes the range custom.
            if (m_range->currentIndex() != Custom) {
                const QSignalBlocker block(m_range);
                m_range->setCurrentIndex(Custom);
            }
            reload();
        });
    }
    for (QComboBox *box : {m_dateField, m_provider, m_currency, m_recordedBy, m_rows})
        connect(box, &QComboBox::currentIndexChanged, this, &LedgerPage::reload);
    connect(m_table, &TableView::openRequested, this, [this](const QModelIndex &index) {
        if (!index.isValid() || index.data(int(Role::Placeholder)).toBool())
            return;
        const QString id = m_model->subscriptionOf(index.row());
        if (!id.isEmpty())
            emit subscriptionOpenRequested(id);
    });
    connect(m_model, &PagedTableModel::loadFailed, this, &LedgerPage::statusMessage);
    connect(m_exportRows, &QPushButton::clicked, m_table, &TableView::exportCsvInteractively);
    connect(m_exportTotals, &QPushButton::clicked, this, &LedgerPage::exportTotalsInteractively);

    // A year by month is what a finance review starts from (and the totals' measured budget).
    {
        const QSignalBlocker block(m_range);
        m_range->setCurrentIndex(ThisYear);
    }
    applyPreset();
    loadChoices();
    reload();
}

LedgerFilter LedgerPage::defaultFilter()
{
    LedgerFilter f;
    std::tie(f.from, f.to) = presetRange(ThisYear, todayUtc());
    return f;
}

void LedgerPage::clearDrillDown()
{
    if (!m_drilledDown)
        return;
    m_drilledDown = false;
    setFilter(defaultFilter());
}

void LedgerPage::updateChips()
{
    // What differs from the page as it opens, in the bar's order.
    const LedgerFilter f = filter();
    const LedgerFilter base = defaultFilter();
    QList<FilterChips::Chip> chips;
    if (f.date != base.date)
        chips.append({u"date-field"_qs, tr("Dates: %1").arg(m_dateField->currentText())});
    if (m_range->currentIndex() != ThisYear) {
        const QLocale locale;
        QString days;
        if (m_range->currentIndex() != Custom)
            days = m_range->currentText();
        else if (m_from->date() == m_to->date())
            days = locale.toString(m_from->date(), u"d MMM yyyy"_qs);
        else
            days = tr("%1 – %2").arg(locale.toString(m_from->date(), u"d MMM yyyy"_qs),
                locale.toString(m_to->date(), u"d MMM yyyy"_qs));
        chips.append({u"range"_qs, tr("%1: %2").arg(m_dateField->currentText(), days)});
    }
    if (!f.provider.isEmpty())
        chips.append({u"provider"_qs, tr("Provider: %1").arg(f.provider)});
    if (!f.currency.isEmpty())
        chips.append({u"currency"_qs, tr("Currency: %1").arg(f.currency)});
    if (!f.recordedBy.isEmpty())
        chips.append({u"recorded-by"_qs, m_recordedBy->currentText()});
    if (f.rows != base.rows)
        chips.append({u"rows"_qs, tr("Rows: %1").arg(m_rows->currentText())});
    m_chips->setChips(chips);
    if (chips.isEmpty())
        m_drilledDown = false;
}

void LedgerPage::removeFilter(const QString &key)
{
    // Each box back to its first entry (the page as it opens); its signal reads the list again.
    if (key == u"date-field")
        m_dateField->setCurrentIndex(0);
    else if (key == u"range")
        m_range->setCurrentIndex(ThisYear);
    else if (key == u"provider")
        m_provider->setCurrentIndex(0);
    else if (key == u"currency")
        m_currency->setCurrentIndex(0);
    else if (key == u"recorded-by")
        m_recordedBy->setCurrentIndex(0);
    else if (key == u"rows")
        m_rows->setCurrentIndex(0);
}

std::pair<QDate, QDate> LedgerPage::presetRange(Range range, const QDate &today)
{
    const QDate month(today.year(), today.month(), 1);
    const QDate year(today.year(), 1, 1);
    switch (range) {
    case ThisMonth:
        return {month, month.addMonths(1)};
    case LastMonth:
        return {month.addMonths(-1), month};
    case ThisYear:
        return {year, year.addYears(1)};
    case LastYear:
        return {year.addYears(-1), year};
    case AllTime:
    case Custom:
        break;
    }
    return {};
}

void LedgerPage::applyPreset()
{
    const auto range = Range(m_range->currentIndex());
    const bool dated = range != AllTime;
    m_from->setEnabled(dated);
    m_to->setEnabled(dated);
    if (range == AllTime || range == Custom)
        return;
    const auto [from, to] = presetRange(range, todayUtc());
    const QSignalBlocker a(m_from), b(m_to);
    m_from->setDate(from);
    m_to->setDate(to.addDays(-1));
}

LedgerFilter LedgerPage::filter() const
{
    LedgerFilter f;
    f.date = LedgerDate(m_dateField->currentData().toInt());
    if (m_range->currentIndex() != AllTime) {
        f.from = m_from->date();
        f.to = m_to->date().addDays(1);
    }
    f.provider = m_provider->currentData().toString();
    f.currency = m_currency->currentData().toString();
    f.recordedBy = m_recordedBy->currentData().toString();
    f.rows = LedgerRows(m_rows->currentData().toInt());
    return f;
}

void LedgerPage::setFilter(const LedgerFilter &f)
{
    {
        const QSignalBlocker a(m_dateField), b(m_range), c(m_from), d(m_to), e(m_provider),
            g(m_currency), h(m_recordedBy), i(m_rows);
        m_dateField->setCurrentIndex(std::max(0, m_dateField->findData(int(f.date))));
        m_rows->setCurrentIndex(std::max(0, m_rows->findData(int(f.rows))));
        if (f.from.isValid() && f.to.isValid()) {
            // A drill-down to this month reads "This month", not "Custom dates".
            int range = Custom;
            for (int r = ThisMonth; r <= LastYear && range == Custom; ++r) {
                if (presetRange(Range(r), todayUtc()) == std::pair(f.from, f.to))
                    range = r;
            }
            m_range->setCurrentIndex(range);
            m_from->setDate(f.from);
            m_to->setDate(f.to.addDays(-1));
        } else {
            m_range->setCurrentIndex(AllTime);
        }
        applyPreset();
        // A value not listed yet (the lists load in the background) is added, not dropped.
        auto choose = [](QComboBox *box, const QString &value, const QString &label) {
            int i = box->findData(value);
            if (i < 0) {
                box->addItem(label, value);
                i = box->count() - 1;
            }
            box->setCurrentIndex(i);
        };
        choose(m_provider, f.provider, f.provider);
        choose(m_currency, f.currency, f.currency);
        choose(m_recordedBy, f.recordedBy, tr("By %1").arg(f.recordedBy));
    }
    reload();
}

void LedgerPage::showPaidBetween(const QDate &fromUtc, const QDate &toUtcExclusive,
    const QString &provider, const QString &currency)
{
    LedgerFilter f;
    f.date = LedgerDate::PaidAt;
    f.from = fromUtc;
    f.to = toUtcExclusive;
    f.provider = provider;
    f.currency = currency;
    setFilter(f);
    m_drilledDown = true;
}

void LedgerPage::reload()
{
    updateChips();
    const LedgerFilter f = filter();
    if (f.from.isValid() && f.to.isValid() && f.from >= f.to) {
        m_problem->setText(tr("The range ends (%1) before it starts (%2): choose a last day on "
                              "or after the first.")
                               .arg(QLocale().toString(m_to->date(), QLocale::ShortFormat),
                                   QLocale().toString(m_from->date(), QLocale::ShortFormat)));
        m_problem->show();
        return;
    }
    m_problem->hide();
    m_model->setFilter(f);
    loadTotals();
}

void LedgerPage::dataChanged()
{
    if (isVisible())
        refresh();
    else
        m_stale = true;
}

void LedgerPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        refresh();
}

void LedgerPage::refresh()
{
    m_stale = false;
    loadChoices();
    m_model->refresh();
    loadTotals();
}

void LedgerPage::loadChoices()
{
    deliverResult(
        this, m_pool->call(&loadLedgerChoices),
        [this](const LedgerChoices &choices) {
            auto fill = [](QComboBox *box, const QStringList &values) {
                const QString current = box->currentData().toString();
                const QSignalBlocker block(box);
                while (box->count() > 1)
                    box->removeItem(1);
                for (const QString &v : values)
                    box->addItem(v, v);
                int i = box->findData(current);
                if (i < 0) { // chosen before the list arrived, or gone since: kept
                    box->addItem(current, current);
                    i = box->count() - 1;
                }
                box->setCurrentIndex(i);
            };
            fill(m_provider, choices.providers);
            fill(m_currency, choices.currencies);
        },
        [this](const QString &message) { emit statusMessage(message); }, m_choicesRequest.next());
}

void LedgerPage::loadTotals()
{
    const LedgerFilter f = filter();
    m_totalsTitle->setText(tr("Totals: loading…"));
    deliverResult(
        this, m_pool->call(&loadLedgerTotals, f),
        [this, f](const LedgerTotals &totals) {
            m_totals = totals;
            m_totalsFilter = f;
            showTotals();
            emit totalsLoaded();
        },
        [this](const QString &message) {
            m_totalsTitle->setText(tr("Totals could not be read: %1").arg(message));
            emit statusMessage(message);
        },
        m_totalsRequest.next());
}

void LedgerPage::showTotals()
{
    const LedgerFilter f = filter();
    const QString what = f.date == LedgerDate::PaidAt ? tr("paid") : tr("with a period starting");
    QString range = tr("any time");
    if (f.from.isValid())
        range = tr("%1 – %2 (UTC)")
                    .arg(QLocale().toString(f.from, u"d MMM yyyy"_qs),
                        QLocale().toString(f.to.addDays(-1), u"d MMM yyyy"_qs));
    qint64 renewals = 0;
    for (const LedgerTotal &t : m_totals.months)
        renewals += t.renewals;
    bool anyBack = false;
    for (const LedgerTotal &t : m_totals.currencies)
        anyBack = anyBack || t.refundedMinor != 0 || t.disputedMinor != 0;
    m_totalsTitle->setText(renewals == 1
            ? tr("Totals of the one renewal %1 %2: per currency, by month and by provider")
                  .arg(what, range)
            : tr("Totals of the %1 renewals %2 %3: per currency across providers, by month and "
                 "by provider; each currency apart")
                    .arg(QLocale().toString(renewals), what, range)
                + (anyBack
                        ? tr(". Refunds and disputes count in the month they happened, not their "
                             "renewal's")
                        : QString()));
    auto fill = [](QTableWidget *table, const QVector<LedgerTotal> &rows, bool byMonth) {
        table->setRowCount(int(rows.size()));
        for (int r = 0; r < rows.size(); ++r) {
            const LedgerTotal &t = rows[r];
            table->setItem(r, 0,
                byMonth ? cell(QLocale().toString(t.month, u"MMMM yyyy"_qs)) : cell(t.provider));
            table->setItem(r, 1, cell(t.currency));
            table->setItem(r, 2, cell(QLocale().toString(t.renewals), true));
            const auto money = [&](qint64 minor) {
                return cell(format::money(minor, t.currency), true,
                    tr("%1 minor units of %2").arg(minor).arg(t.currency));
            };
            table->setItem(r, 3, money(t.amountMinor));
            // No money back reads as a dash, as on a statement, so that the figures stand out.
            const auto back = [&](qint64 minor) {
                return minor == 0 ? cell(u"–"_qs, true, tr("none")) : money(minor);
            };
            table->setItem(r, 4, back(t.refundedMinor));
            table->setItem(r, 5, back(t.disputedMinor));
            QTableWidgetItem *net = money(t.netMinor());
            net->setToolTip(tr("%1 gross − %2 refunded − %3 disputed")
                                .arg(format::money(t.amountMinor, t.currency),
                                    format::money(t.refundedMinor, t.currency),
                                    format::money(t.disputedMinor, t.currency)));
            table->setItem(r, 6, net);
        }
    };
    // Money back's columns only when there is some to show: a range without any reads as
    // before, and a filter by recorder leaves money back out (it has no recorder of a renewal).
    // The range's table, the figure to book, shows all four; the months and providers gross
    // and net, refunded and disputed in the net's tooltip (three tables of seven columns do not
    // fit a 1400-pixel window).
    for (QTableWidget *table : {m_monthTotals, m_providerTotals, m_currencyTotals}) {
        const bool all = table == m_currencyTotals;
        table->setColumnHidden(4, !anyBack || !all);
        table->setColumnHidden(5, !anyBack || !all);
        table->setColumnHidden(6, !anyBack);
    }
    m_totalsTables->setStretch(0, anyBack ? 3 : 2);
    fill(m_monthTotals, m_totals.months, true);
    fill(m_providerTotals, m_totals.providers, false);
    fill(m_currencyTotals, m_totals.currencies, false);
}

bool LedgerPage::exportTotals(const QString &path, QString *error) const
{
    try {
        writeLedgerTotalsCsv(path, m_totals, m_totalsFilter);
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

void LedgerPage::exportTotalsInteractively()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export totals as CSV"), u"ledger-totals.csv"_qs, tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportTotals(path, &error))
        emit statusMessage(tr("Totals written to %1").arg(path));
    else
        emit statusMessage(tr("The totals could not be written: %1").arg(error));
}

} // namespace rd::ui
