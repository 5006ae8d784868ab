#pragma once

#include "ui/models/overview.h"

#include <QDate>
#include <QObject>
#include <QString>

#include <optional>
#include <utility>

class QChart;
class QCategoryAxis;
class QChartView;
class QPoint;

namespace rd::ui {

/// The Overview's charts of the last 30 UTC days, drawn from OverviewFigures: renewals per day
/// by provider, deliveries by outcome, cases opened and closed per day, open cases by reason
/// and by age. A click on a bar says which list stands behind it; the page lays the views out
/// and passes the requests on.
class OverviewCharts : public QObject
{
    Q_OBJECT

public:
    explicit OverviewCharts(QObject *parent = nullptr);

    /// The views, for the page's layout (it takes them over). Their object names, and their
    /// charts', are "renewals-per-day", "deliveries", "cases-per-day", "open-by-reason",
    /// "open-by-age".
    QChartView *renewalsView() const { return m_renewalsView; }
    QChartView *deliveriesView() const { return m_deliveriesView; }
    QChartView *casesView() const { return m_casesView; }
    QChartView *reasonView() const { return m_reasonView; }
    QChartView *ageView() const { return m_ageView; }

    /// Draws every chart again from `figures`.
    void show(const OverviewFigures &figures);

    /// What a click at `viewportPos` of the "cases opened and closed" chart opens: the day of
    /// the column, and whether below the line (closed); nothing outside the plot.
    std::optional<std::pair<QDate, bool>> casesColumnAt(const QPoint &viewportPos) const;

    /// Hides a bar's tooltip (it must not float on over the page a click opened).
    static void hideTip();

signals:
    /// Open cases of `reason` ("" = any) whose age (since first seen) is in
    /// [minAgeSecs, maxAgeSecs); -1 = unbounded.
    void openCasesRequested(const QString &reason, qint64 minAgeSecs, qint64 maxAgeSecs);
    /// The cases opened (or closed: resolved or dismissed) on a UTC day.
    void casesOfDayRequested(const QDate &dayUtc, bool closed);
    /// The billing periods paid in [fromUtc, toUtcExclusive) (UTC days); "" = any.
    void ledgerRequested(const QDate &fromUtc, const QDate &toUtcExclusive, const QString &provider,
        const QString &currency);
    /// The Inbox filtered as InboxPage::setFilters takes it ("" = any provider).
    void inboxRequested(const QString &outcome, const QString &received);

protected:
    /// A click anywhere in a day's column of the cases chart, above or below the line.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showRenewalsPerDay();
    void showDeliveries();
    void showCasesPerDay();
    void showOpenByReason();
    void showOpenByAge();
    /// The window's days, labelled once a week (`numbersOnly`: "17", not "17 Nov").
    QCategoryAxis *dayAxis(bool numbersOnly) const;
    static void roomForLastDay(QChart *chart, QCategoryAxis *days);
    QString daysTitle(const QString &what) const;

    QChartView *m_renewalsView;
    QChartView *m_deliveriesView;
    QChartView *m_casesView;
    QChartView *m_reasonView;
    QChartView *m_ageView;
    OverviewFigures m_figures;
};

} // namespace rd::ui
