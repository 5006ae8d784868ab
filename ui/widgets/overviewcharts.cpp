#include "ui/widgets/overviewcharts.h"

#include "domain/core/rejection_code.h"
#include "ui/models/format.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QCursor>
#include <QFontMetrics>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLocale>
#include <QMap>
#include <QMouseEvent>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::OverviewCharts)
};

} // namespace
namespace {

/// Outcomes in the order a person reads them: what went through, then what needs a look.
const QStringList kOutcomes {u"applied"_qs, u"recorded"_qs, u"duplicate"_qs, u"not_a_renewal"_qs,
    u"needs_snapshot"_qs, u"rejected"_qs, u"invalid"_qs, QString()};

QString outcomeLabel(const QString &outcome)
{
    if (outcome.isEmpty())
        return Tr::tr("not processed yet");
    if (outcome == u"not_a_renewal")
        return Tr::tr("not a renewal");
    if (outcome == u"needs_snapshot")
        return Tr::tr("needs snapshot");
    if (outcome == u"applied")
        return Tr::tr("applied");
    // record_money_movements' and record_payment_trouble's outcome (#40, #41).
    if (outcome == u"recorded")
        return Tr::tr("money back, payment trouble");
    if (outcome == u"duplicate")
        return Tr::tr("duplicate");
    if (outcome == u"rejected")
        return Tr::tr("rejected");
    if (outcome == u"invalid")
        return Tr::tr("invalid");
    return format::storedWord(outcome);
}

QColor outcomeColor(const QString &outcome)
{
    static const QMap<QString, QColor> colors {{u"applied"_qs, QColor(0x2e, 0x7d, 0x32)},
        {u"recorded"_qs, QColor(0x6a, 0x1b, 0x9a)}, {u"duplicate"_qs, QColor(0x90, 0xa4, 0xae)},
        {u"not_a_renewal"_qs, QColor(0xb0, 0xbe, 0xc5)},
        {u"needs_snapshot"_qs, QColor(0xef, 0x9a, 0x00)},
        {u"rejected"_qs, QColor(0xc6, 0x28, 0x28)}, {u"invalid"_qs, QColor(0x6a, 0x1b, 0x1b)}};
    return colors.value(outcome, QColor(0x1e, 0x6f, 0xc8));
}

/// A case reason in a few words (the code in the tooltip): the chart is a third of the page.
/// The codes are the core's (rd::RejectionCode): a new one does not build until it has words.
QString shortReason(const QString &code)
{
    const auto rejection = rejectionCodeFromString(code.toStdString());
    // The statements' own reasons are no rejection of the core's.
    if (code == u"statement_disagrees")
        return Tr::tr("Statement differs");
    if (code == u"not_in_statement")
        return Tr::tr("Not in statement");
    if (code == u"statement_object_unreadable")
        return Tr::tr("Unreadable in statement");
    // Money back's (#40).
    if (code == u"refund_without_renewal")
        return Tr::tr("Refund before renewal");
    if (code == u"refund_exceeds_payment")
        return Tr::tr("Refund over payment");
    if (code == u"money_movement_conflict")
        return Tr::tr("Refund conflict");
    if (!rejection)
        return format::humanize(code);
    switch (*rejection) {
    case RejectionCode::PeriodNotContiguous:
        return Tr::tr("Gap or overlap");
    case RejectionCode::RenewalKeyPayloadConflict:
        return Tr::tr("Payload conflict");
    case RejectionCode::ScheduledCancellation:
        return Tr::tr("Set to cancel");
    case RejectionCode::StatusNotActive:
        return Tr::tr("Not active");
    case RejectionCode::SubscriptionNotFound:
        return Tr::tr("Unknown subscription");
    case RejectionCode::NoCurrentPeriod:
        return Tr::tr("No current period");
    case RejectionCode::InvalidPeriod:
        return Tr::tr("Invalid period");
    case RejectionCode::NeedsSnapshot:
        return Tr::tr("Needs snapshot");
    }
    return format::humanize(code);
}

QString bucketLabel(int bucket)
{
    switch (AgeBucket(bucket)) {
    case AgeBucket::UnderHour:
        return Tr::tr("< 1 h");
    case AgeBucket::UnderDay:
        return Tr::tr("< 1 day");
    case AgeBucket::UnderWeek:
        return Tr::tr("< 1 week");
    default:
        return Tr::tr("older");
    }
}

std::pair<qint64, qint64> bucketRange(int bucket)
{
    const qint64 lower = bucket == 0 ? -1 : kAgeBucketLimits[bucket - 1];
    const qint64 upper = bucket < int(kAgeBucketLimits.size()) ? kAgeBucketLimits[bucket] : -1;
    return {lower, upper};
}

QChartView *makeView(const QString &name)
{
    auto *chart = new QChart;
    chart->setObjectName(name);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(3);
    chart->legend()->setAlignment(Qt::AlignBottom);
    QFont title = chart->titleFont();
    title.setBold(true);
    chart->setTitleFont(title);
    auto *view = new QChartView(chart);
    view->setObjectName(name);
    view->setRenderHint(QPainter::Antialiasing);
    // A chart is read, and its bars clicked; the keyboard reaches the same lists through the
    // tiles' figures. Focusable, its scene kept Tab for itself: the focus stuck in it.
    view->setFocusPolicy(Qt::NoFocus);
    view->setMinimumSize(260, 220);
    return view;
}

void clearChart(QChart *chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

/// An axis's labels a little smaller than the text: a chart a third of a 1024-pixel window
/// wide has little room for them, and Qt Charts elides what does not fit.
void shrinkLabels(QAbstractAxis *axis)
{
    QFont small = axis->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    axis->setLabelsFont(small);
}

/// The names of a horizontal bar chart's bars (they get half the chart's width at most: Qt
/// Charts elides a longer one, and a name not elided would be clipped at the chart's edge).
QBarCategoryAxis *namesAxis(const QStringList &names)
{
    auto *axis = new QBarCategoryAxis;
    axis->append(names);
    shrinkLabels(axis);
    return axis;
}

/// A count axis: whole numbers only, from 0.
QValueAxis *countAxis(qint64 max)
{
    auto *axis = new QValueAxis;
    const qint64 top = std::max<qint64>(max, 4);
    axis->setRange(0, double(top));
    axis->applyNiceNumbers();
    // After nice numbers the range may be 0..7.5: ticks at whole numbers read as counts.
    const double upper = std::ceil(axis->max());
    axis->setRange(0, upper);
    if (upper <= 10)
        axis->setTickCount(int(upper) + 1);
    axis->setLabelFormat(u"%d"_qs);
    return axis;
}

/// The count axis of a chart with counts above its zero line (opened) and below it (closed):
/// both read as counts ("2" below the line, not "-2"), whole numbers, at most four steps a side.
QCategoryAxis *splitCountAxis(qint64 above, qint64 below)
{
    const qint64 largest = std::max<qint64>({above, below, 1});
    qint64 step = 1;
    for (qint64 scale = 1; largest > 4 * step; scale *= 10) {
        for (qint64 s : {1, 2, 5}) {
            step = s * scale;
            if (largest <= 4 * step)
                break;
        }
    }
    const auto roundUp
        = [step](qint64 n) { return std::max<qint64>(1, (n + step - 1) / step) * step; };
    // A side with nothing on it takes no room (no cases closed in 30 days: no lower half).
    const qint64 upper = above > 0 || below == 0 ? roundUp(above) : 0;
    const qint64 lower = below > 0 ? roundUp(below) : 0;
    auto *axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axis->setStartValue(double(-lower));
    axis->setRange(double(-lower), double(upper));
    const QLocale locale;
    for (qint64 v = -lower; v <= upper; v += step) {
        // A category axis's labels are its keys: the ones below the line end with a hair
        // space (not seen), or "2" closed and "2" opened would be one label.
        axis->append(v < 0 ? locale.toString(-v) + QChar(0x200A) : locale.toString(v), double(v));
    }
    shrinkLabels(axis);
    return axis;
}

/// A series and its two axes into `chart`, which takes all three.
void addWithAxes(
    QChart *chart, QAbstractSeries *series, QAbstractAxis *horizontal, QAbstractAxis *vertical)
{
    chart->addSeries(series);
    chart->addAxis(horizontal, Qt::AlignBottom);
    series->attachAxis(horizontal);
    chart->addAxis(vertical, Qt::AlignLeft);
    series->attachAxis(vertical);
}

/// A horizontal bar chart: its bars' names on the left, their counts (up to `max`) below, no
/// legend (the names say it).
void addNamedBars(QChart *chart, QAbstractSeries *series, const QStringList &names, qint64 max)
{
    addWithAxes(chart, series, countAxis(max), namesAxis(names));
    chart->legend()->setVisible(false);
}

/// A bar's tooltip, hidden with `over` (a chart): it must not stay over the page a click on
/// the bar opens.
void showTip(const QString &text, QWidget *over)
{
    // A hover that arrives once the chart is gone (its page hidden by the click) shows none.
    if (!over->isVisible())
        return;
    QToolTip::showText(QCursor::pos(), text, over);
}

} // namespace

OverviewCharts::OverviewCharts(QObject *parent)
    : QObject(parent)
    , m_renewalsView(makeView(u"renewals-per-day"_qs))
    , m_deliveriesView(makeView(u"deliveries"_qs))
    , m_casesView(makeView(u"cases-per-day"_qs))
    , m_reasonView(makeView(u"open-by-reason"_qs))
    , m_ageView(makeView(u"open-by-age"_qs))
{
    m_casesView->viewport()->installEventFilter(this); // a day's whole column is its bars
}

void OverviewCharts::hideTip()
{
    QToolTip::hideText();
    // hideText() lets the tip fade out for 300 ms: long enough to float over the page a
    // click opened. Gone at once instead (the tip is a window of its own, Qt's QTipLabel).
    for (QWidget *w : QApplication::topLevelWidgets())
        if (w->inherits("QTipLabel") && w->isVisible())
            w->hide();
}

void OverviewCharts::show(const OverviewFigures &figures)
{
    m_figures = figures;
    showRenewalsPerDay();
    showDeliveries();
    showCasesPerDay();
    showOpenByReason();
    showOpenByAge();
}

QCategoryAxis *OverviewCharts::dayAxis(bool numbersOnly) const
{
    // Bar i stands at x = i. A category axis gives each of the 30 days a label as wide as its
    // bar, which a chart a third of a 1024-pixel window wide elides to "…" every one: a date
    // a week, ending today, reads at any width (the exact day is in each bar's tooltip).
    auto *axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const int days = int(m_figures.firstDay.daysTo(m_figures.todayUtc)) + 1;
    axis->setStartValue(-0.5);
    axis->setRange(-0.5, days - 0.5);
    const QLocale locale;
    for (int i = (days - 1) % 7; i < days; i += 7)
        axis->append(
            locale.toString(m_figures.firstDay.addDays(i), numbersOnly ? u"d"_qs : u"d MMM"_qs), i);
    // Day numbers alone ("25  2") read as if the days ran backwards; the axis's title names
    // the months they belong to (a "2 Dec" label there would be elided at 1024 pixels).
    if (numbersOnly) {
        axis->setTitleText(tr("%1 – %2 (UTC)")
                               .arg(locale.toString(m_figures.firstDay, u"d MMM"_qs),
                                   locale.toString(m_figures.todayUtc, u"d MMM"_qs)));
        QFont font = axis->titleFont();
        font.setBold(false);
        font.setPointSizeF(axis->labelsFont().pointSizeF());
        axis->setTitleFont(font);
    }
    shrinkLabels(axis);
    axis->setGridLineVisible(false);
    return axis;
}

void OverviewCharts::roomForLastDay(QChart *chart, QCategoryAxis *days)
{
    // Today's label stands on the last bar, half a day from the plot's right edge: centred
    // there, its right half was cut off by the chart's edge ("2" for "25", "1 D" for "1 Dec").
    // The chart's right margin makes room for it.
    const QStringList labels = days->categoriesLabels();
    const int half = labels.isEmpty()
        ? 0
        : QFontMetrics(days->labelsFont()).horizontalAdvance(labels.last()) / 2 + 2;
    QMargins margins = chart->margins();
    margins.setRight(std::max(4, half));
    chart->setMargins(margins);
}

QString OverviewCharts::daysTitle(const QString &what) const
{
    const QLocale locale;
    return tr("%1, %2 – %3 (UTC days)")
        .arg(what, locale.toString(m_figures.firstDay, u"d MMM"_qs),
            locale.toString(m_figures.todayUtc, u"d MMM"_qs));
}

void OverviewCharts::showRenewalsPerDay()
{
    QChart *chart = m_renewalsView->chart();
    clearChart(chart);
    chart->setTitle(daysTitle(tr("Renewals per day, by provider")));
    const OverviewFigures &f = m_figures;
    auto *series = new QStackedBarSeries;
    QVector<qint64> dayTotals(kOverviewDays, 0);
    for (const QString &provider : f.providers) {
        auto *set = new QBarSet(provider);
        QVector<qreal> values(kOverviewDays, 0);
        for (const DayCount &d : f.renewalsPerDay) {
            if (d.key != provider)
                continue;
            const int i = int(f.firstDay.daysTo(d.day));
            if (i >= 0 && i < kOverviewDays) {
                values[i] = qreal(d.count);
                dayTotals[i] += d.count;
            }
        }
        for (qreal v : values)
            *set << v;
        connect(set, &QBarSet::clicked, this, [this, provider](int index) {
            hideTip();
            const QDate day = m_figures.firstDay.addDays(index);
            emit ledgerRequested(day, day.addDays(1), provider, {});
        });
        connect(set, &QBarSet::hovered, this, [this, provider, set](bool on, int index) {
            if (!on)
                return hideTip();
            const QDate day = m_figures.firstDay.addDays(index);
            showTip(tr("%1 (UTC) · %2: %3 renewals")
                        .arg(QLocale().toString(day, u"ddd d MMM yyyy"_qs), provider)
                        .arg(qint64(set->at(index))),
                m_renewalsView);
        });
        series->append(set);
    }
    QCategoryAxis *x = dayAxis(false);
    addWithAxes(
        chart, series, x, countAxis(*std::max_element(dayTotals.cbegin(), dayTotals.cend())));
    roomForLastDay(chart, x);
    chart->legend()->setVisible(!f.providers.isEmpty());
    if (f.providers.isEmpty())
        chart->setTitle(chart->title() + tr(": none in 30 days"));
}

void OverviewCharts::showDeliveries()
{
    QChart *chart = m_deliveriesView->chart();
    clearChart(chart);
    chart->setTitle(tr("Deliveries by outcome, 30 days"));
    const OverviewFigures &f = m_figures;
    QStringList outcomes;
    QVector<qint64> counts;
    for (const QString &outcome : kOutcomes) {
        qint64 n = 0;
        for (const KeyCount &k : f.deliveriesByOutcome)
            if (k.key == outcome)
                n = k.count;
        // "Not processed yet" and money back only when there is some: an eighth row would not
        // fit a 1024-pixel window's third of the page (Qt Charts elides every name then).
        if ((outcome.isEmpty() || outcome == u"recorded") && n == 0)
            continue;
        outcomes << outcome;
        counts << n;
    }
    // One set per outcome, each with its value at its own category only: stacked, every bar
    // is full width and has its outcome's colour.
    auto *series = new QHorizontalStackedBarSeries;
    QStringList categories;
    const QLocale locale;
    for (int i = 0; i < outcomes.size(); ++i) {
        categories << tr("%1 (%2)").arg(outcomeLabel(outcomes[i]), locale.toString(counts[i]));
        auto *set = new QBarSet(outcomeLabel(outcomes[i]));
        set->setColor(outcomeColor(outcomes[i]));
        set->setBorderColor(outcomeColor(outcomes[i]));
        for (int j = 0; j < outcomes.size(); ++j)
            *set << (j == i ? qreal(counts[i]) : 0.0);
        const QString filter = outcomes[i].isEmpty() ? u"unprocessed"_qs : outcomes[i];
        connect(set, &QBarSet::clicked, this, [this, filter](int) {
            hideTip();
            emit inboxRequested(filter, u"30 days"_qs);
        });
        connect(set, &QBarSet::hovered, this, [this, label = categories.last()](bool on, int) {
            if (!on)
                return hideTip();
            showTip(tr("%1 deliveries received in the last 30 UTC days; click for "
                       "them in the Inbox")
                        .arg(label),
                m_deliveriesView);
        });
        series->append(set);
    }
    addNamedBars(chart, series, categories,
        counts.isEmpty() ? 0 : *std::max_element(counts.cbegin(), counts.cend()));
}

void OverviewCharts::showCasesPerDay()
{
    QChart *chart = m_casesView->chart();
    clearChart(chart);
    // The days are in the page's heading: a third of a narrow window has room for this only.
    chart->setTitle(tr("Cases opened and closed per day"));
    const OverviewFigures &f = m_figures;
    // A day's opened cases above the line, its closed ones below: each bar the day's whole
    // width (two bars side by side in a third of the window were 2–3 px wide), and a click
    // anywhere in a day's column, above or below the line, opens that day's cases
    // (casesColumnAt).
    auto *series = new QStackedBarSeries;
    series->setBarWidth(0.85);
    qint64 maxOpened = 0;
    qint64 maxClosed = 0;
    for (const QString &key : {u"opened"_qs, u"closed"_qs}) {
        const bool closed = key == u"closed";
        // "closed": resolved (by the core or a person) or dismissed.
        auto *set = new QBarSet(closed ? tr("closed") : tr("opened"));
        set->setColor(closed ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
        set->setBorderColor(set->color());
        QVector<qreal> values(kOverviewDays, 0);
        for (const DayCount &d : f.casesPerDay) {
            const int i = int(f.firstDay.daysTo(d.day));
            if (d.key == key && i >= 0 && i < kOverviewDays) {
                values[i] = closed ? -qreal(d.count) : qreal(d.count);
                qint64 &max = closed ? maxClosed : maxOpened;
                max = std::max(max, d.count);
            }
        }
        for (qreal v : values)
            *set << v;
        connect(set, &QBarSet::hovered, this, [this, set](bool on, int index) {
            if (!on)
                return hideTip();
            showTip(tr("%1 (UTC): %2 %3; click for them")
                        .arg(QLocale().toString(
                            m_figures.firstDay.addDays(index), u"ddd d MMM yyyy"_qs))
                        .arg(std::abs(qint64(set->at(index))))
                        .arg(set->label()),
                m_casesView);
        });
        series->append(set);
    }
    QCategoryAxis *x = dayAxis(true); // the narrow chart: the days of the month only
    addWithAxes(chart, series, x, splitCountAxis(maxOpened, maxClosed));
    roomForLastDay(chart, x);
}

std::optional<std::pair<QDate, bool>> OverviewCharts::casesColumnAt(const QPoint &viewportPos) const
{
    QChart *chart = m_casesView->chart();
    const auto series = chart->series();
    if (series.isEmpty())
        return std::nullopt;
    const QPointF inChart = chart->mapFromScene(m_casesView->mapToScene(viewportPos));
    if (!chart->plotArea().contains(inChart))
        return std::nullopt;
    const QPointF value = chart->mapToValue(inChart, series.first());
    const int index = int(std::lround(value.x()));
    const int days = int(m_figures.firstDay.daysTo(m_figures.todayUtc)) + 1;
    if (index < 0 || index >= days)
        return std::nullopt;
    return std::make_pair(m_figures.firstDay.addDays(index), value.y() < 0);
}

bool OverviewCharts::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_casesView->viewport() && event->type() == QEvent::MouseButtonPress) {
        const auto *press = static_cast<QMouseEvent *>(event);
        if (press->button() == Qt::LeftButton) {
            if (const auto column = casesColumnAt(press->position().toPoint())) {
                hideTip();
                emit casesOfDayRequested(column->first, column->second);
                return true;
            }
        }
    }
    return QObject::eventFilter(watched, event);
}

void OverviewCharts::showOpenByReason()
{
    QChart *chart = m_reasonView->chart();
    clearChart(chart);
    chart->setTitle(tr("Open cases by reason"));
    const OverviewFigures &f = m_figures;
    auto *series = new QHorizontalBarSeries;
    auto *set = new QBarSet(tr("open cases"));
    set->setColor(QColor(0xc6, 0x28, 0x28));
    set->setBorderColor(set->color());
    QStringList categories;
    QStringList codes;
    qint64 max = 0;
    const QLocale locale;
    // Largest at the top: a horizontal bar axis lists its first category at the bottom.
    for (auto it = f.openByReason.crbegin(); it != f.openByReason.crend(); ++it) {
        categories << tr("%1 (%2)").arg(shortReason(it->key), locale.toString(it->count));
        codes << it->key;
        *set << qreal(it->count);
        max = std::max(max, it->count);
    }
    connect(set, &QBarSet::clicked, this, [this, codes](int index) {
        hideTip();
        emit openCasesRequested(codes.value(index), -1, -1);
    });
    connect(set, &QBarSet::hovered, this, [this, codes](bool on, int index) {
        if (!on)
            return hideTip();
        // The reason in the words the desk uses for it elsewhere (format::humanize), never
        // its code.
        showTip(tr("%1: click for these cases").arg(format::humanize(codes.value(index))),
            m_reasonView);
    });
    series->append(set);
    if (categories.isEmpty()) {
        categories << tr("no open case");
        *set << 0;
    }
    addNamedBars(chart, series, categories, max);
}

void OverviewCharts::showOpenByAge()
{
    QChart *chart = m_ageView->chart();
    clearChart(chart);
    chart->setTitle(tr("Open cases by age"));
    const OverviewFigures &f = m_figures;
    static const QColor colors[] {QColor(0x9e, 0xc5, 0xe8), QColor(0x5b, 0x9b, 0xd5),
        QColor(0xef, 0x9a, 0x00), QColor(0xc6, 0x28, 0x28)};
    // Horizontal, as the reasons beside it: the buckets' names need the width, not the counts.
    // A horizontal axis lists its first category at the bottom: the oldest reads on top.
    auto *series = new QHorizontalStackedBarSeries;
    QStringList categories;
    const QLocale locale;
    qint64 max = 0;
    const int buckets = int(AgeBucket::Count);
    for (int b = 0; b < buckets; ++b) {
        // Axis labels are rich text: "<" would open a tag.
        categories << tr("%1: %2").arg(
            bucketLabel(b).toHtmlEscaped(), locale.toString(f.openByAge[b]));
        max = std::max(max, f.openByAge[b]);
    }
    // As the deliveries chart: one set per bucket, so that older reads warmer.
    for (int b = 0; b < buckets; ++b) {
        auto *set = new QBarSet(bucketLabel(b));
        set->setColor(colors[b]);
        set->setBorderColor(colors[b]);
        for (int j = 0; j < buckets; ++j)
            *set << (j == b ? qreal(f.openByAge[b]) : 0.0);
        connect(set, &QBarSet::clicked, this, [this, b](int) {
            hideTip();
            const auto [lower, upper] = bucketRange(b);
            emit openCasesRequested({}, lower, upper);
        });
        connect(set, &QBarSet::hovered, this, [this, label = categories[b]](bool on, int) {
            if (!on)
                return hideTip();
            showTip(tr("Open cases by time since first seen, %1; click for them").arg(label),
                m_ageView);
        });
        series->append(set);
    }
    addNamedBars(chart, series, categories, max);
}

} // namespace rd::ui
