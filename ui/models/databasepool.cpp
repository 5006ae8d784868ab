#include "ui/models/databasepool.h"

#include <QObject>
#include <QSqlError>
#include <QStringList>
#include <QThread>

#include <libpq-fe.h>

#include <atomic>
#include <memory>

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

ParsedConninfo parseConninfo(const QString &conninfo)
{
    ParsedConninfo parsed;
    char *error = nullptr;
    std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)> options(
        PQconninfoParse(conninfo.toUtf8().constData(), &error), &PQconninfoFree);
    if (!options) {
        parsed.error = error ? QString::fromUtf8(error).trimmed()
                             : QObject::tr("out of memory reading the connection string");
        PQfreemem(error);
        return parsed;
    }
    for (const PQconninfoOption *o = options.get(); o->keyword; ++o) {
        if (o->val)
            parsed.settings.append({QString::fromUtf8(o->keyword), QString::fromUtf8(o->val)});
    }
    return parsed;
}

QString conninfoWithoutPassword(const QString &conninfo)
{
    QStringList parts;
    for (const auto &[key, value] : parseConninfo(conninfo).settings) {
        if (key != u"password")
            parts << key + u'=' + conninfoValue(value);
    }
    return parts.join(u' ');
}

ConnectionSettings ConnectionSettings::fromConninfo(const QString &conninfo)
{
    ConnectionSettings s;
    const ParsedConninfo parsed = parseConninfo(conninfo);
    if (!parsed.error.isEmpty()) {
        s.error = parsed.error;
        return s;
    }
    QStringList options;
    for (const auto &[key, value] : parsed.settings) {
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
        else
            options << key + u'=' + conninfoValue(value); // setConnectOptions splits on ';'
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
        const ConnectionSettings settings = ConnectionSettings::fromConninfo(conninfo);
        if (!settings.error.isEmpty())
            throw DatabaseError(QObject::tr("The connection string is not valid: %1")
                                    .arg(settings.error)
                                    .toStdString());
        settings.applyTo(db);
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
