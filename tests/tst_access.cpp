// Payment trouble and access (#41), against a real server: failed attempts kept once through
// record_payment_trouble, the provider's standing facts never moved backwards, the access
// verdict of each rule (rd_access_verdict), the sweep that records each due transition once
// (two sweeps in separate processes, proven to overlap; a sweep killed mid-way and rerun), an
// operator's extension, and recovery: the failed invoice paid is its renewal, recorded once.

#include "tests/support/fixture_files.h"
#include "tests/support/ingest_outcomes.h"
#include "tests/support/lock_waiters.h"
#include "tests/support/process_runner.h"
#include "tests/support/test_database.h"

#include "domain/store/webhook_ingestor.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QtTest>

#include <csignal>
#include <memory>

using rdtest::ctl;
using rdtest::fixtureFile;
using rdtest::outcomeName;
using rdtest::replaceAll;
using rdtest::runProgram;
using rdtest::scalar;
using rdtest::text;
using rdtest::withDb;

namespace {

constexpr const char *kSub = "sub_1QxSub0001";

// stripe-main registered, with `subscriptions` active until 1 January 2026.
void registered(const rdtest::TestDatabase &db, const QStringList &subscriptions = {kSub})
{
    QCOMPARE(runProgram(ctl(), withDb(db, {"providers", "add", "stripe-main", "--kind", "stripe"}))
                 .exitCode,
        0);
    std::string lines;
    for (const auto &s : subscriptions)
        lines += rdtest::subscriptionLine("stripe-main", s.toStdString(), "active",
                     "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z")
            + "\n";
    rdtest::importSubscriptions(db.conninfo(), lines);
}

// record_payment_trouble as ingest_delivery calls it (the owner's), for the rules' own tests.
std::string record(const rdtest::TestDatabase &db, const std::string &sub,
    const nlohmann::json &trouble, const std::string &eventId)
{
    const nlohmann::json event {{"providerKey", "stripe-main"}, {"providerEventId", eventId},
        {"providerSubscriptionId", sub}, {"trouble", trouble}};
    auto conn = db.connect();
    pqxx::nontransaction tx(*conn);
    return tx
        .exec_params1("SELECT result FROM public.record_payment_trouble($1::jsonb, "
                      "'webhook', 'stripe-main')",
            event.dump())[0]
        .as<std::string>();
}

nlohmann::json attempt(
    const std::string &invoice, int n, const std::string &at, const std::string &next)
{
    return {
        {"attempts",
            {{{"invoiceKey", invoice}, {"attempt", n}, {"failedAt", at},
                {"nextAttemptAt", next.empty() ? nlohmann::json(nullptr) : nlohmann::json(next)},
                {"declineCode", "card_declined"}}}},
        {"standing", nullptr}};
}

nlohmann::json standing(const std::string &word, const std::string &at, const std::string &reason)
{
    return {{"attempts", nlohmann::json::array()},
        {"standing",
            {{"standing", word}, {"observedAt", at},
                {"reason", reason.empty() ? nlohmann::json(nullptr) : nlohmann::json(reason)}}}};
}

nlohmann::json verdictAt(
    const rdtest::TestDatabase &db, const std::string &sub, const std::string &now)
{
    const auto out = runProgram(ctl(),
        withDb(db,
            {"access", "show", "--provider-key", "stripe-main", "--subscription",
                QString::fromStdString(sub), "--now", QString::fromStdString(now), "--json"}));
    if (out.exitCode != 0)
        return nullptr;
    return nlohmann::json::parse(out.out.toStdString());
}

// A Stripe body of `fixture` with its event id (and invoice, attempt) changed.
std::string stripeBody(const std::string &fixture, const std::string &eventId,
    const std::string &fromEvent, const std::string &fromInvoice = {},
    const std::string &toInvoice = {})
{
    std::string body = replaceAll(fixtureFile(fixture), fromEvent, eventId);
    if (!fromInvoice.empty())
        body = replaceAll(body, fromInvoice, toInvoice);
    return body;
}

std::unique_ptr<QProcess> startSweep(const rdtest::TestDatabase &db, const QStringList &extra)
{
    auto p = std::make_unique<QProcess>();
    p->start(ctl(), withDb(db, QStringList {"access", "sweep", "--json"} + extra));
    p->waitForStarted();
    return p;
}

} // namespace

class TestAccess : public QObject
{
    Q_OBJECT

private slots:
    // One rule a row: what the database knows by `now` (facts told through
    // record_payment_trouble, a policy), and the verdict, source and end of grace it gives.
    // The subscription's paid period ended 2026-01-01; the default policy is 7 days, block.
    void verdictRules_data()
    {
        QTest::addColumn<QString>("facts"); // a JSON array of trouble objects, told in order
        QTest::addColumn<QString>("policy"); // "" (none), or "DAYS" or "DAYS keep"
        QTest::addColumn<QString>("now");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("since");
        QTest::addColumn<QString>("until"); // "" for none

        const auto facts = [](std::initializer_list<nlohmann::json> list) {
            return QString::fromStdString(nlohmann::json(list).dump());
        };
        QTest::newRow("paid period running") << "[]"
                                             << ""
                                             << "2025-12-15T00:00:00Z"
                                             << "good_standing"
                                             << "provider"
                                             << "2025-12-01T00:00:00.000000Z"
                                             << "";
        QTest::newRow("period ended, no word: local grace") << "[]"
                                                            << ""
                                                            << "2026-01-03T00:00:00Z"
                                                            << "in_grace"
                                                            << "policy"
                                                            << "2026-01-01T00:00:00.000000Z"
                                                            << "2026-01-08T00:00:00.000000Z";
        QTest::newRow("period ended, no word, grace passed: blocked")
            << "[]"
            << ""
            << "2026-01-09T00:00:00Z"
            << "blocked"
            << "policy"
            << "2026-01-08T00:00:00.000000Z"
            << "";
        QTest::newRow("a policy of 2 days") << "[]"
                                            << "2"
                                            << "2026-01-04T00:00:00Z"
                                            << "blocked"
                                            << "policy"
                                            << "2026-01-03T00:00:00.000000Z"
                                            << "";
        QTest::newRow("provider retries: in grace until its next attempt, past the local grace")
            << facts({attempt("in_1", 1, "2026-01-01T01:00:00Z", "2026-01-10T00:00:00Z")}) << ""
            << "2026-01-09T00:00:00Z"
            << "in_grace"
            << "provider"
            << "2026-01-01T01:00:00.000000Z"
            << "2026-01-10T00:00:00.000000Z";
        QTest::newRow("provider retries: the local grace when later than its next attempt")
            << facts({attempt("in_1", 1, "2026-01-01T01:00:00Z", "2026-01-02T00:00:00Z")}) << ""
            << "2026-01-03T00:00:00Z"
            << "in_grace"
            << "provider"
            << "2026-01-01T01:00:00.000000Z"
            << "2026-01-08T00:00:00.000000Z";
        QTest::newRow("no word after the retry and the grace: blocked by policy")
            << facts({attempt("in_1", 1, "2026-01-01T01:00:00Z", "2026-01-10T00:00:00Z")}) << ""
            << "2026-01-11T00:00:00Z"
            << "blocked"
            << "policy"
            << "2026-01-10T00:00:00.000000Z"
            << "";
        QTest::newRow("past_due without attempts: in grace")
            << facts({standing("past_due", "2026-01-01T02:00:00Z", "")}) << ""
            << "2026-01-02T00:00:00Z"
            << "in_grace"
            << "provider"
            << "2026-01-01T02:00:00.000000Z"
            << "2026-01-08T00:00:00.000000Z";
        QTest::newRow("the provider gave up: blocked at once")
            << facts({attempt("in_1", 1, "2026-01-01T01:00:00Z", "2026-01-04T00:00:00Z"),
                   standing("unpaid", "2026-01-04T00:00:00Z", "retries_exhausted")})
            << ""
            << "2026-01-05T00:00:00Z"
            << "blocked"
            << "provider"
            << "2026-01-04T00:00:00.000000Z"
            << "";
        QTest::newRow("the provider gave up, keep until period end: in grace")
            << facts({standing("unpaid", "2026-01-04T00:00:00Z", "dunning_exhausted")}) << "7 keep"
            << "2026-01-05T00:00:00Z"
            << "in_grace"
            << "policy"
            << "2026-01-04T00:00:00.000000Z"
            << "2026-01-08T00:00:00.000000Z";
        QTest::newRow("the provider gave up, keep until period end, passed: blocked")
            << facts({standing("unpaid", "2026-01-04T00:00:00Z", "dunning_exhausted")}) << "7 keep"
            << "2026-01-09T00:00:00Z"
            << "blocked"
            << "policy"
            << "2026-01-08T00:00:00.000000Z"
            << "";
        QTest::newRow("paused by the provider")
            << facts({standing("paused", "2025-12-20T00:00:00Z", "")}) << ""
            << "2025-12-21T00:00:00Z"
            << "blocked"
            << "provider"
            << "2025-12-20T00:00:00.000000Z"
            << "";
        QTest::newRow("canceled for non-payment: ended")
            << facts({standing("unpaid", "2026-01-04T00:00:00Z", ""),
                   standing("canceled", "2026-01-05T00:00:00Z", "not_paid")})
            << ""
            << "2026-01-06T00:00:00Z"
            << "ended"
            << "provider"
            << "2026-01-05T00:00:00.000000Z"
            << "";
        QTest::newRow("out of order: an older past_due told after unpaid moves nothing back")
            << facts({standing("unpaid", "2026-01-05T00:00:00Z", "retries_exhausted"),
                   standing("past_due", "2026-01-02T00:00:00Z", "")})
            << ""
            << "2026-01-06T00:00:00Z"
            << "blocked"
            << "provider"
            << "2026-01-05T00:00:00.000000Z"
            << "";
        QTest::newRow("out of order: unpaid told after a newer active is over")
            << facts({standing("active", "2025-12-20T00:00:00Z", ""),
                   standing("paused", "2025-12-10T00:00:00Z", "")})
            << ""
            << "2025-12-21T00:00:00Z"
            << "good_standing"
            << "provider"
            << "2025-12-20T00:00:00.000000Z"
            << "";
        QTest::newRow("facts after the instant asked about do not count")
            << facts({standing("paused", "2025-12-20T00:00:00Z", "")}) << ""
            << "2025-12-19T00:00:00Z"
            << "good_standing"
            << "provider"
            << "2025-12-01T00:00:00.000000Z"
            << "";
    }
    void verdictRules()
    {
        QFETCH(QString, facts);
        QFETCH(QString, policy);
        QFETCH(QString, now);
        rdtest::TestDatabase db("access_rules");
        registered(db);
        if (!policy.isEmpty()) {
            const auto words = policy.split(u' ');
            QStringList args {"providers", "set-access", "--provider-key", "stripe-main",
                "--grace-days", words.at(0)};
            if (words.size() > 1)
                args << "--keep-until-period-end";
            const auto set = runProgram(ctl(), withDb(db, args));
            QVERIFY2(set.exitCode == 0, set.err.constData());
        }
        int n = 0;
        for (const auto &t : nlohmann::json::parse(facts.toStdString()))
            QCOMPARE(QString::fromStdString(record(db, kSub, t, "evt_" + std::to_string(++n))),
                u"recorded"_qs);
        const auto v = verdictAt(db, kSub, now.toStdString());
        QVERIFY(v.is_object());
        QFETCH(QString, verdict);
        QCOMPARE(QString::fromStdString(v.value("verdict", "")), verdict);
        QFETCH(QString, source);
        QFETCH(QString, since);
        QFETCH(QString, until);
        QCOMPARE(QString::fromStdString(v.value("source", "")), source);
        QCOMPARE(QString::fromStdString(v.value("since", "")), since);
        QCOMPARE(QString::fromStdString(v["until"].is_null() ? "" : v["until"].get<std::string>()),
            until);
        QVERIFY(!v.value("reason", "").empty());
    }

    // Each failed attempt is kept once on (provider, invoice, attempt): the same delivery
    // again is a duplicate delivery, the same attempt in another event is a duplicate, each
    // with one audit row and one outbox intent; a second attempt is a row of its own. Then the
    // failed invoice paid: its renewal is recorded once, and the trouble ends.
    void failedAttemptsOnceThenRecovery()
    {
        rdtest::TestDatabase db("access_recovery");
        registered(db);
        rd::WebhookIngestor ingestor(db.conninfo());
        const std::string failed
            = fixtureFile("stripe/payment_trouble_payment_failed_pre_basil.json");
        auto r = ingestor.ingest("stripe-main", failed);
        QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::Recorded));
        r = ingestor.ingest("stripe-main", failed);
        QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::DuplicateDelivery));
        // invoice.payment_failed told again under another event id: the same attempt.
        r = ingestor.ingest("stripe-main", replaceAll(failed, "evt_1QxPayFail001", "evt_again"));
        QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::Duplicate));
        // The second attempt, three days later.
        std::string second = replaceAll(failed, "evt_1QxPayFail001", "evt_second");
        second = replaceAll(second, "\"attempt_count\": 1", "\"attempt_count\": 2");
        second = replaceAll(second, "\"created\": 1767229270", "\"created\": 1767488470");
        r = ingestor.ingest("stripe-main", second);
        QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::Recorded));
        QCOMPARE(scalar(db, "SELECT count(*) FROM payment_attempts"), 2LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_transition_audits "
                     "WHERE transition = 'payment_failed'"),
            2LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_outbox WHERE event_type = "
                     "'payment.failed'"),
            2LL);
        // Recorded as it arrived: the delivery settled the verdict, at the database's clock
        // (the fixture's attempts are of January 2026: long past their grace by now).
        QCOMPARE(text(db, "SELECT verdict || ' ' || source FROM access_verdicts"),
            std::string("blocked policy"));
        QCOMPARE(verdictAt(db, kSub, "2026-01-05T00:00:00Z").value("verdict", ""),
            std::string("in_grace"));

        // The failed invoice paid: Stripe's renewal of in_1QxFail0001.
        const std::string paid = stripeBody("stripe/renewal_pre_basil.json", "evt_paid",
            "evt_1QxRenew0001", "in_1QxRenew0001", "in_1QxFail0001");
        r = ingestor.ingest("stripe-main", paid);
        QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::Applied));
        r = ingestor.ingest("stripe-main", replaceAll(paid, "evt_paid", "evt_paid_again"));
        QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::Duplicate));
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_billing_periods "
                     "WHERE provider_renewal_key = 'in_1QxFail0001'"),
            1LL);
        const auto v = verdictAt(db, kSub, "2026-01-10T00:00:00Z");
        QCOMPARE(v.value("verdict", ""), std::string("good_standing"));
        QCOMPARE(v["attempts"].size(), std::size_t(2));
        for (const auto &a : v["attempts"])
            QVERIFY(a.value("recovered", false));
        // The sweep records the recovery once.
        const auto sweep = runProgram(
            ctl(), withDb(db, {"access", "sweep", "--now", "2026-01-10T00:00:00Z", "--json"}));
        QCOMPARE(sweep.exitCode, 0);
        QCOMPARE(text(db,
                     "SELECT verdict || ' after ' || previous_verdict FROM access_transitions "
                     "ORDER BY seq DESC LIMIT 1"),
            std::string("good_standing after blocked"));
        QCOMPARE(runProgram(ctl(), withDb(db, {"access", "sweep", "--now", "2026-01-10T00:00:00Z"}))
                     .exitCode,
            0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM access_transitions"), 2LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_outbox WHERE event_type = "
                     "'access.changed'"),
            2LL);
        // The chain holds every row.
        QCOMPARE(runProgram(ctl(), withDb(db, {"audit", "verify"})).exitCode, 0);
    }

    // Trouble of a subscription not known here is kept in the inbox, not forced.
    void unknownSubscriptionIsNotRecorded()
    {
        rdtest::TestDatabase db("access_unknown");
        registered(db, {"sub_other"});
        rd::WebhookIngestor ingestor(db.conninfo());
        const auto r = ingestor.ingest(
            "stripe-main", fixtureFile("stripe/payment_trouble_payment_failed_pre_basil.json"));
        QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::NotARenewal));
        QCOMPARE(r.error, std::string("subscription_not_found"));
        QCOMPARE(scalar(db, "SELECT count(*) FROM payment_attempts"), 0LL);
    }

    // Two sweeps in separate processes, both seen waiting for the first candidate's row lock
    // before it is let go: every due transition is recorded once, by one of them.
    void twoConcurrentSweepsRecordEachTransitionOnce()
    {
        rdtest::TestDatabase db("access_sweeps");
        registered(db, {"sub_a", "sub_b", "sub_c", "sub_d", "sub_e"});
        const std::string first
            = text(db, "SELECT provider_subscription_id FROM subscriptions ORDER BY id LIMIT 1");
        auto observer = db.connect();
        std::unique_ptr<QProcess> a, b;
        rdtest::RowLockHolder hold(db, first);
        a = startSweep(db, {"--now", "2026-01-20T00:00:00Z"});
        b = startSweep(db, {"--now", "2026-01-20T00:00:00Z"});
        const auto waiting = rdtest::waitForLockWaiters(*observer, hold.pid, 2);
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        QCOMPARE(scalar(db, "SELECT count(*) FROM access_transitions"), 0LL);
        hold.release();
        long long changed = 0;
        for (auto *p : {a.get(), b.get()}) {
            QVERIFY(p->waitForFinished(60000));
            QCOMPARE(p->exitCode(), 0);
            changed += nlohmann::json::parse(p->readAllStandardOutput().toStdString())
                           .value("changed", 0LL);
        }
        QCOMPARE(changed, 5LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM access_transitions"), 5LL);
        QCOMPARE(scalar(db, "SELECT max(seq) FROM access_transitions"), 1LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_transition_audits "
                     "WHERE transition = 'access_changed'"),
            5LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_outbox WHERE event_type = "
                     "'access.changed'"),
            5LL);
    }

    // A sweep of one subscription a batch, SIGKILLed while it waits inside its third batch:
    // the two batches before are kept, the third all or nothing, and a rerun records the rest
    // and nothing twice.
    void sweepKilledAndRerunRecordsNothingTwice()
    {
        rdtest::TestDatabase db("access_killed");
        registered(db, {"sub_a", "sub_b", "sub_c", "sub_d", "sub_e"});
        const std::string third = text(
            db, "SELECT provider_subscription_id FROM subscriptions ORDER BY id OFFSET 2 LIMIT 1");
        auto observer = db.connect();
        std::unique_ptr<QProcess> p;
        rdtest::RowLockHolder hold(db, third);
        p = startSweep(db, {"--now", "2026-01-20T00:00:00Z", "--batch", "1"});
        const auto waiting = rdtest::waitForLockWaiters(*observer, hold.pid, 1);
        QVERIFY2(waiting.reached, waiting.seen.c_str());
        QCOMPARE(scalar(db, "SELECT count(*) FROM access_transitions"), 2LL);
        ::kill(static_cast<pid_t>(p->processId()), SIGKILL);
        QVERIFY(p->waitForFinished(10000));
        QCOMPARE(p->exitStatus(), QProcess::CrashExit);
        hold.release();
        QVERIFY(rdtest::waitForBackendExit(*observer, waiting.pids.front()));
        const long long afterKill = scalar(db, "SELECT count(*) FROM access_transitions");
        QVERIFY2(afterKill == 2 || afterKill == 3, std::to_string(afterKill).c_str());
        const auto rerun = runProgram(
            ctl(), withDb(db, {"access", "sweep", "--now", "2026-01-20T00:00:00Z", "--json"}));
        QCOMPARE(rerun.exitCode, 0);
        QCOMPARE(
            nlohmann::json::parse(rerun.out.toStdString()).value("changed", 0LL), 5 - afterKill);
        QCOMPARE(scalar(db, "SELECT count(*) FROM access_transitions"), 5LL);
        QCOMPARE(scalar(db, "SELECT max(seq) FROM access_transitions"), 1LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_outbox WHERE event_type = "
                     "'access.changed'"),
            5LL);
    }

    // An operator extends a blocked subscription's grace with a note: in grace, by the
    // operator, audited, until the day after the one named; it ends by itself. No note, no
    // extension; a viewer may not.
    void operatorExtendsGrace()
    {
        rdtest::TestDatabase db("access_extend");
        registered(db);
        const std::string operatorDb = rdtest::loginAs(db, "olga", "operator");
        const std::string viewerDb = rdtest::loginAs(db, "vic", "viewer");
        const auto day = QDate::currentDate().addDays(5).toString(Qt::ISODate);
        auto out = runProgram(ctl(),
            withDb(operatorDb,
                {"access", "extend", kSub, "--provider-key", "stripe-main", "--until", day,
                    "--note", "customer called: paying by bank transfer", "--json"}));
        QVERIFY2(out.exitCode == 0, out.err.constData());
        const auto v = nlohmann::json::parse(out.out.toStdString());
        QCOMPARE(v.value("verdict", ""), std::string("in_grace"));
        QCOMPARE(v.value("source", ""), std::string("operator"));
        QCOMPARE(QString::fromStdString(v.value("until", "")).left(10),
            QDate::currentDate().addDays(6).toString(Qt::ISODate));
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_transition_audits WHERE transition = "
                     "'access_extended' AND comment LIKE 'customer called%'"),
            1LL);
        // After the extension's end: blocked again, by the policy.
        const auto later = QDateTime::currentDateTimeUtc().addDays(7).toString(Qt::ISODate);
        QCOMPARE(
            verdictAt(db, kSub, later.toStdString()).value("verdict", ""), std::string("blocked"));
        out = runProgram(ctl(),
            withDb(operatorDb,
                {"access", "extend", kSub, "--provider-key", "stripe-main", "--until", day,
                    "--note", " "}));
        QCOMPARE(out.exitCode, 64);
        out = runProgram(ctl(),
            withDb(viewerDb,
                {"access", "extend", kSub, "--provider-key", "stripe-main", "--until", day,
                    "--note", "a viewer tries"}));
        QVERIFY(out.exitCode != 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM access_overrides"), 1LL);
        out = runProgram(ctl(),
            withDb(operatorDb,
                {"access", "extend", kSub, "--provider-key", "stripe-main", "--until",
                    QDate::currentDate().addDays(120).toString(Qt::ISODate), "--note", "long"}));
        QCOMPARE(out.exitCode, 4);
        QVERIFY(out.err.contains("access_extension_refused"));
    }

    // As the weakest roles would attack it: nobody but the owner records trouble or settles a
    // verdict, nobody writes the tables, a viewer does not sweep; every name the definer
    // functions use is schema-qualified with pg_temp last (tst_security checks the catalog).
    void weakRolesCannotForgeTroubleOrVerdicts()
    {
        rdtest::TestDatabase db("access_roles");
        registered(db);
        const std::string forged = R"({"providerKey": "stripe-main", "providerEventId": "evt_x",
            "providerSubscriptionId": "sub_1QxSub0001", "trouble": {"attempts": [],
            "standing": {"standing": "canceled", "observedAt": "2025-12-02T00:00:00Z"}}})";
        for (const std::string kind : {"viewer", "operator", "ingest"}) {
            pqxx::connection c(rdtest::loginAs(db, "weak_" + kind, kind));
            for (const std::string &sql :
                std::vector<std::string> {
                    "SELECT public.record_payment_trouble('" + forged + "'::jsonb, 'webhook', 'x')",
                    "SELECT public.rd_access_settle((SELECT id FROM public.subscriptions LIMIT 1), "
                    "now(), 'sweep', 'x')",
                    "INSERT INTO public.access_overrides (subscription_id, until, note) SELECT id, "
                    "now() + interval '1 day', 'x' FROM public.subscriptions",
                    "INSERT INTO public.access_policies (provider_key, grace_days, "
                    "when_provider_gives_up) VALUES ('stripe-main', 90, 'keep_until_period_end')",
                    "UPDATE public.access_verdicts SET verdict = 'good_standing'",
                    "CREATE TEMP TABLE access_verdicts (subscription_id uuid)"}) {
                pqxx::work tx(c);
                QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege, tx.exec0(sql));
            }
        }
        pqxx::connection viewer(rdtest::loginAs(db, "weak_sweeper", "viewer"));
        pqxx::work tx(viewer);
        QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege,
            tx.exec("SELECT * FROM public.access_sweep(now(), NULL, 10)"));
        QCOMPARE(scalar(db, "SELECT count(*) FROM provider_standing_facts"), 0LL);
    }

    // access list: the subscriptions in trouble, exit 3 when one is blocked.
    void listExitsThreeWhenBlocked()
    {
        rdtest::TestDatabase db("access_list");
        registered(db, {"sub_a"});
        auto out = runProgram(
            ctl(), withDb(db, {"access", "list", "--now", "2025-12-15T00:00:00Z", "--json"}));
        QCOMPARE(out.exitCode, 0);
        QVERIFY(out.out.isEmpty());
        out = runProgram(
            ctl(), withDb(db, {"access", "list", "--now", "2026-01-03T00:00:00Z", "--json"}));
        QCOMPARE(out.exitCode, 0);
        QCOMPARE(nlohmann::json::parse(out.out.toStdString()).value("verdict", ""),
            std::string("in_grace"));
        out = runProgram(ctl(),
            withDb(
                db, {"access", "list", "--verdict", "blocked", "--now", "2026-01-20T00:00:00Z"}));
        QCOMPARE(out.exitCode, 3);
        QVERIFY(out.out.contains("sub_a"));
    }
};

QTEST_GUILESS_MAIN(TestAccess)
#include "tst_access.moc"
