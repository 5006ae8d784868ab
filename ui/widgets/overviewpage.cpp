#include "ui/widgets/overviewpage.h"

#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/outboxpublisher.h"
#include "ui/models/overduewatch.h"
#include "ui/widgets/overviewtile.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QFontMetrics>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLocale>
#include <QMap>
#include <QMouseEvent>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedBarSeries>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>

namespace rd::ui {
namespace {

constexpr int kMaxCurrencyLines = 4;

/// Outcomes in the order a person reads them: what went through, then what needs a look.
const QStringList kOutcomes {u"applied"_qs, u"duplicate"_qs, u"not_a_renewal"_qs,
    u"needs_snapshot"_qs, u"rejected"_qs, u"invalid"_qs, QString()};

QString outcomeLabel(const QString &outcome)
{
    if (outcome.isEmpty())
        return QObject::tr("not processed yet");
    if (outcome == u"not_a_renewal")
        return QObject::tr("not a renewal");
    if (outcome == u"needs_snapshot")
        return QObject::tr("needs snapshot");
    return outcome;
}

QColor outcomeColor(const QString &outcome)
{
    static const QMap<QString, QColor> colors {{u"applied"_qs, QColor(0x2e, 0x7d, 0x32)},
        {u"duplicate"_qs, QColor(0x90, 0xa4, 0xae)},
        {u"not_a_renewal"_qs, QColor(0xb0, 0xbe, 0xc5)},
        {u"needs_snapshot"_qs, QColor(0xef, 0x9a, 0x00)},
        {u"rejected"_qs, QColor(0xc6, 0x28, 0x28)}, {u"invalid"_qs, QColor(0x6a, 0x1b, 0x1b)}};
    return colors.value(outcome, QColor(0x1e, 0x6f, 0xc8));
}

/// A case reason in a few words (the code in the tooltip): the chart is a third of the page.
QString shortReason(const QString &code)
{
    static const QMap<QString, QString> names {
        {u"renewal_period_is_not_contiguous"_qs, QObject::tr("Gap or overlap")},
        {u"provider_renewal_key_payload_conflict"_qs, QObject::tr("Payload conflict")},
        {u"renewal_conflicts_with_scheduled_cancellation"_qs, QObject::tr("Set to cancel")},
        {u"renewal_not_allowed_for_subscription_status"_qs, QObject::tr("Not active")},
        {u"subscription_not_found"_qs, QObject::tr("Unknown subscription")},
        {u"subscription_has_no_current_period"_qs, QObject::tr("No current period")},
        {u"invalid_provider_billing_period"_qs, QObject::tr("Invalid period")},
        {u"needs_snapshot"_qs, QObject::tr("Needs snapshot")}};
    return names.value(code, format::humanize(code));
}

QString bucketLabel(int bucket)
{
    switch (AgeBucket(bucket)) {
    case AgeBucket::UnderHour:
        return QObject::tr("< 1 h");
    case AgeBucket::UnderDay:
        return QObject::tr("< 1 day");
    case AgeBucket::UnderWeek:
        return QObject::tr("< 1 week");
    default:
        return QObject::tr("older");
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

/// A short list one item a line, at most `shown` of them and then how many more: its tile
/// stays narrow (three providers on one line made the Overview wider than a 1024-pixel window).
QString onLines(const QStringList &items, int shown)
{
    QStringList lines = items.mid(0, shown);
    if (items.size() > shown)
        lines << QObject::tr("and %1 more").arg(items.size() - shown);
    return lines.join(u'\n');
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

/// A bar's tooltip, hidden with `over` (a chart): it must not stay over the page a click on
/// the bar opens.
void showTip(const QString &text, QWidget *over)
{
    QToolTip::showText(QCursor::pos(), text, over);
}

void hideTip()
{
    QToolTip::hideText();
}

} // namespace

OverviewPage::OverviewPage(DatabasePool *pool, QWidget *parent)
    : QWidget(parent)
    , m_pool(pool)
    , m_heading(new QLabel)
    , m_error(new QLabel)
    , m_today(new OverviewTile(tr("Renewals today")))
    , m_month(new OverviewTile(tr("Renewals this month")))
    , m_cases(new OverviewTile(tr("Open cases")))
    , m_overdue(new OverviewTile(tr("Overdue")))
    , m_outbox(new OverviewTile(tr("Outbox")))
    , m_lastDelivery(new OverviewTile(tr("Last delivery received")))
    , m_renewalsView(makeView(u"renewals-per-day"_qs))
    , m_deliveriesView(makeView(u"deliveries"_qs))
    , m_casesView(makeView(u"cases-per-day"_qs))
    , m_reasonView(makeView(u"open-by-reason"_qs))
    , m_ageView(makeView(u"open-by-age"_qs))
    , m_poll(new QTimer(this))
    , m_tiles(new QGridLayout)
{
    m_today->setObjectName(u"renewals-today"_qs);
    m_month->setObjectName(u"renewals-month"_qs);
    m_cases->setObjectName(u"open-cases"_qs);
    m_overdue->setObjectName(u"overdue"_qs);
    m_outbox->setObjectName(u"outbox"_qs);
    m_lastDelivery->setObjectName(u"last-delivery"_qs);
    for (OverviewTile *t : tiles())
        t->setStyleSheet(t->styleSheet().replace(u"#overview-tile"_qs, u"#"_qs + t->objectName()));

    m_heading->setObjectName(u"overview-heading"_qs);
    m_heading->setStyleSheet(u"color: #5a6270;"_qs);
    m_heading->setText(tr("Loading…"));
    m_error->setObjectName(u"overview-error"_qs);
    m_error->setStyleSheet(u"color: #b02020;"_qs);
    m_error->setWordWrap(true);
    m_error->hide();

    m_tiles->setSpacing(8);
    flowTiles(1);

    auto *charts = new QGridLayout;
    charts->setSpacing(8);
    // Twelfths: the reasons' names are the longest labels of the lower row and are read with
    // their counts ("Unknown subscription (12)"), so they get half of it; the age buckets'
    // names are the shortest, so that chart may be narrower than the others when the window is
    // (1024 pixels: the reasons would be elided).
    m_ageView->setMinimumWidth(190);
    charts->addWidget(m_renewalsView, 0, 0, 1, 7);
    charts->addWidget(m_deliveriesView, 0, 7, 1, 5);
    charts->addWidget(m_casesView, 1, 0, 1, 3);
    charts->addWidget(m_reasonView, 1, 3, 1, 6);
    charts->addWidget(m_ageView, 1, 9, 1, 3);
    for (int c = 0; c < 12; ++c)
        charts->setColumnStretch(c, 1);
    charts->setRowStretch(0, 1);
    charts->setRowStretch(1, 1);

    auto *content = new QWidget;
    auto *inner = new QVBoxLayout(content);
    inner->setContentsMargins(0, 0, 4, 0);
    inner->addWidget(m_heading);
    inner->addWidget(m_error);
    inner->addLayout(m_tiles);
    inner->addLayout(charts, 1);
    auto *scroll = new QScrollArea;
    scroll->setObjectName(u"overview-scroll"_qs);
    m_scrollViewport = scroll->viewport();
    m_scrollViewport->installEventFilter(this); // the tiles flow to the width
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);

    m_casesView->viewport()->installEventFilter(this); // a day's whole column is its bars
    m_poll->setInterval(kPollInterval);
    connect(m_poll, &QTimer::timeout, this, &OverviewPage::poll);
    load();
}

std::array<OverviewTile *, 6> OverviewPage::tiles() const
{
    return {m_today, m_month, m_cases, m_overdue, m_outbox, m_lastDelivery};
}

void OverviewPage::flowTiles(int rows)
{
    // One row of six where they fit; else two of three. A finance person on a 1024-pixel
    // screen reads every figure without scrolling sideways ("$578.00 · 12 renewals" in two
    // currencies is wider than a sixth of it).
    if (m_tileRows == rows)
        return;
    m_tileRows = rows;
    const int perRow = rows == 1 ? 6 : 3;
    const auto order = tiles();
    for (int i = 0; i < int(order.size()); ++i) {
        m_tiles->removeWidget(order[i]);
        m_tiles->addWidget(order[i], i / perRow, i % perRow);
    }
    // The renewal tiles are the widest (an amount and a count per currency).
    for (int c = 0; c < 6; ++c)
        m_tiles->setColumnStretch(c, c >= perRow ? 0 : (c < 2 ? 3 : 2));
}

int OverviewPage::tilesWidthInOneRow() const
{
    int width = 5 * m_tiles->spacing();
    for (const OverviewTile *t : tiles())
        width += t->minimumSizeHint().width();
    return width + 8; // the page's right margin, and a pixel or two of rounding
}

void OverviewPage::reflowTiles()
{
    if (!m_scrollViewport)
        return;
    flowTiles(tilesWidthInOneRow() <= m_scrollViewport->width() ? 1 : 2);
}

OverviewTile *OverviewPage::tile(const QString &name) const
{
    return findChild<OverviewTile *>(name);
}

QChart *OverviewPage::chart(const QString &name) const
{
    if (auto *view = findChild<QChartView *>(name))
        return view->chart();
    return nullptr;
}

void OverviewPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_poll->isActive()) {
        m_poll->start();
        poll(); // what changed while it was hidden shows at once
    }
}

void OverviewPage::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_poll->stop();
    // A chart's tooltip floated on over the page a click opened.
    hideTip();
}

void OverviewPage::refresh()
{
    m_mark.clear();
    load();
}

void OverviewPage::load()
{
    if (m_loading) {
        m_reloadWanted = true;
        return;
    }
    m_loading = true;
    m_reloadWanted = false;
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    deliverResult(
        this, m_pool->run([grace = overdueGraceHoursSetting()](QSqlDatabase &db) {
            return loadOverview(db, grace);
        }),
        [this, timer](const OverviewFigures &f) {
            m_loading = false;
            m_lastLoadMs = timer->elapsed();
            m_sinceLoad.start();
            m_error->hide();
            showFigures(f);
            emit loaded();
            if (m_reloadWanted)
                load();
        },
        [this](const QString &message) {
            m_loading = false;
            m_error->setText(tr("The overview could not be read: %1").arg(message));
            m_error->show();
            emit statusMessage(m_error->text());
        },
        m_loadRequest.next());
}

void OverviewPage::poll()
{
    deliverResult(
        this, m_pool->run([](QSqlDatabase &db) { return overviewChangeMark(db); }),
        [this](const QString &mark) {
            // The desk's grace changed on the Subscriptions page: the count with it.
            if (m_loaded && !m_loading && m_figures.overdueGraceHours != overdueGraceHoursSetting())
                return load();
            if (mark.isEmpty() || mark == m_mark) {
                if (m_loaded)
                    showTiles(); // "3 min ago" moves on by itself
                return;
            }
            const bool first = m_mark.isEmpty();
            const qint64 gap = std::max<qint64>(kMinReloadGap, 5 * m_lastLoadMs);
            if (!first && m_sinceLoad.isValid() && m_sinceLoad.elapsed() < gap)
                return; // the next poll sees the same difference and reads then
            m_mark = mark;
            // The first mark only sets the base line: the figures were read just before it.
            if (!first || (!m_loaded && !m_loading))
                load();
        },
        [this](const QString &message) { emit statusMessage(message); }, m_pollRequest.next());
}

void OverviewPage::showFigures(const OverviewFigures &f)
{
    m_figures = f;
    m_loaded = true;
    const QLocale locale;
    m_heading->setText(tr("Days are UTC days; the charts cover %1 – %2 (UTC). Click a figure "
                          "or a bar to open the list behind it.")
                           .arg(locale.toString(f.firstDay, u"d MMM"_qs),
                               locale.toString(f.todayUtc, u"d MMM yyyy"_qs)));
    showTiles();
    // Once the figures' new texts are laid out: they set the tiles' widths.
    QTimer::singleShot(0, this, &OverviewPage::reflowTiles);
    showRenewalsPerDay();
    showDeliveries();
    showCasesPerDay();
    showOpenByReason();
    showOpenByAge();
}

void OverviewPage::showTiles()
{
    const OverviewFigures &f = m_figures;
    const QLocale locale;
    const QDate tomorrow = f.todayUtc.addDays(1);
    const QDate monthStart(f.todayUtc.year(), f.todayUtc.month(), 1);

    auto currencyLines = [&](OverviewTile *tile, const QString &prefix,
                             const QVector<CurrencyTotal> &totals, const QDate &from) {
        tile->clearFigures();
        if (totals.isEmpty()) {
            tile->addFigure(prefix + u"-none"_qs, tr("none yet"),
                tr("No renewal paid in this period."),
                [this, from, tomorrow] { emit ledgerRequested(from, tomorrow, {}, {}); });
            return;
        }
        // Largest first by count: amounts of different currencies do not compare.
        QVector<CurrencyTotal> sorted = totals;
        std::stable_sort(sorted.begin(), sorted.end(),
            [](const CurrencyTotal &a, const CurrencyTotal &b) { return a.renewals > b.renewals; });
        for (int i = 0; i < sorted.size() && i < kMaxCurrencyLines; ++i) {
            const CurrencyTotal &t = sorted[i];
            tile->addFigure(prefix + u'-' + t.currency,
                tr("%1 · %2").arg(format::money(t.amountMinor, t.currency),
                    t.renewals == 1 ? tr("1 renewal")
                                    : tr("%1 renewals").arg(locale.toString(t.renewals))),
                tr("%1 renewals paid in %2, %3 – %4 (UTC days); click for the ledger")
                    .arg(locale.toString(t.renewals), t.currency,
                        locale.toString(from, u"d MMM"_qs),
                        locale.toString(f.todayUtc, u"d MMM yyyy"_qs)),
                [this, from, tomorrow, c = t.currency] {
                    emit ledgerRequested(from, tomorrow, {}, c);
                });
        }
        if (sorted.size() > kMaxCurrencyLines)
            tile->addFigure(
                prefix + u"-more"_qs,
                tr("and %n more currencies", nullptr, int(sorted.size() - kMaxCurrencyLines)),
                tr("Every currency in the ledger"),
                [this, from, tomorrow] { emit ledgerRequested(from, tomorrow, {}, {}); }, false,
                false);
    };
    m_today->setTitle(tr("Renewals today (%1, UTC)").arg(locale.toString(f.todayUtc, u"d MMM"_qs)));
    currencyLines(m_today, u"today"_qs, f.renewalsToday, f.todayUtc);
    m_month->setTitle(
        tr("Renewals this month (%1, UTC)").arg(locale.toString(f.todayUtc, u"MMMM yyyy"_qs)));
    currencyLines(m_month, u"month"_qs, f.renewalsThisMonth, monthStart);
    if (f.renewalsAfterClose > 0)
        m_month->addFigure(
            u"after-close"_qs, tr("%n recorded after close", nullptr, int(f.renewalsAfterClose)),
            tr("Renewals paid in a closed month and recorded after its close: not in its close "
               "report. Click for the ledger of %1 %2")
                .arg(f.firstProviderAfterClose,
                    locale.toString(f.firstMonthAfterClose, u"MMMM yyyy"_qs)),
            [this, m = f.firstMonthAfterClose, p = f.firstProviderAfterClose] {
                emit ledgerRequested(m, m.addMonths(1), p, {});
            },
            true, false);

    m_cases->clearFigures();
    m_cases->addFigure(
        u"open-cases-count"_qs, locale.toString(f.openCases),
        tr("Open reconciliation cases; click for the queue"),
        [this] { emit openCasesRequested({}, -1, -1); }, f.openCases > 0);
    if (f.oldestOpenCaseId > 0) {
        const QString age = format::age(f.oldestOpenSince);
        m_cases->addFigure(
            u"oldest-case"_qs, tr("oldest %1 (case %2)").arg(age).arg(f.oldestOpenCaseId),
            tr("Opened %1 (%2); click to open it")
                .arg(format::localDateTime(f.oldestOpenSince),
                    format::utcTooltip(f.oldestOpenSince)),
            [this, id = f.oldestOpenCaseId] { emit caseOpenRequested(id); }, false, false);
    } else {
        m_cases->addFigure(u"oldest-case"_qs, tr("nothing waiting"), {}, nullptr, false, false);
    }

    m_overdue->clearFigures();
    const QString grace = f.overdueGraceHours
        ? tr("a grace of %1 h (the desk's setting)").arg(*f.overdueGraceHours)
        : tr("each provider's grace");
    m_overdue->addFigure(
        u"overdue-count"_qs, locale.toString(f.overdueSubscriptions),
        tr("Active subscriptions whose period ended more than %1 ago with no renewal recorded: "
           "the payment failed at the provider or the renewal never reached us. Import or fetch "
           "a statement, or attach a snapshot. Click for them.")
            .arg(grace),
        [this] { emit overdueRequested(); }, f.overdueSubscriptions > 0);
    QStringList byProvider;
    for (const KeyCount &k : f.overdueByProvider)
        byProvider << tr("%1 %2").arg(k.key, locale.toString(k.count));
    m_overdue->addFigure(u"overdue-providers"_qs,
        byProvider.isEmpty() ? tr("every renewal arrived") : onLines(byProvider, 3), {}, nullptr,
        false, false);

    m_outbox->clearFigures();
    m_outbox->addFigure(u"outbox-pending"_qs,
        tr("%1 pending").arg(locale.toString(f.outboxPending)),
        tr("Intents not yet delivered, not failed; click for the outbox"),
        [this] { emit outboxRequested(u"undelivered"_qs); });
    m_outbox->addFigure(
        u"outbox-failing"_qs, tr("%1 failing").arg(locale.toString(f.outboxFailing)),
        tr("Intents whose delivery failed and is being retried; click for them"),
        [this] { emit outboxRequested(u"failed"_qs); }, f.outboxFailing > 0);
    // A growing pending count means something only with whether anyone publishes.
    const OutboxPublisherState publisher
        = outboxPublisherState(f.outboxPublishers, f.outboxLastPublishedAt, f.readAt);
    m_outbox->addFigure(u"outbox-publisher"_qs, publisher.text, publisher.toolTip, nullptr,
        publisher.stalled && f.outboxPending + f.outboxFailing > 0, false);

    m_lastDelivery->clearFigures();
    if (f.lastDeliveryAt.isValid()) {
        m_lastDelivery->addFigure(u"last-delivery-age"_qs,
            tr("%1 ago").arg(format::age(f.lastDeliveryAt)),
            tr("Received %1 (%2); click for the inbox")
                .arg(format::localDateTime(f.lastDeliveryAt), format::utcTooltip(f.lastDeliveryAt)),
            [this] { emit inboxRequested({}, {}); });
        m_lastDelivery->addFigure(u"last-delivery-at"_qs, format::localDateTime(f.lastDeliveryAt),
            format::utcTooltip(f.lastDeliveryAt), nullptr, false, false);
    } else {
        m_lastDelivery->addFigure(u"last-delivery-age"_qs, tr("none yet"),
            tr("No webhook delivery was received"), [this] { emit inboxRequested({}, {}); });
    }
    // Invalid deliveries open no case: this is where they ask for a person.
    m_lastDelivery->addFigure(
        u"invalid-to-review"_qs, tr("%n invalid to review", nullptr, int(f.invalidToReview)),
        tr("Deliveries whose payload could not be read and that nobody has marked reviewed or "
           "re-run; click for them"),
        [this] { emit inboxRequested(u"invalid_to_review"_qs, {}); }, f.invalidToReview > 0, false);
    showBackupAge();
}

void OverviewPage::setBackupAge(const BackupAgeStatus &status)
{
    m_backupAge = status;
    // The tile's figures are laid out again together (a figure added alone would repeat).
    if (m_loaded)
        showTiles();
}

void OverviewPage::showBackupAge()
{
    // The last of the tile's lines: when the books were last copied somewhere safe. Red (and
    // saying what to do in its tooltip) when there is none, or it is older than the setting;
    // set a little apart from the deliveries' lines it is not one of.
    if (m_backupAge.level == BackupAgeStatus::Level::Unknown)
        return;
    QPushButton *line = m_lastDelivery->addFigure(
        u"last-backup"_qs, m_backupAge.text,
        m_backupAge.toolTip + u"\n"_qs + tr("Click to back up now."),
        [this] { emit backupRequested(); }, m_backupAge.warning(), false);
    line->setStyleSheet(line->styleSheet() + u" QPushButton { margin-top: 6px; }"_qs);
}

QCategoryAxis *OverviewPage::dayAxis(bool numbersOnly) const
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

void OverviewPage::roomForLastDay(QChart *chart, QCategoryAxis *days)
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

QString OverviewPage::daysTitle(const QString &what) const
{
    const QLocale locale;
    return tr("%1, %2 – %3 (UTC days)")
        .arg(what, locale.toString(m_figures.firstDay, u"d MMM"_qs),
            locale.toString(m_figures.todayUtc, u"d MMM"_qs));
}

void OverviewPage::showRenewalsPerDay()
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
    chart->addSeries(series);
    QCategoryAxis *x = dayAxis(false);
    chart->addAxis(x, Qt::AlignBottom);
    roomForLastDay(chart, x);
    series->attachAxis(x);
    auto *y = countAxis(*std::max_element(dayTotals.cbegin(), dayTotals.cend()));
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    chart->legend()->setVisible(!f.providers.isEmpty());
    if (f.providers.isEmpty())
        chart->setTitle(chart->title() + tr(": none in 30 days"));
}

void OverviewPage::showDeliveries()
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
        if (outcome.isEmpty() && n == 0)
            continue; // "not processed yet" only when there is some
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
            showTip(QObject::tr("%1 deliveries received in the last 30 UTC days; click for "
                                "them in the Inbox")
                        .arg(label),
                m_deliveriesView);
        });
        series->append(set);
    }
    chart->addSeries(series);
    QBarCategoryAxis *y = namesAxis(categories);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    auto *x = countAxis(counts.isEmpty() ? 0 : *std::max_element(counts.cbegin(), counts.cend()));
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    chart->legend()->setVisible(false);
}

void OverviewPage::showCasesPerDay()
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
    chart->addSeries(series);
    QCategoryAxis *x = dayAxis(true); // the narrow chart: the days of the month only
    chart->addAxis(x, Qt::AlignBottom);
    roomForLastDay(chart, x);
    series->attachAxis(x);
    auto *y = splitCountAxis(maxOpened, maxClosed);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
}

std::optional<std::pair<QDate, bool>> OverviewPage::casesColumnAt(const QPoint &viewportPos) const
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

bool OverviewPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_scrollViewport && event->type() == QEvent::Resize)
        reflowTiles();
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
    return QWidget::eventFilter(watched, event);
}

void OverviewPage::showOpenByReason()
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
        showTip(QObject::tr("%1: click for these cases").arg(codes.value(index)), m_reasonView);
    });
    series->append(set);
    chart->addSeries(series);
    if (categories.isEmpty()) {
        categories << tr("no open case");
        *set << 0;
    }
    QBarCategoryAxis *y = namesAxis(categories);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    auto *x = countAxis(max);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    chart->legend()->setVisible(false);
}

void OverviewPage::showOpenByAge()
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
            showTip(
                QObject::tr("Open cases by time since first seen, %1; click for them").arg(label),
                m_ageView);
        });
        series->append(set);
    }
    chart->addSeries(series);
    QBarCategoryAxis *y = namesAxis(categories);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    auto *x = countAxis(max);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    chart->legend()->setVisible(false);
}

} // namespace rd::ui
