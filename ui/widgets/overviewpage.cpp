#include "ui/widgets/overviewpage.h"

#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/outboxpublisher.h"
#include "ui/models/overduewatch.h"
#include "ui/widgets/overviewcharts.h"
#include "ui/widgets/overviewtile.h"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <array>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::OverviewPage)
};

} // namespace
namespace {

constexpr int kMaxCurrencyLines = 4;

/// A short list one item a line, at most `shown` of them and then how many more: its tile
/// stays narrow (three providers on one line made the Overview wider than a 1024-pixel window).
QString onLines(const QStringList &items, int shown)
{
    QStringList lines = items.mid(0, shown);
    if (items.size() > shown)
        lines << Tr::tr("and %1 more").arg(items.size() - shown);
    return lines.join(u'\n');
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
    , m_trouble(new OverviewTile(tr("Payment trouble")))
    , m_outbox(new OverviewTile(tr("Outbox")))
    , m_lastDelivery(new OverviewTile(tr("Last delivery received")))
    , m_charts(new OverviewCharts(this))
    , m_poll(new QTimer(this))
    , m_tiles(new QGridLayout)
{
    m_today->setObjectName(u"renewals-today"_qs);
    m_month->setObjectName(u"renewals-month"_qs);
    m_cases->setObjectName(u"open-cases"_qs);
    m_overdue->setObjectName(u"overdue"_qs);
    m_trouble->setObjectName(u"payment-trouble"_qs);
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
    flowTiles(int(tiles().size()));

    auto *charts = new QGridLayout;
    charts->setSpacing(8);
    // Twelfths: the reasons' names are the longest labels of the lower row and are read with
    // their counts ("Unknown subscription (12)"), so they get half of it; the age buckets'
    // names are the shortest, so that chart may be narrower than the others when the window is
    // (1024 pixels: the reasons would be elided).
    m_charts->ageView()->setMinimumWidth(190);
    charts->addWidget(m_charts->renewalsView(), 0, 0, 1, 7);
    charts->addWidget(m_charts->deliveriesView(), 0, 7, 1, 5);
    charts->addWidget(m_charts->casesView(), 1, 0, 1, 3);
    charts->addWidget(m_charts->reasonView(), 1, 3, 1, 6);
    charts->addWidget(m_charts->ageView(), 1, 9, 1, 3);
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

    // A bar opens the list behind it.
    connect(m_charts, &OverviewCharts::openCasesRequested, this, &OverviewPage::openCasesRequested);
    connect(
        m_charts, &OverviewCharts::casesOfDayRequested, this, &OverviewPage::casesOfDayRequested);
    connect(m_charts, &OverviewCharts::ledgerRequested, this, &OverviewPage::ledgerRequested);
    connect(m_charts, &OverviewCharts::inboxRequested, this, &OverviewPage::inboxRequested);
    m_poll->setInterval(kPollInterval);
    connect(m_poll, &QTimer::timeout, this, &OverviewPage::poll);
    load();
}

std::array<OverviewTile *, 7> OverviewPage::tiles() const
{
    return {m_today, m_month, m_cases, m_overdue, m_trouble, m_outbox, m_lastDelivery};
}

void OverviewPage::flowTiles(int rows)
{
    // One row of seven where they fit; else rows of four, else of three. A finance person on
    // a 1024-pixel screen reads every figure without scrolling sideways ("$578.00 · 12
    // renewals" in two currencies is wider than a seventh of it). `rows` is the tiles a row.
    if (m_tileRows == rows)
        return;
    m_tileRows = rows;
    const int perRow = rows;
    const auto order = tiles();
    for (int i = 0; i < int(order.size()); ++i) {
        m_tiles->removeWidget(order[i]);
        m_tiles->addWidget(order[i], i / perRow, i % perRow);
    }
    // The renewal tiles are the widest (an amount and a count per currency).
    for (int c = 0; c < int(order.size()); ++c)
        m_tiles->setColumnStretch(c, c >= perRow ? 0 : (c < 2 ? 3 : 2));
}

int OverviewPage::tilesWidth(int perRow) const
{
    const auto order = tiles();
    int width = (perRow - 1) * m_tiles->spacing();
    for (int c = 0; c < perRow; ++c) {
        int column = 0;
        for (int i = c; i < int(order.size()); i += perRow)
            column = std::max(column, order[i]->minimumSizeHint().width());
        width += column;
    }
    return width + 8; // the page's right margin, and a pixel or two of rounding
}

void OverviewPage::reflowTiles()
{
    if (!m_scrollViewport)
        return;
    const int count = int(tiles().size());
    const int available = m_scrollViewport->width();
    flowTiles(tilesWidth(count) <= available ? count : (tilesWidth(4) <= available ? 4 : 3));
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
    OverviewCharts::hideTip();
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
        this, m_pool->call(&loadOverview, overdueGraceHoursSetting()),
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
        this, m_pool->call(&overviewChangeMark),
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
    m_charts->show(f);
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
            const auto openLedger = [this, from, tomorrow, c = t.currency] {
                emit ledgerRequested(from, tomorrow, {}, c);
            };
            tile->addFigure(prefix + u'-' + t.currency,
                tr("%1 · %2").arg(format::money(t.amountMinor, t.currency),
                    t.renewals == 1 ? tr("1 renewal")
                                    : tr("%1 renewals").arg(locale.toString(t.renewals))),
                tr("%1 renewals paid in %2, %3 – %4 (UTC days); click for the ledger")
                    .arg(locale.toString(t.renewals), t.currency,
                        locale.toString(from, u"d MMM"_qs),
                        locale.toString(f.todayUtc, u"d MMM yyyy"_qs)),
                openLedger);
            // Net under gross once money went back in these days (#40): a line of its own, so
            // that the tile does not widen the page.
            if (t.moneyBackMinor != 0)
                tile->addFigure(prefix + u"-net-"_qs + t.currency,
                    tr("net %1").arg(format::money(t.amountMinor - t.moneyBackMinor, t.currency)),
                    tr("%1 refunded or disputed in these days (each by its own day); the net "
                       "is the gross less it")
                        .arg(format::money(t.moneyBackMinor, t.currency)),
                    openLedger, false, false);
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
    if (f.moneyBackAfterClose > 0)
        m_month->addFigure(
            u"money-back-after-close"_qs,
            tr("%n money back recorded after close", nullptr, int(f.moneyBackAfterClose)),
            tr("Refunds and disputes dated in a closed month and recorded after its close: that "
               "month's report stays as it was; the provider's next close counts and lists them. "
               "Click for the ledger of %1 %2")
                .arg(f.firstProviderMoneyBackAfterClose,
                    locale.toString(f.firstMonthMoneyBackAfterClose, u"MMMM yyyy"_qs)),
            [this, m = f.firstMonthMoneyBackAfterClose, p = f.firstProviderMoneyBackAfterClose] {
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

    // Payment trouble (#41): in grace (access kept, the provider retries or the grace runs)
    // and blocked (access off). The count opens the Payment trouble page.
    m_trouble->clearFigures();
    m_trouble->addFigure(
        u"trouble-count"_qs,
        tr("%1 in grace, %2 blocked").arg(locale.toString(f.inGrace), locale.toString(f.blocked)),
        tr("Subscriptions whose payment failed or whose period ended unpaid: in grace (access "
           "kept while the provider retries or the grace runs) and blocked (access off). Click "
           "for them."),
        [this] { emit paymentTroubleRequested(); }, f.blocked > 0);
    if (f.inGrace + f.blocked == 0)
        m_trouble->addFigure(
            u"trouble-note"_qs, tr("no payment trouble"), {}, nullptr, false, false);

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

std::optional<std::pair<QDate, bool>> OverviewPage::casesColumnAt(const QPoint &viewportPos) const
{
    return m_charts->casesColumnAt(viewportPos);
}

bool OverviewPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_scrollViewport && event->type() == QEvent::Resize)
        reflowTiles();
    return QWidget::eventFilter(watched, event);
}

} // namespace rd::ui
