#include "domain/store/renewal_applier.h"
#include "domain/store/webhook_ingestor.h"
#include "tests/support/fixture_files.h"
#include "tests/support/gap_case.h"
#include "tests/support/ingest_outcomes.h"
#include "tests/support/lock_waiters.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"

#include <pqxx/pqxx>

#include <QtTest>

#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <future>
#include <poll.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

using rd::ApplyOutcome;
using rdtest::februaryRenewal;
using rdtest::observe;
using rdtest::scalar;

namespace {

int unixSocket()
{
    return ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
}

sockaddr_un addressOf(const std::string &path)
{
    sockaddr_un a {};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
    return a;
}

bool writeAll(int fd, const char *p, std::size_t n)
{
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w <= 0)
            return false;
        p += w;
        n -= static_cast<std::size_t>(w);
    }
    return true;
}

/// A PostgreSQL wire relay between libpq and the test cluster's socket that loses one
/// acknowledgement: the first time the server answers with a data row holding `marker` (the
/// core's result "applied"), the relay closes the client's connection instead of passing the
/// answer on. The server committed; the client never learns it. That is exactly a connection
/// dropped between COMMIT and its acknowledgement, on the production code path.
class AckLosingRelay
{
public:
    AckLosingRelay(std::string serverSocket, std::string marker)
        : m_server(std::move(serverSocket)), m_marker(std::move(marker))
    {
        char tmpl[] = "/tmp/rd-relay-XXXXXX";
        m_dir = ::mkdtemp(tmpl);
        m_listen = unixSocket();
        const auto a = addressOf(m_dir + "/.s.PGSQL.5432");
        if (::bind(m_listen, reinterpret_cast<const sockaddr *>(&a), sizeof a) != 0
            || ::listen(m_listen, 16) != 0)
            throw std::runtime_error("relay: cannot listen");
        m_thread = std::thread([this] { acceptLoop(); });
    }

    ~AckLosingRelay()
    {
        m_stop = true;
        ::shutdown(m_listen, SHUT_RDWR);
        m_thread.join();
        for (auto &t : m_sessions)
            t.join();
        ::close(m_listen);
        ::unlink((m_dir + "/.s.PGSQL.5432").c_str());
        ::rmdir(m_dir.c_str());
    }

    const std::string &directory() const { return m_dir; }
    bool dropped() const { return m_dropped; }

private:
    void acceptLoop()
    {
        while (!m_stop) {
            pollfd p {m_listen, POLLIN, 0};
            if (::poll(&p, 1, 100) <= 0)
                continue;
            const int client = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
            if (client < 0)
                continue;
            m_sessions.emplace_back([this, client] { relay(client); });
        }
    }

    void relay(int client)
    {
        const int server = unixSocket();
        const auto a = addressOf(m_server);
        if (::connect(server, reinterpret_cast<const sockaddr *>(&a), sizeof a) != 0) {
            ::close(client);
            ::close(server);
            return;
        }
        std::string fromServer; // bytes not yet forwarded, cut at message boundaries
        char buf[65536];
        bool open = true;
        while (open && !m_stop) {
            pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
            if (::poll(fds, 2, 100) <= 0)
                continue;
            if (fds[0].revents) {
                const ssize_t n = ::read(client, buf, sizeof buf);
                open = n > 0 && writeAll(server, buf, static_cast<std::size_t>(n));
            }
            if (open && fds[1].revents) {
                const ssize_t n = ::read(server, buf, sizeof buf);
                if (n <= 0)
                    break;
                fromServer.append(buf, static_cast<std::size_t>(n));
                // Forward whole messages (type byte, int32 length including itself).
                std::size_t at = 0;
                while (open && fromServer.size() - at >= 5) {
                    std::uint32_t len;
                    std::memcpy(&len, fromServer.data() + at + 1, 4);
                    len = ntohl(len);
                    if (fromServer.size() - at < 1 + len)
                        break;
                    const bool dataRow = fromServer[at] == 'D';
                    if (dataRow && !m_dropped
                        && std::string_view(fromServer).substr(at, 1 + len).find(m_marker)
                            != std::string_view::npos) {
                        m_dropped = true;
                        open = false; // the acknowledgement is lost
                        break;
                    }
                    open = writeAll(client, fromServer.data() + at, 1 + len);
                    at += 1 + len;
                }
                fromServer.erase(0, at);
            }
        }
        ::close(client);
        ::close(server);
    }

    std::string m_server;
    std::string m_marker;
    std::string m_dir;
    int m_listen = -1;
    std::atomic<bool> m_stop {false};
    std::atomic<bool> m_dropped {false};
    std::thread m_thread;
    std::vector<std::thread> m_sessions;
};

std::string valueOf(const std::string &conninfo, const std::string &key)
{
    const auto p = conninfo.find(key + "=");
    if (p == std::string::npos)
        return {};
    auto v = conninfo.substr(p + key.size() + 1);
    v = v.substr(0, v.find(' '));
    if (v.size() >= 2 && v.front() == '\'')
        v = v.substr(1, v.size() - 2);
    return v;
}

// The Stripe renewal fixture: sub_1QxSub0001 renewed from December 2025 into January 2026.
std::string stripeRenewal()
{
    return rdtest::fixtureFile("stripe/renewal_pre_basil.json");
}

} // namespace

using rdtest::outcomeName;

/// A connection lost while applying: the retry says "applied" only when this call's own commit
/// landed, "duplicate" when the renewal was somebody else's, and never records it twice. Both
/// branches run the production path (RenewalApplier's prepared one-statement apply).
class TestInDoubt : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

private slots:
    void init() { m_db = rdtest::databaseWithSub1(); }

    void cleanup() { m_db.reset(); }

    // The commit landed, its acknowledgement was lost: the retry finds its own billing period.
    void commitLandedAcknowledgementLost()
    {
        const auto conninfo = m_db->conninfo();
        AckLosingRelay relay(
            valueOf(conninfo, "host") + "/.s.PGSQL." + valueOf(conninfo, "port"), "applied");
        const std::string viaRelay = "host=" + relay.directory()
            + " port=5432 dbname=" + m_db->name() + " user=" + valueOf(conninfo, "user");

        rd::RenewalApplier applier(viaRelay);
        const auto out = applier.apply(februaryRenewal());
        QVERIFY(relay.dropped());
        QCOMPARE(outcomeName(out.outcome), outcomeName(ApplyOutcome::Applied));
        QVERIFY(out.resolvedInDoubt);
        QCOMPARE(out.attempts, 2);

        auto conn = m_db->connect();
        const auto seen = observe(*conn);
        QCOMPARE(seen.billingPeriods, 1LL);
        QCOMPARE(seen.renewalAudits, 1LL);
        QCOMPARE(seen.outbox, 1LL);
        QCOMPARE(seen.revision, 2LL);
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM subscription_billing_periods WHERE id = '"
                         + out.billingPeriodId + "'"),
            1LL);

        // The provider's retry is a duplicate: one applied result for one renewal.
        rd::RenewalApplier direct(conninfo);
        QCOMPARE(outcomeName(direct.apply(februaryRenewal()).outcome),
            outcomeName(ApplyOutcome::Duplicate));
    }

    // The audit's reproduction: the renewal was applied earlier by another delivery; this
    // call's backend is terminated while it waits for the subscription's lock. Nothing of this
    // call committed, so its retry must say duplicate, not applied.
    void connectionLostBeforeCommitOfARecordedRenewal_data()
    {
        QTest::addColumn<bool>("recordedBefore");
        QTest::newRow("renewal recorded before: duplicate") << true;
        QTest::newRow("nothing recorded: applied by the retry") << false;
    }

    void connectionLostBeforeCommitOfARecordedRenewal()
    {
        QFETCH(bool, recordedBefore);
        if (recordedBefore) {
            rd::RenewalApplier first(m_db->conninfo());
            QCOMPARE(outcomeName(first.apply(februaryRenewal()).outcome),
                outcomeName(ApplyOutcome::Applied));
        }
        auto observer = m_db->connect();
        std::future<rd::ApplyResult> pending;
        rdtest::RowLockHolder lock(*m_db, "sub_1");
        pending = std::async(std::launch::async, [&] {
            rd::RenewalApplier applier(m_db->conninfo());
            return applier.apply(februaryRenewal()); // the same delivery again
        });
        // The retry reconnects and waits again behind the lock: release it once it does.
        const auto failed = rdtest::terminateTheWaiterAndAwaitItsRetry(*observer, lock.pid);
        QVERIFY2(failed.empty(), failed.c_str());
        lock.release();

        const auto out = pending.get();
        QCOMPARE(outcomeName(out.outcome),
            outcomeName(recordedBefore ? ApplyOutcome::Duplicate : ApplyOutcome::Applied));
        QVERIFY(!out.resolvedInDoubt);
        QCOMPARE(out.attempts, 2);
        const auto seen = observe(*observer);
        QCOMPARE(seen.billingPeriods, 1LL);
        QCOMPARE(seen.revision, 2LL);
    }

    // The same for a webhook delivery, which is one transaction (ingest_delivery): its commit
    // landed and the acknowledgement was lost. The retry finds the inbox row by the token this
    // call chose: the outcome is its own "applied", not a duplicate of itself.
    void ingestCommitLandedAcknowledgementLost()
    {
        prepareStripeSubscription();
        const auto conninfo = m_db->conninfo();
        AckLosingRelay relay(
            valueOf(conninfo, "host") + "/.s.PGSQL." + valueOf(conninfo, "port"), "applied");
        const std::string viaRelay = "host=" + relay.directory()
            + " port=5432 dbname=" + m_db->name() + " user=" + valueOf(conninfo, "user");

        rd::WebhookIngestor ingestor(viaRelay);
        const auto out = ingestor.ingest("stripe-main", stripeRenewal());
        QVERIFY(relay.dropped());
        QCOMPARE(outcomeName(out.outcome), outcomeName(rd::IngestOutcome::Applied));
        QVERIFY(out.resolvedInDoubt);
        QCOMPARE(out.attempts, 2);
        QVERIFY(!out.billingPeriodId.empty());

        auto conn = m_db->connect();
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM webhook_inbox"), 1LL);
        QCOMPARE(scalar(*conn, "SELECT deliveries FROM webhook_inbox"), 1LL);
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM webhook_inbox WHERE outcome = 'applied' AND id = "
                         + std::to_string(out.inboxId) + " AND billing_period_id = '"
                         + out.billingPeriodId + "'"),
            1LL);
        const auto seen = observe(*conn, "sub_1QxSub0001");
        QCOMPARE(seen.billingPeriods, 1LL);
        QCOMPARE(seen.renewalAudits, 1LL);
        QCOMPARE(seen.outbox, 1LL);

        // The provider's retry of the delivery is a duplicate delivery of that outcome.
        rd::WebhookIngestor direct(conninfo);
        const auto again = direct.ingest("stripe-main", stripeRenewal());
        QCOMPARE(outcomeName(again.outcome), outcomeName(rd::IngestOutcome::DuplicateDelivery));
        QCOMPARE(again.billingPeriodId, out.billingPeriodId);
        QCOMPARE(again.inboxId, out.inboxId);
    }

    // A delivery whose backend is terminated while it waits for the subscription's lock
    // committed nothing: the retry finds no row of its own and runs it again (applied, not
    // resolved in doubt, one inbox row counting one delivery).
    void ingestConnectionLostBeforeCommit()
    {
        prepareStripeSubscription();
        auto observer = m_db->connect();
        std::future<rd::IngestResult> pending;
        rdtest::RowLockHolder lock(*m_db, "sub_1QxSub0001");
        pending = std::async(std::launch::async, [&] {
            rd::WebhookIngestor ingestor(m_db->conninfo());
            return ingestor.ingest("stripe-main", stripeRenewal());
        });
        const auto failed = rdtest::terminateTheWaiterAndAwaitItsRetry(*observer, lock.pid);
        QVERIFY2(failed.empty(), failed.c_str());
        lock.release();

        const auto out = pending.get();
        QCOMPARE(outcomeName(out.outcome), outcomeName(rd::IngestOutcome::Applied));
        QVERIFY(!out.resolvedInDoubt);
        QCOMPARE(out.attempts, 2);
        QCOMPARE(scalar(*observer, "SELECT deliveries FROM webhook_inbox"), 1LL);
        const auto seen = observe(*observer, "sub_1QxSub0001");
        QCOMPARE(seen.billingPeriods, 1LL);
        QCOMPARE(seen.outbox, 1LL);
    }

private:
    void prepareStripeSubscription()
    {
        {
            auto admin = m_db->connect();
            pqxx::nontransaction tx(*admin);
            tx.exec0("INSERT INTO billing_providers (provider_key, kind, display_name) "
                     "VALUES ('stripe-main', 'stripe', 'Stripe') ON CONFLICT DO NOTHING");
        }
        rdtest::importSubscriptions(m_db->conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_1QxSub0001", "active",
                "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z"));
    }
};

QTEST_GUILESS_MAIN(TestInDoubt)
#include "tst_indoubt.moc"
