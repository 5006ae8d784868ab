#include "ui/models/databasepool.h"

#include "ui/models/connectionsettings.h"

#include <QCoreApplication>
#include <QObject>
#include <QSqlError>
#include <QStringList>
#include <QThread>

#include <atomic>
#include <latch>
#include <memory>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::DatabasePool)
};

} // namespace
namespace {

/// Closes and unregisters this thread's connections when the thread ends, so that no
/// connection outlives the thread that owns it. A pool's threads close theirs before the pool
/// ends (DatabasePool::~DatabasePool): a thread_local's destructor runs after QThread::wait()
/// has returned for its thread, so under load it could still be closing a connection while the
/// program exited and Qt SQL was torn down (renewal-desk --screenshot segfaulted at exit in
/// CI's package_install). What is left here is the GUI thread's (a task a QFuture's wait ran
/// there), closed at its exit, before any static is destroyed.
struct ThreadConnections
{
    QStringList names;
    void closeAll()
    {
        for (const QString &name : std::as_const(names)) {
            {
                QSqlDatabase db = QSqlDatabase::database(name, false);
                db.close();
            }
            QSqlDatabase::removeDatabase(name);
        }
        names.clear();
    }
    ~ThreadConnections() { closeAll(); }
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
    : m_conninfo(std::move(conninfo)), m_id(s_nextPoolId++)
{
    m_pool.setMaxThreadCount(threads);
    m_pool.setExpiryTimeout(-1);
}

DatabasePool::~DatabasePool()
{
    m_pool.clear();
    m_pool.waitForDone();
    // One closing task a thread, each held until all have started, so that no thread takes
    // two: every thread of the pool closes its own connections while it still runs. Started,
    // not run through QtConcurrent: nobody waits on them, so none runs on this thread instead.
    const int threads = m_pool.maxThreadCount();
    const auto started = std::make_shared<std::latch>(threads);
    for (int i = 0; i < threads; ++i)
        m_pool.start([started] {
            t_connections.closeAll();
            started->arrive_and_wait();
        });
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
            throw rd::DatabaseUnavailable(
                Tr::tr("The connection string is not valid: %1").arg(settings.error).toStdString());
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
        throw rd::DatabaseUnavailable(db.lastError().text().toStdString());
    QSqlQuery setup(db);
    setup.exec(u"SET application_name = 'renewal-desk'"_qs);
    // The desk reads pages and totals of a few hundred rows by index: JIT compiling them never
    // pays. On 12 M billing periods the planner priced the Ledger's page (renewals and money
    // back merged) past jit_above_cost, and compiling took 50 of its 65 ms (docs/benchmarks.md).
    setup.exec(u"SET jit = off"_qs);
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
