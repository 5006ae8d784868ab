#pragma once

#include "domain/store/database_errors.h"

#include <QFuture>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QThreadPool>
#include <QVariantList>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>

namespace rd::ui {

// A query that fails throws what the store throws (domain/store/database_errors.h): a
// refusal as rd::ActionRefused, anything else as rd::DatabaseFailure with the server's
// SQLSTATE and whether a retry can heal it; a server that cannot be reached is
// rd::DatabaseUnavailable. what() is the server's message, which the desk shows.

/// Runs read queries and actions off the GUI thread. Every worker thread opens its own
/// QSqlDatabase on first use and keeps it (a QSqlDatabase may only be used by the thread that
/// opened it), so the pool's threads never expire.
class DatabasePool
{
public:
    explicit DatabasePool(QString conninfo, int threads = 2);
    ~DatabasePool();
    DatabasePool(const DatabasePool &) = delete;
    DatabasePool &operator=(const DatabasePool &) = delete;

    const QString &conninfo() const { return m_conninfo; }

    /// `work(db)` on a pool thread with that thread's open connection. An exception thrown by
    /// `work` (rd::DatabaseFailure for failed queries) reaches the QFuture.
    template<typename F>
    auto run(F work) -> QFuture<decltype(work(std::declval<QSqlDatabase &>()))>
    {
        const QString conninfo = m_conninfo;
        const quint64 id = m_id;
        return QtConcurrent::run(&m_pool, [conninfo, id, work = std::move(work)]() mutable {
            QSqlDatabase db = threadConnection(conninfo, id);
            return work(db);
        });
    }

    /// `load(db, args...)` on a pool thread: how widgets start a read model's loader without
    /// naming the connection themselves (widgets draw, models read; no QSql in ui/widgets).
    template<typename F, typename... Args>
    auto call(F load, Args... args)
    {
        return run([load, args...](QSqlDatabase &db) { return load(db, args...); });
    }

    /// This thread's connection for `conninfo`, opened (or re-opened after a loss) on demand.
    /// Throws rd::DatabaseUnavailable when the server cannot be reached.
    static QSqlDatabase threadConnection(const QString &conninfo, quint64 poolId);

private:
    QString m_conninfo;
    quint64 m_id;
    QThreadPool m_pool;
};

/// Executes `query` (prepared, values bound); throws rd::DatabaseFailure (or ActionRefused) with
/// the server's message and SQLSTATE.
void execOrThrow(QSqlQuery &query);
/// Executes `sql` as is (no parameters): for statements PostgreSQL cannot PREPARE
/// (BEGIN, SET, LISTEN).
void execDirect(QSqlDatabase &db, const QString &sql);
/// Prepares and executes `sql` with positional values.
QSqlQuery execSql(QSqlDatabase &db, const QString &sql, const QVariantList &values = {});

} // namespace rd::ui
