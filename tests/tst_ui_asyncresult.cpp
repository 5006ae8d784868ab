#include "ui/models/asyncresult.h"

#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>
#include <QtTest>

#include <memory>
#include <stdexcept>

/// deliverResult and LatestRequest: what the desk's pages rely on when they read off the GUI
/// thread.
class TestUiAsyncResult : public QObject
{
    Q_OBJECT

private slots:
    void resultArrivesOnTheReceiversThread()
    {
        QObject receiver;
        QThread *delivered = nullptr;
        int value = 0;
        rd::ui::deliverResult(
            &receiver, QtConcurrent::run([] { return 42; }),
            [&](int v) {
                value = v;
                delivered = QThread::currentThread();
            },
            [](const QString &message) { QFAIL(qPrintable(message)); });
        QTRY_COMPARE(value, 42);
        QCOMPARE(delivered, receiver.thread());
    }

    void aStaleResultIsDropped()
    {
        QObject receiver;
        rd::ui::LatestRequest latest;
        QPromise<QString> first;
        QPromise<QString> second;
        QStringList shown;
        auto show = [&](const QString &v) { shown << v; };
        auto fail = [](const QString &message) { QFAIL(qPrintable(message)); };
        rd::ui::deliverResult(&receiver, first.future(), show, fail, latest.next());
        rd::ui::deliverResult(&receiver, second.future(), show, fail, latest.next());
        first.start();
        second.start();
        // The newer request answers first, the older one after it: only the newer counts.
        second.addResult(u"newer"_qs);
        second.finish();
        QTRY_COMPARE(shown, QStringList {u"newer"_qs});
        first.addResult(u"older"_qs);
        first.finish();
        QTest::qWait(50);
        QCOMPARE(shown, QStringList {u"newer"_qs});

        // cancel() drops what is in flight, and a later request counts again.
        QPromise<QString> third;
        rd::ui::deliverResult(&receiver, third.future(), show, fail, latest.next());
        latest.cancel();
        third.start();
        third.addResult(u"canceled"_qs);
        third.finish();
        QTest::qWait(50);
        QCOMPARE(shown, QStringList {u"newer"_qs});
        rd::ui::deliverResult(
            &receiver, QtConcurrent::run([] { return u"latest"_qs; }), show, fail, latest.next());
        QTRY_COMPARE(shown, (QStringList {u"newer"_qs, u"latest"_qs}));
    }

    void anErrorIsReported()
    {
        QObject receiver;
        QString error;
        bool gotResult = false;
        rd::ui::deliverResult(
            &receiver,
            QtConcurrent::run([]() -> int { throw std::runtime_error("the server went away"); }),
            [&](int) { gotResult = true; }, [&](const QString &message) { error = message; });
        QTRY_COMPARE(error, u"the server went away"_qs);
        QVERIFY(!gotResult);
    }

    void aResultAfterTheReceiverIsGoneIsNotDelivered()
    {
        auto receiver = std::make_unique<QObject>();
        QPromise<int> promise;
        bool called = false;
        rd::ui::deliverResult(
            receiver.get(), promise.future(), [&](int) { called = true; },
            [&](const QString &) { called = true; });
        receiver.reset();
        promise.start();
        promise.addResult(7);
        promise.finish();
        QTest::qWait(50);
        QVERIFY(!called);

        // The same from a pool thread that is still working when the receiver goes.
        auto second = std::make_unique<QObject>();
        QSemaphore go;
        auto future = QtConcurrent::run([&go] {
            go.acquire();
            return 8;
        });
        rd::ui::deliverResult(
            second.get(), future, [&](int) { called = true; },
            [&](const QString &) { called = true; });
        second.reset();
        go.release();
        future.waitForFinished();
        QTest::qWait(50);
        QVERIFY(!called);
    }

    void aCanceledFutureDeliversNothing()
    {
        QObject receiver;
        bool called = false;
        QPromise<int> promise;
        rd::ui::deliverResult(
            &receiver, promise.future(), [&](int) { called = true; },
            [&](const QString &) { called = true; });
        promise.start();
        promise.future().cancel();
        promise.finish();
        QTest::qWait(50);
        QVERIFY(!called);
    }
};

QTEST_MAIN(TestUiAsyncResult)
#include "tst_ui_asyncresult.moc"
