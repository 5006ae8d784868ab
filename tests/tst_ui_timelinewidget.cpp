#include "ui/widgets/timelinewidget.h"

#include <QtTest>

using rd::ui::TimelineWidget;

namespace {

constexpr qint64 kDay = 86400LL * 1000000;
constexpr qint64 kJan2026 = 1767225600LL * 1000000; // 2026-01-01T00:00:00Z

qint64 utc(int y, int m, int d)
{
    return QDateTime(QDate(y, m, d), QTime(11, 0), QTimeZone::utc()).toMSecsSinceEpoch() * 1000;
}

/// Four contiguous paid months 18 Jun → 18 Oct 2026 (the last one is the current period) and
/// a rejected renewal that starts `offsetDays` after the current period's end.
void setGapCase(TimelineWidget &timeline, int offsetDays)
{
    QVector<TimelineWidget::Span> paid;
    for (int m = 6; m < 10; ++m)
        paid.append({utc(2026, m, 18), utc(2026, m + 1, 18), u"$49.00"_qs, {}});
    const qint64 start = utc(2026, 10, 18) + offsetDays * kDay;
    timeline.setSpans(paid, {{start, start + 30 * kDay, u"rejected $49.00 · case 2"_qs, {}}},
        TimelineWidget::Span {utc(2026, 9, 18), utc(2026, 10, 18), {}, {}});
}

bool isWarningTint(const QColor &c)
{
    // The band's orange over the window's grey: clearly more red than blue.
    return c.red() - c.blue() > 25 && c.red() > c.green();
}

} // namespace

/// The subscription timeline: gaps and overlaps counted and drawn as labelled bands, the
/// rejected renewal's bar inside the widget and not covered by its label, the year on the axis.
class TestUiTimelineWidget : public QObject
{
    Q_OBJECT

private slots:
    void timelineCountsGapsAndOverlaps()
    {
        const qint64 day = kDay;
        const qint64 jan = kJan2026;
        TimelineWidget timeline;
        timeline.resize(800, timeline.sizeHint().height());
        // Jan, Feb (contiguous), a gap of 10 days, then an overlap of 5 days.
        timeline.setSpans({{jan, jan + 31 * day, {}, {}}, {jan + 31 * day, jan + 59 * day, {}, {}},
                              {jan + 69 * day, jan + 99 * day, {}, {}},
                              {jan + 94 * day, jan + 124 * day, {}, {}}},
            {{jan + 124 * day, jan + 154 * day, u"case 1"_qs, {}}});
        QCOMPARE(timeline.irregularities(), 2);
        const auto g = timeline.geometry(timeline.size());
        // Two bands among the paid periods (none for the pending renewal: it continues).
        QCOMPARE(g.bands.size(), 2);
        QVERIFY(!g.bands[0].overlap);
        QVERIFY(g.bands[0].label.contains(u"10 days"_qs));
        QVERIFY(g.bands[1].overlap);
        QVERIFY(g.bands[1].label.contains(u"overlap of 5 days"_qs));
        QCOMPARE(g.bands[1].rect.left(), g.x(jan + 94 * day));
        QCOMPARE(g.bands[1].rect.right(), g.x(jan + 99 * day));
    }

    void gapBandSpansCurrentEndToRejectedStart_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("offsetDays");
        QTest::addColumn<QString>("label");
        for (const int width : {320, 480, 800, 1024, 1600}) {
            QTest::addRow("gap of 31 days, %d px", width) << width << 31 << u"gap of 31 days"_qs;
            QTest::addRow("gap of 1 day, %d px", width) << width << 1 << u"gap of 1 day"_qs;
            QTest::addRow("overlap of 5 days, %d px", width)
                << width << -5 << u"overlap of 5 days"_qs;
        }
    }

    void gapBandSpansCurrentEndToRejectedStart()
    {
        QFETCH(int, width);
        QFETCH(int, offsetDays);
        QFETCH(QString, label);
        TimelineWidget timeline;
        setGapCase(timeline, offsetDays);
        timeline.resize(width, timeline.sizeHint().height());
        const auto g = timeline.geometry(timeline.size());
        const qint64 currentEnd = utc(2026, 10, 18);
        const qint64 rejectedStart = currentEnd + offsetDays * kDay;

        // The x scale: the earliest instant at the plot's left edge, the latest at its right.
        QCOMPARE(g.x(utc(2026, 6, 18)), g.plot.left());
        QCOMPARE(g.x(rejectedStart + 30 * kDay), g.plot.right());

        QCOMPARE(g.bands.size(), 1);
        const auto &band = g.bands.first();
        QCOMPARE(band.overlap, offsetDays < 0);
        QCOMPARE(band.fromMicros, std::min(currentEnd, rejectedStart));
        QCOMPARE(band.toMicros, std::max(currentEnd, rejectedStart));
        // Exactly from one instant to the other, in the widget's scale, and so from the end
        // of the current period's bar to the start of the rejected renewal's bar (a gap) or
        // from the start of the rejected bar to the end of the current one (an overlap).
        QCOMPARE(band.rect.left(), g.x(std::min(currentEnd, rejectedStart)));
        QCOMPARE(band.rect.right(), g.x(std::max(currentEnd, rejectedStart)));
        QCOMPARE(g.pending.size(), 1);
        if (offsetDays > 0) {
            QCOMPARE(band.rect.left(), g.paid.last().right());
            QCOMPARE(band.rect.right(), g.pending.first().left());
        } else {
            QCOMPARE(band.rect.left(), g.pending.first().left());
            QCOMPARE(band.rect.right(), g.paid.last().right());
        }
        // It reaches from the paid lane down to the rejected renewal's lane.
        QVERIFY(band.rect.top() <= g.paid.last().top());
        QVERIFY(band.rect.bottom() >= g.pending.first().bottom());
        // Its length is written out, inside the widget.
        QVERIFY2(band.label.contains(label), qPrintable(band.label));
        QVERIFY(!band.labelRect.isNull());
        QVERIFY(QRectF(timeline.rect()).contains(band.labelRect));
        // Wide enough for the words as painted (bold), so none is cut off.
        QFont bold = timeline.font();
        bold.setBold(true);
        QVERIFY2(band.labelRect.width() >= QFontMetricsF(bold).horizontalAdvance(band.label),
            qPrintable(band.label));
        QVERIFY(!band.labelRect.intersects(g.pending.first()));

        // And it is painted: the middle of a gap band (where no bar is) has the band's tint.
        const QImage image = timeline.grab().toImage();
        if (const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR"); !dir.isEmpty())
            image.save(u"%1/timeline-%2-%3px.png"_qs.arg(dir).arg(offsetDays).arg(width));
        if (offsetDays > 1) {
            const QPoint mid(int(band.rect.center().x()), int(g.paid.last().center().y()));
            QVERIFY2(
                isWarningTint(image.pixelColor(mid)), qPrintable(image.pixelColor(mid).name()));
        }
    }

    void rejectedBarInsideAndUncovered_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("label");
        for (const int width : {320, 400, 640, 1024, 1280, 1600}) {
            QTest::addRow("short label, %d px", width) << width << u"rejected · case 2"_qs;
            QTest::addRow("long label, %d px", width)
                << width << u"rejected ¥1,500 · case 1234567 · renewal period is not contiguous"_qs;
        }
    }

    void rejectedBarInsideAndUncovered()
    {
        QFETCH(int, width);
        QFETCH(QString, label);
        TimelineWidget timeline;
        QVector<TimelineWidget::Span> paid;
        for (int m = 6; m < 10; ++m)
            paid.append({utc(2026, m, 18), utc(2026, m + 1, 18), u"$49.00"_qs, {}});
        timeline.setSpans(paid, {{utc(2026, 11, 18), utc(2026, 12, 18), label, {}}});
        timeline.resize(width, timeline.sizeHint().height());
        const auto g = timeline.geometry(timeline.size());
        const QRectF widget(timeline.rect());
        QCOMPARE(g.pending.size(), 1);
        const QRectF bar = g.pending.first();
        const QRectF text = g.pendingLabels.first();
        QVERIFY2(widget.contains(bar),
            qPrintable(u"bar %1,%2 %3x%4 in %5 px"_qs.arg(bar.x())
                           .arg(bar.y())
                           .arg(bar.width())
                           .arg(bar.height())
                           .arg(width)));
        QVERIFY(bar.width() > 10);
        QVERIFY(widget.contains(text));
        QVERIFY(!text.intersects(bar));
        // Above it (beside would do too), and no paid bar under the words.
        QVERIFY(text.bottom() <= bar.top());
        for (const QRectF &p : g.paid)
            QVERIFY(!text.intersects(p));
        // Nothing else is painted over the bar: no band label, no legend.
        for (const auto &band : g.bands)
            QVERIFY(!band.labelRect.intersects(bar));
        QVERIFY(!g.legend.intersects(bar));
        QVERIFY(widget.contains(g.legend));
        // The whole label is shown when it fits in the widget.
        if (timeline.fontMetrics().horizontalAdvance(label) + 8 < g.plot.width())
            QCOMPARE(g.pendingTexts.first(), label);
    }

    void monthLabelsCarryTheYear_data()
    {
        QTest::addColumn<int>("width");
        for (const int width : {320, 480, 800, 1600})
            QTest::addRow("%d px", width) << width;
    }

    void monthLabelsCarryTheYear()
    {
        QFETCH(int, width);
        TimelineWidget timeline;
        // 18 Jun 2026 → 18 Apr 2027: the axis crosses a new year.
        QVector<TimelineWidget::Span> paid;
        for (int m = 6; m < 12; ++m)
            paid.append({utc(2026, m, 18), utc(2026, m + 1, 18), {}, {}});
        paid.append({utc(2026, 12, 18), utc(2027, 1, 18), {}, {}});
        timeline.setSpans(paid, {{utc(2027, 3, 18), utc(2027, 4, 18), u"case 9"_qs, {}}});
        timeline.resize(width, timeline.sizeHint().height());
        const auto g = timeline.geometry(timeline.size());
        QStringList shown;
        for (const auto &tick : g.ticks) {
            if (!tick.label.isEmpty()) {
                shown << tick.label;
                QVERIFY(QRectF(timeline.rect()).contains(tick.labelRect));
            }
        }
        QVERIFY2(shown.size() >= 2, qPrintable(shown.join(u", "_qs)));
        // The first label names its year; the first label of 2027 names 2027; the others
        // carry no number that could be read as a day.
        const QLocale locale;
        QCOMPARE(shown.first(), locale.toString(QDate(2026, 7, 1), u"MMM yyyy"_qs));
        int withYear = 0;
        for (int i = 1; i < shown.size(); ++i) {
            const bool hasDigit = std::any_of(
                shown[i].cbegin(), shown[i].cend(), [](QChar c) { return c.isDigit(); });
            if (hasDigit) {
                ++withYear;
                QVERIFY2(shown[i].endsWith(u"2027"_qs), qPrintable(shown.join(u", "_qs)));
            }
        }
        QCOMPARE(withYear, 1);
        if (width >= 800) {
            QVERIFY2(shown.contains(locale.toString(QDate(2027, 1, 1), u"MMM yyyy"_qs)),
                qPrintable(shown.join(u", "_qs)));
            QVERIFY2(shown.contains(locale.toString(QDate(2026, 8, 1), u"MMM"_qs)),
                qPrintable(shown.join(u", "_qs)));
        }
    }
};

QTEST_MAIN(TestUiTimelineWidget)
#include "tst_ui_timelinewidget.moc"
