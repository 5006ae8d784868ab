#pragma once

#include <QCoreApplication>
#include <QException>
#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace rd::ui {

/// The newest request of one kind (the detail of the selected row, the preview of the text
/// typed so far): each `next()` supersedes every request made before it, so that an answer
/// that arrives late is not shown over a newer one.
class LatestRequest
{
public:
    /// Starts a new request. The check it returns tells, when the answer arrives, whether no
    /// newer request (nor a `cancel()`) came since. It may outlive this object.
    std::function<bool()> next()
    {
        const quint64 generation = ++*m_generation;
        return [current = m_generation, generation] { return *current == generation; };
    }
    /// Drops the answers of every request in flight.
    void cancel() { ++*m_generation; }

private:
    std::shared_ptr<quint64> m_generation = std::make_shared<quint64>(0);
};

namespace detail {

/// The message of what a worker threw. QtConcurrent wraps an exception that is not a
/// QException in a QUnhandledException ("std::exception"): the original is unwrapped.
/// The header's translation context (a header has no anonymous namespace to hold a Tr).
struct AsyncResultTr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::AsyncResult)
};

inline QString errorMessage(std::exception_ptr error)
{
    try {
        std::rethrow_exception(error);
    } catch (const QUnhandledException &e) {
        if (e.exception())
            return errorMessage(e.exception());
        return QString::fromUtf8(e.what());
    } catch (const std::exception &e) {
        return QString::fromUtf8(e.what());
    } catch (...) {
        return AsyncResultTr::tr("unexpected error");
    }
}

} // namespace detail

/// Delivers what `future` (work on a thread pool, e.g. DatabasePool::run) comes to, on
/// `receiver`'s thread: `onResult(T)`, or `onError(QString)` with the message of the exception
/// the work threw (rd::DatabaseFailure: the server's message). Nothing is delivered
///  - when `receiver` is destroyed first (the watcher is its child and goes with it),
///  - when `isCurrent` is given and says no at arrival (a newer request superseded this one),
///  - when the future was canceled without a result (its pool shut down).
template<typename T, typename OnResult, typename OnError>
void deliverResult(QObject *receiver, QFuture<T> future, OnResult onResult, OnError onError,
    std::function<bool()> isCurrent = {})
{
    auto *watcher = new QFutureWatcher<T>(receiver);
    QObject::connect(watcher, &QFutureWatcherBase::finished, receiver,
        [watcher, onResult = std::move(onResult), onError = std::move(onError),
            isCurrent = std::move(isCurrent)]() mutable {
            watcher->deleteLater();
            if (isCurrent && !isCurrent())
                return;
            QFuture<T> done = watcher->future();
            try {
                done.waitForFinished(); // finished already; rethrows what the work threw
            } catch (...) {
                onError(detail::errorMessage(std::current_exception()));
                return;
            }
            if constexpr (std::is_void_v<T>) {
                if (!done.isCanceled())
                    onResult();
            } else {
                if (done.resultCount() == 0)
                    return; // canceled before it ran
                onResult(done.result());
            }
        });
    watcher->setFuture(std::move(future));
}

} // namespace rd::ui
