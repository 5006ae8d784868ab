#include "ui/models/databasepool.h"

#include "ui/models/connectionsettings.h"

#include <QCoreApplication>
#include <QObject>
#include <QSqlError>
#include <QStringList>
#include <QThread>

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace rd::ui {

/// The threads of one pool that hold connections, counted until each has closed them. A
/// thread's thread_local connections are closed after QThread::wait() has returned for it
/// (thread_local destructors run once the thread's function has returned), so the pool's
/// destructor waits here too: else a closing thread could outlive the pool and the program,
/// and close its connection in a Qt SQL already torn down at exit (a crash seen under load).
struct PoolThreads
{
    std::mutex mutex;
    std::condition_variable closed;
    int open = 0;

    void opened()
    {
        const std::lock_guard lock(mutex);
        ++open;
    }
    void done()
    {
        {
            const std::lock_guard lock(mutex);
            --open;
        }
        closed.notify_all();
    }
    void waitForAll()
    {
        std::unique_lock lock(mutex);
        closed.wait(lock, [this] { return open == 0; });
    }
};

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::DatabasePool)
};

} // namespace
namespace {

/// Closes and unregisters this thread's connections when the thread ends, so that no
/// connection outlives the thread that owns it.
struct ThreadConnections
{
    QStringList names;
    std::shared_ptr<PoolThreads> pool;
    ~ThreadConnections()
    {
        for (const QString &name : std::as_const(names)) {
            {
                QSqlDatabase db = QSqlDatabase::database(name, false);
                db.close();
            }
            QSqlDatabase::removeDatabase(name);
        }
        if (pool)
            pool->done();
    }
};

thread_local ThreadConnections t_connections;

/// A failed statement as the store reports one (QPSQL's native error code is the SQLSTATE).
[[noreturn]] void throwQueryError(const QSqlError &error)
{
    rd::throwDatabaseFailure(error.text().toStdString(), error.nativeErrorCode().toStdString());
}

} // namespace

static std::atomic<quint64> s_nextPoolId {1};

DatabasePool::DatabasePool(QString conninfo, int threads)
    : m_conninfo(std::move(conninfo))
    , m_id(s_nextPoolId++)
    , m_threads(std::make_shared<PoolThreads>())
    , m_pool(std::make_unique<QThreadPool>())
{
    m_pool->setMaxThreadCount(threads);
    m_pool->setExpiryTimeout(-1);
}

DatabasePool::~DatabasePool()
{
    m_pool->clear();
    m_pool->waitForDone();
    // Ends the threads (QThreadPool's destructor), then waits for their connections' close.
    m_pool.reset();
    m_threads->waitForAll();
}

QSqlDatabase DatabasePool::threadConnection(
    const QString &conninfo, quint64 poolId, const std::shared_ptr<PoolThreads> &threads)
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
            throw rd::DatabaseUnavailable(
                Tr::tr("The connection string is not valid: %1").arg(settings.error).toStdString());
        settings.applyTo(db);
        t_connections.names << name;
        if (threads && !t_connections.pool) {
            t_connections.pool = threads;
            threads->opened();
        }
    }
    if (db.isOpen()) {
        // A connection lost since its last use (server restart) is reopened here.
        QSqlQuery ping(db);
        if (ping.exec(u"SELECT 1"_qs))
            return db;
        db.close();
    }
    if (!db.open())
        throw rd::DatabaseUnavailable(db.lastError().text().toStdString());
    QSqlQuery setup(db);
    setup.exec(u"SET application_name = 'renewal-desk'"_qs);
    return db;
}

void execOrThrow(QSqlQuery &query)
{
    if (!query.exec())
        throwQueryError(query.lastError());
}

void execDirect(QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    if (!query.exec(sql))
        throwQueryError(query.lastError());
}

QSqlQuery execSql(QSqlDatabase &db, const QString &sql, const QVariantList &values)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!query.prepare(sql))
        throwQueryError(query.lastError());
    for (const QVariant &v : values)
        query.addBindValue(v);
    execOrThrow(query);
    return query;
}

} // namespace rd::ui
