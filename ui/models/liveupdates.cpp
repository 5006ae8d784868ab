#include "ui/models/liveupdates.h"

#include "ui/models/connectionsettings.h"
#include "ui/models/format.h"

#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QTimer>
#include <QVariant>

namespace rd::ui {

LiveUpdates::LiveUpdates(const QString &conninfo, QObject *parent)
    : QObject(parent), m_listener(new NotificationListener(conninfo))
{
    m_thread.setObjectName(u"rd-live-updates"_qs);
    m_listener->moveToThread(&m_thread);
    connect(&m_thread, &QThread::started, m_listener, &NotificationListener::start);
    // Runs in the listener's thread just before it ends: the connection is closed by the
    // thread that opened it.
    connect(&m_thread, &QThread::finished, m_listener, &NotificationListener::stop,
        Qt::DirectConnection);
    connect(m_listener, &NotificationListener::notified, this,
        [this](const QString &channel, const QString &payload) {
            if (channel == QLatin1String(kCasesChannel))
                emit caseChanged(payload);
            else if (payload == u"*" || payload.isEmpty())
                emit subscriptionsChanged();
            else
                emit subscriptionChanged(payload);
        });
    connect(m_listener, &NotificationListener::lost, this, [this](const QString &reason) {
        m_connected = false;
        emit connectionLost(reason);
    });
    connect(m_listener, &NotificationListener::restored, this, [this] {
        m_connected = true;
        emit connectionRestored();
    });
    connect(m_listener, &NotificationListener::standbyChanged, this, [this](bool standby) {
        m_standby = standby;
        emit standbyChanged(standby);
    });
    connect(
        m_listener, &NotificationListener::standbyReplayed, this, &LiveUpdates::standbyReplayed);
    m_thread.start();
}

LiveUpdates::~LiveUpdates()
{
    m_thread.quit();
    m_thread.wait();
    delete m_listener;
}

NotificationListener::NotificationListener(QString conninfo)
    : m_conninfo(std::move(conninfo))
    , m_name(u"rd-listen-%1"_qs.arg(reinterpret_cast<quintptr>(this)))
{ }

void NotificationListener::start()
{
    m_timer = new QTimer(this);
    m_timer->setInterval(2000);
    connect(m_timer, &QTimer::timeout, this, &NotificationListener::check);
    m_timer->start();
    check();
}

void NotificationListener::stop()
{
    if (m_timer)
        m_timer->stop();
    if (QSqlDatabase::contains(m_name)) {
        {
            QSqlDatabase db = QSqlDatabase::database(m_name, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_name);
    }
}

bool NotificationListener::connectAndListen(QString *error)
{
    QSqlDatabase db = QSqlDatabase::contains(m_name)
        ? QSqlDatabase::database(m_name, false)
        : QSqlDatabase::addDatabase(u"QPSQL"_qs, m_name);
    if (!db.isOpen()) {
        const ConnectionSettings settings = ConnectionSettings::fromConninfo(m_conninfo);
        if (!settings.error.isEmpty()) {
            *error = settings.error;
            return false;
        }
        settings.applyTo(db);
        if (!db.open()) {
            *error = db.lastError().text();
            return false;
        }
        // A hot standby refuses LISTEN ("cannot execute LISTEN during recovery"), and the
        // primary's NOTIFYs would not reach it anyway: it is polled instead (pollStandby).
        QSqlQuery recovery(db);
        if (!recovery.exec(u"SELECT pg_is_in_recovery()"_qs) || !recovery.next()) {
            *error = recovery.lastError().text();
            db.close();
            return false;
        }
        const bool standby = recovery.value(0).toBool();
        if (int(standby) != m_standby) {
            m_standby = int(standby);
            m_replayedLsn.clear();
            emit standbyChanged(standby);
        }
        if (standby)
            return true;
        QSqlDriver *driver = db.driver();
        if (m_driver != driver) {
            m_driver = driver;
            connect(driver, &QSqlDriver::notification, this,
                [this](const QString &name, QSqlDriver::NotificationSource,
                    const QVariant &payload) { emit notified(name, payload.toString()); });
        }
        for (const char *channel : {kChangesChannel, kCasesChannel}) {
            if (!driver->subscribedToNotifications().contains(QLatin1String(channel))
                && !driver->subscribeToNotification(QLatin1String(channel))) {
                *error = driver->lastError().text();
                db.close();
                return false;
            }
        }
    }
    return true;
}

// Renewals do not NOTIFY: PostgreSQL serializes notifying transactions through their commit,
// which would cost the renewal path most of its group commit. Every change of a subscription
// writes an audit row, so the desk polls the tail of the audit table instead (an index range
// scan of at most a few hundred ids every two seconds); cases and operator actions, which are
// rare, still arrive by NOTIFY (on a standby, from the case history's tail: see pollStandby).
bool NotificationListener::pollAuditTail(QString *error)
{
    return pollTail(m_audits, u"subscription_transition_audits"_qs, u"subscription_id"_qs,
        kChangesChannel, error);
}

bool NotificationListener::pollTail(
    Tail &tail, const QString &table, const QString &keyColumn, const char *channel, QString *error)
{
    constexpr qint64 kWindow = 256;
    QSqlQuery q(QSqlDatabase::database(m_name, false));
    q.setForwardOnly(true);
    if (tail.newest < 0) {
        // First poll: learn where the tail is and what its window already holds, report
        // nothing. (With the window left unseen, the next poll reported its 256 old rows as
        // news: every view read again two seconds after the desk connected.)
        if (!q.exec(u"SELECT coalesce(max(id), 0) FROM public.%1"_qs.arg(table))) {
            *error = q.lastError().text();
            return false;
        }
        tail.newest = q.next() ? q.value(0).toLongLong() : 0;
        q.prepare(u"SELECT id FROM public.%1 WHERE id > :low"_qs.arg(table));
        q.bindValue(u":low"_qs, tail.newest - kWindow);
        if (!q.exec()) {
            *error = q.lastError().text();
            return false;
        }
        while (q.next())
            tail.seen.insert(q.value(0).toLongLong());
        return true;
    }
    q.prepare(u"SELECT id, %1 FROM public.%2 WHERE id > :low ORDER BY id LIMIT 2000"_qs.arg(
        keyColumn, table));
    q.bindValue(u":low"_qs, tail.newest - kWindow);
    if (!q.exec()) {
        *error = q.lastError().text();
        return false;
    }
    QSet<QString> changed;
    bool many = false;
    while (q.next()) {
        const qint64 id = q.value(0).toLongLong();
        if (tail.seen.contains(id))
            continue;
        tail.seen.insert(id);
        tail.newest = std::max(tail.newest, id);
        changed.insert(q.value(1).toString());
        many = many || changed.size() > 50;
    }
    for (auto it = tail.seen.begin(); it != tail.seen.end();) {
        if (*it <= tail.newest - kWindow)
            it = tail.seen.erase(it);
        else
            ++it;
    }
    if (many) {
        emit notified(QLatin1String(channel), u"*"_qs);
    } else {
        for (const QString &id : changed)
            emit notified(QLatin1String(channel), id);
    }
    return true;
}

// A case's NOTIFY (0005) fires when the case row changes: opened, seen again, closed. A note,
// a claim or a release writes only the case's history, so the audit log would not see them;
// the history's tail is polled like the audits' (one index range scan of its primary key every
// check), and each case it names is reported as changed.
bool NotificationListener::pollCaseHistoryTail(QString *error)
{
    return pollTail(
        m_caseHistory, u"reconciliation_case_history"_qs, u"case_id"_qs, kCasesChannel, error);
}

// A standby replays the primary's WAL; nothing it shows can change unless the replay position
// moved, so an idle standby costs one function call every check. When it moved, the tails of
// the audit and case-history tables say what changed (the same reads as on the primary: both
// tables are replicated, their primary keys with them). The Inbox and Outbox pages poll their
// own tables and use the replay position the same way.
bool NotificationListener::pollStandby(QString *error)
{
    QSqlQuery q(QSqlDatabase::database(m_name, false));
    q.setForwardOnly(true);
    if (!q.exec(u"SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text, "
                "rd_rfc3339(pg_last_xact_replay_timestamp())"_qs)
        || !q.next()) {
        *error = q.lastError().text();
        return false;
    }
    if (!q.value(0).toBool()) {
        // Promoted: reconnect, so that LISTEN takes over (connectAndListen reports the change).
        QSqlDatabase::database(m_name, false).close();
        return connectAndListen(error) && pollAuditTail(error) && pollCaseHistoryTail(error);
    }
    emit standbyReplayed(format::instant(q.value(2).toString()));
    const QString lsn = q.value(1).toString();
    if (lsn == m_replayedLsn && m_audits.newest >= 0 && m_caseHistory.newest >= 0)
        return true;
    m_replayedLsn = lsn;
    return pollAuditTail(error) && pollCaseHistoryTail(error);
}

void NotificationListener::check()
{
    QString error;
    bool ok = connectAndListen(&error);
    if (ok) {
        if (!(m_standby == 1 ? pollStandby(&error)
                             : pollAuditTail(&error) && pollCaseHistoryTail(&error))) {
            ok = false;
            QSqlDatabase db = QSqlDatabase::database(m_name, false);
            // A lost server: drop the subscriptions with the connection; the next check
            // reconnects and subscribes again.
            for (const QString &c : db.driver()->subscribedToNotifications())
                db.driver()->unsubscribeFromNotification(c);
            db.close();
        }
    }
    if (ok && !m_up) {
        m_up = true;
        m_everUp = true;
        emit restored();
    } else if (!ok && (m_up || !m_everUp)) {
        m_up = false;
        m_everUp = true;
        emit lost(error.trimmed());
    }
}

} // namespace rd::ui
