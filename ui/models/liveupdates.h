#pragma once

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
class LiveUpdates : public QObject
{
    Q_OBJECT

public:
    explicit LiveUpdates(const QString &conninfo, QObject *parent = nullptr);
    ~LiveUpdates() override;

    bool isConnected() const { return m_connected; }

signals:
    void subscriptionChanged(const QString &subscriptionId);
    /// Many subscriptions changed at once.
    void subscriptionsChanged();
    void caseChanged(const QString &caseId);
    void connectionLost(const QString &reason);
    void connectionRestored();

private:
    QThread m_thread;
    NotificationListener *m_listener;
    bool m_connected = false;
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

private:
    void check();
    /// Finds subscriptions changed by renewals since the last poll (see pollAuditTail).
    bool pollAuditTail(QString *error);
    bool connectAndListen(QString *error);

    QString m_conninfo;
    QString m_name;
    bool m_up = false;
    bool m_everUp = false;
    QTimer *m_timer = nullptr;
    QObject *m_driver = nullptr;
    /// Audit ids already reported, within a window behind the newest: renewals commit out of
    /// id order, so a late commit with a smaller id is still found.
    QSet<qint64> m_seenAudits;
    qint64 m_newestAudit = -1;
};

} // namespace rd::ui
