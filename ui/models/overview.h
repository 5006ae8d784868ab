#pragma once

#include <QDate>
#include <QDateTime>
#include <QString>
#include <QStringList>
#include <QVector>

#include <array>
#include <optional>

class QSqlDatabase;

namespace rd::ui {

/// Renewals of one currency: never added to another currency's.
struct CurrencyTotal
{
    QString currency;
    qint64 renewals = 0;
    qint64 amountMinor = 0; ///< gross: what the renewals paid
    /// Money back in the same days (#40), by each movement's own day: refunds and chargebacks
    /// less their reversals. Net is amountMinor less this.
    qint64 moneyBackMinor = 0;

    bool operator==(const CurrencyTotal &) const = default;
};

/// A count on one UTC day under one key (a provider, "opened" / "closed").
struct DayCount
{
    QDate day;
    QString key;
    qint64 count = 0;
};

/// A count under one key (an outcome, a case reason).
struct KeyCount
{
    QString key;
    qint64 count = 0;
};

/// The open cases' age buckets, by how long ago a case was opened (first seen).
enum class AgeBucket { UnderHour, UnderDay, UnderWeek, Older, Count };

/// What the Overview shows, read in one snapshot of the database.
struct OverviewFigures
{
    /// The database's clock when it was read, and the UTC day it falls on: the days below are
    /// UTC days, whatever the desk's time zone.
    QDateTime readAt;
    QDate todayUtc;
    /// The first day of the charts' window: 30 UTC days ending today, today included.
    QDate firstDay;

    QVector<CurrencyTotal> renewalsToday; ///< by currency code
    QVector<CurrencyTotal> renewalsThisMonth; ///< UTC calendar month, by currency code
    QVector<DayCount> renewalsPerDay; ///< key = provider, window days only, non-zero only
    QStringList providers; ///< every provider with a renewal in the window, sorted

    qint64 openCases = 0;
    qint64 oldestOpenCaseId = 0; ///< 0: no open case
    QDateTime oldestOpenSince;
    QVector<KeyCount> openByReason; ///< largest first
    std::array<qint64, int(AgeBucket::Count)> openByAge {};
    QVector<DayCount> casesPerDay; ///< key = "opened" or "closed" (resolved or dismissed)

    qint64 outboxPending = 0; ///< undelivered, never failed
    qint64 outboxFailing = 0; ///< undelivered, failed at least once (retrying)
    /// Sessions of `renewalctl outbox publish` connected now (pg_stat_activity).
    qint64 outboxPublishers = 0;
    QDateTime outboxLastPublishedAt; ///< null: nothing was ever published

    /// Invalid deliveries nobody has reviewed or re-run yet (migration 0034).
    qint64 invalidToReview = 0;

    /// Active subscriptions past their period end and grace with no renewal (migration 0030).
    qint64 overdueSubscriptions = 0;
    QVector<KeyCount> overdueByProvider; ///< non-zero only, largest first
    std::optional<int> overdueGraceHours; ///< the desk's override it was counted with
    /// Payment trouble (#41): subscriptions in grace and blocked now (access_trouble).
    qint64 inGrace = 0;
    qint64 blocked = 0;
    /// Renewals paid in a closed month (migration 0031) beyond that close's count: recorded
    /// after the close. The first such month (oldest) and its provider, for the ledger.
    qint64 renewalsAfterClose = 0;
    QDate firstMonthAfterClose;
    QString firstProviderAfterClose;
    /// Money back (#40) dated in a closed month and recorded after its close, that no close
    /// has counted yet (the provider's next close counts and lists it, migration 0051). The
    /// first such month (oldest) and its provider, for the ledger.
    qint64 moneyBackAfterClose = 0;
    QDate firstMonthMoneyBackAfterClose;
    QString firstProviderMoneyBackAfterClose;

    QDateTime lastDeliveryAt; ///< null: the inbox is empty
    QVector<KeyCount> deliveriesByOutcome; ///< window; "" = not processed yet
};

/// The window the charts cover, in UTC days.
inline constexpr int kOverviewDays = 30;
/// Upper bounds of the age buckets in seconds (the last is unbounded).
inline constexpr std::array<qint64, 3> kAgeBucketLimits {3600, 86400, 7 * 86400};

/// Reads every figure of the Overview (on a pool thread): first folds the renewal totals'
/// pending deltas (fold_renewal_totals(), a no-op on a standby), then reads the rest in one
/// REPEATABLE READ, READ ONLY transaction, so the tiles and charts agree with each other.
/// `overdueGraceHours` overrides every provider's grace (the desk's setting). Throws
/// rd::DatabaseFailure.
OverviewFigures loadOverview(QSqlDatabase &db, std::optional<int> overdueGraceHours = std::nullopt);

/// A cheap fingerprint of what the Overview reads (newest audit and inbox ids, the write
/// counters of cases, outbox and renewal totals, the UTC hour): when it differs from the last
/// one, the figures are read again.
QString overviewChangeMark(QSqlDatabase &db);

} // namespace rd::ui
