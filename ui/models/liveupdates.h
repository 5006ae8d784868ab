#pragma once

#include <QDateTime>
#include <QObject>
#include <QSet>
#include <QThread>

class QTimer;

namespace rd::ui {

/// The NOTIFY channels the desk listens on (migration 0005_desk_notifications.sql raises
/// them; any other writer may too):
///  - `renewal_desk_changes`: payload = the subscription's uuid, or "*" after a bulk change
///    (an import) that touched many subscriptions;
///  - `renewal_desk_cases`: payload = the case id, when a case is opened, seen again or closed.
inline constexpr const char *kChangesChannel = "renewal_desk_changes";
inline constexpr const char *kCasesChannel = "renewal_desk_cases";

class NotificationListener;

/// Live updates: LISTEN on a connection of its own in a thread of its own (the QPSQL driver
/// delivers notifications through a socket notifier in the connection's thread), a health
/// check every few seconds, and automatic reconnection after a loss. Signals arrive queued on
/// the GUI thread.
///
/// On a hot standby (pg_is_in_recovery()) there is no LISTEN (a standby refuses it, and the
/// primary's NOTIFYs never reach it): every check reads the standby's replay position, and
/// only when it moved reads the tails of the audit and case-history tables, which every change
/// of a subscription or a case writes. On a primary both tails are polled too: renewals do not
/// NOTIFY, and a note or a claim writes only its case's history.
class LiveUpdates : public QObject
{
    Q_OBJECT

public:
    explicit LiveUpdates(const QString &conninfo, QObject *parent = nullptr);
    ~LiveUpdates() override;

    bool isConnected() const { return m_connected; }
    /// Whether the server is a hot standby (read-only replica); known once connected.
    bool isStandby() const { return m_standby; }

signals:
    void subscriptionChanged(const QString &subscriptionId);
    /// Many subscriptions changed at once.
    void subscriptionsChanged();
    void caseChanged(const QString &caseId);
    void connectionLost(const QString &reason);
    void connectionRestored();
    /// The server is (or no longer is: promoted) a hot standby. Emitted on the first connect
    /// and on every change, before connectionRestored().
    void standbyChanged(bool standby);
    /// On a standby, after each check: when the newest transaction it replayed committed on
    /// the primary (UTC; invalid when it replayed none since it started).
    void standbyReplayed(const QDateTime &lastReplayedCommit);

private:
    QThread m_thread;
    NotificationListener *m_listener;
    bool m_connected = false;
    bool m_standby = false;
};

/// The listener living in LiveUpdates' thread.
class NotificationListener : public QObject
{
    Q_OBJECT

public:
    explicit NotificationListener(QString conninfo);

public slots:
    void start();
    void stop();

signals:
    void notified(const QString &channel, const QString &payload);
    void lost(const QString &reason);
    void restored();
    void standbyChanged(bool standby);
    void standbyReplayed(const QDateTime &lastReplayedCommit);

private:
    /// The ids of an append-only table already reported, within a window behind the newest:
    /// writers commit out of id order, so a late commit with a smaller id is still found.
    struct Tail
    {
        QSet<qint64> seen;
        qint64 newest = -1;
    };

    void check();
    /// Finds subscriptions changed by renewals since the last poll (see pollTail).
    bool pollAuditTail(QString *error);
    /// Finds cases whose history grew since the last poll (notes, claims: no NOTIFY of their own).
    bool pollCaseHistoryTail(QString *error);
    /// The ids (`idColumn`, grouped by `keyColumn`) added to `table` since the last poll,
    /// reported on `channel` ("*" for more than 50 keys at once).
    bool pollTail(Tail &tail, const QString &table, const QString &keyColumn, const char *channel,
        QString *error);
    /// On a standby: nothing to read unless the replay position moved. False on an error.
    bool pollStandby(QString *error);
    bool connectAndListen(QString *error);

    QString m_conninfo;
    QString m_name;
    bool m_up = false;
    bool m_everUp = false;
    QTimer *m_timer = nullptr;
    QObject *m_driver = nullptr;
    Tail m_audits;
    Tail m_caseHistory;
    /// -1 unknown (not connected yet), else whether the server is a hot standby.
    int m_standby = -1;
    QString m_replayedLsn;
};

} // namespace rd::ui
