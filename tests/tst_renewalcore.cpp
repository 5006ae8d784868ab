#include "domain/core/currency.h"
#include "domain/core/errors.h"
#include "domain/store/case_actions.h"
#include "domain/store/renewal_applier.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"

#include <pqxx/pqxx>

#include <QtTest>

using rd::ApplyOutcome;
using rdtest::februaryRenewal;
using rdtest::observe;
using rdtest::outcomeName;

Q_DECLARE_METATYPE(rd::SuccessfulRenewalEvent)

namespace { } // namespace

/// The renewal core's rules, one scenario at a time, against PostgreSQL.
class TestRenewalCore : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

private slots:
    void init()
    {
        m_db = std::make_unique<rdtest::TestDatabase>(QTest::currentTestFunction());
        rdtest::importSubscriptions(m_db->conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_1") + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_2") + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_paused", "past_due") + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_cancelling", "active",
                    "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", true)
                + "\n"
                + R"({"providerKey":"stripe-main","providerSubscriptionId":"sub_noperiod","status":"active","currentPeriod":null,"cancelAtPeriodEnd":false,"providerVersion":null})");
    }

    void cleanup() { m_db.reset(); }

    /// The renewal core's answer is read strictly: an outcome or a rejection code this program
    /// does not know (a newer schema's) is refused, never guessed, and a rejection must say
    /// why. (An unknown name used to become Rejected without a code, which was then
    /// dereferenced.) "-" is SQL NULL; "unknown" expects UnknownAnswer.
    void answersAreReadStrictly_data()
    {
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("expected");
        QTest::newRow("applied") << "applied"
                                 << "-"
                                 << "applied";
        QTest::newRow("duplicate") << "duplicate"
                                   << "-"
                                   << "duplicate";
        QTest::newRow("rejected") << "rejected"
                                  << "renewal_period_is_not_contiguous"
                                  << "rejected";
        QTest::newRow("unknown outcome") << "reversed"
                                         << "-"
                                         << "unknown";
        QTest::newRow("empty outcome") << ""
                                       << "-"
                                       << "unknown";
        QTest::newRow("outcome in capitals") << "Applied"
                                             << "-"
                                             << "unknown";
        QTest::newRow("rejection without its code") << "rejected"
                                                    << "-"
                                                    << "unknown";
        QTest::newRow("unknown rejection") << "rejected"
                                           << "renewal_is_odd"
                                           << "unknown";
        QTest::newRow("unknown code with applied") << "applied"
                                                   << "renewal_is_odd"
                                                   << "unknown";
    }

    void answersAreReadStrictly()
    {
        QFETCH(QString, outcome);
        QFETCH(QString, code);
        QFETCH(QString, expected);
        const auto codeOrNull
            = code == u"-"_qs ? std::nullopt : std::optional<std::string>(code.toStdString());
        try {
            const auto r = rd::applyResultFromAnswer(
                outcome.toStdString(), std::nullopt, codeOrNull, std::string("{}"));
            QCOMPARE(outcomeName(r.outcome), expected);
            QCOMPARE(r.rejection.has_value(), r.outcome == ApplyOutcome::Rejected);
        } catch (const rd::UnknownAnswer &e) {
            QVERIFY2(expected == u"unknown"_qs, e.what());
        }
    }

    /// Through the database: a core that answers an outcome this program does not know, or a
    /// rejection without its code, makes apply() throw a SetupError (a retry cannot heal a
    /// program older than its schema) and opens no case.
    void anUnknownAnswerOfTheCoreIsRefused_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::newRow("unknown outcome") << "'reversed', NULL::text";
        QTest::newRow("rejection without its code") << "'rejected', NULL::text";
        QTest::newRow("unknown rejection") << "'rejected', 'renewal_is_odd'::text";
    }

    void anUnknownAnswerOfTheCoreIsRefused()
    {
        QFETCH(QString, answer);
        auto conn = m_db->connect();
        pqxx::nontransaction(*conn).exec(
            "CREATE OR REPLACE FUNCTION public.apply_cli_renewal(p_provider_key text, "
            "p_provider_event_id text, p_provider_subscription_id text, "
            "p_provider_renewal_key text, p_provider_version text, p_period_start timestamptz, "
            "p_period_end timestamptz, p_paid_amount_minor bigint, p_currency text, "
            "p_paid_at timestamptz, p_billing_period_id uuid DEFAULT NULL, OUT result text, "
            "OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb) "
            "LANGUAGE sql AS $$ SELECT v.result, NULL::uuid, v.code, '{}'::jsonb FROM (VALUES ("
            + answer.toStdString() + ")) v(result, code) $$");
        rd::RenewalApplier applier(m_db->conninfo(), {}, rd::RenewalSource::Cli);
        QVERIFY_THROWS_EXCEPTION(rd::SetupError, applier.apply(februaryRenewal()));
        QCOMPARE(rdtest::scalar(*conn, "SELECT count(*) FROM reconciliation_cases"), 0LL);
    }

    /// A case action's answer is read strictly too: a claim_case that answers a result this
    /// program does not know is refused (it used to pass through as JSON for the CLI to
    /// compare as a string).
    void anUnknownAnswerOfACaseActionIsRefused()
    {
        auto conn = m_db->connect();
        pqxx::nontransaction(*conn).exec(
            "CREATE OR REPLACE FUNCTION public.claim_case(p_case_id bigint, p_comment text) "
            "RETURNS jsonb LANGUAGE sql AS $$ SELECT jsonb_build_object('caseId', p_case_id, "
            "'result', 'stolen') $$");
        QVERIFY_THROWS_EXCEPTION(rd::SetupError, rd::claimCase(*conn, 1, ""));
    }

    void appliedOnceThenDuplicate()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        auto conn = m_db->connect();
        const auto before = observe(*conn);

        const auto first = applier.apply(februaryRenewal());
        QCOMPARE(outcomeName(first.outcome), outcomeName(ApplyOutcome::Applied));
        QVERIFY(!first.billingPeriodId.empty());
        const auto after = observe(*conn);
        QCOMPARE(after.periodStart, std::string("2026-02-01T00:00:00.000000Z"));
        QCOMPARE(after.periodEnd, std::string("2026-03-01T00:00:00.000000Z"));
        QCOMPARE(after.revision, before.revision + 1);
        QCOMPARE(after.billingPeriods, 1LL);
        QCOMPARE(after.renewalAudits, 1LL);
        QCOMPARE(after.outbox, 1LL);

        // The same event again: nothing changes.
        const auto second = applier.apply(februaryRenewal());
        QCOMPARE(outcomeName(second.outcome), outcomeName(ApplyOutcome::Duplicate));
        QCOMPARE(second.billingPeriodId, first.billingPeriodId);
        QCOMPARE(observe(*conn), after);
    }

    void differentEventIdsSameRenewalKey()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        auto conn = m_db->connect();
        // invoice.paid and invoice.payment_succeeded for one invoice.
        QCOMPARE(outcomeName(applier.apply(februaryRenewal("sub_1", "evt_paid")).outcome),
            outcomeName(ApplyOutcome::Applied));
        const auto after = observe(*conn);
        QCOMPARE(
            outcomeName(applier.apply(februaryRenewal("sub_1", "evt_payment_succeeded")).outcome),
            outcomeName(ApplyOutcome::Duplicate));
        QCOMPARE(observe(*conn), after);
        QCOMPARE(after.billingPeriods, 1LL);
    }

    void replayDaysLaterAfterCancellationIsStillADuplicate()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        auto conn = m_db->connect();
        QCOMPARE(outcomeName(applier.apply(februaryRenewal()).outcome),
            outcomeName(ApplyOutcome::Applied));
        {
            pqxx::work tx(*conn);
            tx.exec0("UPDATE subscriptions SET status = 'canceled' WHERE provider_subscription_id "
                     "= 'sub_1'");
            tx.commit();
        }
        const auto after = observe(*conn);
        const auto replay = applier.apply(februaryRenewal("sub_1", "evt_replayed"));
        QCOMPARE(outcomeName(replay.outcome), outcomeName(ApplyOutcome::Duplicate));
        QCOMPARE(observe(*conn), after); // and no case: a replay is not a disagreement
    }

    void rejections_data()
    {
        QTest::addColumn<rd::SuccessfulRenewalEvent>("event");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("subscription");
        QTest::addColumn<bool>("caseHasSubscription");

        auto e = februaryRenewal("sub_unknown");
        QTest::newRow("unknown subscription") << e << "subscription_not_found"
                                              << "sub_1" << false;
        e = februaryRenewal("sub_paused");
        QTest::newRow("not active") << e << "renewal_not_allowed_for_subscription_status"
                                    << "sub_paused" << true;
        e = februaryRenewal("sub_noperiod");
        QTest::newRow("no current period") << e << "subscription_has_no_current_period"
                                           << "sub_noperiod" << true;
        e = februaryRenewal();
        e.period.end = e.period.start;
        QTest::newRow("empty period") << e << "invalid_provider_billing_period"
                                      << "sub_1" << true;
        e = februaryRenewal();
        std::swap(e.period.start, e.period.end);
        QTest::newRow("inverted period") << e << "invalid_provider_billing_period"
                                         << "sub_1" << true;
        e = februaryRenewal();
        e.period = {
            *rd::parseRfc3339("2026-03-01T00:00:00Z"), *rd::parseRfc3339("2026-04-01T00:00:00Z")};
        QTest::newRow("gap") << e << "renewal_period_is_not_contiguous"
                             << "sub_1" << true;
        e = februaryRenewal();
        e.period = {*rd::parseRfc3339("2026-01-31T23:59:59.999999Z"),
            *rd::parseRfc3339("2026-03-01T00:00:00Z")};
        QTest::newRow("overlap by a microsecond") << e << "renewal_period_is_not_contiguous"
                                                  << "sub_1" << true;
        e = februaryRenewal("sub_cancelling");
        QTest::newRow("scheduled cancellation")
            << e << "renewal_conflicts_with_scheduled_cancellation"
            << "sub_cancelling" << true;
    }

    void rejections()
    {
        QFETCH(rd::SuccessfulRenewalEvent, event);
        QFETCH(QString, code);
        QFETCH(QString, subscription);
        QFETCH(bool, caseHasSubscription);
        rd::RenewalApplier applier(m_db->conninfo());
        auto conn = m_db->connect();
        const auto before = observe(*conn, subscription.toStdString());

        const auto out = applier.apply(event);
        QCOMPARE(outcomeName(out.outcome), outcomeName(ApplyOutcome::Rejected));
        QCOMPARE(QString::fromStdString(rdtest::rejectionOf(out)), code);
        QVERIFY(out.caseId);

        // Nothing mutated, and a case holds the evidence.
        auto after = observe(*conn, subscription.toStdString());
        QCOMPARE(after.periodEnd, before.periodEnd);
        QCOMPARE(after.revision, before.revision);
        QCOMPARE(after.billingPeriods, before.billingPeriods);
        QCOMPARE(after.outbox, before.outbox);
        pqxx::read_transaction tx(*conn);
        const auto c = tx.exec_params1(
            "SELECT error_code, status, occurrences, subscription_id IS NOT NULL, "
            "event->>'providerRenewalKey', local_state FROM reconciliation_cases WHERE id = $1",
            *out.caseId);
        QCOMPARE(QString::fromStdString(c[0].as<std::string>()), code);
        QCOMPARE(c[1].as<std::string>(), std::string("open"));
        QCOMPARE(c[2].as<int>(), 1);
        QCOMPARE(c[3].as<bool>(), caseHasSubscription);
        QCOMPARE(c[4].as<std::string>(), event.providerRenewalKey);
        const auto state = nlohmann::json::parse(c[5].as<std::string>());
        if (caseHasSubscription)
            QCOMPARE(state["revision"].get<long long>(), before.revision);
    }

    void sameRejectionAddsAnOccurrence()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        auto e = februaryRenewal("sub_1", "evt_gap_1", "in_gap");
        e.period = {
            *rd::parseRfc3339("2026-03-01T00:00:00Z"), *rd::parseRfc3339("2026-04-01T00:00:00Z")};
        const auto first = applier.apply(e);
        e.providerEventId = "evt_gap_2"; // a second delivery of the same renewal
        const auto second = applier.apply(e);
        QVERIFY(first.caseId && second.caseId);
        QCOMPARE(*second.caseId, *first.caseId);
        auto conn = m_db->connect();
        pqxx::read_transaction tx(*conn);
        const auto c = tx.exec_params1(
            "SELECT occurrences, first_provider_event_id, last_provider_event_id, "
            "last_seen_at >= first_seen_at FROM reconciliation_cases WHERE id = $1",
            *first.caseId);
        QCOMPARE(c[0].as<int>(), 2);
        QCOMPARE(c[1].as<std::string>(), std::string("evt_gap_1"));
        QCOMPARE(c[2].as<std::string>(), std::string("evt_gap_2"));
        QVERIFY(c[3].as<bool>());
        QCOMPARE(tx.exec1("SELECT count(*) FROM reconciliation_cases")[0].as<int>(), 1);
    }

    void payloadConflict_data()
    {
        QTest::addColumn<rd::SuccessfulRenewalEvent>("event");
        auto e = februaryRenewal("sub_1", "evt_corrected");
        e.paidAmountMinor = 2499;
        QTest::newRow("amount") << e;
        e = februaryRenewal("sub_1", "evt_corrected");
        e.currency = "EUR";
        QTest::newRow("currency") << e;
        e = februaryRenewal("sub_1", "evt_corrected");
        e.period.end = *rd::parseRfc3339("2026-03-02T00:00:00Z");
        QTest::newRow("period end") << e;
        e = februaryRenewal("sub_2", "evt_corrected");
        QTest::newRow("other subscription") << e;
    }

    void payloadConflict()
    {
        QFETCH(rd::SuccessfulRenewalEvent, event);
        rd::RenewalApplier applier(m_db->conninfo());
        auto conn = m_db->connect();
        const auto applied = applier.apply(februaryRenewal());
        QCOMPARE(outcomeName(applied.outcome), outcomeName(ApplyOutcome::Applied));
        const auto after = observe(*conn);
        const auto after2 = observe(*conn, "sub_2");

        const auto out = applier.apply(event);
        QCOMPARE(outcomeName(out.outcome), outcomeName(ApplyOutcome::Rejected));
        QCOMPARE(rdtest::rejectionOf(out), std::string("provider_renewal_key_payload_conflict"));
        QCOMPARE(out.localState["conflictingBillingPeriod"]["id"].get<std::string>(),
            applied.billingPeriodId);
        auto now = observe(*conn);
        QCOMPARE(now.billingPeriods, after.billingPeriods);
        QCOMPARE(now.revision, after.revision);
        QCOMPARE(now.periodEnd, after.periodEnd);
        QCOMPARE(observe(*conn, "sub_2").revision, after2.revision);
        QVERIFY(out.caseId);
    }

    void auditAndOutboxUniquenessHoldAgainstDirectInserts()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        const auto out = applier.apply(februaryRenewal());
        QCOMPARE(outcomeName(out.outcome), outcomeName(ApplyOutcome::Applied));
        auto conn = m_db->connect();
        {
            pqxx::work tx(*conn);
            QVERIFY_THROWS_EXCEPTION(pqxx::unique_violation,
                tx.exec_params0("INSERT INTO subscription_transition_audits (subscription_id, "
                                "transition, billing_period_id, actor_type, actor_id) SELECT "
                                "subscription_id, 'subscription_renewed', id, 'system', 'test' "
                                "FROM subscription_billing_periods WHERE id = $1",
                    out.billingPeriodId));
        }
        {
            pqxx::work tx(*conn);
            QVERIFY_THROWS_EXCEPTION(pqxx::unique_violation,
                tx.exec_params0("INSERT INTO subscription_outbox (event_type, subscription_id, "
                                "billing_period_id, payload) SELECT 'subscription_renewed', "
                                "subscription_id, id, '{}' FROM subscription_billing_periods "
                                "WHERE id = $1",
                    out.billingPeriodId));
        }
        {
            pqxx::work tx(*conn);
            QVERIFY_THROWS_EXCEPTION(pqxx::unique_violation,
                tx.exec_params0("INSERT INTO subscription_billing_periods (subscription_id, "
                                "provider_key, provider_renewal_key, provider_event_id, "
                                "period_start, period_end, paid_amount_minor, currency, paid_at) "
                                "SELECT subscription_id, provider_key, provider_renewal_key, 'x', "
                                "period_start + interval '1 month', period_end + interval "
                                "'1 month', 1, 'USD', now() FROM subscription_billing_periods "
                                "WHERE id = $1",
                    out.billingPeriodId));
        }
        {
            pqxx::work tx(*conn);
            QVERIFY_THROWS_EXCEPTION(pqxx::check_violation,
                tx.exec0("INSERT INTO subscription_billing_periods (subscription_id, provider_key, "
                         "provider_renewal_key, provider_event_id, period_start, period_end, "
                         "paid_amount_minor, currency, paid_at) SELECT id, 'stripe-main', 'neg', "
                         "'x', now(), now() + interval '1 day', -1, 'USD', now() FROM "
                         "subscriptions LIMIT 1"));
        }
    }

    // Each rule that 0025 moved from a table's CHECK into a domain still refuses a direct
    // write by the owner, and the error names the rule. The statement's other values are
    // valid, so each row passes if its rule is dropped.
    void singleColumnRulesHold_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("rule");
        const QString period = "INSERT INTO subscription_billing_periods (subscription_id, "
                               "provider_key, provider_renewal_key, provider_event_id, "
                               "period_start, period_end, paid_amount_minor, currency, paid_at, "
                               "recorded_by) SELECT id, 'stripe-main', %1, 'x', now(), now() + "
                               "interval '1 day', %2, %3, now(), %4 FROM subscriptions LIMIT 1";
        const QString audit = "INSERT INTO subscription_transition_audits (subscription_id, "
                              "transition, actor_type, actor_id) SELECT id, %1, %2, 'test' FROM "
                              "subscriptions LIMIT 1";
        const QString sub = "INSERT INTO subscriptions (provider_key, provider_subscription_id, "
                            "status) VALUES ('stripe-main', %1, %2)";
        const auto row = [](const char *name) { return &QTest::newRow(name); };
        *row("control: a valid period") << period.arg("'k1'", "1", "'USD'", "'import'") << "";
        *row("empty renewal key") << period.arg("''", "1", "'USD'", "'import'")
                                  << "rd_key_not_empty";
        *row("negative amount") << period.arg("'k2'", "-1", "'USD'", "'import'")
                                << "rd_amount_minor_non_negative";
        *row("lower-case currency")
            << period.arg("'k3'", "1", "'usd'", "'import'") << "rd_currency_code_iso";
        *row("recorded by a robot")
            << period.arg("'k4'", "1", "'USD'", "'robot'") << "rd_recorded_by_known";
        *row("control: a valid audit") << audit.arg("'subscription_reconciled'", "'system'") << "";
        *row("unknown transition")
            << audit.arg("'subscription_deleted'", "'system'") << "rd_audit_transition_known";
        *row("unknown actor type")
            << audit.arg("'subscription_reconciled'", "'robot'") << "rd_actor_type_known";
        *row("control: a valid subscription") << sub.arg("'sub_new'", "'active'") << "";
        *row("empty subscription id") << sub.arg("''", "'active'") << "rd_key_not_empty";
        *row("unknown status") << sub.arg("'sub_new'", "'gone'") << "rd_subscription_status_known";
        *row("status updated to unknown")
            << "UPDATE subscriptions SET status = 'gone' WHERE provider_subscription_id = 'sub_1'"
            << "rd_subscription_status_known";

        // 0028: identifiers of at most 255 bytes (UTF-8 bytes: 'é' is two), ISO 4217 codes.
        const QString periodEvent = "INSERT INTO subscription_billing_periods (subscription_id, "
                                    "provider_key, provider_renewal_key, provider_event_id, "
                                    "period_start, period_end, paid_amount_minor, currency, "
                                    "paid_at) SELECT id, 'stripe-main', 'k_ev', %1, now(), "
                                    "now() + interval '1 day', 1, 'USD', now() FROM "
                                    "subscriptions LIMIT 1";
        const QString inbox
            = "WITH p AS (INSERT INTO billing_providers (provider_key, kind, display_name) "
              "VALUES ('edge-test', 'stripe', 'Edge') RETURNING provider_key) INSERT INTO "
              "webhook_inbox (provider_key, provider_event_id, raw_body, body_size, body_sha256) "
              "SELECT provider_key, %1, '\\x00', 1, encode(sha256('\\x00'::bytea), 'hex') FROM p";
        const QString caseRow
            = "INSERT INTO reconciliation_cases (provider_key, provider_subscription_id, "
              "provider_renewal_key, first_provider_event_id, last_provider_event_id, "
              "error_code, event, event_fingerprint, local_state) VALUES ('stripe-main', %1, "
              "%2, %3, 'evt_1', 'subscription_not_found', '{}', 'f', '{}')";
        const QString b255 = "repeat('é', 127) || 'x'";
        const QString b256 = "repeat('é', 128)";
        *row("control: a renewal key of 255 bytes")
            << period.arg(b255, "1", "'USD'", "'import'") << "";
        *row("renewal key of 256 bytes")
            << period.arg(b256, "1", "'USD'", "'import'") << "rd_key_bounded";
        *row("control: a subscription id of 255 bytes") << sub.arg(b255, "'active'") << "";
        *row("subscription id of 256 bytes") << sub.arg(b256, "'active'") << "rd_key_bounded";
        *row("control: a period's event id of 255 bytes") << periodEvent.arg(b255) << "";
        *row("period's event id of 256 bytes") << periodEvent.arg(b256) << "rd_event_id_bounded";
        *row("control: an inbox event id of 255 bytes") << inbox.arg(b255) << "";
        *row("inbox event id of 256 bytes") << inbox.arg(b256) << "webhook_inbox_event_id_bounded";
        *row("control: a case's ids of 255 bytes") << caseRow.arg(b255, b255, b255) << "";
        *row("case subscription id of 256 bytes")
            << caseRow.arg(b256, "'in_1'", "'evt_1'") << "reconciliation_cases_ids_bounded";
        *row("case renewal key of 256 bytes")
            << caseRow.arg("'sub_1'", b256, "'evt_1'") << "reconciliation_cases_ids_bounded";
        *row("case event id of 256 bytes")
            << caseRow.arg("'sub_1'", "'in_1'", b256) << "reconciliation_cases_ids_bounded";
        *row("control: a KWD period") << period.arg("'k5'", "1", "'KWD'", "'import'") << "";
        *row("currency XYZ") << period.arg("'k6'", "1", "'XYZ'", "'import'")
                             << "rd_currency_code_iso";
        *row("currency XAU (no minor units)")
            << period.arg("'k7'", "1", "'XAU'", "'import'") << "rd_currency_code_iso";

        // 0046 (#39, item 6): amounts up to 10^12 minor units (periods are bounded at the edge:
        // tst_adapters, tst_renewalevent).
        *row("control: 10^12 minor units")
            << period.arg("'k8'", "1000000000000", "'USD'", "'import'") << "";
        *row("10^12 + 1 minor units") << period.arg("'k9'", "1000000000001", "'USD'", "'import'")
                                      << "rd_amount_minor_bounded";
    }

    // One table of ISO 4217 codes: the database's (migration 0028) is the C++ one row for row,
    // so a list changed on one side only fails here; and the currency domain accepts exactly
    // its codes, out of every three-letter code.
    void isoCurrenciesAreOneTable()
    {
        auto conn = m_db->connect();
        pqxx::work tx(*conn);
        std::vector<std::pair<std::string, int>> db;
        for (const auto &r :
            tx.exec("SELECT code, minor_units FROM iso_currencies ORDER BY code COLLATE \"C\""))
            db.emplace_back(r[0].as<std::string>(), r[1].as<int>());
        std::vector<std::pair<std::string, int>> code;
        for (const auto &c : rd::isoCurrencies())
            code.emplace_back(std::string(c.code), c.minorUnits);
        QCOMPARE(db.size(), code.size());
        for (std::size_t i = 0; i < db.size(); ++i) {
            QCOMPARE(db[i].first, code[i].first);
            QCOMPARE(db[i].second, code[i].second);
        }
        tx.exec0(R"(CREATE FUNCTION pg_temp.accepted(c text) RETURNS boolean LANGUAGE plpgsql AS $$
                    BEGIN PERFORM c::public.rd_currency_code; RETURN true;
                    EXCEPTION WHEN check_violation THEN RETURN false; END $$)");
        const auto accepted = tx.exec1(
            "WITH letters(l) AS (SELECT chr(g) FROM generate_series(65, 90) g), "
            "codes(c) AS (SELECT a.l || b.l || d.l FROM letters a, letters b, letters d) "
            "SELECT count(*) FILTER (WHERE pg_temp.accepted(c)), "
            "count(*) FILTER (WHERE pg_temp.accepted(c) <> (c IN (SELECT code FROM "
            "iso_currencies))) FROM codes");
        QCOMPARE(accepted[0].as<std::size_t>(), code.size());
        QCOMPARE(accepted[1].as<long long>(), 0LL);
    }

    // A renewal that reaches the core without the edge's checks is refused by the database.
    void coreRefusesAnUnknownCurrency()
    {
        auto e = februaryRenewal("sub_1", "evt_xyz", "in_xyz");
        e.currency = "XYZ";
        rd::RenewalApplier applier(m_db->conninfo());
        try {
            applier.apply(e);
            QFAIL("a renewal in XYZ was applied");
        } catch (const std::exception &ex) {
            QVERIFY2(QString::fromUtf8(ex.what()).contains("rd_currency_code_iso"), ex.what());
        }
        auto conn = m_db->connect();
        QCOMPARE(observe(*conn).billingPeriods, 0LL);
    }

    void singleColumnRulesHold()
    {
        QFETCH(QString, sql);
        QFETCH(QString, rule);
        auto conn = m_db->connect();
        pqxx::work tx(*conn);
        if (rule.isEmpty()) {
            tx.exec0(sql.toStdString());
            return;
        }
        try {
            tx.exec0(sql.toStdString());
            QFAIL("the write was accepted");
        } catch (const pqxx::check_violation &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(rule), e.what());
        }
    }

    void consecutiveRenewalsAdvanceStepByStep()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        auto conn = m_db->connect();
        rd::Timestamp start = *rd::parseRfc3339("2026-02-01T00:00:00Z");
        for (int month = 0; month < 12; ++month) {
            auto e = februaryRenewal(
                "sub_1", "evt_m" + std::to_string(month), "in_m" + std::to_string(month));
            e.period = {start, rd::addMonths(start, 1)};
            QCOMPARE(outcomeName(applier.apply(e).outcome), outcomeName(ApplyOutcome::Applied));
            start = e.period.end;
        }
        const auto after = observe(*conn);
        QCOMPARE(after.billingPeriods, 12LL);
        QCOMPARE(after.periodEnd, std::string("2027-02-01T00:00:00.000000Z"));
        QCOMPARE(after.revision, 13LL);
    }

    // Cancellation is not a renewal's business: the UPDATE that advances the period must
    // neither clear nor set cancel_at_period_end. A renewal is refused while the flag is true,
    // so the flag is made true *during* one renewal, after the core's checks and before its
    // UPDATE (by a trigger on the billing period the core inserts first, a test-only device):
    // an UPDATE that wrote "= false" would clear it. Another renewal applied with the flag
    // false keeps it false, which an UPDATE writing "= true" would not. And no statement that
    // advances the period names the column at all.
    void renewalNeverTouchesCancellationFlag()
    {
        auto conn = m_db->connect();
        {
            pqxx::nontransaction tx(*conn);
            tx.exec0("CREATE TABLE test_flag_writes (subscription text, old_flag boolean, "
                     "new_flag boolean)");
            tx.exec0(R"(CREATE FUNCTION test_note_flag_write() RETURNS trigger LANGUAGE plpgsql
                        SET search_path = pg_catalog, public, pg_temp AS $$
                        BEGIN
                            INSERT INTO public.test_flag_writes
                            VALUES (NEW.provider_subscription_id, OLD.cancel_at_period_end,
                                    NEW.cancel_at_period_end);
                            RETURN NEW;
                        END $$)");
            // Fires for every UPDATE whose SET list names the column, whatever the value.
            tx.exec0("CREATE TRIGGER test_note_flag_write BEFORE UPDATE OF cancel_at_period_end "
                     "ON subscriptions FOR EACH ROW WHEN (OLD.current_period_end IS DISTINCT "
                     "FROM NEW.current_period_end) EXECUTE FUNCTION test_note_flag_write()");
            tx.exec0(R"(CREATE FUNCTION test_schedule_cancellation() RETURNS trigger
                        LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
                        BEGIN
                            UPDATE public.subscriptions SET cancel_at_period_end = true
                             WHERE id = NEW.subscription_id;
                            RETURN NULL;
                        END $$)");
        }
        const auto flag = [&](const char *subscription) {
            pqxx::read_transaction tx(*conn);
            return tx
                .exec_params1("SELECT cancel_at_period_end FROM subscriptions WHERE "
                              "provider_subscription_id = $1",
                    subscription)[0]
                .as<bool>();
        };
        rd::RenewalApplier applier(m_db->conninfo());

        // 1. Scheduled to cancel: the renewal is refused, the flag stays true.
        QCOMPARE(flag("sub_cancelling"), true);
        const auto cancelling = observe(*conn, "sub_cancelling");
        const auto refused = applier.apply(februaryRenewal("sub_cancelling"));
        QCOMPARE(outcomeName(refused.outcome), outcomeName(ApplyOutcome::Rejected));
        QCOMPARE(rdtest::rejectionOf(refused),
            std::string("renewal_conflicts_with_scheduled_cancellation"));
        QCOMPARE(flag("sub_cancelling"), true);
        QCOMPARE(observe(*conn, "sub_cancelling").revision, cancelling.revision);

        // 2. The flag becomes true in the middle of sub_1's renewal: it is still true after.
        {
            pqxx::nontransaction tx(*conn);
            tx.exec0("CREATE TRIGGER test_schedule_cancellation AFTER INSERT ON "
                     "subscription_billing_periods FOR EACH ROW EXECUTE FUNCTION "
                     "test_schedule_cancellation()");
        }
        QCOMPARE(flag("sub_1"), false);
        QCOMPARE(outcomeName(applier.apply(februaryRenewal("sub_1")).outcome),
            outcomeName(ApplyOutcome::Applied));
        QCOMPARE(observe(*conn, "sub_1").periodEnd, std::string("2026-03-01T00:00:00.000000Z"));
        QCOMPARE(flag("sub_1"), true);
        {
            pqxx::nontransaction tx(*conn);
            tx.exec0("DROP TRIGGER test_schedule_cancellation ON subscription_billing_periods");
        }

        // 3. A renewal applied with the flag false leaves it false.
        QCOMPARE(flag("sub_2"), false);
        QCOMPARE(outcomeName(applier.apply(februaryRenewal("sub_2", "evt_2", "in_2")).outcome),
            outcomeName(ApplyOutcome::Applied));
        QCOMPARE(flag("sub_2"), false);

        // Neither advancing UPDATE named the column.
        QCOMPARE(rdtest::scalar(*conn, "SELECT count(*) FROM test_flag_writes"), 0LL);

        // The audit saw the state before the renewal.
        pqxx::read_transaction tx(*conn);
        const auto audit = nlohmann::json::parse(
            tx.exec1("SELECT a.details FROM subscription_transition_audits a JOIN subscriptions "
                     "s ON s.id = a.subscription_id WHERE a.transition = "
                     "'subscription_renewed' AND s.provider_subscription_id = 'sub_2'")[0]
                .as<std::string>());
        QCOMPARE(audit["before"]["currentPeriod"]["end"].get<std::string>(),
            std::string("2026-02-01T00:00:00.000000Z"));
        QCOMPARE(audit["before"]["cancelAtPeriodEnd"].get<bool>(), false);
    }

    // billing_period_subscription_period_unique: one subscription's period is recorded once,
    // whatever the renewal key, against a direct insert too.
    void samePeriodUnderAnotherKeyIsRefusedByTheDatabase()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        const auto out = applier.apply(februaryRenewal());
        QCOMPARE(outcomeName(out.outcome), outcomeName(ApplyOutcome::Applied));
        auto conn = m_db->connect();
        pqxx::work tx(*conn);
        try {
            tx.exec_params0(
                "INSERT INTO subscription_billing_periods (subscription_id, provider_key, "
                "provider_renewal_key, provider_event_id, period_start, period_end, "
                "paid_amount_minor, currency, paid_at) SELECT subscription_id, provider_key, "
                "'in_other', 'evt_other', period_start, period_end, paid_amount_minor, currency, "
                "paid_at FROM subscription_billing_periods WHERE id = $1",
                out.billingPeriodId);
            QFAIL("a second billing period for the same subscription and period was inserted");
        } catch (const pqxx::unique_violation &e) {
            QVERIFY2(std::string(e.what()).find("billing_period_subscription_period_unique")
                    != std::string::npos,
                e.what());
        }
    }

    // Through the core, a second renewal key for a period already recorded is a payload
    // conflict (the provider contradicts itself), never a second period. The core only meets
    // it when the period is contiguous again, i.e. after the subscription was moved back (here
    // by hand, as an owner could).
    void samePeriodUnderAnotherKeyIsAPayloadConflict()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        const auto first = applier.apply(februaryRenewal("sub_1", "evt_1", "in_1"));
        QCOMPARE(outcomeName(first.outcome), outcomeName(ApplyOutcome::Applied));
        auto conn = m_db->connect();
        {
            pqxx::nontransaction tx(*conn);
            tx.exec0("UPDATE subscriptions SET current_period_start = "
                     "'2026-01-01T00:00:00Z', current_period_end = '2026-02-01T00:00:00Z' "
                     "WHERE provider_subscription_id = 'sub_1'");
        }
        const auto before = observe(*conn);
        const auto second = applier.apply(februaryRenewal("sub_1", "evt_2", "in_2"));
        QCOMPARE(outcomeName(second.outcome), outcomeName(ApplyOutcome::Rejected));
        QCOMPARE(rdtest::rejectionOf(second), std::string("provider_renewal_key_payload_conflict"));
        QCOMPARE(second.localState["conflictingBillingPeriod"]["id"].get<std::string>(),
            first.billingPeriodId);
        QVERIFY(second.caseId);
        const auto after = observe(*conn);
        QCOMPARE(after.billingPeriods, 1LL);
        QCOMPARE(after.revision, before.revision);
        QCOMPARE(after.periodEnd, before.periodEnd);
        QCOMPARE(after.renewalAudits, 1LL);
        QCOMPARE(after.outbox, 1LL);
        QCOMPARE(after.openCases, 1LL);
    }

    // A renewal's providerVersion sets the subscription's; a null one keeps it.
    void providerVersionNullKeepsTheSubscriptions()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        auto conn = m_db->connect();
        const auto version = [&] {
            pqxx::read_transaction tx(*conn);
            const auto f = tx.exec1("SELECT provider_version FROM subscriptions WHERE "
                                    "provider_subscription_id = 'sub_1'")[0];
            return f.is_null() ? std::string("<null>") : f.as<std::string>();
        };
        QCOMPARE(version(), std::string("<null>"));
        rd::Timestamp start = *rd::parseRfc3339("2026-02-01T00:00:00Z");
        const std::vector<std::pair<std::optional<std::string>, std::string>> steps {
            {"1767225720417", "1767225720417"}, // a value sets it
            {std::nullopt, "1767225720417"}, // null keeps it
            {"1769904000001", "1769904000001"}, // a new value replaces it
            {std::nullopt, "1769904000001"}};
        int month = 0;
        for (const auto &[given, expected] : steps) {
            auto e = februaryRenewal(
                "sub_1", "evt_v" + std::to_string(month), "in_v" + std::to_string(month));
            e.period = {start, rd::addMonths(start, 1)};
            e.providerVersion = given;
            QCOMPARE(outcomeName(applier.apply(e).outcome), outcomeName(ApplyOutcome::Applied));
            QCOMPARE(version(), expected);
            start = e.period.end;
            ++month;
        }
    }
};

QTEST_GUILESS_MAIN(TestRenewalCore)
#include "tst_renewalcore.moc"
