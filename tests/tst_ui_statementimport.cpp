#include "tests/support/process_runner.h"
#include "tests/support/test_database.h"
#include "ui/models/databasepool.h"
#include "ui/widgets/statementimportdialog.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using rdtest::scalar;

namespace {

constexpr long long kFeb1 = 1769904000; // 2026-02-01T00:00:00Z
constexpr long long kMar1 = 1772323200;

nlohmann::json invoice(const std::string &id, const std::string &subscription)
{
    return {{"id", id}, {"object", "invoice"}, {"subscription", subscription},
        {"billing_reason", "subscription_cycle"}, {"status", "paid"}, {"amount_paid", 1999},
        {"currency", "usd"}, {"created", kFeb1}, {"status_transitions", {{"paid_at", kFeb1 + 5}}},
        {"lines",
            {{"object", "list"}, {"has_more", false},
                {"data",
                    nlohmann::json::array({{{"type", "subscription"}, {"proration", false},
                        {"period", {{"start", kFeb1}, {"end", kMar1}}}}})}}}};
}

} // namespace

/// File › Import provider statement… against a real server: the preview keeps nothing, the
/// import records the missing renewal and says so.
class TestUiStatementImport : public QObject
{
    Q_OBJECT

private slots:
    void previewThenImport()
    {
        rdtest::TestDatabase db("ui_statement");
        rdtest::importSubscriptions(db.conninfo(),
            rdtest::subscriptionLine("stripe-main", "sub_1") + "\n"
                + rdtest::subscriptionLine("stripe-main", "sub_2") + "\n");
        QCOMPARE(rdtest::runProgram(rdtest::ctl(),
                     rdtest::withDb(db,
                         {"providers", "add", "stripe-main", "--kind", "stripe", "--name", "S"}))
                     .exitCode,
            0);
        const QByteArray recorded = QByteArray::fromStdString(nlohmann::json {
            {"providerKey", "stripe-main"}, {"providerEventId", "evt_1"},
            {"providerSubscriptionId", "sub_1"}, {"providerRenewalKey", "in_1"},
            {"providerVersion", nullptr},
            {"period", {{"start", "2026-02-01T00:00:00Z"}, {"end", "2026-03-01T00:00:00Z"}}},
            {"paidAmountMinor", 1999}, {"currency", "USD"},
            {"paidAt", "2026-02-01T00:00:05Z"}}.dump());
        QCOMPARE(
            rdtest::runProgram(rdtest::ctl(), rdtest::withDb(db, {"apply"}), recorded).exitCode, 0);
        QTemporaryDir dir;
        const QString file = dir.filePath("invoices.json");
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(nlohmann::json {{"object", "list"},
                {"has_more", false}, {"data", {invoice("in_1", "sub_1"), invoice("in_2", "sub_2")}}}
                                                  .dump()));
        }

        const QString conninfo = QString::fromStdString(db.conninfo());
        rd::ui::DatabasePool pool(conninfo);
        rd::ui::StatementImportDialog dialog(conninfo, &pool);
        QSignalSpy providers(&dialog, &rd::ui::StatementImportDialog::providersLoaded);
        dialog.show();
        QVERIFY(!dialog.previewButton()->isEnabled()); // no files yet
        // The registered providers are offered, read off the GUI thread.
        QVERIFY(providers.wait(10000));
        QCOMPARE(dialog.request(true).providerKey, QStringLiteral("stripe-main"));
        dialog.setProviderKey(QStringLiteral("stripe-main"));
        dialog.addFiles({file});
        dialog.setDays(QDate(2026, 2, 1), QDate(2026, 2, 28));
        QVERIFY(dialog.previewButton()->isEnabled());

        QSignalSpy reported(&dialog, &rd::ui::StatementImportDialog::reported);
        QSignalSpy imported(&dialog, &rd::ui::StatementImportDialog::imported);
        dialog.previewButton()->click();
        QVERIFY(reported.wait(30000));
        QVERIFY2(dialog.reportText().contains("Preview"), qPrintable(dialog.reportText()));
        QVERIFY2(dialog.reportText().contains("matched 1, backfilled 1"),
            qPrintable(dialog.reportText()));
        QCOMPARE(imported.count(), 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM subscription_billing_periods"), 1LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM statement_runs"), 0LL);

        dialog.importButton()->click();
        QVERIFY(reported.wait(30000));
        QCOMPARE(imported.count(), 1);
        QVERIFY(imported.front().front().toLongLong() > 0);
        QVERIFY2(
            dialog.reportText().contains("nothing is left open"), qPrintable(dialog.reportText()));
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM subscription_billing_periods WHERE "
                     "provider_renewal_key = 'in_2' AND recorded_by = 'statement'"),
            1LL);
        if (const QByteArray shot = qgetenv("RD_SCREENSHOT_DIR"); !shot.isEmpty())
            dialog.grab().save(QString::fromLocal8Bit(shot) + "/statement-import.png");
    }

    // #42, 4: with the dialog's defaults (the days unticked) a month's file covers its whole
    // month, as the CLI takes it: February's file, paid on 1 February only, covers 1 to 28
    // February, and the close no longer asks for "a statement of the whole month".
    void theDefaultDaysAreTheWholeMonth()
    {
        rdtest::TestDatabase db("ui_statement_days");
        rdtest::importSubscriptions(
            db.conninfo(), rdtest::subscriptionLine("stripe-main", "sub_1") + "\n");
        QCOMPARE(rdtest::runProgram(rdtest::ctl(),
                     rdtest::withDb(db,
                         {"providers", "add", "stripe-main", "--kind", "stripe", "--name", "S"}))
                     .exitCode,
            0);
        QTemporaryDir dir;
        const QString file = dir.filePath("february.json");
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(nlohmann::json {{"object", "list"},
                {"has_more", false},
                {"data",
                    {invoice("in_1", "sub_1")}}}.dump()));
        }
        const QString conninfo = QString::fromStdString(db.conninfo());
        rd::ui::DatabasePool pool(conninfo);
        rd::ui::StatementImportDialog dialog(conninfo, &pool);
        dialog.setProviderKey(QStringLiteral("stripe-main"));
        dialog.addFiles({file});
        QVERIFY(dialog.request(false).from.isEmpty() && dialog.request(false).to.isEmpty());
        QSignalSpy reported(&dialog, &rd::ui::StatementImportDialog::reported);
        dialog.importButton()->click();
        QVERIFY(reported.wait(30000));
        QVERIFY2(dialog.lastReport().succeeded(), qPrintable(dialog.reportText()));
        QCOMPARE(rdtest::text(db, "SELECT covers_from || ' ' || covers_to FROM statement_runs"),
            std::string("2026-02-01 2026-02-28"));
        QVERIFY2(rdtest::text(db,
                     "SELECT coalesce(month_close_refusal('stripe-main', "
                     "'2026-02-01'), '')")
                     .find("covers all of")
                == std::string::npos,
            "the close still wants a run of the whole month");
        if (const QByteArray shot = qgetenv("RD_SCREENSHOT_DIR"); !shot.isEmpty()) {
            dialog.resize(1024, 640);
            dialog.show();
            QTest::qWait(100);
            dialog.grab().save(QString::fromLocal8Bit(shot) + "/statement-import-days.png");
        }
    }

    // A file the adapter cannot read is refused in words, nothing kept.
    void anUnreadableStatementIsRefused()
    {
        rdtest::TestDatabase db("ui_statement_bad");
        QCOMPARE(rdtest::runProgram(rdtest::ctl(),
                     rdtest::withDb(db,
                         {"providers", "add", "stripe-main", "--kind", "stripe", "--name", "S"}))
                     .exitCode,
            0);
        QTemporaryDir dir;
        const QString file = dir.filePath("broken.json");
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"object":"list","has_more":false,"data":[{"object":"invoice"}]})");
        }
        rd::ui::DatabasePool pool(QString::fromStdString(db.conninfo()));
        rd::ui::StatementImportDialog dialog(QString::fromStdString(db.conninfo()), &pool);
        dialog.setProviderKey(QStringLiteral("stripe-main"));
        dialog.addFiles({file});
        QSignalSpy reported(&dialog, &rd::ui::StatementImportDialog::reported);
        dialog.importButton()->click();
        QVERIFY(reported.wait(30000));
        QCOMPARE(dialog.lastReport().kind, rd::ui::StatementImportResult::Kind::Refused);
        QVERIFY2(dialog.reportText().contains("broken.json"), qPrintable(dialog.reportText()));
        QCOMPARE(scalar(db, "SELECT count(*) FROM statement_runs"), 0LL);
    }
};

QTEST_MAIN(TestUiStatementImport)
#include "tst_ui_statementimport.moc"
