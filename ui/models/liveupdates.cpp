#include "ui/models/liveupdates.h"

#include "ui/models/connectionsettings.h"

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
// rare, still arrive by NOTIFY.
bool NotificationListener::pollAuditTail(QString *error)
{
    constexpr qint64 kWindow = 256;
    QSqlQuery q(QSqlDatabase::database(m_name, false));
    q.setForwardOnly(true);
    q.prepare(u"SELECT id, subscription_id FROM subscription_transition_audits "
              "WHERE id > :low ORDER BY id LIMIT 2000"_qs);
    q.bindValue(u":low"_qs, m_newestAudit < 0 ? Q_INT64_C(-1) : m_newestAudit - kWindow);
    if (m_newestAudit < 0) {
        // First poll: learn where the tail is, report nothing.
        if (!q.exec(u"SELECT coalesce(max(id), 0) FROM subscription_transition_audits"_qs)) {
            *error = q.lastError().text();
            return false;
        }
        m_newestAudit = q.next() ? q.value(0).toLongLong() : 0;
        return true;
    }
    if (!q.exec()) {
        *error = q.lastError().text();
        return false;
    }
    QSet<QString> changed;
    bool many = false;
    while (q.next()) {
        const qint64 id = q.value(0).toLongLong();
        if (m_seenAudits.contains(id))
            continue;
        m_seenAudits.insert(id);
        m_newestAudit = std::max(m_newestAudit, id);
        changed.insert(q.value(1).toString());
        many = many || changed.size() > 50;
    }
    for (auto it = m_seenAudits.begin(); it != m_seenAudits.end();) {
        if (*it <= m_newestAudit - kWindow)
            it = m_seenAudits.erase(it);
        else
            ++it;
    }
    if (many) {
        emit notified(QLatin1String(kChangesChannel), u"*"_qs);
    } else {
        for (const QString &id : changed)
            emit notified(QLatin1String(kChangesChannel), id);
    }
    return true;
}

void NotificationListener::check()
{
    QString error;
    bool ok = connectAndListen(&error);
    if (ok) {
        if (!pollAuditTail(&error)) {
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
