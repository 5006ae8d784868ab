#include "tests/support/fixture_files.h"
#include "tests/support/ingest_outcomes.h"
#include "tests/support/test_database.h"

#include "domain/core/errors.h"
#include "domain/receiver/delivery_workers.h"
#include "domain/store/retry_policy.h"
#include "domain/store/webhook_ingestor.h"

#include <pqxx/pqxx>

#include <QtTest>

using rdtest::outcomeName;
using rdtest::scalar;
using rdtest::stripeRenewalOf;

/// How often one delivery reaches the database at most (docs/architecture.md, "How often a
/// delivery is tried"): RetryPolicy's attempts, whatever fails and in whatever order, through
/// the receiver's worker as the receiver calls it. A failure is injected into every call of
/// ingest_delivery (a trigger on the inbox row it writes last) and counted by a sequence, which
/// a rollback or a lost connection does not undo. A layer of retries added back around the
/// ingestor (a second connection, another delivery "as invalid" after the first gave up)
/// multiplies the count, and this fails.
class TestDeliveryAttempts : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

    /// Every call of ingest_delivery from now on counts itself, then runs `failure` (PL/pgSQL,
    /// `n` is this call's number).
    void injectIntoEveryCall(const std::string &failure)
    {
        auto admin = m_db->connect();
        pqxx::nontransaction tx(*admin);
        tx.exec0("CREATE SEQUENCE rd_test_calls");
        tx.exec0("CREATE FUNCTION rd_test_fail() RETURNS trigger LANGUAGE plpgsql "
                 "SET search_path = pg_catalog, public AS $$ "
                 "DECLARE n bigint := nextval('public.rd_test_calls'); BEGIN "
            + failure + " RETURN NEW; END $$");
        tx.exec0("CREATE TRIGGER rd_test_fail BEFORE INSERT OR UPDATE ON webhook_inbox "
                 "FOR EACH ROW EXECUTE FUNCTION rd_test_fail()");
    }

    long long calls()
    {
        return scalar(
            *m_db, "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM rd_test_calls");
    }

private slots:
    void init()
    {
        m_db = std::make_unique<rdtest::TestDatabase>(QTest::currentTestFunction());
        {
            auto admin = m_db->connect();
            pqxx::nontransaction tx(*admin);
            tx.exec0("INSERT INTO billing_providers (provider_key, kind, display_name) "
                     "VALUES ('stripe-main', 'stripe', 'Stripe')");
        }
        std::string subs;
        for (const char *tag : {"warm", "hit"})
            subs += rdtest::subscriptionLine("stripe-main", std::string("sub_") + tag, "active",
                        "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z")
                + "\n";
        rdtest::importSubscriptions(m_db->conninfo(), subs);
    }

    void cleanup() { m_db.reset(); }

    void boundedWhateverFails_data()
    {
        QTest::addColumn<QString>("failure");
        QTest::addColumn<int>("expected");
        const int all = rd::RetryPolicy {}.maxAttempts;
        QTest::newRow("serialization failures")
            << "RAISE EXCEPTION 'injected' USING ERRCODE = '40001';" << all;
        QTest::newRow("deadlocks") << "RAISE EXCEPTION 'injected' USING ERRCODE = '40P01';" << all;
        // The backend ends in the call (pg_sleep waits for the signal): the ingestor looks its
        // row up, finds none, and runs the call again on a new connection.
        QTest::newRow("lost connections")
            << "PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(30);" << all;
        // A refused value switches the delivery to "invalid", then to its bytes only; each
        // switch is one of the attempts, never a delivery of its own with attempts of its own.
        QTest::newRow("serialization failures, then refused values")
            << "IF n < 6 THEN RAISE EXCEPTION 'injected' USING ERRCODE = '40001'; END IF; "
               "RAISE EXCEPTION 'injected' USING ERRCODE = '22008';"
            << all;
        QTest::newRow("refused values: the delivery as invalid, then its bytes, then no more")
            << "RAISE EXCEPTION 'injected' USING ERRCODE = '22008';" << 3;
    }

    void boundedWhateverFails()
    {
        QFETCH(QString, failure);
        QFETCH(int, expected);
        // The receiver's worker, with a connection opened for an earlier delivery: the case in
        // which a second connection used to run the whole delivery again.
        rd::WorkerContext worker(m_db->conninfo());
        QCOMPARE(outcomeName(worker.ingest("stripe-main", stripeRenewalOf("warm")).outcome),
            outcomeName(rd::IngestOutcome::Applied));

        injectIntoEveryCall(failure.toStdString());
        QVERIFY_THROWS_EXCEPTION(
            std::exception, worker.ingest("stripe-main", stripeRenewalOf("hit")));
        QCOMPARE(calls(), static_cast<long long>(expected));
        QVERIFY(expected <= rd::RetryPolicy {}.maxAttempts);
        QCOMPARE(scalar(*m_db, "SELECT count(*) FROM webhook_inbox"), 1LL);
    }

    // The first delivery of a worker after the database restarted: its stale connection is
    // lost at the first use, and the same attempts reconnect and deliver.
    void staleConnectionHealsWithinTheAttempts()
    {
        rd::WorkerContext worker(m_db->conninfo());
        QCOMPARE(outcomeName(worker.ingest("stripe-main", stripeRenewalOf("warm")).outcome),
            outcomeName(rd::IngestOutcome::Applied));
        {
            auto admin = m_db->connect();
            pqxx::nontransaction tx(*admin);
            tx.exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()");
        }
        const auto r = worker.ingest("stripe-main", stripeRenewalOf("hit"));
        QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::Applied));
        QCOMPARE(r.attempts, 2);
    }
};

QTEST_GUILESS_MAIN(TestDeliveryAttempts)
#include "tst_deliveryattempts.moc"
