#include "domain/store/audit_chains.h"
#include "domain/store/case_actions.h"
#include "domain/store/renewal_applier.h"
#include "tests/support/gap_case.h"
#include "tests/support/process_runner.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"

#include <pqxx/pqxx>

#include <QtTest>

using rd::ApplyOutcome;
using rdtest::februaryRenewal;
using rdtest::kCaseNote;
using rdtest::marchRenewal;
using rdtest::observe;
using rdtest::outcomeName;
using rdtest::scalar;
using rdtest::snapshotOfFebruary;
using rdtest::snapshotOfJanuary;
using rdtest::ts;

/// A provider snapshot as a case's way out: what attaching one records, heals or leaves open, what
/// its preview says, and the snapshots refused because they would contradict recorded history.
class TestSnapshot : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

private slots:
    void init() { m_db = rdtest::databaseWithSub1(); }

    void cleanup() { m_db.reset(); }

    // A snapshot that re-anchors the subscription heals the case waiting on its new period.
    void snapshotThatReanchorsHealsTheWaitingCase()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        auto conn = m_db->connect();
        const auto attached = rd::attachSnapshot(
            *conn, snapshotOfFebruary(rdtest::capturedNow()), std::nullopt, kCaseNote);
        QCOMPARE(attached.json["result"].get<std::string>(), std::string("attached"));
        QCOMPARE(attached.json["changes"]["currentPeriod"]["after"]["end"].get<std::string>(),
            std::string("2026-03-01T00:00:00.000000Z"));
        QVERIFY(!attached.json["billingPeriodId"].is_null()); // February recorded from the snapshot
        QCOMPARE(attached.json["applicableCases"], nlohmann::json::array());

        const auto seen = observe(*conn);
        QCOMPARE(seen.billingPeriods, 2LL); // February (snapshot) and March (healed)
        QCOMPARE(seen.periodEnd, std::string("2026-04-01T00:00:00.000000Z"));
        // The answer's period is the one after the healing, not the snapshot's own.
        QVERIFY(attached.periodAfter);
        QCOMPARE(attached.periodAfter->start, std::string("2026-03-01T00:00:00.000000Z"));
        QCOMPARE(attached.periodAfter->end, std::string("2026-04-01T00:00:00.000000Z"));
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM subscription_transition_audits WHERE "
                     "transition = 'subscription_reconciled'"),
            1LL);
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM subscription_outbox WHERE event_type = "
                     "'subscription_reconciled'"),
            1LL);
        const auto c = rd::showCase(*conn, caseId);
        QCOMPARE(c["status"].get<std::string>(), std::string("resolved"));
        QCOMPARE(c["resolvedBy"].get<std::string>(), std::string("system"));
        QVERIFY2(c["resolutionComment"].get<std::string>().find("re-applied automatically after "
                                                                "snapshot")
                == 0,
            c.dump().c_str());
    }

    void snapshotResolvesItsCase()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        auto conn = m_db->connect();
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        const auto attached = rd::attachSnapshot(*conn, snapshot, caseId, kCaseNote);
        QCOMPARE(attached.json["caseId"].get<std::int64_t>(), caseId);
        const auto c = rd::showCase(*conn, caseId);
        QCOMPARE(c["resolution"].get<std::string>(), std::string("snapshot_attached"));
        QVERIFY(c["snapshotId"].is_number_integer());
    }

    void staleSnapshotIsRefused()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        QCOMPARE(outcomeName(applier.apply(februaryRenewal()).outcome),
            outcomeName(ApplyOutcome::Applied));
        auto conn = m_db->connect();
        const auto before = observe(*conn);
        // Captured before the February renewal was recorded (now): it would roll it back.
        const auto snapshot = snapshotOfJanuary("2026-01-15T00:00:00Z");
        try {
            rd::attachSnapshot(*conn, snapshot, std::nullopt, kCaseNote);
            QFAIL("expected a refusal");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(e.code(), std::string("stale_snapshot"));
            QVERIFY2(std::string(e.what()).find("2026-01-15") != std::string::npos, e.what());
        }
        QCOMPARE(observe(*conn), before);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM provider_snapshots"), 0LL);
    }

    void identicalSnapshotTwiceChangesNothing()
    {
        auto conn = m_db->connect();
        const auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        QCOMPARE(rd::attachSnapshot(*conn, snapshot, std::nullopt, kCaseNote)
                     .json["result"]
                     .get<std::string>(),
            std::string("attached"));
        const auto after = observe(*conn);
        const auto audits = scalar(*conn, "SELECT count(*) FROM subscription_transition_audits");
        QCOMPARE(rd::attachSnapshot(*conn, snapshot, std::nullopt, kCaseNote)
                     .json["result"]
                     .get<std::string>(),
            std::string("unchanged"));
        QCOMPARE(observe(*conn), after);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM subscription_transition_audits"), audits);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM provider_snapshots"), 1LL);
    }

    void snapshotConflictingWithRecordedRenewalIsRefused()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        QCOMPARE(outcomeName(applier.apply(februaryRenewal("sub_1", "evt_feb", "in_feb")).outcome),
            outcomeName(ApplyOutcome::Applied));
        auto conn = m_db->connect();
        const auto before = observe(*conn);
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        snapshot.latestRenewal->paidAmountMinor = 5;
        try {
            rd::attachSnapshot(*conn, snapshot, std::nullopt, kCaseNote);
            QFAIL("a snapshot whose latest renewal disagrees with the recorded one was attached");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(QString::fromStdString(e.code()),
                QStringLiteral("provider_renewal_key_payload_conflict"));
            QVERIFY2(std::string(e.what()).find("in_feb") != std::string::npos, e.what());
        }
        QCOMPARE(observe(*conn), before);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM provider_snapshots"), 0LL);
    }

    void snapshotOfAnUnknownSubscriptionCreatesIt()
    {
        auto conn = m_db->connect();
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        snapshot.providerSubscriptionId = "sub_new";
        snapshot.latestRenewal->providerSubscriptionId = "sub_new";
        const auto result = rd::attachSnapshot(*conn, snapshot, std::nullopt, kCaseNote);
        QCOMPARE(result.json["result"].get<std::string>(), std::string("created"));
        QCOMPARE(observe(*conn, "sub_new").billingPeriods, 1LL);
    }

    // --- A case closes only when its renewal is recorded, or an operator dismisses it. ---

    // Found by the outside audit: a snapshot that fills the missing month must not make the paid
    // March renewal disappear; attaching it re-judges the case's renewal, which now applies.
    void snapshotOnAGapCaseRecordsTheCasesRenewal()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        auto conn = m_db->connect();
        const auto attached = rd::attachSnapshot(
            *conn, snapshotOfFebruary(rdtest::capturedNow()), caseId, kCaseNote);
        QCOMPARE(attached.json["case"]["status"].get<std::string>(), std::string("resolved"));
        QCOMPARE(attached.json["case"]["renewal"].get<std::string>(), std::string("applied"));

        const auto seen = observe(*conn);
        QCOMPARE(seen.periodEnd, std::string("2026-04-01T00:00:00.000000Z")); // March applied
        QCOMPARE(seen.billingPeriods, 2LL); // February (snapshot) and March (the case)
        QCOMPARE(seen.renewalAudits, 1LL);
        QCOMPARE(seen.openCases, 0LL);
        const auto c = rd::showCase(*conn, caseId);
        QCOMPARE(c["resolution"].get<std::string>(), std::string("snapshot_attached"));
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM reconciliation_cases c JOIN "
                     "subscription_billing_periods b ON b.id = c.billing_period_id "
                     "WHERE b.provider_renewal_key = 'in_march'"),
            1LL);
        std::vector<std::string> steps;
        for (const auto &h : c["history"])
            steps.push_back(h["action"].get<std::string>() + ":" + h["outcome"].get<std::string>());
        QCOMPARE(steps,
            (std::vector<std::string> {
                "opened:open", "snapshot_attached:attached", "reapply:applied"}));
        QVERIFY(rd::verifyAuditChains(*conn).empty());

        // The snapshot's audit row hashes the billing period it recorded (#39, item 3): that
        // billing period altered afterwards is a break, on the server and in the client.
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM subscription_transition_audits a JOIN "
                     "subscription_billing_periods b ON b.id = a.billing_period_id WHERE "
                     "a.transition = 'subscription_reconciled' AND b.recorded_by = 'snapshot' "
                     "AND (a.details->'billingPeriod'->>'paidAmountMinor')::bigint = "
                     "b.paid_amount_minor"),
            1LL);
        {
            pqxx::work tx(*conn);
            tx.exec0("SET LOCAL session_replication_role = replica");
            tx.exec0("UPDATE subscription_billing_periods SET paid_amount_minor = "
                     "paid_amount_minor + 1 WHERE recorded_by = 'snapshot'");
            tx.commit();
        }
        const auto breaks = rd::verifyAuditChains(*conn);
        QCOMPARE(breaks.size(), std::size_t(1));
        QVERIFY2(breaks.front().problem.starts_with("billing period of renewal ")
                && breaks.front().problem.ends_with("(altered)"),
            breaks.front().problem.c_str());
        const auto streamed = rd::verifyAuditChainsStreamed(*conn, {});
        QCOMPARE(streamed.breaks.size(), std::size_t(1));
        QCOMPARE(streamed.breaks.front().problem, breaks.front().problem);
    }

    // A snapshot after which the case's renewal still fails leaves the case open, with the
    // reason it fails now and the state it was judged against.
    void snapshotThatDoesNotHealLeavesTheCaseOpen()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        auto conn = m_db->connect();
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        snapshot.cancelAtPeriodEnd = true;
        const auto attached = rd::attachSnapshot(*conn, snapshot, caseId, kCaseNote);
        QCOMPARE(attached.json["case"]["status"].get<std::string>(), std::string("open"));
        const auto c = rd::showCase(*conn, caseId);
        QCOMPARE(c["status"].get<std::string>(), std::string("open"));
        QCOMPARE(c["errorCode"].get<std::string>(),
            std::string("renewal_conflicts_with_scheduled_cancellation"));
        QCOMPARE(c["localState"]["cancelAtPeriodEnd"].get<bool>(), true);
        QCOMPARE(observe(*conn).periodEnd, std::string("2026-03-01T00:00:00.000000Z"));
        // Re-apply stays possible, and so does the way out for a person.
        QCOMPARE(rd::reapplyCase(*conn, caseId, kCaseNote).json["result"].get<std::string>(),
            std::string("rejected"));
    }

    // A renewal whose payload lacked its period (needs_snapshot) closes only when the
    // snapshot's latest renewal is that very renewal.
    void needsSnapshotCaseClosesOnlyWithItsRenewal()
    {
        auto conn = m_db->connect();
        const auto openCase = [&](const std::string &key) {
            pqxx::nontransaction tx(*conn);
            return tx
                .exec_params1("SELECT record_reconciliation_case(jsonb_build_object("
                              "'providerKey', 'stripe-main', 'providerSubscriptionId', 'sub_1', "
                              "'providerRenewalKey', $1::text, 'providerEventId', 'evt_' || $1), "
                              "'needs_snapshot', '{}')",
                    key)[0]
                .as<std::int64_t>();
        };
        const auto other = openCase("in_other");
        auto withoutIt = rd::attachSnapshot(
            *conn, snapshotOfFebruary(rdtest::capturedNow()), other, kCaseNote);
        QCOMPARE(withoutIt.json["case"]["status"].get<std::string>(), std::string("open"));
        QCOMPARE(rd::showCase(*conn, other)["status"].get<std::string>(), std::string("open"));

        const auto march = openCase("in_march");
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow(120));
        snapshot.currentPeriod = marchRenewal().period;
        snapshot.latestRenewal = marchRenewal();
        const auto withIt = rd::attachSnapshot(*conn, snapshot, march, kCaseNote);
        QCOMPARE(withIt.json["case"]["status"].get<std::string>(), std::string("resolved"));
    }

    // --- Snapshots that would contradict recorded history are refused. ---

    // Found by the outside audit: a provider object fetched before the February renewal, attached
    // later with a fresh capturedAt, would move the subscription back behind a paid period.
    void snapshotBehindARecordedPeriodIsRefused()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        QCOMPARE(outcomeName(applier.apply(februaryRenewal()).outcome),
            outcomeName(ApplyOutcome::Applied));
        auto conn = m_db->connect();
        const auto before = observe(*conn);
        const auto snapshot = snapshotOfJanuary(rdtest::capturedNow());
        try {
            rd::attachSnapshot(*conn, snapshot, std::nullopt, kCaseNote);
            QFAIL("expected a refusal");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(e.code(), std::string("snapshot_rewinds_period"));
            QVERIFY2(std::string(e.what()).find("2026-02-01T00:00:00.000000Z - "
                                                "2026-03-01T00:00:00.000000Z")
                    != std::string::npos,
                e.what());
        }
        QCOMPARE(observe(*conn), before);

        // The same through the CLI with a Stripe object (capturedAt = now): exit 4.
        const auto stripe = QByteArray(R"({"id":"sub_1","object":"subscription","status":"active",)"
                                       R"("cancel_at_period_end":false,)"
                                       R"("current_period_start":1767225600,)"
                                       R"("current_period_end":1769904000})");
        const auto run = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db,
                {"snapshot", "attach", "-", "--kind", "stripe", "--provider-key", "stripe-main",
                    "--reason", "provider_confirmed"}),
            stripe);
        QCOMPARE(run.exitCode, 4);
        QVERIFY2(run.err.contains("snapshot_rewinds_period"), run.err.constData());
        QCOMPARE(observe(*conn), before);
    }

    // Staleness counts the import: a snapshot captured before the subscription was imported
    // describes a state older than ours.
    void snapshotCapturedBeforeTheImportIsStale()
    {
        auto conn = m_db->connect();
        auto snapshot = snapshotOfFebruary("2020-01-01T00:00:00Z");
        try {
            rd::attachSnapshot(*conn, snapshot, std::nullopt, kCaseNote);
            QFAIL("expected a refusal");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(e.code(), std::string("stale_snapshot"));
        }
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM provider_snapshots"), 0LL);
    }

    // Found by the outside audit: latestRenewal must be the snapshot's own subscription's renewal,
    // of its current period; refused by the parser (exit 65, the field named) and, for a
    // caller that bypasses it, by the database.
    void snapshotRenewalOfAnotherSubscriptionIsRefused_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::newRow("provider") << "providerKey"
                                  << R"("paddle-eu")";
        QTest::newRow("subscription") << "providerSubscriptionId"
                                      << R"("sub_other")";
        QTest::newRow("period")
            << "period"
            << R"({"start":"2026-03-01T00:00:00Z","end":"2026-04-01T00:00:00Z"})";
    }

    void snapshotRenewalOfAnotherSubscriptionIsRefused()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        auto json = rd::toJson(snapshotOfFebruary(rdtest::capturedNow()));
        json["latestRenewal"][field.toStdString()] = nlohmann::json::parse(value.toStdString());

        const auto run = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db, {"snapshot", "attach", "-", "--reason", "provider_confirmed"}),
            QByteArray::fromStdString(json.dump()));
        QCOMPARE(run.exitCode, 65);
        QVERIFY2(run.err.contains(("latestRenewal." + field).toUtf8()), run.err.constData());

        auto conn = m_db->connect();
        try {
            pqxx::nontransaction tx(*conn);
            tx.exec_params(
                "SELECT attach_provider_snapshot($1::jsonb, NULL, 'other', NULL)", json.dump());
            QFAIL("the database accepted it");
        } catch (const pqxx::sql_error &e) {
            QCOMPARE(e.sqlstate(), std::string("RD010")); // snapshot_renewal_mismatch
        }
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM subscription_billing_periods"), 0LL);
    }

    // A case is about one subscription; a snapshot of another is not its way out.
    void snapshotOfAnotherSubscriptionCannotCloseACase()
    {
        rdtest::importSubscriptions(
            m_db->conninfo(), rdtest::subscriptionLine("stripe-main", "sub_2"));
        const auto caseId = rdtest::openGapCase(*m_db);
        auto conn = m_db->connect();
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        snapshot.providerSubscriptionId = "sub_2";
        snapshot.latestRenewal->providerSubscriptionId = "sub_2";
        try {
            rd::attachSnapshot(*conn, snapshot, caseId, kCaseNote);
            QFAIL("expected a refusal");
        } catch (const rd::ActionRefused &e) {
            QCOMPARE(e.code(), std::string("snapshot_case_mismatch"));
        }
        QCOMPARE(rd::showCase(*conn, caseId)["status"].get<std::string>(), std::string("open"));
    }

    // The preview is the attach's own judgment, and writes nothing.
    void previewSaysWhatAttachingWouldDo()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        auto conn = m_db->connect();
        const auto audits = scalar(*conn, "SELECT count(*) FROM subscription_transition_audits");
        const auto preview
            = rd::previewSnapshot(*conn, snapshotOfFebruary(rdtest::capturedNow()), caseId);
        QVERIFY(preview.wouldBe && !preview.refused);
        QVERIFY(preview.wouldBe->caseAfter);
        QVERIFY(preview.wouldBe->caseAfter->resolved);
        QVERIFY(preview.wouldBe->caseAfter->renewalOutcome == rd::ApplyOutcome::Applied);
        QCOMPARE(observe(*conn).billingPeriods, 0LL);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM subscription_transition_audits"), audits);
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM provider_snapshots"), 0LL);
        QCOMPARE(rd::showCase(*conn, caseId)["status"].get<std::string>(), std::string("open"));

        auto stale = snapshotOfFebruary("2020-01-01T00:00:00Z");
        const auto refused = rd::previewSnapshot(*conn, stale, caseId);
        QVERIFY(refused.refused && !refused.wouldBe);
        QVERIFY(refused.refused->refusal() == rd::Refusal::StaleSnapshot);
        QVERIFY2(std::string(refused.refused->what()).find("captured at") != std::string::npos,
            refused.refused->what());
    }

    // #42, 12: a preview takes no snapshot or case number: the attach after it is snapshot 1,
    // and the case the next delivery opens follows the last one opened before the preview.
    void aPreviewTakesNoNumber()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        auto conn = m_db->connect();
        for (int i = 0; i < 2; ++i)
            QVERIFY(rd::previewSnapshot(*conn, snapshotOfFebruary(rdtest::capturedNow()), caseId)
                        .wouldBe);
        rd::attachSnapshot(*conn, snapshotOfFebruary(rdtest::capturedNow()), caseId, kCaseNote);
        QCOMPARE(scalar(*conn, "SELECT min(id) FROM provider_snapshots"), 1LL);
        // A preview whose attach would open a case (April's renewal over February: a gap).
        auto april = snapshotOfFebruary(rdtest::capturedNow());
        april.currentPeriod = {ts("2026-04-01T00:00:00Z"), ts("2026-05-01T00:00:00Z")};
        april.latestRenewal.reset();
        rd::previewSnapshot(*conn, april, std::nullopt);
        auto may = marchRenewal();
        may.providerEventId = "evt_may";
        may.providerRenewalKey = "in_may";
        may.period = {ts("2026-05-01T00:00:00Z"), ts("2026-06-01T00:00:00Z")};
        const auto opened = rd::RenewalApplier(m_db->conninfo()).apply(may);
        QVERIFY(opened.caseId);
        QCOMPARE(*opened.caseId, caseId + 1);
        // A row numbered for a preview is never committed, whoever sets the setting.
        pqxx::work tx(*conn);
        tx.exec("SELECT set_config('renewal_desk.preview', 'on', true)");
        tx.exec("SELECT record_reconciliation_case(jsonb_build_object('providerKey', "
                "'stripe-main', 'providerSubscriptionId', 'sub_1', 'providerRenewalKey', "
                "'in_kept', 'providerEventId', 'evt_kept', 'paidAmountMinor', 900, "
                "'currency', 'USD'), 'needs_snapshot', '{}')");
        try {
            tx.commit();
            QFAIL("a preview's case was committed");
        } catch (const std::exception &e) {
            QVERIFY2(std::string(e.what()).find("preview_kept") != std::string::npos, e.what());
        }
    }

    // --- #28: following the operator's guide must not skip a paid renewal. ---

    // The issue's scenario: a subscription set to cancel, its $29 February renewal applied with
    // `renewalctl apply` and rejected (a case), then the provider's own Stripe subscription
    // object, whose latest_invoice is an id as Stripe returns it unless expanded, attached to
    // the case. The object moves the period to February; the case's renewal is February's
    // unless the object names another invoice.
    void stripeObjectOnASetToCancelCase_data()
    {
        QTest::addColumn<QString>("latestInvoice"); // JSON: "in_feb", absent (empty), another
        QTest::addColumn<bool>("recorded");
        QTest::newRow("latest_invoice is the case's renewal") << R"("in_feb")" << true;
        QTest::newRow("no latest_invoice") << QString() << true;
        QTest::newRow("latest_invoice is another invoice") << R"("in_other")" << false;
    }

    void stripeObjectOnASetToCancelCase()
    {
        QFETCH(QString, latestInvoice);
        QFETCH(bool, recorded);
        rdtest::importSubscriptions(m_db->conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_c", "active", "2026-01-01T00:00:00Z",
                "2026-02-01T00:00:00Z", true));
        auto renewal = februaryRenewal("sub_c", "evt_feb", "in_feb");
        renewal.paidAmountMinor = 2900;
        const auto line = QByteArray::fromStdString(rd::toJson(renewal).dump() + "\n");
        const auto applied
            = rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"apply", "-"}), line);
        QCOMPARE(applied.exitCode, 3); // rejected: a case
        auto conn = m_db->connect();
        const auto caseId = scalar(*conn,
            "SELECT id FROM reconciliation_cases WHERE provider_subscription_id = 'sub_c' "
            "AND error_code = 'renewal_conflicts_with_scheduled_cancellation'");
        const QString id = QString::number(caseId);

        // Stripe's object after the renewal: February current, no cancellation any more.
        QByteArray stripe = R"({"id":"sub_c","object":"subscription","status":"active",)"
                            R"("cancel_at_period_end":false,"current_period_start":1769904000,)"
                            R"("current_period_end":1772323200)";
        if (!latestInvoice.isEmpty())
            stripe += R"(,"latest_invoice":)" + latestInvoice.toUtf8();
        stripe += "}";
        const QStringList object {"snapshot", "attach", "-", "--kind", "stripe", "--provider-key",
            "stripe-main", "--case", id};

        // The preview says, in words and before anything is written, what becomes of it.
        const auto preview = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(*m_db, QStringList(object) << "--preview"), stripe);
        QCOMPARE(preview.exitCode, 0);
        QVERIFY2(preview.out.contains("attaching would bring subscription sub_c to the snapshot"),
            preview.out.constData());
        QVERIFY2(!preview.out.contains("would be attached"), preview.out.constData());
        const QByteArray renewalWords = "renewal in_feb of case " + id.toUtf8()
            + " (2026-02-01T00:00:00Z - 2026-03-01T00:00:00Z, 29.00 USD)";
        if (recorded) {
            QVERIFY2(preview.out.contains(renewalWords
                         + " would be recorded: it is the renewal "
                           "of the period the snapshot makes current"),
                preview.out.constData());
        } else {
            QVERIFY2(preview.out.contains("the subscription would move past " + renewalWords
                         + " without recording it"),
                preview.out.constData());
            QVERIFY2(preview.out.contains("case " + id.toUtf8()
                         + " would stay open: the snapshot names renewal in_other"),
                preview.out.constData());
        }
        QCOMPARE(scalar(*conn, "SELECT count(*) FROM provider_snapshots"), 0LL);

        const auto attach = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db,
                QStringList(object) << "--reason"
                                    << "provider_confirmed"),
            stripe);
        QCOMPARE(attach.exitCode, 0);
        const auto seen = observe(*conn, "sub_c");
        QCOMPARE(seen.periodEnd, std::string("2026-03-01T00:00:00.000000Z"));
        const auto c = rd::showCase(*conn, caseId);
        // Exactly once: one billing period, one audit row and one outbox intent that carry it.
        const auto periodsOf = [&](const std::string &table) {
            return scalar(*conn,
                "SELECT count(*) FROM " + table
                    + " t JOIN subscription_billing_periods b ON b.id = t.billing_period_id "
                      "WHERE b.provider_renewal_key = 'in_feb'");
        };
        if (recorded) {
            QCOMPARE(c["status"].get<std::string>(), std::string("resolved"));
            QCOMPARE(c["resolution"].get<std::string>(), std::string("snapshot_attached"));
            QCOMPARE(seen.billingPeriods, 1LL);
            QCOMPARE(scalar(*conn,
                         "SELECT paid_amount_minor FROM subscription_billing_periods "
                         "WHERE provider_renewal_key = 'in_feb'"),
                2900LL);
            QCOMPARE(periodsOf("subscription_transition_audits"), 1LL);
            QCOMPARE(periodsOf("subscription_outbox"), 1LL);
            QCOMPARE(periodsOf("reconciliation_cases"), 1LL);
            QVERIFY2(attach.out.contains(renewalWords + " is recorded"), attach.out.constData());
            // A later delivery of the same renewal is a duplicate, not a second record.
            rd::RenewalApplier applier(m_db->conninfo());
            QCOMPARE(
                outcomeName(applier.apply(renewal).outcome), outcomeName(ApplyOutcome::Duplicate));
            QCOMPARE(observe(*conn, "sub_c").billingPeriods, 1LL);
            QCOMPARE(scalar(*conn,
                         "SELECT sum(renewals) FROM renewal_total_deltas "
                         "WHERE provider_key = 'stripe-main' AND amount_minor = 2900"),
                1LL);
        } else {
            QCOMPARE(c["status"].get<std::string>(), std::string("open"));
            QCOMPARE(seen.billingPeriods, 0LL);
            QCOMPARE(periodsOf("subscription_transition_audits"), 0LL);
            QCOMPARE(periodsOf("subscription_outbox"), 0LL);
            // The case says why, in its history.
            const auto &last = c["history"].back();
            QCOMPARE(last["action"].get<std::string>(), std::string("reapply"));
            QVERIFY2(last["details"]["why"].get<std::string>().find("names renewal in_other")
                    != std::string::npos,
                last.dump().c_str());
            QVERIFY2(attach.out.contains("the subscription moved past " + renewalWords),
                attach.out.constData());
            const auto shown
                = rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"cases", "show", id}));
            QVERIFY2(shown.out.contains("the snapshot names renewal in_other as the one that "
                                        "began its current period"),
                shown.out.constData());
        }
        QVERIFY(rd::verifyAuditChains(*conn).empty());
    }

    // Attached once without the case, the same snapshot again with it is no longer "unchanged":
    // it records the case's renewal it passed by.
    void sameSnapshotAgainWithItsCaseRecordsTheRenewal()
    {
        const auto caseId = rdtest::openGapCase(*m_db); // March, while January is current
        auto conn = m_db->connect();
        auto march = snapshotOfFebruary(rdtest::capturedNow());
        march.currentPeriod = rd::Period {ts("2026-03-01T00:00:00Z"), ts("2026-04-01T00:00:00Z")};
        march.latestRenewal.reset();
        const auto preview = rd::previewSnapshot(*conn, march, std::nullopt);
        QVERIFY(preview.wouldBe);
        QCOMPARE(preview.wouldBe->leftBehind.size(), std::size_t(1));
        QCOMPARE(preview.wouldBe->leftBehind[0].caseId, caseId);
        QCOMPARE(preview.wouldBe->leftBehind[0].renewalKey, std::string("in_march"));
        QCOMPARE(rd::attachSnapshot(*conn, march, std::nullopt, kCaseNote).leftBehind.size(),
            std::size_t(1));
        QCOMPARE(observe(*conn).billingPeriods, 0LL);

        const auto again = rd::attachSnapshot(*conn, march, caseId, kCaseNote);
        QCOMPARE(again.json["result"].get<std::string>(), std::string("attached"));
        QVERIFY(again.renewalFromCase);
        QVERIFY(again.leftBehind.empty());
        QCOMPARE(rd::showCase(*conn, caseId)["status"].get<std::string>(), std::string("resolved"));
        QCOMPARE(observe(*conn).billingPeriods, 1LL);
    }

    // #28 item 2: the case of a subscription we never imported is linked to the subscription its
    // snapshot creates (and its renewal, that of the period the snapshot makes current, recorded).
    void snapshotThatCreatesItsSubscriptionLinksItsCase()
    {
        rd::RenewalApplier applier(m_db->conninfo());
        const auto out = applier.apply(februaryRenewal("sub_new", "evt_new", "in_new"));
        QCOMPARE(rdtest::rejectionOf(out), std::string("subscription_not_found"));
        auto conn = m_db->connect();
        auto snapshot = snapshotOfFebruary(rdtest::capturedNow());
        snapshot.providerSubscriptionId = "sub_new";
        snapshot.latestRenewal.reset();
        const auto attached = rd::attachSnapshot(*conn, snapshot, *out.caseId, kCaseNote);
        QCOMPARE(attached.json["result"].get<std::string>(), std::string("created"));
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM reconciliation_cases c JOIN subscriptions s "
                     "ON s.id = c.subscription_id WHERE s.provider_subscription_id = 'sub_new'"),
            1LL);
        QCOMPARE(
            rd::showCase(*conn, *out.caseId)["status"].get<std::string>(), std::string("resolved"));
        QCOMPARE(observe(*conn, "sub_new").billingPeriods, 1LL);
    }
};

QTEST_GUILESS_MAIN(TestSnapshot)
#include "tst_snapshot.moc"
