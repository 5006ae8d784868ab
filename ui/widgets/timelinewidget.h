#pragma once

#include <QRectF>
#include <QVector>
#include <QWidget>

#include <optional>

namespace rd::ui {

/// A subscription's paid periods on a time axis: one bar per billing period; a gap or an
/// overlap between consecutive periods is painted as a band in a warning colour and labelled
/// with its length. A renewal waiting in an open case is drawn hatched where it would have
/// gone, its label above it, and the gap (or overlap) between the current period's end and its
/// start is a band of its own.
class TimelineWidget : public QWidget
{
    Q_OBJECT

public:
    struct Span
    {
        qint64 startMicros = 0;
        qint64 endMicros = 0;
        QString label; ///< amount, or the reason for a pending one
        QString tooltip;
    };

    /// A gap or an overlap, from `fromMicros` to `toMicros` (the earlier instant first).
    struct Band
    {
        QRectF rect;
        QRectF labelRect;
        QString label; ///< "⚠ gap of 31 days", or shorter when there is no room
        QString tooltip;
        bool overlap = false;
        qint64 fromMicros = 0;
        qint64 toMicros = 0;
    };

    /// A month start on the axis; `label` is empty when there is no room for it. The year is
    /// given on the first label and on the first one of each new year ("Jul 2026", "Aug", …,
    /// "Jan 2027").
    struct Tick
    {
        double x = 0;
        QString label;
        QRectF labelRect;
    };

    /// Where everything goes in a widget of a given size: computed in one place, painted by
    /// paintEvent, read by the tests.
    struct Geometry
    {
        QRectF plot; ///< the axis' extent: `lo` at its left edge, `hi` at its right edge
        qint64 lo = 0;
        qint64 hi = 1;
        QVector<Tick> ticks;
        QVector<QRectF> paid; ///< parallel to paidSpans()
        QVector<QRectF> paidLabels; ///< inside their bar; null when the label does not fit
        QRectF current; ///< the current period when it is not one of the paid ones, else null
        QVector<QRectF> pending; ///< parallel to pendingSpans()
        QVector<QRectF> pendingLabels; ///< above their bar, inside the widget
        QStringList pendingTexts; ///< the labels as drawn (elided when the widget is narrow)
        QVector<Band> bands;
        QRectF legend;
        bool shortLegend = false;

        double x(qint64 micros) const
        {
            return plot.left() + double(micros - lo) / double(hi - lo) * plot.width();
        }
    };

    explicit TimelineWidget(QWidget *parent = nullptr);

    /// `paid` in any order; only the newest `kMaxBars` are drawn. `current` is the
    /// subscription's current period: the gap or overlap between its end and each pending
    /// renewal's start is drawn as a band.
    void setSpans(
        QVector<Span> paid, QVector<Span> pending, std::optional<Span> current = std::nullopt);
    /// The paid periods drawn (oldest first) and the pending renewals, as the header and the
    /// tests read them.
    const QVector<Span> &paidSpans() const { return m_paid; }
    const QVector<Span> &pendingSpans() const { return m_pending; }
    /// Gaps and overlaps found among the drawn paid periods (for tests and the header).
    int irregularities() const { return m_irregularities; }

    Geometry geometry(QSize size) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    static constexpr int kMaxBars = 18;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    struct Hit
    {
        QRectF rect;
        QString tooltip;
    };
    bool hasPaidOverlap() const;

    QVector<Span> m_paid;
    QVector<Span> m_pending;
    std::optional<Span> m_current;
    QVector<Hit> m_hits;
    int m_irregularities = 0;
};

} // namespace rd::ui
