#include "ui/widgets/timelinewidget.h"

#include "ui/models/format.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QTimeZone>
#include <QToolTip>

namespace rd::ui {
namespace {

const QColor kPaid(0x3b, 0x7d, 0xd8);
const QColor kWarning(0xd9, 0x6c, 0x00);
const QColor kPending(0xb0, 0x20, 0x20);

QDateTime toDateTime(qint64 micros)
{
    return QDateTime::fromMSecsSinceEpoch(micros / 1000, QTimeZone::utc());
}

} // namespace

TimelineWidget::TimelineWidget(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setMouseTracking(true);
}

QSize TimelineWidget::sizeHint() const
{
    return {600, fontMetrics().height() * 8 + 16};
}

QSize TimelineWidget::minimumSizeHint() const
{
    return {200, sizeHint().height()};
}

void TimelineWidget::setSpans(QVector<Span> paid, QVector<Span> pending)
{
    std::sort(paid.begin(), paid.end(),
        [](const Span &a, const Span &b) { return a.startMicros < b.startMicros; });
    if (paid.size() > kMaxBars)
        paid = paid.mid(paid.size() - kMaxBars);
    m_paid = std::move(paid);
    m_pending = std::move(pending);
    m_irregularities = 0;
    for (int i = 1; i < m_paid.size(); ++i) {
        if (m_paid[i].startMicros != m_paid[i - 1].endMicros)
            ++m_irregularities;
    }
    update();
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    m_hits.clear();
    const QFontMetrics fm = fontMetrics();
    const int lineH = fm.height();
    const QRectF area = QRectF(rect()).adjusted(8, 4, -8, -4);
    if (m_paid.isEmpty() && m_pending.isEmpty()) {
        p.setPen(palette().color(QPalette::Disabled, QPalette::Text));
        p.drawText(area, Qt::AlignCenter, tr("No billing periods yet"));
        return;
    }
    qint64 lo = std::numeric_limits<qint64>::max();
    qint64 hi = std::numeric_limits<qint64>::min();
    for (const auto *list : {&m_paid, &m_pending}) {
        for (const Span &s : *list) {
            lo = std::min(lo, s.startMicros);
            hi = std::max(hi, s.endMicros);
        }
    }
    if (hi <= lo)
        hi = lo + 1;
    const double span = double(hi - lo);
    auto x = [&](qint64 t) { return area.left() + (double(t - lo) / span) * area.width(); };

    // Lanes: paid periods on lane 0 (an overlapping one drops to lane 1), pending on lane 2.
    const double barH = lineH * 1.4;
    const double laneTop[3] = {area.top() + lineH * 1.2, area.top() + lineH * 1.2 + barH + 3,
        area.top() + lineH * 1.2 + 2 * (barH + 3)};

    // Axis: a tick and label at each month start that fits.
    p.setPen(palette().color(QPalette::Mid));
    QDate month = toDateTime(lo).toLocalTime().date();
    month = QDate(month.year(), month.month(), 1);
    double lastLabelRight = -1e9;
    const QLocale locale;
    for (int guard = 0; guard < 400; ++guard) {
        const QDateTime at(month, QTime(0, 0));
        const qint64 t = at.toMSecsSinceEpoch() * 1000;
        if (t > hi)
            break;
        if (t >= lo) {
            const double px = x(t);
            p.setPen(palette().color(QPalette::Mid));
            p.drawLine(QPointF(px, area.top() + lineH), QPointF(px, laneTop[2] + barH));
            const QString text = month.month() == 1 || lastLabelRight < 0
                ? locale.toString(month, u"MMM yy"_qs)
                : locale.toString(month, u"MMM"_qs);
            if (px > lastLabelRight + 6) {
                p.setPen(palette().color(QPalette::WindowText));
                p.drawText(QPointF(px + 2, area.top() + fm.ascent()), text);
                lastLabelRight = px + fm.horizontalAdvance(text) + 2;
            }
        }
        month = month.addMonths(1);
    }

    auto drawBar = [&](const QRectF &r, const QBrush &brush, const QColor &border,
                       const QString &label, const QString &tooltip) {
        QPainterPath path;
        path.addRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
        p.fillPath(path, brush);
        p.setPen(QPen(border, 1));
        p.drawPath(path);
        if (brush.style() == Qt::SolidPattern) {
            if (fm.horizontalAdvance(label) + 6 < r.width()) {
                p.setPen(Qt::white);
                p.drawText(r, Qt::AlignCenter, label);
            }
        } else if (!label.isEmpty()) {
            // A hatched bar: the words go on a plain backing so they stay readable, kept
            // inside the widget even when the bar is narrow or at the right edge.
            const double w = fm.horizontalAdvance(label) + 10;
            double left = std::clamp(r.center().x() - w / 2, 0.0, width() - w);
            const QRectF back(left, r.top() + 2, w, r.height() - 4);
            QPainterPath pill;
            pill.addRoundedRect(back, 3, 3);
            p.fillPath(pill, palette().color(QPalette::Base));
            p.setPen(border);
            p.drawText(back, Qt::AlignCenter, label);
        }
        m_hits.append({r, tooltip});
    };

    for (int i = 0; i < m_paid.size(); ++i) {
        const Span &s = m_paid[i];
        const bool overlaps = i > 0 && s.startMicros < m_paid[i - 1].endMicros;
        const double top = overlaps ? laneTop[1] : laneTop[0];
        const QRectF r(
            x(s.startMicros), top, std::max(2.0, x(s.endMicros) - x(s.startMicros)), barH);
        drawBar(r, overlaps ? QBrush(kWarning) : QBrush(kPaid),
            overlaps ? kWarning.darker(130) : kPaid.darker(130), s.label, s.tooltip);
        if (i > 0 && s.startMicros != m_paid[i - 1].endMicros) {
            const qint64 a = std::min(m_paid[i - 1].endMicros, s.startMicros);
            const qint64 b = std::max(m_paid[i - 1].endMicros, s.startMicros);
            const QRectF g(x(a), laneTop[0] - 2, std::max(3.0, x(b) - x(a)), barH * 2 + 7);
            QColor fill = kWarning;
            fill.setAlpha(60);
            p.fillRect(g, fill);
            p.setPen(QPen(kWarning, 2));
            p.drawRect(g);
            const QString text = format::gapDescription(
                toDateTime(m_paid[i - 1].endMicros), toDateTime(s.startMicros));
            m_hits.append({g, text});
            p.setPen(kWarning.darker(140));
            QFont bold = font();
            bold.setBold(true);
            p.setFont(bold);
            p.drawText(QPointF(g.left() + 2, laneTop[2] + barH + fm.ascent() + 2), u"⚠ "_qs + text);
            p.setFont(font());
        }
    }
    // Legend, bottom right.
    {
        const QString paidText = tr("paid period");
        const QString pendText = tr("rejected renewal (open case)");
        const QString warnText = tr("gap / overlap");
        const double y = area.bottom() - fm.height();
        double lx = area.right() - (fm.horizontalAdvance(paidText + pendText + warnText) + 3 * 30);
        auto swatch = [&](const QBrush &b, const QColor &border, const QString &text) {
            const QRectF sw(lx, y + 2, 14, fm.height() - 4);
            p.fillRect(sw, b);
            p.setPen(border);
            p.drawRect(sw);
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(QPointF(lx + 18, y + fm.ascent()), text);
            lx += 18 + fm.horizontalAdvance(text) + 12;
        };
        swatch(QBrush(kPaid), kPaid.darker(130), paidText);
        swatch(QBrush(kPending, Qt::BDiagPattern), kPending, pendText);
        QColor fill = kWarning;
        fill.setAlpha(60);
        swatch(QBrush(fill), kWarning, warnText);
    }
    for (const Span &s : std::as_const(m_pending)) {
        const QRectF r(
            x(s.startMicros), laneTop[2], std::max(2.0, x(s.endMicros) - x(s.startMicros)), barH);
        QBrush hatch(kPending, Qt::BDiagPattern);
        drawBar(r, hatch, kPending, s.label, s.tooltip);
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
