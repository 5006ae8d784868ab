#include "ui/widgets/timelinewidget.h"

#include "ui/models/format.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QTimeZone>
#include <QToolTip>

#include <algorithm>
#include <limits>

namespace rd::ui {
namespace {

const QColor kPaid(0x3b, 0x7d, 0xd8);
const QColor kWarning(0xd9, 0x6c, 0x00);
const QColor kPending(0xb0, 0x20, 0x20);
constexpr double kMargin = 8;

QDateTime toDateTime(qint64 micros)
{
    return QDateTime::fromMSecsSinceEpoch(micros / 1000, QTimeZone::utc());
}

QColor bandFill()
{
    QColor fill = kWarning;
    fill.setAlpha(60);
    return fill;
}

/// The widget's rows, top to bottom: month labels, the paid lane, a second paid lane for a
/// period that overlaps its predecessor (only when there is one), the pending renewals'
/// labels, the pending lane, the bands' labels, the legend.
struct Rows
{
    double barH = 0;
    double axis = 0;
    double lane0 = 0;
    double lane1 = 0; ///< == lane0 when no paid period overlaps another
    double pendingLabel = 0;
    double pendingLane = 0;
    double caption = 0;
    double legend = 0;
    double bottom = 0;
};

Rows rows(double lineH, bool paidOverlap)
{
    Rows r;
    r.barH = std::round(lineH * 1.4);
    r.axis = 4;
    r.lane0 = r.axis + std::round(lineH * 1.2);
    r.lane1 = paidOverlap ? r.lane0 + r.barH + 3 : r.lane0;
    r.pendingLabel = r.lane1 + r.barH + 3;
    r.pendingLane = r.pendingLabel + lineH + 1;
    r.caption = r.pendingLane + r.barH + 3;
    r.legend = r.caption + lineH + 6;
    r.bottom = r.legend + lineH + 4;
    return r;
}

} // namespace

TimelineWidget::TimelineWidget(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setMouseTracking(true);
}

QSize TimelineWidget::sizeHint() const
{
    return {600, int(std::ceil(rows(fontMetrics().height(), hasPaidOverlap()).bottom))};
}

QSize TimelineWidget::minimumSizeHint() const
{
    return {200, sizeHint().height()};
}

bool TimelineWidget::hasPaidOverlap() const
{
    for (int i = 1; i < m_paid.size(); ++i) {
        if (m_paid[i].startMicros < m_paid[i - 1].endMicros)
            return true;
    }
    return false;
}

void TimelineWidget::setSpans(
    QVector<Span> paid, QVector<Span> pending, std::optional<Span> current)
{
    std::sort(paid.begin(), paid.end(),
        [](const Span &a, const Span &b) { return a.startMicros < b.startMicros; });
    if (paid.size() > kMaxBars)
        paid = paid.mid(paid.size() - kMaxBars);
    m_paid = std::move(paid);
    m_pending = std::move(pending);
    m_current = std::move(current);
    m_irregularities = 0;
    for (int i = 1; i < m_paid.size(); ++i) {
        if (m_paid[i].startMicros != m_paid[i - 1].endMicros)
            ++m_irregularities;
    }
    updateGeometry();
    update();
}

TimelineWidget::Geometry TimelineWidget::geometry(QSize size) const
{
    Geometry g;
    const QFontMetricsF fm(font());
    const double lineH = fm.height();
    const Rows r = rows(lineH, hasPaidOverlap());
    const double width = std::max(2 * kMargin + 1, double(size.width()));
    g.plot = QRectF(kMargin, r.lane0, width - 2 * kMargin, r.pendingLane + r.barH - r.lane0);

    qint64 lo = std::numeric_limits<qint64>::max();
    qint64 hi = std::numeric_limits<qint64>::min();
    auto extend = [&](const Span &s) {
        lo = std::min(lo, s.startMicros);
        hi = std::max(hi, s.endMicros);
    };
    for (const Span &s : m_paid)
        extend(s);
    for (const Span &s : m_pending)
        extend(s);
    if (m_current)
        extend(*m_current);
    if (lo > hi)
        return g; // nothing to draw
    g.lo = lo;
    g.hi = hi > lo ? hi : lo + 1;

    // A bar from `start` to `end` on a lane, at least 2 px wide and never past the plot.
    auto bar = [&](qint64 start, qint64 end, double top) {
        const double w = std::max(2.0, g.x(end) - g.x(start));
        const double left = std::min(g.x(start), g.plot.right() - w);
        return QRectF(left, top, w, r.barH);
    };

    // The axis: a tick at each month start, labelled where the label fits. The year goes on
    // the first label and on the first label of each new year.
    {
        QDate month = toDateTime(g.lo).toLocalTime().date();
        month = QDate(month.year(), month.month(), 1);
        double lastRight = -1e9;
        int lastYear = 0;
        const QLocale locale;
        for (int guard = 0; guard < 400; ++guard) {
            const qint64 t = QDateTime(month, QTime(0, 0)).toMSecsSinceEpoch() * 1000;
            if (t > g.hi)
                break;
            if (t >= g.lo) {
                Tick tick;
                tick.x = g.x(t);
                const QString text
                    = locale.toString(month, month.year() != lastYear ? u"MMM yyyy"_qs : u"MMM"_qs);
                const QRectF label(tick.x + 2, r.axis, fm.horizontalAdvance(text), lineH);
                if (label.left() > lastRight + 8 && label.right() <= width - 2) {
                    tick.label = text;
                    tick.labelRect = label;
                    lastRight = label.right();
                    lastYear = month.year();
                }
                g.ticks.append(tick);
            }
            month = month.addMonths(1);
        }
    }

    for (int i = 0; i < m_paid.size(); ++i) {
        const Span &s = m_paid[i];
        const bool overlaps = i > 0 && s.startMicros < m_paid[i - 1].endMicros;
        const QRectF rect = bar(s.startMicros, s.endMicros, overlaps ? r.lane1 : r.lane0);
        g.paid.append(rect);
        g.paidLabels.append(fm.horizontalAdvance(s.label) + 6 < rect.width() ? rect : QRectF());
    }
    const bool currentIsPaid
        = m_current && std::any_of(m_paid.cbegin(), m_paid.cend(), [&](const Span &s) {
              return s.startMicros == m_current->startMicros && s.endMicros == m_current->endMicros;
          });
    if (m_current && !currentIsPaid)
        g.current = bar(m_current->startMicros, m_current->endMicros, r.lane0);

    // The pending renewals, each with its label above it (never on it), inside the widget.
    for (const Span &s : m_pending) {
        const QRectF rect = bar(s.startMicros, s.endMicros, r.pendingLane);
        g.pending.append(rect);
        const QString text = fm.elidedText(s.label, Qt::ElideRight, g.plot.width() - 4);
        const double w = fm.horizontalAdvance(text) + 4;
        // A little in from the bar's start, clear of a band's border ending there.
        const double left = std::clamp(rect.left() + 3, g.plot.left(), g.plot.right() - w);
        g.pendingLabels.append(QRectF(left, r.pendingLabel, w, lineH));
        g.pendingTexts.append(text);
    }

    // Bands: between the current period's end and each pending renewal's start (first, so
    // their labels win the room), then between consecutive paid periods.
    QFont bold = font(); // the bands' labels are bold
    bold.setBold(true);
    const QFontMetricsF bfm(bold);
    const double bandTop = r.lane0 - 2;
    const double bandBottom = r.pendingLane + r.barH + 2;
    auto addBand = [&](qint64 previousEnd, qint64 nextStart, const QString &what) {
        Band band;
        band.overlap = nextStart < previousEnd;
        band.fromMicros = std::min(previousEnd, nextStart);
        band.toMicros = std::max(previousEnd, nextStart);
        const double left = g.x(band.fromMicros);
        band.rect = QRectF(left, bandTop, g.x(band.toMicros) - left, bandBottom - bandTop);
        const QString length
            = format::gapDescription(toDateTime(previousEnd), toDateTime(nextStart));
        const QString dates
            = format::period(toDateTime(band.fromMicros), toDateTime(band.toMicros));
        band.tooltip = what.arg(length, dates);
        const QString longText = u"⚠ %1 (%2)"_qs.arg(length, dates);
        band.label = bfm.horizontalAdvance(longText) + 4 <= g.plot.width()
            ? longText
            : bfm.elidedText(u"⚠ "_qs + length, Qt::ElideRight, g.plot.width() - 4);
        const double w = bfm.horizontalAdvance(band.label) + 4;
        const double labelLeft
            = std::clamp(band.rect.center().x() - w / 2, g.plot.left(), g.plot.right() - w);
        band.labelRect = QRectF(labelLeft, r.caption, w, lineH);
        for (const Band &other : std::as_const(g.bands)) {
            if (!other.labelRect.isNull() && other.labelRect.intersects(band.labelRect)) {
                band.labelRect = {}; // no room: the tooltip still says it
                break;
            }
        }
        g.bands.append(band);
    };
    const std::optional<qint64> currentEnd = m_current
        ? std::optional(m_current->endMicros)
        : (m_paid.isEmpty() ? std::nullopt : std::optional(m_paid.last().endMicros));
    if (currentEnd) {
        for (const Span &s : m_pending) {
            if (s.startMicros == *currentEnd)
                continue;
            // One that continues another pending renewal leaves no gap of its own.
            if (std::any_of(m_pending.cbegin(), m_pending.cend(),
                    [&](const Span &o) { return o.endMicros == s.startMicros; }))
                continue;
            addBand(*currentEnd, s.startMicros,
                s.startMicros > *currentEnd
                    ? tr("Not paid: %1 between the current period's end and the rejected "
                         "renewal's start (%2)")
                    : tr("The rejected renewal starts before the current period ends: %1 "
                         "(%2)"));
        }
    }
    for (int i = 1; i < m_paid.size(); ++i) {
        if (m_paid[i].startMicros != m_paid[i - 1].endMicros)
            addBand(m_paid[i - 1].endMicros, m_paid[i].startMicros,
                m_paid[i].startMicros > m_paid[i - 1].endMicros
                    ? tr("Not paid: %1 between two paid periods (%2)")
                    : tr("Paid twice: %1 where two paid periods overlap (%2)"));
    }

    // The legend, bottom right; shorter words when the widget is narrow.
    {
        auto legendWidth = [&](const QStringList &texts) {
            double w = 0;
            for (const QString &t : texts)
                w += 18 + fm.horizontalAdvance(t) + 12;
            return w - 12;
        };
        const double full = legendWidth(
            {tr("paid period"), tr("rejected renewal (open case)"), tr("gap / overlap")});
        g.shortLegend = full > g.plot.width();
        const double w
            = g.shortLegend ? legendWidth({tr("paid"), tr("rejected"), tr("gap/overlap")}) : full;
        g.legend = QRectF(std::max(g.plot.left(), g.plot.right() - w), r.legend, w, lineH);
    }
    return g;
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    m_hits.clear();
    const QFontMetrics fm = fontMetrics();
    if (m_paid.isEmpty() && m_pending.isEmpty() && !m_current) {
        p.setPen(palette().color(QPalette::Disabled, QPalette::Text));
        p.drawText(
            QRectF(rect()).adjusted(8, 4, -8, -4), Qt::AlignCenter, tr("No billing periods yet"));
        return;
    }
    const Geometry g = geometry(size());
    QFont bold = font();
    bold.setBold(true);

    for (const Tick &tick : g.ticks) {
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(QPointF(tick.x, g.plot.top() - 2), QPointF(tick.x, g.plot.bottom()));
        if (!tick.label.isEmpty()) {
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(tick.labelRect, Qt::AlignLeft | Qt::AlignVCenter, tick.label);
        }
    }

    // Bands filled under the bars, outlined over them (an overlap lies across a paid bar); a
    // band narrower than 3 px is widened about its centre to show.
    QVector<QRectF> shownBands;
    for (const Band &band : g.bands) {
        QRectF shown = band.rect;
        if (shown.width() < 3)
            shown.adjust(-(3 - shown.width()) / 2, 0, (3 - shown.width()) / 2, 0);
        p.fillRect(shown, bandFill());
        shownBands.append(shown);
        m_hits.append({shown, band.tooltip});
    }

    auto drawBar = [&](const QRectF &r, const QBrush &brush, const QPen &border) {
        QPainterPath path;
        path.addRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
        p.fillPath(path, brush);
        p.setPen(border);
        p.drawPath(path);
    };
    for (int i = 0; i < m_paid.size(); ++i) {
        const bool overlaps = i > 0 && m_paid[i].startMicros < m_paid[i - 1].endMicros;
        const QColor colour = overlaps ? kWarning : kPaid;
        drawBar(g.paid[i], colour, QPen(colour.darker(130), 1));
        if (!g.paidLabels[i].isNull()) {
            p.setPen(Qt::white);
            p.drawText(g.paidLabels[i], Qt::AlignCenter, m_paid[i].label);
        }
        m_hits.append({g.paid[i], m_paid[i].tooltip});
    }
    if (!g.current.isNull()) {
        QColor fill = kPaid;
        fill.setAlpha(40);
        drawBar(g.current, fill, QPen(kPaid, 1, Qt::DashLine));
        const QString text = tr("current period");
        if (fm.horizontalAdvance(text) + 6 < g.current.width()) {
            p.setPen(kPaid.darker(150));
            p.drawText(g.current, Qt::AlignCenter, text);
        }
        m_hits.append({g.current,
            m_current->tooltip.isEmpty()
                ? tr("Current period %1")
                      .arg(format::period(
                          toDateTime(m_current->startMicros), toDateTime(m_current->endMicros)))
                : m_current->tooltip});
    }
    p.setPen(QPen(kWarning, 2));
    p.setBrush(Qt::NoBrush);
    for (const QRectF &shown : std::as_const(shownBands))
        p.drawRect(shown);

    for (int i = 0; i < m_pending.size(); ++i) {
        drawBar(g.pending[i], QBrush(Qt::white), QPen(Qt::NoPen));
        drawBar(g.pending[i], QBrush(kPending, Qt::BDiagPattern), QPen(kPending, 1.5));
        // On a narrow widget the words may lie across a band: a backing keeps them readable.
        QColor backing = palette().color(QPalette::Window);
        backing.setAlpha(210);
        p.fillRect(g.pendingLabels[i], backing);
        p.setPen(kPending);
        p.drawText(g.pendingLabels[i], Qt::AlignLeft | Qt::AlignVCenter, g.pendingTexts[i]);
        m_hits.append({g.pending[i], m_pending[i].tooltip});
        m_hits.append({g.pendingLabels[i], m_pending[i].tooltip});
    }

    p.setFont(bold);
    for (const Band &band : g.bands) {
        if (band.labelRect.isNull())
            continue;
        p.setPen(kWarning.darker(140));
        p.drawText(band.labelRect, Qt::AlignLeft | Qt::AlignVCenter, band.label);
        m_hits.append({band.labelRect, band.tooltip});
    }
    p.setFont(font());

    // Legend.
    {
        double lx = g.legend.left();
        auto swatch = [&](const QBrush &b, const QColor &border, const QString &text) {
            const QRectF sw(lx, g.legend.top() + 2, 14, g.legend.height() - 4);
            p.fillRect(sw, b);
            p.setPen(border);
            p.drawRect(sw);
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(QPointF(lx + 18, g.legend.top() + fm.ascent()), text);
            lx += 18 + fm.horizontalAdvance(text) + 12;
        };
        swatch(QBrush(kPaid), kPaid.darker(130), g.shortLegend ? tr("paid") : tr("paid period"));
        swatch(QBrush(kPending, Qt::BDiagPattern), kPending,
            g.shortLegend ? tr("rejected") : tr("rejected renewal (open case)"));
        swatch(
            QBrush(bandFill()), kWarning, g.shortLegend ? tr("gap/overlap") : tr("gap / overlap"));
    }
}

bool TimelineWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        for (auto it = m_hits.crbegin(); it != m_hits.crend(); ++it) {
            if (it->rect.contains(help->pos())) {
                QToolTip::showText(help->globalPos(), it->tooltip, this);
                return true;
            }
        }
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    return QWidget::event(event);
}

} // namespace rd::ui
