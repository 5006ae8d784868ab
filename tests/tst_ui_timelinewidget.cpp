#include "ui/widgets/timelinewidget.h"

#include <QtTest>

/// The subscription timeline: gaps and overlaps counted and painted in the warning colour.
class TestUiTimelineWidget : public QObject
{
    Q_OBJECT

private slots:
    void timelineCountsGapsAndOverlaps()
    {
        const qint64 day = 86400LL * 1000000;
        const qint64 jan = 1767225600LL * 1000000; // 2026-01-01T00:00:00Z
        rd::ui::TimelineWidget timeline;
        timeline.resize(800, timeline.sizeHint().height());
        // Jan, Feb (contiguous), a gap of 10 days, then an overlap of 5 days.
        timeline.setSpans({{jan, jan + 31 * day, {}, {}}, {jan + 31 * day, jan + 59 * day, {}, {}},
                              {jan + 69 * day, jan + 99 * day, {}, {}},
                              {jan + 94 * day, jan + 124 * day, {}, {}}},
            {{jan + 124 * day, jan + 154 * day, u"case 1"_qs, {}}});
        QCOMPARE(timeline.irregularities(), 2);
        const QImage image = timeline.grab().toImage();
        QVERIFY(!image.isNull());
        // The warning colour is painted somewhere (the gap and the overlapping bar).
        bool warning = false;
        for (int y = 0; y < image.height() && !warning; y += 2) {
            for (int x = 0; x < image.width() && !warning; x += 2) {
                const QColor c = image.pixelColor(x, y);
                warning = c.red() > 200 && c.green() > 90 && c.green() < 130 && c.blue() < 40;
            }
        }
        QVERIFY(warning);
    }
};

QTEST_MAIN(TestUiTimelineWidget)
#include "tst_ui_timelinewidget.moc"
