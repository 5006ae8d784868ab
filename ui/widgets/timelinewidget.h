#pragma once

#include <QWidget>

namespace rd::ui {

/// A subscription's paid periods on a time axis: one bar per billing period; a gap or an
/// overlap between consecutive periods is painted in a warning colour and labelled; a renewal
/// waiting in an open case is drawn hatched where it would have gone.
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

    explicit TimelineWidget(QWidget *parent = nullptr);

    /// `paid` in any order; only the newest `kMaxBars` are drawn.
    void setSpans(QVector<Span> paid, QVector<Span> pending);
    /// The paid periods drawn (oldest first) and the pending renewals, as the header and the
    /// tests read them.
    const QVector<Span> &paidSpans() const { return m_paid; }
    const QVector<Span> &pendingSpans() const { return m_pending; }
    /// Gaps and overlaps found among the drawn paid periods (for tests and the header).
    int irregularities() const { return m_irregularities; }

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
    QVector<Span> m_paid;
    QVector<Span> m_pending;
    QVector<Hit> m_hits;
    int m_irregularities = 0;
};

} // namespace rd::ui
