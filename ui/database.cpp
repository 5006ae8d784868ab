#include "database.h"

#include <QSqlError>
#include <QStringList>
#include <QThread>

#include <atomic>

namespace rd::ui {
namespace {

/// Closes and unregisters this thread's connections when the thread ends, so that no
/// connection outlives the thread that owns it.
struct ThreadConnections
{
    QStringList names;
    ~ThreadConnections()
    {
        for (const QString &name : std::as_const(names)) {
            {
                QSqlDatabase db = QSqlDatabase::database(name, false);
                db.close();
            }
            QSqlDatabase::removeDatabase(name);
        }
    }
};

thread_local ThreadConnections t_connections;

} // namespace

ConnectionSettings ConnectionSettings::fromConninfo(const QString &conninfo)
{
    ConnectionSettings s;
    QStringList options;
    int i = 0;
    const int n = conninfo.size();
    auto skipSpaces = [&] {
        while (i < n && conninfo.at(i).isSpace())
            ++i;
    };
    while (true) {
        skipSpaces();
        if (i >= n)
            break;
        QString key;
        while (i < n && conninfo.at(i) != u'=' && !conninfo.at(i).isSpace())
            key += conninfo.at(i++);
        skipSpaces();
        if (i < n && conninfo.at(i) == u'=')
            ++i;
        skipSpaces();
        QString value;
        if (i < n && conninfo.at(i) == u'\'') {
            ++i;
            while (i < n && conninfo.at(i) != u'\'') {
                if (conninfo.at(i) == u'\\' && i + 1 < n)
                    ++i;
                value += conninfo.at(i++);
            }
            ++i; // closing quote
        } else {
            while (i < n && !conninfo.at(i).isSpace()) {
                if (conninfo.at(i) == u'\\' && i + 1 < n)
                    ++i;
                value += conninfo.at(i++);
            }
        }
        if (key == u"host")
            s.host = value;
        else if (key == u"port")
            s.port = value.toInt();
        else if (key == u"dbname")
            s.databaseName = value;
        else if (key == u"user")
            s.userName = value;
        else if (key == u"password")
            continue; // never carried along: libpq finds it in ~/.pgpass
        else if (!key.isEmpty()) {
            // setConnectOptions splits on ';' and passes "key=value" on to libpq quoted.
            options << key + u'=' + conninfoValue(value);
        }
    }
    // A server that vanished must not hang a worker (or the listener) for minutes.
    if (!options.join(u';').contains(u"connect_timeout="_qs))
        options << u"connect_timeout='10'"_qs;
    s.options = options.join(u';');
    return s;
}

QString conninfoValue(const QString &value)
{
    // libpq: inside single quotes, a backslash escapes the next character (\' and \\).
    QString v = value;
    v.replace(u'\\', u"\\\\"_qs).replace(u'\'', u"\\'"_qs);
    return u'\'' + v + u'\'';
}

QString ConnectionSettings::toConninfo() const
{
    QStringList parts;
    if (!host.isEmpty())
        parts << u"host="_qs + conninfoValue(host);
    if (port > 0)
        parts << u"port="_qs + QString::number(port);
    if (!databaseName.isEmpty())
        parts << u"dbname="_qs + conninfoValue(databaseName);
    if (!userName.isEmpty())
        parts << u"user="_qs + conninfoValue(userName);
    for (const QString &option : options.split(u';', Qt::SkipEmptyParts))
        parts << option; // already key='value'
    return parts.join(u' ');
}

void ConnectionSettings::applyTo(QSqlDatabase &db) const
{
    if (!host.isEmpty())
        db.setHostName(host);
    if (port > 0)
        db.setPort(port);
    if (!databaseName.isEmpty())
        db.setDatabaseName(databaseName);
    if (!userName.isEmpty())
        db.setUserName(userName);
    db.setConnectOptions(options);
}

static std::atomic<quint64> s_nextPoolId {1};

DatabasePool::DatabasePool(QString conninfo, int threads)
    : m_conninfo(std::move(conninfo)), m_id(s_nextPoolId++)
{
    m_pool.setMaxThreadCount(threads);
    m_pool.setExpiryTimeout(-1);
}

DatabasePool::~DatabasePool()
{
    m_pool.clear();
    m_pool.waitForDone();
}

QSqlDatabase DatabasePool::threadConnection(const QString &conninfo, quint64 poolId)
{
    const QString name
        = u"rd-%1-%2"_qs.arg(poolId).arg(reinterpret_cast<quintptr>(QThread::currentThreadId()));
    QSqlDatabase db;
    if (QSqlDatabase::contains(name)) {
        db = QSqlDatabase::database(name, false);
    } else {
        db = QSqlDatabase::addDatabase(u"QPSQL"_qs, name);
        ConnectionSettings::fromConninfo(conninfo).applyTo(db);
        t_connections.names << name;
    }
    if (db.isOpen()) {
        // A connection lost since its last use (server restart) is reopened here.
        QSqlQuery ping(db);
        if (ping.exec(u"SELECT 1"_qs))
            return db;
        db.close();
    }
    if (!db.open())
        throw DatabaseError(db.lastError().text().toStdString());
    QSqlQuery setup(db);
    setup.exec(u"SET application_name = 'renewal-desk'"_qs);
    return db;
}

void execOrThrow(QSqlQuery &query)
{
    if (!query.exec())
        throw DatabaseError(query.lastError().text().toStdString());
}

void execDirect(QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    if (!query.exec(sql))
        throw DatabaseError(query.lastError().text().toStdString());
}

QSqlQuery execSql(QSqlDatabase &db, const QString &sql, const QVariantList &values)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!query.prepare(sql))
        throw DatabaseError(query.lastError().text().toStdString());
    for (const QVariant &v : values)
        query.addBindValue(v);
    execOrThrow(query);
    return query;
}

} // namespace rd::ui
