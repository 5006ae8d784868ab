#pragma once

#include "ui/models/asyncresult.h"
#include "ui/models/lastbackup.h"
#include "ui/models/overview.h"

#include <QDate>
#include <QElapsedTimer>
#include <QWidget>

#include <array>
#include <optional>
#include <utility>

class QChart;
class QGridLayout;
class QLabel;
class QTimer;

namespace rd::ui {

class DatabasePool;
class OverviewCharts;
class OverviewTile;

/// The desk's first page: the numbers that matter as tiles (renewals today and this month per
/// currency, open cases and the oldest, the outbox, the last delivery) and charts of the last
/// 30 UTC days (renewals per day by provider, deliveries by outcome, cases opened and closed
/// per day, open cases by reason and by age). Every figure and every bar opens the list behind
/// it: the page emits what to show, MainWindow shows it.
///
/// Everything is read on the pool (loadOverview); while shown, the page looks for changes
/// every two seconds (overviewChangeMark: renewals and deliveries NOTIFY nobody) and reads
/// the figures again when something changed, at most once per kMinReloadGap or five times
/// the last read's duration, whichever is longer, so a busy database is not read in a loop.
class OverviewPage : public QWidget
{
    Q_OBJECT

public:
    explicit OverviewPage(DatabasePool *pool, QWidget *parent = nullptr);

    void refresh();
    /// The figures shown (valid once loaded() was emitted).
    const OverviewFigures &figures() const { return m_figures; }
    bool isLoaded() const { return m_loaded; }
    /// "renewals-today", "renewals-month", "open-cases", "overdue", "payment-trouble",
    /// "outbox", "last-delivery".
    OverviewTile *tile(const QString &name) const;
    /// "renewals-per-day", "deliveries", "cases-per-day", "open-by-reason", "open-by-age".
    QChart *chart(const QString &name) const;

    /// What a click at `viewportPos` of the "cases opened and closed" chart opens: the day of
    /// the column, and whether below the line (closed); nothing outside the plot.
    std::optional<std::pair<QDate, bool>> casesColumnAt(const QPoint &viewportPos) const;

    /// The last backup's age, shown as a line of the "Last delivery received" tile (MainWindow
    /// reads it with BackupAgeModel and passes it on); Unknown shows nothing.
    void setBackupAge(const BackupAgeStatus &status);

    static constexpr int kPollInterval = 2000;
    static constexpr int kMinReloadGap = 2000;

signals:
    void loaded();
    void statusMessage(const QString &message);
    /// Open cases of `reason` ("" = any) whose age (since first seen) is in
    /// [minAgeSecs, maxAgeSecs); -1 = unbounded.
    void openCasesRequested(const QString &reason, qint64 minAgeSecs, qint64 maxAgeSecs);
    void caseOpenRequested(qint64 caseId);
    /// The cases opened (or closed: resolved or dismissed) on a UTC day.
    void casesOfDayRequested(const QDate &dayUtc, bool closed);
    /// The billing periods paid in [fromUtc, toUtcExclusive) (UTC days); "" = any.
    void ledgerRequested(const QDate &fromUtc, const QDate &toUtcExclusive, const QString &provider,
        const QString &currency);
    /// The Inbox filtered as InboxPage::setFilters takes it ("" = any provider).
    void inboxRequested(const QString &outcome, const QString &received);
    /// The Outbox showing "undelivered", "failed" or "all".
    void outboxRequested(const QString &state);
    /// Subscriptions filtered to the overdue ones.
    void overdueRequested();
    /// The Payment trouble page: subscriptions in grace and blocked.
    void paymentTroubleRequested();
    /// The last backup's line was clicked: File › Back up….
    void backupRequested();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void load();
    void poll();
    void showFigures(const OverviewFigures &f);
    void showTiles();
    void showBackupAge();
    /// The tiles in reading order.
    std::array<OverviewTile *, 7> tiles() const;
    /// The width `perRow` tiles a row need: each grid column as wide as its widest tile.
    int tilesWidth(int perRow) const;
    void flowTiles(int rows);
    void reflowTiles();

    DatabasePool *m_pool;
    QLabel *m_heading;
    QLabel *m_error;
    OverviewTile *m_today;
    OverviewTile *m_month;
    OverviewTile *m_cases;
    OverviewTile *m_overdue;
    OverviewTile *m_trouble;
    OverviewTile *m_outbox;
    OverviewTile *m_lastDelivery;
    OverviewCharts *m_charts;
    QTimer *m_poll;
    QGridLayout *m_tiles;
    QWidget *m_scrollViewport = nullptr;
    int m_tileRows = 0;
    OverviewFigures m_figures;
    BackupAgeStatus m_backupAge;
    bool m_loaded = false;
    bool m_loading = false;
    bool m_reloadWanted = false;
    QString m_mark;
    QElapsedTimer m_sinceLoad;
    qint64 m_lastLoadMs = 0;
    LatestRequest m_loadRequest;
    LatestRequest m_pollRequest;
};

} // namespace rd::ui
