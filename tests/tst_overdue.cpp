#include "tests/support/test_database.h"

#include "domain/core/errors.h"
#include "domain/store/overdue_watch.h"

#include <pqxx/pqxx>

#include <QtTest>

#include <map>
#include <set>
#include <tuple>

using namespace std::chrono_literals;

namespace {

// One subscription, its period ending `endedAgo` before now (NULL: no period).
void addSubscription(pqxx::connection &conn, const std::string &provider, const std::string &id,
    const std::string &status, const char *endedAgo, bool cancelAtPeriodEnd = false)
{
    pqxx::nontransaction tx(conn);
    tx.exec_params("INSERT INTO subscriptions (provider_key, provider_subscription_id, status, "
                   "current_period_start, current_period_end, cancel_at_period_end) "
                   "VALUES ($1, $2, $3, now() - $4::interval - interval '30 days', "
                   "now() - $4::interval, $5)",
        provider, id, status, endedAgo ? std::optional<std::string>(endedAgo) : std::nullopt,
        cancelAtPeriodEnd);
}

void registerProvider(pqxx::connection &conn, const std::string &key, const char *grace = nullptr)
{
    pqxx::nontransaction tx(conn);
    tx.exec_params("INSERT INTO billing_providers (provider_key, kind, display_name) "
                   "VALUES ($1, 'stripe', $1)",
        key);
    if (grace)
        tx.exec_params("UPDATE billing_providers SET overdue_grace = $2::interval "
                       "WHERE provider_key = $1",
            key, std::string(grace));
}

std::set<std::string> overdueIds(
    pqxx::connection &conn, std::optional<std::chrono::seconds> grace = std::nullopt)
{
    std::set<std::string> ids;
    for (const auto &s : rd::overdueSubscriptions(conn, grace, std::nullopt))
        ids.insert(s.providerSubscriptionId);
    return ids;
}

std::map<std::string, long long> countsOf(
    pqxx::connection &conn, std::optional<std::chrono::seconds> grace = std::nullopt)
{
    std::map<std::string, long long> out;
    for (const auto &c : rd::overdueCounts(conn, grace))
        out[c.providerKey] = c.overdue;
    return out;
}

// Every edge of the classification: two registered providers (stripe-main at the default 24 h,
// slow at 72 h) and a key nobody registered.
void addEdges(pqxx::connection &conn)
{
    registerProvider(conn, "stripe-main");
    registerProvider(conn, "slow", "72 hours");
    registerProvider(conn, "quiet");
    addSubscription(conn, "stripe-main", "late", "active", "3 days");
    addSubscription(conn, "stripe-main", "just_past", "active", "24 hours 5 minutes");
    addSubscription(conn, "stripe-main", "inside", "active", "23 hours 55 minutes");
    addSubscription(conn, "stripe-main", "not_ended", "active", "-5 days");
    addSubscription(conn, "stripe-main", "leaving", "active", "3 days", true);
    addSubscription(conn, "stripe-main", "canceled", "canceled", "3 days");
    addSubscription(conn, "stripe-main", "past_due", "past_due", "3 days");
    addSubscription(conn, "stripe-main", "paused", "paused", "3 days");
    addSubscription(conn, "stripe-main", "no_period", "active", nullptr);
    addSubscription(conn, "slow", "slow_inside", "active", "48 hours");
    addSubscription(conn, "slow", "slow_late", "active", "80 hours");
    addSubscription(conn, "unregistered", "other_late", "active", "25 hours");
}

} // namespace

/// The overdue watch of migration 0030, against the real server: what counts as overdue, per
/// provider, and the override.
class TestOverdue : public QObject
{
    Q_OBJECT

private slots:
    void classification()
    {
        rdtest::TestDatabase db("overdue_classification");
        auto conn = db.connect();
        addEdges(*conn);
        QCOMPARE(overdueIds(*conn),
            (std::set<std::string> {"late", "just_past", "slow_late", "other_late"}));
        // Zero counts too: a registered provider with nothing overdue is 0, not absent.
        QCOMPARE(countsOf(*conn),
            (std::map<std::string, long long> {
                {"quiet", 0}, {"slow", 1}, {"stripe-main", 2}, {"unregistered", 1}}));
        for (const auto &c : rd::overdueCounts(*conn)) {
            const auto expected = c.providerKey == "slow" ? 72h : 24h;
            QCOMPARE(c.grace.count(), std::chrono::seconds(expected).count());
        }
    }

    void theOverrideReplacesEveryProvidersGrace()
    {
        rdtest::TestDatabase db("overdue_override");
        auto conn = db.connect();
        addEdges(*conn);
        QCOMPARE(overdueIds(*conn, 0s),
            (std::set<std::string> {
                "late", "just_past", "inside", "slow_inside", "slow_late", "other_late"}));
        QCOMPARE(
            overdueIds(*conn, 50h), (std::set<std::string> {"late", "slow_late"})); // 72 h and 80 h
        QCOMPARE(countsOf(*conn, 100h),
            (std::map<std::string, long long> {
                {"quiet", 0}, {"slow", 0}, {"stripe-main", 0}, {"unregistered", 0}}));
        QVERIFY(overdueIds(*conn, 100h).empty());
    }

    void aRenewalEndsIt()
    {
        rdtest::TestDatabase db("overdue_renewed");
        auto conn = db.connect();
        addEdges(*conn);
        // What the core does to the subscription on a renewal: the period advances.
        pqxx::nontransaction(*conn).exec0(
            "UPDATE subscriptions SET current_period_start = current_period_end, "
            "current_period_end = current_period_end + interval '30 days' "
            "WHERE provider_subscription_id = 'late'");
        QVERIFY(!overdueIds(*conn).count("late"));
        QCOMPARE(countsOf(*conn).at("stripe-main"), 1LL);
    }

    void theGraceIsSetPerProviderAndChecked()
    {
        rdtest::TestDatabase db("overdue_set_grace");
        auto conn = db.connect();
        addEdges(*conn);
        rd::setOverdueGrace(*conn, "stripe-main", 96h);
        QCOMPARE(countsOf(*conn).at("stripe-main"), 0LL);
        rd::setOverdueGrace(*conn, "stripe-main", 0h);
        QCOMPARE(countsOf(*conn).at("stripe-main"), 3LL); // inside too
        QVERIFY_THROWS_EXCEPTION(rd::InputError, rd::setOverdueGrace(*conn, "unregistered", 1h));
        QVERIFY_THROWS_EXCEPTION(rd::InputError, rd::setOverdueGrace(*conn, "slow", 91 * 24h));
        QVERIFY_THROWS_EXCEPTION(rd::InputError, rd::setOverdueGrace(*conn, "slow", -1h));
        // The database refuses what a direct UPDATE might try: months are not a fixed length.
        QVERIFY_THROWS_EXCEPTION(pqxx::check_violation,
            pqxx::nontransaction(*conn).exec0(
                "UPDATE billing_providers SET overdue_grace = interval '1 month'"));
    }

    /// More rows than a page, in the index's order: provider, then oldest period end, then id;
    /// none twice, none left out (equal period ends across a page boundary).
    void theListIsReadInPages()
    {
        rdtest::TestDatabase db("overdue_pages");
        auto conn = db.connect();
        registerProvider(*conn, "a-prov");
        registerProvider(*conn, "b-prov");
        pqxx::nontransaction(*conn).exec0(
            "INSERT INTO subscriptions (provider_key, provider_subscription_id, status, "
            "current_period_start, current_period_end) "
            "SELECT CASE WHEN i % 3 = 0 THEN 'a-prov' ELSE 'b-prov' END, 'sub_' || i, 'active', "
            "date_trunc('day', now()) - interval '40 days' - (i % 7) * interval '1 day', "
            "date_trunc('day', now()) - interval '5 days' - (i % 7) * interval '1 day' "
            "FROM generate_series(1, 1203) i");
        const auto all = rd::overdueSubscriptions(*conn, std::nullopt, std::nullopt);
        QCOMPARE(all.size(), std::size_t(1203));
        std::set<std::string> seen;
        for (std::size_t i = 0; i < all.size(); ++i) {
            QVERIFY(seen.insert(all[i].providerSubscriptionId).second);
            if (i == 0)
                continue;
            const auto &p = all[i - 1], &c = all[i];
            QVERIFY2(std::tie(p.providerKey, p.currentPeriodEnd, p.providerSubscriptionId)
                    < std::tie(c.providerKey, c.currentPeriodEnd, c.providerSubscriptionId),
                (p.providerSubscriptionId + " before " + c.providerSubscriptionId).c_str());
        }
        QCOMPARE(rd::overdueSubscriptions(*conn, std::nullopt, std::string("a-prov")).size(),
            std::size_t(401));
        QCOMPARE(rd::overdueSubscriptions(*conn, std::nullopt, std::string("b-prov")).size(),
            std::size_t(802));
    }

    /// The count reads the partial index, a range per provider key, and no table row.
    void theCountIsAnIndexRange()
    {
        rdtest::TestDatabase db("overdue_plan");
        auto conn = db.connect();
        registerProvider(*conn, "stripe-main");
        pqxx::nontransaction tx(*conn);
        tx.exec0("INSERT INTO subscriptions (provider_key, provider_subscription_id, status, "
                 "current_period_start, current_period_end, cancel_at_period_end) "
                 "SELECT 'p' || (i % 4), 'sub_' || i, "
                 "CASE WHEN i % 10 = 0 THEN 'canceled' ELSE 'active' END, "
                 "now() - interval '60 days' + (i % 60) * interval '1 day', "
                 "now() - interval '30 days' + (i % 60) * interval '1 day', i % 7 = 0 "
                 "FROM generate_series(1, 20000) i");
        tx.exec0("VACUUM ANALYZE subscriptions");
        tx.exec0("LOAD 'auto_explain'");
        tx.exec0("SET auto_explain.log_min_duration = 0");
        tx.exec0("SET auto_explain.log_nested_statements = on");
        tx.exec0("SET client_min_messages = log");
        tx.exec0("SET auto_explain.log_level = notice");
        std::string plans;
        struct Collect : pqxx::errorhandler
        {
            Collect(pqxx::connection &c, std::string &s) : pqxx::errorhandler(c), out(s) { }
            bool operator()(const char msg[]) noexcept override
            {
                out += msg;
                return true;
            }
            std::string &out;
        } collect(*conn, plans);
        const auto counted
            = tx.exec1("SELECT sum(overdue) FROM overdue_subscription_counts()")[0].as<long long>();
        tx.exec0("RESET auto_explain.log_min_duration");
        const auto expected = tx.exec1("SET LOCAL enable_indexscan = off; "
                                       "SELECT count(*) FROM subscriptions WHERE status = 'active' "
                                       "AND NOT cancel_at_period_end "
                                       "AND current_period_end < now() - interval '24h'")[0]
                                  .as<long long>();
        QVERIFY(expected > 1000);
        QCOMPARE(counted, expected);
        QVERIFY2(
            plans.find("Index Only Scan using subscriptions_overdue_watch") != std::string::npos,
            plans.c_str());
        QVERIFY2(plans.find("Seq Scan on subscriptions") == std::string::npos, plans.c_str());
    }
};

QTEST_GUILESS_MAIN(TestOverdue)
#include "tst_overdue.moc"
