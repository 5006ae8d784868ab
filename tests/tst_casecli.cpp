#include "domain/core/provider_snapshot.h"
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
using rdtest::marchRenewal;
using rdtest::observe;
using rdtest::outcomeName;
using rdtest::scalar;
using rdtest::snapshotOfFebruary;
using rdtest::ts;

/// The case actions through `renewalctl`: its exit codes, `snapshot attach --preview` then the
/// attach, and `renewalctl apply` recorded as the CLI's.
class TestCaseCli : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

private slots:
    void init() { m_db = rdtest::databaseWithSub1(); }

    void cleanup() { m_db.reset(); }

    // #42, 12: "applicable now" is said of an open case only; a resolved case's renewal is
    // recorded, and "applicable now: no" read as if something were still wrong.
    void showSaysApplicableOfAnOpenCaseOnly()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        const QString id = QString::number(caseId);
        auto show = rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"cases", "show", id}));
        QVERIFY2(show.out.contains("  applicable now: no\n"), show.out.constData());
        auto conn = m_db->connect();
        rd::attachSnapshot(
            *conn, snapshotOfFebruary(rdtest::capturedNow()), caseId, rdtest::kCaseNote);
        show = rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"cases", "show", id}));
        QVERIFY2(show.out.startsWith(("case " + id + ": resolved").toUtf8()), show.out.constData());
        QVERIFY2(!show.out.contains("applicable now"), show.out.constData());
    }

    void cliActionsAndExitCodes()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        const QString ctl = rdtest::ctl();
        const QString db = QString::fromStdString(m_db->conninfo());
        const QString id = QString::number(caseId);

        const auto list
            = rdtest::runProgram(ctl, {"cases", "list", "--status", "open", "--json", "--db", db});
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(
            nlohmann::json::parse(list.out.toStdString())[0]["id"].get<std::int64_t>(), caseId);

        // Still not contiguous: the attempt is recorded, the case stays open.
        const auto reapply = rdtest::runProgram(
            ctl, {"cases", "reapply", id, "--reason", "provider_confirmed", "--db", db});
        QCOMPARE(reapply.exitCode, 3);
        QVERIFY2(reapply.out.contains(
                     ("case " + id + ": rejected, still open: renewal_period_is_not_contiguous")
                         .toUtf8()),
            reapply.out.constData());

        const auto noReason = rdtest::runProgram(ctl, {"cases", "reapply", id, "--db", db});
        QCOMPARE(noReason.exitCode, 64);
        const auto noNote = rdtest::runProgram(
            ctl, {"cases", "dismiss", id, "--reason", "customer_request", "--db", db});
        QCOMPARE(noNote.exitCode, 64);
        const auto dismissed = rdtest::runProgram(ctl,
            {"cases", "dismiss", id, "--reason", "customer_request", "--comment",
                "refunded by support", "--db", db});
        QCOMPARE(dismissed.exitCode, 0);
        const auto again = rdtest::runProgram(ctl,
            {"cases", "dismiss", id, "--reason", "customer_request", "--comment", "again", "--db",
                db});
        QCOMPARE(again.exitCode, 4);
        // Said once (#28, 27a: "already dismissed (dismissed)"), with the way back.
        QVERIFY2(again.err.contains("was already dismissed by postgres at"), again.err.constData());
        QVERIFY2(!again.err.contains("(dismissed)"), again.err.constData());
        QVERIFY2(again.err.contains("reopen it"), again.err.constData());

        // A Stripe subscription object, turned into a snapshot by the Stripe adapter.
        const auto attach = rdtest::runProgram(ctl,
            {"snapshot", "attach",
                QStringLiteral(RD_FIXTURES_DIR) + "/snapshots/stripe_subscription_basil.json",
                "--kind", "stripe", "--provider-key", "stripe-main", "--reason",
                "provider_confirmed", "--json", "--db", db});
        QCOMPARE(attach.exitCode, 0);
        QCOMPARE(nlohmann::json::parse(attach.out.toStdString())["result"].get<std::string>(),
            std::string("created")); // sub_1QxSub0001 was not imported
    }

    // The same through the CLI: --preview says it, then the attach does it.
    void cliPreviewThenAttachOnAGapCase()
    {
        const auto caseId = rdtest::openGapCase(*m_db);
        const QString id = QString::number(caseId);
        const auto json = QByteArray::fromStdString(
            rd::toJson(snapshotOfFebruary(rdtest::capturedNow())).dump());
        const auto preview = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db, {"snapshot", "attach", "-", "--case", id, "--preview"}), json);
        QCOMPARE(preview.exitCode, 0);
        QVERIFY2(preview.out.contains(
                     ("case " + id + " would be resolved: its renewal would be applied").toUtf8()),
            preview.out.constData());
        auto conn = m_db->connect();
        QCOMPARE(observe(*conn).billingPeriods, 0LL);

        const auto attach = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(
                *m_db, {"snapshot", "attach", "-", "--case", id, "--reason", "provider_confirmed"}),
            json);
        QCOMPARE(attach.exitCode, 0);
        QVERIFY2(
            attach.out.contains(("case " + id + " is resolved: its renewal was applied").toUtf8()),
            attach.out.constData());
        QCOMPARE(observe(*conn).periodEnd, std::string("2026-04-01T00:00:00.000000Z"));
    }

    // #28 item 3: `renewalctl apply` says what recorded the renewal: 'cli' and the login role,
    // in the billing period, its audit row, and the history of a case it opens.
    void renewalctlApplyRecordsAsCli()
    {
        const auto lines = QByteArray::fromStdString(
            rd::toJson(februaryRenewal("sub_1", "evt_feb", "in_feb")).dump() + "\n"
            + rd::toJson(marchRenewal()).dump() + "\n");
        rdtest::importSubscriptions(m_db->conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_2", "active", "2026-01-01T00:00:00Z",
                "2026-02-01T00:00:00Z", true));
        const auto rejected = QByteArray::fromStdString(
            rd::toJson(februaryRenewal("sub_2", "evt_2", "in_2")).dump() + "\n");
        QCOMPARE(rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"apply", "-"}), lines)
                     .exitCode,
            0);
        QCOMPARE(rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"apply", "-"}), rejected)
                     .exitCode,
            3);
        auto conn = m_db->connect();
        {
            pqxx::read_transaction tx(*conn);
            const auto recorded
                = tx.exec("SELECT b.recorded_by, a.actor_type, a.actor_id FROM "
                          "subscription_billing_periods "
                          "b JOIN subscription_transition_audits a ON a.billing_period_id = b.id");
            QCOMPARE(recorded.size(), 2); // the two renewals apply recorded, each audited
            for (const auto &row : recorded) {
                QCOMPARE(row[0].as<std::string>(), std::string("cli"));
                QCOMPARE(row[1].as<std::string>(), std::string("cli"));
                QCOMPARE(row[2].as<std::string>(), std::string("postgres"));
            }
            QCOMPARE(tx.exec1("SELECT count(*) FROM subscription_billing_periods "
                              "WHERE recorded_by = 'cli'")[0]
                         .as<long long>(),
                2LL);
            QCOMPARE(
                tx.exec1("SELECT h.details->>'recordedBy' FROM reconciliation_case_history h "
                         "JOIN reconciliation_cases c ON c.id = h.case_id "
                         "WHERE c.provider_subscription_id = 'sub_2' AND h.action = 'opened'")[0]
                    .as<std::string>(std::string()),
                std::string("cli"));
        }
        const auto caseOfSub2 = scalar(
            *conn, "SELECT id FROM reconciliation_cases WHERE provider_subscription_id = 'sub_2'");
        const auto shown = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(*m_db, {"cases", "show", QString::number(caseOfSub2)}));
        QVERIFY2(shown.out.contains("by postgres (renewalctl apply)"), shown.out.constData());
        // A delivery stays a webhook delivery.
        rd::RenewalApplier webhook(m_db->conninfo());
        auto april = marchRenewal();
        april.providerRenewalKey = "in_april";
        april.period = {ts("2026-04-01T00:00:00Z"), ts("2026-05-01T00:00:00Z")};
        QCOMPARE(outcomeName(webhook.apply(april).outcome), outcomeName(ApplyOutcome::Applied));
        QCOMPARE(scalar(*conn,
                     "SELECT count(*) FROM subscription_billing_periods "
                     "WHERE recorded_by = 'webhook' AND provider_renewal_key = 'in_april'"),
            1LL);
    }
};

QTEST_GUILESS_MAIN(TestCaseCli)
#include "tst_casecli.moc"
