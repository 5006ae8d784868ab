// Streamed verification of the audit hash chains (renewalctl audit verify, the desk's Verify):
// the canonical form recomputed in C++ must be byte for byte the server's, breaks are found and
// named as audit_chain_breaks() names them, anchors are checked, memory is bounded by the batch.
#include "domain/core/audit_canonical.h"
#include "domain/core/errors.h"
#include "domain/core/sha256.h"
#include "domain/store/audit_chains.h"
#include "tests/support/process_runner.h"
#include "tests/support/test_database.h"
#include "ui/models/chainbreaktext.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QtTest>

#include <atomic>
#include <sstream>

namespace {

using rdtest::scalar;
using rdtest::TestDatabase;

/// The breaks audit_chain_breaks() (the server's own verification) finds, in its order.
std::vector<rd::ChainBreak> serverBreaks(pqxx::connection &conn)
{
    return rd::verifyAuditChains(conn);
}

/// The breaks one per line, every field named: compared as text, so that a mismatch fails the
/// test function itself and shows both lists.
QString describe(const std::vector<rd::ChainBreak> &breaks)
{
    QStringList lines;
    for (const auto &b : breaks)
        lines << QString::fromStdString(b.chain + " " + b.chainId + " row "
            + std::to_string(b.rowId) + " seq " + std::to_string(b.seq) + ": " + b.problem);
    return lines.join(u'\n');
}

/// Runs `sql` as the owner with the append-only guards off (what only a superuser can do).
void tamper(pqxx::connection &conn, const std::string &sql)
{
    pqxx::work tx(conn);
    tx.exec0("SET LOCAL session_replication_role = replica");
    tx.exec0(sql);
    tx.commit();
}

/// The digest an anchor of the database's heads must carry, computed by the server from the
/// same heads in the same order: "chain:chainId:seq:hash\n" each, SHA-256.
std::string serverDigest(pqxx::connection &conn)
{
    pqxx::read_transaction tx(conn);
    return tx
        .exec1("SELECT encode(sha256(convert_to(coalesce(string_agg(chain || ':' || chain_id "
               "|| ':' || chain_seq || ':' || row_hash || E'\\n', '' ORDER BY chain, chain_id), "
               "''), 'UTF8')), 'hex') FROM (SELECT * FROM audit_chain_heads() UNION ALL "
               "SELECT * FROM audit_case_history_heads()) h")[0]
        .as<std::string>();
}

} // namespace

class TstAuditVerify : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestDatabase> m_db;

    rd::AuditVerification streamed(int batchRows = 7)
    {
        auto conn = m_db->connect();
        rd::AuditVerifyOptions options;
        options.batchRows = batchRows;
        return rd::verifyAuditChainsStreamed(*conn, options);
    }

private slots:
    void init()
    {
        m_db = std::make_unique<TestDatabase>("auditverify");
        // The demo writes what the product writes: imports, renewals, reconciliations, cases
        // and their histories, with operators' notes.
        const auto r = rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"demo"}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(scalar(*m_db, "SELECT count(*) FROM subscription_transition_audits") > 20);
        QVERIFY(scalar(*m_db, "SELECT count(*) FROM reconciliation_case_history") > 3);
    }
    void cleanup() { m_db.reset(); }

    void canonicalFormIsTheServers_data()
    {
        QTest::addColumn<QString>("comment");
        QTest::addColumn<QString>("details");
        QTest::addColumn<QString>("createdAt");
        QTest::newRow("plain") << "checked"
                               << "{}"
                               << "2026-03-01T10:00:00Z";
        QTest::newRow("quotes, backslash") << "said \"ok\" \\ done"
                                           << "{\"a\": \"x\\\"y\"}"
                                           << "2026-03-01T10:00:00.5Z";
        QTest::newRow("control characters") << "line\nnext\ttab\r\b\f\x01\x1f"
                                            << "{\"k\": \"\\u0002\"}"
                                            << "2026-03-01T10:00:00.000001Z";
        // Some JSON writers escape "/" and DEL; jsonb's text does neither.
        QTest::newRow("slash and DEL") << "see https://pay.example/inv/1 \x7f"
                                       << "{\"url\": \"https://pay.example/a/b\"}"
                                       << "2026-03-01T10:00:00Z";
        QTest::newRow("unicode") << "Zoë paid 10 € 😀"
                                 << "{\"ü\": [1, 2.50, {\"z\": null}]}"
                                 << "2026-03-01T10:00:00.123456Z";
        QTest::newRow("null comment") << QString() << "{\"b\": true, \"a\": false}"
                                      << "1999-12-31T23:59:59.999Z";
        QTest::newRow("year past 9999 (the server's form)") << "far"
                                                            << "{}"
                                                            << "12026-03-01T10:00:00Z";
    }
    void canonicalFormIsTheServers()
    {
        QFETCH(QString, comment);
        QFETCH(QString, details);
        QFETCH(QString, createdAt);
        auto conn = m_db->connect();
        {
            // Through the chain trigger: the server computes the hash from its canonical form.
            pqxx::work tx(*conn);
            tx.exec_params0(
                "INSERT INTO subscription_transition_audits (subscription_id, transition, "
                "actor_type, actor_id, reason, comment, details, created_at) "
                "SELECT id, 'subscription_reconciled', 'operator', 'zoë', 'provider_confirmed', "
                "nullif($1, '<null>'), $2::jsonb, $3::timestamptz FROM subscriptions ORDER BY id "
                "LIMIT 1",
                comment.isNull() ? std::string("<null>") : comment.toStdString(),
                details.toStdString(), createdAt.toStdString());
            tx.exec_params0("INSERT INTO reconciliation_case_history (case_id, action, outcome, "
                            "comment, details, created_at, chain_seq, prev_hash, row_hash) "
                            "SELECT min(id), 'noted', 'noted', nullif($1, '<null>'), $2::jsonb, "
                            "$3::timestamptz, 0, '', '' FROM reconciliation_cases",
                comment.isNull() ? std::string("<null>") : comment.toStdString(),
                details.toStdString(), createdAt.toStdString());
            tx.commit();
        }
        const auto v = streamed();
        QCOMPARE(describe(v.breaks), describe({}));
        QVERIFY(v.intact());
        QCOMPARE(v.rows,
            scalar(*conn,
                "SELECT (SELECT count(*) FROM subscription_transition_audits) + "
                "(SELECT count(*) FROM reconciliation_case_history)"));
        QCOMPARE(v.chains,
            scalar(*conn,
                "SELECT (SELECT count(DISTINCT subscription_id) FROM "
                "subscription_transition_audits) + (SELECT count(DISTINCT case_id) "
                "FROM reconciliation_case_history)"));
    }

    void timestampsBecomeRfc3339_data()
    {
        QTest::addColumn<QString>("pg");
        QTest::addColumn<QString>("rfc3339");
        QTest::newRow("whole second") << "2026-03-01 10:00:00+00"
                                      << "2026-03-01T10:00:00.000000Z";
        QTest::newRow("fraction") << "2026-03-01 10:00:00.5+00"
                                  << "2026-03-01T10:00:00.500000Z";
        QTest::newRow("micro") << "2026-03-01 10:00:00.000001+00"
                               << "2026-03-01T10:00:00.000001Z";
        QTest::newRow("not UTC") << "2026-03-01 10:00:00+01"
                                 << "";
        QTest::newRow("BC") << "0044-03-15 12:00:00+00 BC"
                            << "";
        QTest::newRow("infinity") << "infinity"
                                  << "";
        QTest::newRow("year 12026") << "12026-03-01 10:00:00+00"
                                    << "";
    }
    void timestampsBecomeRfc3339()
    {
        QFETCH(QString, pg);
        QFETCH(QString, rfc3339);
        const auto got = rd::pgTimestampToRfc3339(pg.toStdString());
        QCOMPARE(QString::fromStdString(got.value_or("")), rfc3339);
    }

    void brokenChainIsFoundAndNamed_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("problem");
        QTest::newRow("audit altered")
            << "UPDATE subscription_transition_audits SET actor_id = 'mallory' WHERE id = "
               "(SELECT max(id) FROM subscription_transition_audits WHERE chain_seq = 2)"
            << "row content does not match its hash (altered)";
        QTest::newRow("audit removed from the middle")
            << "DELETE FROM subscription_transition_audits WHERE id = "
               "(SELECT max(id) FROM subscription_transition_audits a WHERE chain_seq = 2 AND "
               "EXISTS (SELECT 1 FROM subscription_transition_audits b WHERE b.subscription_id "
               "= a.subscription_id AND b.chain_seq = 3))"
            << "the row before this one is missing (removed)";
        QTest::newRow("audit chain's first row removed")
            << "DELETE FROM subscription_transition_audits WHERE id = "
               "(SELECT min(id) FROM subscription_transition_audits a WHERE chain_seq = 1 AND "
               "EXISTS (SELECT 1 FROM subscription_transition_audits b WHERE b.subscription_id "
               "= a.subscription_id AND b.chain_seq = 2))"
            << "rows before this one are missing (removed)";
        QTest::newRow("audit re-hashed but not its successor")
            << "UPDATE subscription_transition_audits SET comment = 'x', row_hash = "
               "rd_sha256_hex(rd_audit_canonical(ROW(id, subscription_id, transition, "
               "billing_period_id, actor_type, actor_id, db_role, provider_event_id, "
               "provider_renewal_key, period_start, period_end, reason, 'x', details, created_at, "
               "chain_seq, prev_hash, row_hash, provider_key)::subscription_transition_audits)) "
               "WHERE id = "
               "(SELECT max(id) FROM subscription_transition_audits a WHERE chain_seq = 1 AND "
               "EXISTS (SELECT 1 FROM subscription_transition_audits b WHERE b.subscription_id "
               "= a.subscription_id AND b.chain_seq = 2))"
            << "the previous row's hash does not match (altered or removed)";
        QTest::newRow("case history altered")
            << "UPDATE reconciliation_case_history SET outcome = 'resolved' WHERE id = "
               "(SELECT max(id) FROM reconciliation_case_history)"
            << "row content does not match its hash (altered)";
        // #39, item 3: the chains hash the audit rows; a billing period is held to the amount,
        // currency and period its (hashed) audit row recorded. A "*" stands for the renewal
        // key and the figures.
        QTest::newRow("billing period's amount altered")
            << "UPDATE subscription_billing_periods SET paid_amount_minor = paid_amount_minor + "
               "100 WHERE id = (SELECT billing_period_id FROM subscription_transition_audits "
               "WHERE transition = 'subscription_renewed' ORDER BY id DESC LIMIT 1)"
            << "billing period of renewal * (altered)";
        QTest::newRow("billing period's currency altered")
            << "UPDATE subscription_billing_periods SET currency = CASE currency WHEN 'EUR' "
               "THEN 'USD' ELSE 'EUR' END WHERE id = (SELECT billing_period_id FROM "
               "subscription_transition_audits WHERE transition = 'subscription_renewed' ORDER "
               "BY id LIMIT 1)"
            << "billing period of renewal * (altered)";
        QTest::newRow("billing period's period altered")
            << "UPDATE subscription_billing_periods SET period_end = period_end + interval '1 "
               "day' WHERE id = (SELECT billing_period_id FROM subscription_transition_audits "
               "WHERE transition = 'subscription_renewed' ORDER BY id DESC LIMIT 1)"
            << "billing period of renewal * (altered)";
        QTest::newRow("billing period no audit row recorded")
            << "INSERT INTO subscription_billing_periods (subscription_id, provider_key, "
               "provider_renewal_key, provider_event_id, period_start, period_end, "
               "paid_amount_minor, currency, paid_at, recorded_by) SELECT subscription_id, "
               "provider_key, 'forged-renewal', 'evt_forged', period_end, period_end + interval "
               "'1 month', paid_amount_minor, currency, paid_at, recorded_by FROM "
               "subscription_billing_periods ORDER BY period_end DESC LIMIT 1"
            << "billing period of renewal forged-renewal has no audit row recording it (added, "
               "or its record removed)";
    }
    void brokenChainIsFoundAndNamed()
    {
        QFETCH(QString, sql);
        QFETCH(QString, problem);
        auto conn = m_db->connect();
        QVERIFY(streamed().intact());
        tamper(*conn, sql.toStdString());
        auto v = streamed(3);
        QVERIFY(!v.intact());
        {
            // Two streams find the same, in the same order.
            rd::AuditVerifyOptions two;
            two.batchRows = 3;
            two.streams = 2;
            QCOMPARE(
                describe(rd::verifyAuditChainsStreamed(*conn, two).breaks), describe(v.breaks));
        }
        const QString found = QString::fromStdString(v.breaks.front().problem);
        if (problem.contains(u'*'))
            QVERIFY2(found.startsWith(problem.section(u'*', 0, 0))
                    && found.endsWith(problem.section(u'*', 1)),
                qPrintable(found));
        else
            QCOMPARE(found, problem);
        // The desk's words for it (no translator here: English) are the CLI's, word for word.
        QCOMPARE(rd::ui::chainBreakText(v.breaks.front()),
            QString::fromStdString(rd::describeChainBreak(v.breaks.front())));
        // What the server's own verification finds, in the same order.
        QCOMPARE(describe(v.breaks), describe(serverBreaks(*conn)));

        // The break names whose chain it is: the subscription by its provider and the
        // provider's id (a case's chain: its case's subscription), as SQL has them.
        const auto &b = v.breaks.front();
        const bool isCase = b.chain == "reconciliation_case_history";
        const std::string owner = isCase
            ? "SELECT provider_key || ' ' || provider_subscription_id FROM reconciliation_cases "
              "WHERE id = "
                + b.chainId
            : "SELECT provider_key || ' ' || provider_subscription_id FROM subscriptions WHERE id "
              "= '"
                + b.chainId + "'";
        const std::string subject = rdtest::text(*m_db, owner);
        QCOMPARE(b.provider + " " + b.subscription, subject);

        // The CLI names the first break, whose it is, and fails.
        const auto r = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(*m_db, {"audit", "verify", "--batch", "5"}));
        QCOMPARE(r.exitCode, 65);
        const std::string said = isCase ? "case " + b.chainId + " of subscription " + subject
                                        : "subscription " + subject + " (chain " + b.chainId + ")";
        QVERIFY2(r.err.contains(said.c_str()), r.err.constData());
        const std::string where = b.rowId > 0
            ? (isCase ? "history row " : "audit row ") + std::to_string(b.rowId) + " at position "
            : std::string("position ");
        QVERIFY2(r.err.contains((where + std::to_string(b.seq) + ": " + b.problem).c_str()),
            r.err.constData());
        const auto json = nlohmann::json::parse(
            rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"audit", "verify", "--json"}))
                .out.toStdString());
        QCOMPARE(json["breaks"][0]["provider"].get<std::string>(), b.provider);
        QCOMPARE(json["breaks"][0]["subscription"].get<std::string>(), b.subscription);
    }

    // A break in an older row under an anchor whose heads all match: the CLI says what the
    // match covers instead of "matches" right under "1 break(s)".
    void matchingAnchorUnderABreakIsExplained()
    {
        auto conn = m_db->connect();
        std::stringstream anchor;
        rd::exportAuditAnchor(m_db->conninfo(), anchor);
        QTemporaryDir dir;
        const QString path = dir.filePath("anchor.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(anchor.str()));
        file.close();
        tamper(*conn,
            "UPDATE subscription_transition_audits SET actor_id = 'mallory' WHERE id = "
            "(SELECT min(a.id) FROM subscription_transition_audits a WHERE EXISTS (SELECT 1 FROM "
            "subscription_transition_audits b WHERE b.subscription_id = a.subscription_id AND "
            "b.chain_seq = a.chain_seq + 1))");
        const auto r = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(*m_db, {"audit", "verify", "--anchor", path}));
        QCOMPARE(r.exitCode, 65);
        QVERIFY2(r.out.contains(": 1 break(s) ("), r.out.constData());
        QVERIFY2(r.out.contains(") matches: every chain's newest row is as it was when the anchor "
                                "was exported; the break(s) found are in older rows, which an "
                                "anchor does not cover\n"),
            r.out.constData());
    }

    void anchorMismatchIsFound_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("problem");
        // Both leave the chain itself verifying: only the anchor shows them. A removed
        // renewal's billing period goes with it (else the billing period, which no audit row
        // then records, is a break of its own).
        QTest::newRow("head removed")
            << "DELETE FROM subscription_billing_periods WHERE id = (SELECT billing_period_id "
               "FROM subscription_transition_audits WHERE id = %1 AND transition = "
               "'subscription_renewed'); DELETE FROM subscription_transition_audits WHERE id = %1"
            << "the anchored row is gone (removed since the anchor was exported)";
        QTest::newRow("head rewritten and re-hashed")
            << "UPDATE subscription_transition_audits SET comment = 'rewritten', row_hash = "
               "rd_sha256_hex(rd_audit_canonical(ROW(id, subscription_id, transition, "
               "billing_period_id, actor_type, actor_id, db_role, provider_event_id, "
               "provider_renewal_key, period_start, period_end, reason, 'rewritten', details, "
               "created_at, chain_seq, prev_hash, row_hash, "
               "provider_key)::subscription_transition_audits)) "
               "WHERE id = %1"
            << "the anchored row's hash changed (rewritten since the anchor was exported)";
    }
    void anchorMismatchIsFound()
    {
        QFETCH(QString, sql);
        QFETCH(QString, problem);
        auto conn = m_db->connect();
        std::stringstream anchor;
        rd::exportAuditAnchor(m_db->conninfo(), anchor);
        const std::string anchorText = anchor.str();
        QVERIFY(rd::checkAuditAnchor(m_db->conninfo(), anchor).matches());
        // The newest audit is the head of its subscription's chain.
        const long long head = scalar(*conn, "SELECT max(id) FROM subscription_transition_audits");
        const std::string chainId = rdtest::text(*m_db,
            "SELECT subscription_id FROM subscription_transition_audits WHERE id = "
                + std::to_string(head));
        const long long seq = scalar(*conn,
            "SELECT chain_seq FROM subscription_transition_audits WHERE id = "
                + std::to_string(head));
        tamper(*conn, sql.arg(head).toStdString());
        QVERIFY(streamed().intact());
        std::istringstream again(anchorText);
        const auto check = rd::checkAuditAnchor(m_db->conninfo(), again);
        QCOMPARE(check.mismatchCount, 1LL);
        const auto &mismatches = check.mismatches;
        QCOMPARE(mismatches.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(mismatches[0].problem), problem);
        QCOMPARE(mismatches[0].chain, std::string("subscription_transition_audits"));
        QCOMPARE(mismatches[0].chainId, chainId);
        QCOMPARE(mismatches[0].seq, std::int64_t(seq));
        QCOMPARE(rd::ui::chainBreakText(mismatches[0]),
            QString::fromStdString(rd::describeChainBreak(mismatches[0])));

        QTemporaryDir dir;
        const QString path = dir.filePath("anchor.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(anchorText));
        file.close();
        const auto r = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(*m_db, {"audit", "verify", "--anchor", path}));
        QCOMPARE(r.exitCode, 65);
        QVERIFY2(r.out.contains("does not match: 1 head(s) changed or gone"), r.out.constData());
    }

    // The anchor is written as nlohmann's dump(2) (or dump()) would write it, the digest last,
    // and its digest is the old one: the server's SHA-256 over the same heads. A file in the
    // old layout (keys sorted: the digest before the heads) still checks.
    void anchorKeepsItsFormAndDigest()
    {
        auto conn = m_db->connect();
        std::stringstream indented, compact;
        const long long heads = rd::exportAuditAnchor(*conn, indented);
        QCOMPARE(rd::exportAuditAnchor(*conn, compact, rd::AnchorLayout::Compact), heads);
        const auto ordered = nlohmann::ordered_json::parse(indented.str());
        QCOMPARE(indented.str(), ordered.dump(2) + "\n");
        QCOMPARE(compact.str(), nlohmann::ordered_json::parse(compact.str()).dump() + "\n");
        std::vector<std::string> keys;
        for (const auto &[key, value] : ordered.items())
            keys.push_back(key);
        QCOMPARE(keys, (std::vector<std::string> {"createdAt", "heads", "digest"}));
        QCOMPARE(ordered["digest"].get<std::string>(), serverDigest(*conn));
        QCOMPARE(qint64(ordered["heads"].size()), qint64(heads));
        QCOMPARE(heads,
            scalar(*conn,
                "SELECT (SELECT count(DISTINCT subscription_id) FROM "
                "subscription_transition_audits) + (SELECT count(DISTINCT case_id) FROM "
                "reconciliation_case_history)"));

        const std::string oldLayout = nlohmann::json::parse(indented.str()).dump(2) + "\n";
        QVERIFY(oldLayout.find("\"digest\"") < oldLayout.find("\"heads\""));
        std::istringstream old(oldLayout);
        const auto check = rd::checkAuditAnchor(*conn, old);
        QVERIFY(check.matches());
        QCOMPARE(check.heads, heads);
        QCOMPARE(check.createdAt, ordered["createdAt"].get<std::string>());
    }

    // 20,000 more chains (made in SQL, one audit each through the chain trigger): exported
    // and checked in chunks; heads tampered in the middle and in the last, partial chunk are
    // found, and the kept mismatches are capped while the count covers all.
    void manyChainsExportAndCheck()
    {
        auto conn = m_db->connect();
        {
            pqxx::work tx(*conn);
            tx.exec0("INSERT INTO subscriptions (provider_key, provider_subscription_id, status, "
                     "current_period_start, current_period_end) "
                     "SELECT 'stripe-main', 'sub_many_' || i, 'active', "
                     "timestamptz '2026-01-01 00:00Z', timestamptz '2026-02-01 00:00Z' "
                     "FROM generate_series(1, 20000) AS i");
            tx.exec0("INSERT INTO subscription_transition_audits (subscription_id, transition, "
                     "actor_type, actor_id, reason, details, created_at) "
                     "SELECT id, 'subscription_reconciled', 'operator', 'zoë', "
                     "'provider_confirmed', '{}'::jsonb, timestamptz '2026-01-02 00:00Z' "
                     "FROM subscriptions WHERE provider_subscription_id LIKE 'sub\\_many\\_%'");
            tx.commit();
        }
        const long long chains = scalar(*conn,
            "SELECT (SELECT count(DISTINCT subscription_id) FROM subscription_transition_audits) "
            "+ (SELECT count(DISTINCT case_id) FROM reconciliation_case_history)");
        QVERIFY(chains > 20000);
        std::stringstream anchor;
        QCOMPARE(rd::exportAuditAnchor(*conn, anchor), chains);
        const std::string text = anchor.str();
        const auto doc = nlohmann::json::parse(text);
        QCOMPARE(qint64(doc["heads"].size()), qint64(chains));
        QCOMPARE(doc["digest"].get<std::string>(), serverDigest(*conn));
        auto check = rd::checkAuditAnchor(*conn, anchor);
        QCOMPARE(check.heads, chains);
        QVERIFY(check.matches());

        // One head removed in the third chunk of 5,000, one rewritten in the last.
        const auto &gone = doc["heads"][12345];
        const auto &rewritten = doc["heads"][std::size_t(chains - 1)];
        QCOMPARE(gone["chain"].get<std::string>(), std::string("subscription_transition_audits"));
        QCOMPARE(
            rewritten["chain"].get<std::string>(), std::string("subscription_transition_audits"));
        tamper(*conn,
            "DELETE FROM subscription_transition_audits WHERE subscription_id = '"
                + gone["chainId"].get<std::string>()
                + "' AND chain_seq = " + std::to_string(gone["seq"].get<long long>()));
        tamper(*conn,
            "UPDATE subscription_transition_audits SET row_hash = md5(row_hash) "
            "WHERE subscription_id = '"
                + rewritten["chainId"].get<std::string>()
                + "' AND chain_seq = " + std::to_string(rewritten["seq"].get<long long>()));
        std::istringstream again(text);
        check = rd::checkAuditAnchor(*conn, again);
        QCOMPARE(check.heads, chains);
        QCOMPARE(check.mismatchCount, 2LL);
        QCOMPARE(check.mismatches.size(), std::size_t(2));
        QCOMPARE(check.mismatches[0].chainId, gone["chainId"].get<std::string>());
        QVERIFY(check.mismatches[0].problem.find("gone") != std::string::npos);
        QCOMPARE(check.mismatches[1].chainId, rewritten["chainId"].get<std::string>());
        QVERIFY(check.mismatches[1].problem.find("hash changed") != std::string::npos);

        std::istringstream capped(text);
        check = rd::checkAuditAnchor(*conn, capped, 1);
        QCOMPARE(check.mismatchCount, 2LL);
        QCOMPARE(check.mismatches.size(), std::size_t(1));
        QCOMPARE(check.mismatches[0].chainId, gone["chainId"].get<std::string>());
    }

    // Whatever the file holds, the check says what is wrong with it (an InputError naming the
    // place), before or after the database, and never crashes.
    void badAnchorIsNamed_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        const QByteArray uuid = "\"00000000-0000-4000-8000-000000000001\"";
        const auto head = [&uuid](const QByteArray &chain, const QByteArray &id,
                              const QByteArray &seq, const QByteArray &hash = "\"ab\"") {
            return "{\"chain\": " + chain + ", \"chainId\": " + id + ", \"seq\": " + seq
                + ", \"hash\": " + hash + "}";
        };
        const QByteArray good = head("\"subscription_transition_audits\"", uuid, "1");
        const auto anchor = [](const QByteArray &heads) {
            return "{\"createdAt\": \"2026-01-01T00:00:00Z\", \"heads\": [" + heads + "]}";
        };
        QTest::newRow("empty file") << QByteArray() << ""
                                    << "not valid JSON";
        QTest::newRow("not JSON") << QByteArray("anchor.csv,1,2") << ""
                                  << "not valid JSON";
        QTest::newRow("truncated") << anchor(good + ", " + good).left(120) << ""
                                   << "not valid JSON";
        QTest::newRow("trailing text") << anchor(good) + " and more"
                                       << ""
                                       << "not valid JSON";
        QTest::newRow("bad UTF-8")
            << anchor(head("\"subscription_transition_audits\"", "\"\xff\xfe\"", "1")) << ""
            << "not valid JSON";
        QTest::newRow("number overflow")
            << anchor(head("\"subscription_transition_audits\"", uuid, "1e999")) << ""
            << "not valid JSON";
        QTest::newRow("a list") << QByteArray("[]") << "heads"
                                << "not an audit anchor";
        QTest::newRow("a string") << QByteArray("\"heads\"") << "heads"
                                  << "not an audit anchor";
        QTest::newRow("no heads") << QByteArray("{\"digest\": \"ab\"}") << "heads"
                                  << "not an audit anchor";
        QTest::newRow("heads not a list") << QByteArray("{\"heads\": {}}") << "heads"
                                          << "not an audit anchor";
        QTest::newRow("heads twice") << QByteArray("{\"heads\": [], \"heads\": []}") << "heads"
                                     << "appears twice";
        QTest::newRow("head not an object") << anchor(good + ", 7") << "heads[1]"
                                            << "expected {";
        QTest::newRow("seq a string")
            << anchor(head("\"subscription_transition_audits\"", uuid, "\"1\"")) << "heads[0].seq"
            << "expected a whole number";
        QTest::newRow("seq a fraction")
            << anchor(head("\"subscription_transition_audits\"", uuid, "1.5")) << "heads[0].seq"
            << "expected a whole number";
        QTest::newRow("seq past int64")
            << anchor(head("\"subscription_transition_audits\"", uuid, "18446744073709551615"))
            << "heads[0].seq"
            << "expected a whole number";
        QTest::newRow("seq past uint64")
            << anchor(head("\"subscription_transition_audits\"", uuid, "99999999999999999999999"))
            << "heads[0].seq"
            << "expected a whole number";
        QTest::newRow("seq zero") << anchor(head("\"subscription_transition_audits\"", uuid, "0"))
                                  << "heads[0].seq"
                                  << "from 1";
        QTest::newRow("seq an object")
            << anchor(head("\"subscription_transition_audits\"", uuid, "{\"n\": 1}"))
            << "heads[0].seq"
            << "expected a whole number";
        QTest::newRow("hash a list")
            << anchor(head("\"subscription_transition_audits\"", uuid, "1", "[\"ab\"]"))
            << "heads[0].hash"
            << "expected a string";
        QTest::newRow("hash missing") << anchor(good
            + ", {\"chain\": \"reconciliation_case_history\", \"chainId\": "
              "\"7\", \"seq\": 1}") << "heads[1].hash"
                                      << "missing";
        QTest::newRow("unknown chain") << anchor(head("\"audits\"", uuid, "1")) << "heads[0].chain"
                                       << "unknown chain 'audits'";
        QTest::newRow("chain null") << anchor(head("null", uuid, "1")) << "heads[0].chain"
                                    << "expected a string";
        QTest::newRow("subscription id not a uuid")
            << anchor(head("\"subscription_transition_audits\"", "\"sub_1\"", "1"))
            << "heads[0].chainId"
            << "a uuid";
        QTest::newRow("case id not a number")
            << anchor(head("\"reconciliation_case_history\"", uuid, "1")) << "heads[0].chainId"
            << "a case id";
        QTest::newRow("case id past bigint")
            << anchor(head("\"reconciliation_case_history\"", "\"99999999999999999999\"", "1"))
            << "heads[0].chainId"
            << "a case id";
        // Deep nesting where the check does not look is skipped without recursion.
        QTest::newRow("deep nesting, then a bad head")
            << "{\"x\": " + QByteArray(100000, '[') + QByteArray(100000, ']') + ", \"heads\": ["
                + good + ", " + head("\"subscription_transition_audits\"", uuid, "-1") + "]}"
            << "heads[1].seq"
            << "from 1";
    }
    void badAnchorIsNamed()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, field);
        QFETCH(QString, message);
        auto conn = m_db->connect();
        for (const bool withDatabase : {false, true}) {
            std::istringstream in(text.toStdString());
            try {
                if (withDatabase)
                    rd::checkAuditAnchor(*conn, in);
                else
                    rd::readAuditAnchor(in);
                QFAIL("no InputError");
            } catch (const rd::InputError &e) {
                QCOMPARE(QString::fromStdString(e.field()), field);
                QVERIFY2(QString::fromStdString(e.message()).contains(message), e.what());
            }
        }
        // The CLI says it on stderr with its input error exit code.
        QTemporaryDir dir;
        QFile file(dir.filePath("anchor.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
        file.close();
        const auto r = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(
                *m_db, {"audit", "verify", "--no-progress", "--anchor", file.fileName()}));
        QCOMPARE(r.exitCode, 65);
        QVERIFY2(r.err.contains((field.isEmpty() ? message : field).toUtf8()), r.err.constData());
    }

    // Keys the check does not know (and an empty list of heads, with the digest of nothing)
    // are fine: nothing to match.
    void emptyAnchorMatches()
    {
        auto conn = m_db->connect();
        std::istringstream in(
            "{\"note\": {\"by\": [\"auditor\", 1, null]}, \"heads\": [], "
            "\"createdAt\": 7, \"digest\": "
            "\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"}");
        const auto check = rd::checkAuditAnchor(*conn, in);
        QCOMPARE(check.heads, 0LL);
        QVERIFY(check.matches());
        QVERIFY(!check.createdAt);
    }

    // The audit's attack: a head taken out of the anchor file, its old digest kept (or zeros
    // written), and the chain it named deleted by a superuser. Before the digest was checked,
    // `audit verify --anchor` said "matches" (exit 0). The file is refused, naming its digest,
    // by the library, the CLI (65, no "matches") and readAuditAnchor; an untouched anchor
    // still matches and its digest is printed.
    void alteredAnchorIsRefused_data()
    {
        QTest::addColumn<QString>("digest"); // "" keeps the file's, "-" removes it
        QTest::addColumn<bool>("deleteChain");
        QTest::addColumn<QString>("message");
        const QString altered
            = "the anchor's digest does not match its heads: the file was altered";
        QTest::newRow("head removed, old digest kept, chain deleted") << "" << true << altered;
        QTest::newRow("head removed, old digest kept") << "" << false << altered;
        QTest::newRow("head removed, 64 zeros, chain deleted")
            << QString(64, u'0') << true << altered;
        QTest::newRow("head removed, digest removed, chain deleted") << "-" << true << "missing";
    }
    void alteredAnchorIsRefused()
    {
        QFETCH(QString, digest);
        QFETCH(bool, deleteChain);
        QFETCH(QString, message);
        auto conn = m_db->connect();
        std::stringstream exported;
        std::string printed;
        rd::exportAuditAnchor(*conn, exported, rd::AnchorLayout::Indented, &printed);
        auto doc = nlohmann::ordered_json::parse(exported.str());
        QCOMPARE(doc["digest"].get<std::string>(), printed);
        // The head of the subscription with the most audits: the largest chain to hide.
        const std::string victim = rdtest::text(*m_db,
            "SELECT subscription_id FROM subscription_transition_audits GROUP BY 1 "
            "ORDER BY count(*) DESC, 1 LIMIT 1");
        auto &heads = doc["heads"];
        const auto before = heads.size();
        for (auto it = heads.begin(); it != heads.end(); ++it)
            if ((*it)["chainId"] == victim) {
                heads.erase(it);
                break;
            }
        QCOMPARE(heads.size(), before - 1);
        if (digest == "-")
            doc.erase("digest");
        else if (!digest.isEmpty())
            doc["digest"] = digest.toStdString();
        const std::string text = doc.dump(2) + "\n";
        if (deleteChain)
            tamper(*conn,
                "DELETE FROM subscription_billing_periods WHERE subscription_id = '" + victim
                    + "'; DELETE FROM subscription_transition_audits WHERE subscription_id = '"
                    + victim + "'");
        // The chains left verify: only the anchor could tell.
        QVERIFY(streamed().intact());

        for (const bool withDatabase : {true, false}) {
            std::istringstream in(text);
            try {
                const auto check
                    = withDatabase ? rd::checkAuditAnchor(*conn, in) : rd::readAuditAnchor(in);
                QFAIL(qPrintable(QString("accepted: %1 heads, %2")
                                     .arg(check.heads)
                                     .arg(check.matches() ? "matches" : "does not match")));
            } catch (const rd::InputError &e) {
                QCOMPARE(QString::fromStdString(e.field()), QString("digest"));
                QVERIFY2(QString::fromStdString(e.message()).contains(message), e.what());
            }
        }
        QTemporaryDir dir;
        QFile file(dir.filePath("anchor.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(text));
        file.close();
        for (const QStringList &json : {QStringList {}, QStringList {"--json"}}) {
            const auto r = rdtest::runProgram(rdtest::ctl(),
                rdtest::withDb(*m_db,
                    QStringList {"audit", "verify", "--no-progress", "--anchor", file.fileName()}
                        + json));
            QCOMPARE(r.exitCode, 65);
            QVERIFY2(r.err.contains("digest: " + message.toUtf8()), r.err.constData());
            QVERIFY2(!r.out.contains("matches"), r.out.constData());
        }
    }

    // The untouched anchor matches, with its digest printed on export (stderr: stdout is the
    // file) and on verify; --digest compares the file with a published digest.
    void untouchedAnchorMatchesItsPublishedDigest()
    {
        QTemporaryDir dir;
        const auto exported
            = rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, {"audit", "anchor"}));
        QCOMPARE(exported.exitCode, 0);
        const auto doc = nlohmann::json::parse(exported.out.toStdString());
        const QByteArray digest = QByteArray::fromStdString(doc["digest"].get<std::string>());
        QCOMPARE(digest.size(), 64);
        QVERIFY2(exported.err.contains("digest " + digest), exported.err.constData());
        QFile file(dir.filePath("anchor.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(exported.out);
        file.close();
        const QStringList verify {"audit", "verify", "--no-progress", "--anchor", file.fileName()};

        auto r = rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, verify));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains(", digest " + digest + ") matches"), r.out.constData());
        r = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(
                *m_db, verify + QStringList {"--digest", QString::fromLatin1(digest.toUpper())}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains(", digest " + digest + ", the published one) matches"),
            r.out.constData());
        r = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(*m_db, verify + QStringList {"--json"}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto report = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(QByteArray::fromStdString(report["anchor"]["digest"].get<std::string>()), digest);

        // Another (well-formed) digest: not the file that was published.
        QByteArray other = digest;
        other[0] = other[0] == 'a' ? 'b' : 'a';
        r = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db, verify + QStringList {"--digest", QString::fromLatin1(other)}));
        QCOMPARE(r.exitCode, 65);
        QVERIFY2(
            r.err.contains("--digest: the anchor's digest " + digest + " is not the published one"),
            r.err.constData());
        QVERIFY2(!r.out.contains("matches"), r.out.constData());
        // Not a digest, or no anchor to compare it with: usage errors naming the option.
        r = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(*m_db, verify + QStringList {"--digest", "abc"}));
        QCOMPARE(r.exitCode, 64);
        QVERIFY2(r.err.contains("--digest must be 64 hexadecimal digits"), r.err.constData());
        r = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(*m_db,
                {"audit", "verify", "--no-progress", "--digest", QString::fromLatin1(digest)}));
        QCOMPARE(r.exitCode, 64);
        QVERIFY2(r.err.contains("--digest needs --anchor"), r.err.constData());
    }

    // Many breaks: the first maxBreaks are kept, in the server's order, and "more" is said
    // only when there are more.
    void breaksAreCappedAndMoreIsSaid()
    {
        auto conn = m_db->connect();
        tamper(*conn,
            "UPDATE subscription_transition_audits SET actor_id = 'mallory' WHERE chain_seq = 2");
        const auto all = serverBreaks(*conn);
        QVERIFY2(all.size() >= 4, QByteArray::number(qulonglong(all.size())).constData());
        for (const int streams : {1, 2}) {
            rd::AuditVerifyOptions options;
            options.batchRows = 3;
            options.streams = streams;
            options.maxBreaks = 2;
            auto v = rd::verifyAuditChainsStreamed(*conn, options);
            QCOMPARE(describe(v.breaks), describe({all[0], all[1]}));
            QVERIFY(v.moreBreaks);
            options.maxBreaks = all.size();
            v = rd::verifyAuditChainsStreamed(*conn, options);
            QCOMPARE(describe(v.breaks), describe(all));
            QVERIFY(!v.moreBreaks);
        }
    }

    void batchesAreBoundedAndReportProgress_data()
    {
        QTest::addColumn<int>("streams");
        QTest::newRow("one stream") << 1;
        QTest::newRow("two streams") << 2;
    }
    void batchesAreBoundedAndReportProgress()
    {
        QFETCH(int, streams);
        auto conn = m_db->connect();
        const long long total = scalar(*conn,
            "SELECT (SELECT count(*) FROM subscription_transition_audits) + "
            "(SELECT count(*) FROM reconciliation_case_history)");
        const long long chains = scalar(*conn,
            "SELECT (SELECT count(DISTINCT subscription_id) FROM subscription_transition_audits) "
            "+ (SELECT count(DISTINCT case_id) FROM reconciliation_case_history)");
        // Two streams split the subscriptions at the middle of the uuid range: both halves
        // have chains, so that each half's count has to be added.
        QVERIFY(scalar(*conn,
                    "SELECT count(DISTINCT subscription_id) FROM subscription_transition_audits "
                    "WHERE subscription_id < '80000000-0000-0000-0000-000000000000'")
            > 0);
        QVERIFY(scalar(*conn,
                    "SELECT count(DISTINCT subscription_id) FROM subscription_transition_audits "
                    "WHERE subscription_id >= '80000000-0000-0000-0000-000000000000'")
            > 0);
        rd::AuditVerifyOptions options;
        options.batchRows = 4;
        options.streams = streams;
        std::vector<rd::AuditVerifyProgress> seen;
        options.onProgress = [&seen](const rd::AuditVerifyProgress &p) { seen.push_back(p); };
        const auto v = rd::verifyAuditChainsStreamed(*conn, options);
        QVERIFY(v.intact());
        QCOMPARE(v.rows, total);
        QCOMPARE(v.chains, chains);
        // No fetch brought more than 4 rows; progress after every batch of the calling
        // thread's stream (the other half's rows join the count as they are checked).
        QVERIFY(v.largestBatch > 0);
        QVERIFY2(v.largestBatch <= 4, QByteArray::number(v.largestBatch).constData());
        QVERIFY2(seen.size() >= 3, QByteArray::number(qulonglong(seen.size())).constData());
        for (std::size_t i = 1; i < seen.size(); ++i)
            QVERIFY(seen[i].rows >= seen[i - 1].rows);
        QCOMPARE(seen.back().rows, total);
        QCOMPARE(seen.back().chains, chains);
        QVERIFY(seen.back().expectedRows >= total);
    }

    void cancelStopsAtTheNextBatch()
    {
        auto conn = m_db->connect();
        std::atomic<bool> cancel {false};
        rd::AuditVerifyOptions options;
        options.batchRows = 2;
        options.cancel = &cancel;
        long long reached = 0;
        options.onProgress = [&](const rd::AuditVerifyProgress &p) {
            reached = p.rows;
            if (p.batches == 3)
                cancel = true;
        };
        QVERIFY_THROWS_EXCEPTION(
            rd::AuditVerificationCanceled, rd::verifyAuditChainsStreamed(*conn, options));
        QVERIFY(reached > 0);
        QVERIFY(reached < scalar(*conn, "SELECT count(*) FROM subscription_transition_audits"));
    }

    void viewerMayVerify()
    {
        const auto viewer = rdtest::loginAs(*m_db, "auditor", "viewer");
        const auto v = rd::verifyAuditChains(viewer, {});
        QVERIFY(v.intact());
        QVERIFY(v.rows > 20);
        std::stringstream anchor;
        QVERIFY(rd::exportAuditAnchor(viewer, anchor) > 0);
        QVERIFY(rd::checkAuditAnchor(viewer, anchor).matches());
        const auto r = rdtest::runProgram(
            rdtest::ctl(), {"audit", "verify", "--db", QString::fromStdString(viewer)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.startsWith("verified "), r.out.constData());
    }

    void badBatchIsRefused()
    {
        const auto r = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(*m_db, {"audit", "verify", "--batch", "none"}));
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("--batch"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TstAuditVerify)
#include "tst_auditverify.moc"
