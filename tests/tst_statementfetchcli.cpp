// `renewalctl statement fetch` as a script sees it, against a local provider API (the list
// server of tst_statementfetch) and a real database: the exit code of each kind of failure and
// the reason on its first line, the bounds on an endless list, plain http only to this machine,
// private --save folders, and --from after --to refused alike by fetch and import.

#include "tests/support/process_runner.h"
#include "tests/support/statement_api_server.h"
#include "tests/support/test_database.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <string>
#include <sys/stat.h>

using rdtest::ctl;
using rdtest::runProgram;
using rdtest::scalar;
using rdtest::withDb;

namespace {

const char *kKey = "sk_test_fetch_cli_31";

rdtest::ApiResponse answer(
    int status, std::string body, std::vector<std::pair<std::string, std::string>> headers = {})
{
    return {status, std::move(body), std::move(headers)};
}

QString firstLine(const QByteArray &err)
{
    return QString::fromUtf8(err.left(err.indexOf('\n')));
}

/// The failure's own first line: the progress lines (one per request) come before it.
QString failureLine(const QByteArray &err)
{
    for (const char *start : {"renewalctl: fetch failed", "renewalctl: fetch stopped"}) {
        if (const auto at = err.indexOf(start); at >= 0)
            return firstLine(err.mid(at));
    }
    return "no failure in: " + QString::fromUtf8(err.right(2000));
}

mode_t modeOf(const QString &path)
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return 0;
    return st.st_mode & 07777;
}

} // namespace

class TestStatementFetchCli : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_secrets;

    rdtest::RunResult fetch(const std::string &base, const QStringList &extra = {},
        const QString &provider = "stripe-main")
    {
        QStringList args {"statement", "fetch", "--provider-key", provider, "--from", "2026-02-01",
            "--to", "2026-02-28", "--secrets", m_secrets, "--api-base",
            QString::fromStdString(base)};
        return runProgram(ctl(), withDb(*m_db, args << extra));
    }

    long long runs() { return scalar(*m_db, "SELECT count(*) FROM statement_runs"); }

private slots:
    void init()
    {
        m_db = std::make_unique<rdtest::TestDatabase>(QTest::currentTestFunction());
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        for (const auto &[key, kind] :
            {std::pair {"stripe-main", "stripe"}, std::pair {"paddle-main", "paddle"}}) {
            const auto added = runProgram(
                ctl(), withDb(*m_db, {"providers", "add", key, "--kind", kind, "--name", "P"}));
            QVERIFY2(added.exitCode == 0, added.err.constData());
        }
        m_secrets = m_dir->filePath("secrets.json");
        QFile f(m_secrets);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("{\"stripe-main\": {\"apiKey\": \"") + kKey
            + "\"}, \"paddle-main\": {\"apiKey\": \"" + kKey + "\"}}");
        f.close();
        QVERIFY(QFile::setPermissions(m_secrets, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    }

    void cleanup()
    {
        m_db.reset();
        m_dir.reset();
    }

    // Each kind of failure: the provider's answer cannot be taken (65), it may answer
    // otherwise later (75), the key is refused (78); never 69, which says the database is
    // unavailable. The reason is the first line; nothing is imported.
    void exitCodePerFailure_data()
    {
        QTest::addColumn<QString>("failure");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("reason");
        QTest::newRow("404") << "404" << 65
                             << "renewalctl: fetch failed: the provider refused the request "
                                "(HTTP 404)";
        QTest::newRow("not the list")
            << "html" << 65
            << "renewalctl: fetch failed: a page was not the provider's list: not JSON it can "
               "read";
        QTest::newRow("page loop")
            << "loop" << 65
            << "renewalctl: fetch failed: the next link repeats a page already fetched";
        QTest::newRow("foreign next")
            << "foreign" << 65
            << "renewalctl: fetch failed: the provider's next-page link points elsewhere than "
               "its API; not followed";
        QTest::newRow("503") << "503" << 75
                             << "renewalctl: fetch failed: the provider's API failed (HTTP 503)";
        QTest::newRow("429") << "429" << 75
                             << "renewalctl: fetch failed: the provider kept refusing requests "
                                "as too many (HTTP 429)";
        QTest::newRow("connection refused")
            << "closed" << 75
            << "renewalctl: fetch failed: the provider's API could not be reached";
        QTest::newRow("401") << "401" << 78 << "renewalctl: fetch failed: the API key was refused";
    }
    void exitCodePerFailure()
    {
        QFETCH(QString, failure);
        QFETCH(int, exitCode);
        QFETCH(QString, reason);
        rdtest::ApiServer api([failure](const rdtest::ApiRequest &r) {
            if (failure == "404")
                return answer(404, R"({"error":{"message":"Unrecognized request URL"}})");
            if (failure == "html")
                return answer(200, "<html>maintenance</html>");
            if (failure == "loop") // every page ends with the same object, so asks for itself
                return answer(200, R"({"object":"list","has_more":true,"data":[{"id":"in_1"}]})");
            if (failure == "foreign")
                return answer(200,
                    nlohmann::json {{"data", nlohmann::json::array()},
                        {"meta",
                            {{"pagination",
                                {{"has_more", true},
                                    {"next",
                                        "https://api.attacker.invalid/transactions?after=x"}}}}}}
                        .dump());
            if (failure == "503")
                return answer(503, "unavailable", {{"Retry-After", "0"}});
            if (failure == "429")
                return answer(429, "slow down", {{"Retry-After", "0"}});
            if (failure == "401")
                return answer(401, R"({"error":{}})");
            return rdtest::endlessStripePage(r);
        });
        std::string base = api.base();
        if (failure == "closed") {
            rdtest::ApiServer gone([](const rdtest::ApiRequest &) { return answer(200, ""); });
            base = gone.base();
        }
        const auto r = fetch(base, {}, failure == "foreign" ? "paddle-main" : "stripe-main");
        QCOMPARE(r.exitCode, exitCode);
        QCOMPARE(failureLine(r.err), reason);
        // The details follow it: the code, the URL.
        const QByteArray after = r.err.mid(r.err.indexOf("renewalctl: fetch failed"));
        QVERIFY2(after.contains("\nrenewalctl: (") && after.contains("GET http://127.0.0.1:"),
            after.constData());
        QVERIFY(!r.err.contains(kKey));
        QCOMPARE(runs(), 0LL);
    }

    // An endless has_more list ends at the bound given, exit 75, the bound named first.
    void boundsOnAnEndlessList_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("filler");
        QTest::addColumn<QString>("reason");
        QTest::newRow("--max-pages") << QStringList {"--max-pages", "3"} << 0
                                     << "renewalctl: fetch stopped at --max-pages: the list has "
                                        "more than the 3 pages allowed";
        QTest::newRow("--max-bytes") << QStringList {"--max-bytes", "8192"} << 1000
                                     << "renewalctl: fetch stopped at --max-bytes: the pages "
                                        "came to more than the 8192 bytes allowed";
        QTest::newRow("--max-bytes, one large page")
            << QStringList {"--max-bytes", "1048576"} << 50 * 1000 * 1000
            << "renewalctl: fetch stopped at --max-bytes: the pages came to more than the 1 MiB "
               "allowed";
        QTest::newRow("--deadline")
            << QStringList {"--deadline", "1.5", "--max-pages", "10000000"} << 0
            << "renewalctl: fetch stopped at --deadline: the fetch ran "
               "past its deadline of 1500 ms";
    }
    void boundsOnAnEndlessList()
    {
        QFETCH(QStringList, options);
        QFETCH(int, filler);
        QFETCH(QString, reason);
        rdtest::ApiServer api([filler](const rdtest::ApiRequest &r) {
            return rdtest::endlessStripePage(r, static_cast<std::size_t>(filler));
        });
        QElapsedTimer timer;
        timer.start();
        // The progress lines of thousands of pages are not wanted here: --json keeps stdout
        // short; stderr is read whole.
        const auto r = fetch(api.base(), options);
        QCOMPARE(r.exitCode, 75);
        QCOMPARE(failureLine(r.err), reason);
        QVERIFY2(timer.elapsed() < 30000, qPrintable(QString::number(timer.elapsed())));
        if (options.first() == "--max-pages")
            QCOMPARE(api.requests().size(), std::size_t(3));
        QCOMPARE(runs(), 0LL);
    }

    void boundsAreChecked_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("message");
        QTest::newRow("no pages") << QStringList {"--max-pages", "0"}
                                  << "--max-pages must be a whole number from 1 to 10000000";
        QTest::newRow("pages not a number") << QStringList {
            "--max-pages", "many"} << "--max-pages must be a whole number from 1 to 10000000";
        QTest::newRow("too few bytes") << QStringList {
            "--max-bytes", "100"} << "--max-bytes must be a whole number from 1024 to 17179869184";
        QTest::newRow("no time") << QStringList {"--deadline", "0"}
                                 << "--deadline must be a number from 0.1 to 604800";
        QTest::newRow("deadline with a unit") << QStringList {"--deadline", "15min"}
                                              << "--deadline must be a number from 0.1 to 604800";
    }
    void boundsAreChecked()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, message);
        rdtest::ApiServer api(
            [](const rdtest::ApiRequest &r) { return rdtest::endlessStripePage(r); });
        const auto r = fetch(api.base(), options);
        QCOMPARE(r.exitCode, 64);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QCOMPARE(api.requests().size(), std::size_t(0));
    }

    // Plain http only to this machine by address: a name that starts with "127." is anyone's,
    // and the key is not sent to it.
    void plainHttpToANameIsRefused()
    {
        for (const char *base : {"http://127.attacker.invalid", "http://127.0.0.1.attacker.invalid",
                 "http://localhost.attacker.invalid:8080"}) {
            const auto r = fetch(base);
            QCOMPARE(r.exitCode, 64);
            QCOMPARE(firstLine(r.err),
                QString("renewalctl: fetch failed: the API base must be https:// (http:// only "
                        "to 127.0.0.0/8, [::1] or localhost)"));
            QVERIFY2(!r.err.contains("GET "), r.err.constData());
        }
    }

    // --save: files 0600 (pages and manifest) in a folder 0700 (created so, whatever the umask); an
    // existing folder others may enter is refused before any request, not tightened.
    void savedPagesArePrivate()
    {
        rdtest::ApiServer api([](const rdtest::ApiRequest &r) {
            // A first invoice: listed, not a renewal; nothing to import.
            const std::string invoice
                = R"({"id":"in_a","object":"invoice","subscription":"sub_a",)"
                  R"("billing_reason":"subscription_create","status":"paid","amount_paid":100,)"
                  R"("currency":"usd","created":1769904000,)"
                  R"("status_transitions":{"paid_at":1769904005},"lines":{"object":"list",)"
                  R"("has_more":false,"data":[{"type":"subscription","proration":false,)"
                  R"("period":{"start":1769904000,"end":1772323200}}]}})";
            if (r.path == "/v1/invoices" && r.param("starting_after").empty())
                return answer(200, R"({"object":"list","has_more":true,"data":[)" + invoice + "]}");
            // The invoices' last page; the refunds' and the disputes' only ones (#40).
            return answer(200, R"({"object":"list","has_more":false,"data":[]})");
        });
        const mode_t previous = ::umask(022);
        const QString dir = m_dir->filePath("pages/feb");
        const auto r = fetch(api.base(), {"--save", dir});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 3, r.err.constData());
        QCOMPARE(modeOf(dir), mode_t(0700));
        const QStringList names = QDir(dir).entryList(QDir::Files, QDir::Name);
        // The manifest that lists the pages is as private as they are.
        QCOMPARE(names,
            QStringList({"manifest.json", "stripe-0001.json", "stripe-0002.json",
                "stripe-0003.json", "stripe-0004.json"}));
        for (const auto &name : names)
            QCOMPARE(modeOf(dir + "/" + name), mode_t(0600));

        // Again into the same folder: the pages are replaced, still 0600.
        QVERIFY(QFile::setPermissions(dir + "/stripe-0001.json",
            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther));
        const auto again = fetch(api.base(), {"--save", dir});
        QVERIFY2(again.exitCode == 0 || again.exitCode == 3, again.err.constData());
        QCOMPARE(modeOf(dir + "/stripe-0001.json"), mode_t(0600));

        const QString shared = m_dir->filePath("shared");
        QVERIFY(QDir().mkpath(shared));
        QVERIFY(::chmod(QFile::encodeName(shared).constData(), 0755) == 0);
        const std::size_t asked = api.requests().size();
        const auto refused = fetch(api.base(), {"--save", shared});
        ::umask(previous);
        QCOMPARE(refused.exitCode, 78);
        QVERIFY2(firstLine(refused.err)
                     .startsWith("renewalctl: --save refused: " + shared
                         + " is open to other accounts (mode 0755)"),
            refused.err.constData());
        QCOMPARE(api.requests().size(), asked);
        QCOMPARE(modeOf(shared), mode_t(0755));
        QVERIFY(QDir(shared).isEmpty());
    }

    // --from after --to is a usage error (64) in both commands, before anything is read.
    void fromAfterToIsAUsageError()
    {
        const QString page = m_dir->filePath("page.json");
        QFile f(page);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"object":"list","has_more":false,"data":[]})");
        f.close();
        const QString expected
            = "renewalctl: --from 2026-02-28 is after --to 2026-02-01 (both are included)";
        const auto imported = runProgram(ctl(),
            withDb(*m_db,
                {"statement", "import", "--provider-key", "stripe-main", "--from", "2026-02-28",
                    "--to", "2026-02-01", page}));
        QCOMPARE(imported.exitCode, 64);
        QCOMPARE(firstLine(imported.err), expected);
        rdtest::ApiServer api(
            [](const rdtest::ApiRequest &r) { return rdtest::endlessStripePage(r); });
        const auto fetched = runProgram(ctl(),
            withDb(*m_db,
                {"statement", "fetch", "--provider-key", "stripe-main", "--from", "2026-02-28",
                    "--to", "2026-02-01", "--secrets", m_secrets, "--api-base",
                    QString::fromStdString(api.base())}));
        QCOMPARE(fetched.exitCode, 64);
        QCOMPARE(firstLine(fetched.err), expected);
        QCOMPARE(api.requests().size(), std::size_t(0));
        QCOMPARE(runs(), 0LL);
    }
};

QTEST_GUILESS_MAIN(TestStatementFetchCli)
#include "tst_statementfetchcli.moc"
