// Find anything for scripts, and customers found by e-mail after retention (#42): `renewalctl
// find` answers as the desk's Ctrl+K does (one SQL function, find_anything), a subscription id
// that only a case and its delivery carry is found, each provider kind's adapter reads the
// customer's e-mail, the database keeps it only as an HMAC under its own key (never in clear
// outside the body), which survives `inbox purge` and goes with `inbox erase --email`; and no
// role but the owner reads the key.
#include "domain/core/adapters/adapter_support.h"
#include "domain/core/adapters/normalization.h"
#include "domain/store/provider_registry.h"
#include "domain/store/webhook_ingestor.h"
#include "tests/support/fixture_files.h"
#include "tests/support/ingest_outcomes.h"
#include "tests/support/process_runner.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageAuthenticationCode>
#include <QtTest>

#include <memory>

using rdtest::outcomeName;

namespace {

const std::string kAddress = "Ada.Lovelace@Example.COM";
const std::string kStored = "ada.lovelace@example.com";

/// The Stripe renewal of sub_<tag> (in_<tag>, evt_<tag>), sent to `email`.
std::string stripeRenewalTo(const std::string &tag, const std::string &email)
{
    return rdtest::replaceAll(rdtest::stripeRenewalOf(tag), R"("customer": "cus_QxCust0001",)",
        R"("customer": "cus_QxCust0001", "customer_email": )" + nlohmann::json(email).dump() + ",");
}

QJsonArray jsonArray(const QByteArray &out)
{
    return QJsonDocument::fromJson(out).array();
}

} // namespace

class TestFindAnything : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;

    rdtest::RunResult ctl(const QStringList &args)
    {
        return rdtest::runProgram(rdtest::ctl(), rdtest::withDb(*m_db, args));
    }

    /// The address's HMAC-SHA256 under the database's key, computed here (Qt's HMAC, RFC 2104)
    /// from the key the owner reads: the database's hash is the standard one.
    QString expectedHmac(const std::string &address)
    {
        auto conn = m_db->connect();
        pqxx::nontransaction tx(*conn);
        const pqxx::binarystring pad(tx.exec1("SELECT inner_pad FROM customer_email_key")[0]);
        QByteArray key(reinterpret_cast<const char *>(pad.data()), static_cast<int>(pad.size()));
        for (auto &b : key)
            b = static_cast<char>(b ^ 0x36);
        return QString::fromLatin1(QMessageAuthenticationCode::hash(
            QByteArray::fromStdString(address), key, QCryptographicHash::Sha256)
                                       .toHex());
    }

private slots:
    void init()
    {
        m_db = std::make_unique<rdtest::TestDatabase>("find_anything");
        auto conn = m_db->connect();
        rd::registerBillingProvider(*conn, "stripe-main", rd::ProviderKind::Stripe, "Stripe");
    }

    void cleanup() { m_db.reset(); }

    /// Each kind's adapter reads the customer's e-mail where its payloads carry it, lower-cased
    /// and trimmed; what is no address (too long, no '@', a space, not a string) is none, and
    /// the payload is read as it was. An invalid payload's address is read too (an erasure by
    /// e-mail reaches it).
    void adaptersReadTheCustomersEmail_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("email");
        QTest::addColumn<QString>("outcome");

        const auto fixture
            = [](const char *path) { return QString::fromStdString(rdtest::fixtureFile(path)); };
        const auto stripe = [](const std::string &email) {
            return QString::fromStdString(stripeRenewalTo("x", email));
        };
        const int stripeKind = static_cast<int>(rd::ProviderKind::Stripe);
        QTest::newRow("stripe: the invoice's customer_email, lower-cased and trimmed")
            << stripeKind << stripe("  " + kAddress + " ") << QString::fromStdString(kStored)
            << "renewal";
        QTest::newRow("stripe: a failed payment's invoice")
            << stripeKind << fixture("stripe/payment_trouble_payment_failed_pre_basil.json")
            << "billing@acme.example"
            << "payment_trouble";
        QTest::newRow("stripe: none")
            << stripeKind << fixture("stripe/renewal_pre_basil.json") << ""
            << "renewal";
        QTest::newRow("stripe: null") << stripeKind
                                      << QString::fromStdString(rdtest::replaceAll(
                                             stripeRenewalTo("x", "a@b.c"), "\"a@b.c\"", "null"))
                                      << ""
                                      << "renewal";
        QTest::newRow("stripe: a number") << stripeKind
                                          << QString::fromStdString(rdtest::replaceAll(
                                                 stripeRenewalTo("x", "a@b.c"), "\"a@b.c\"", "42"))
                                          << ""
                                          << "renewal";
        QTest::newRow("stripe: 254 bytes is an address")
            << stripeKind << stripe(std::string(250, 'a') + "@b.c")
            << QString::fromStdString(std::string(250, 'a') + "@b.c") << "renewal";
        QTest::newRow("stripe: 255 bytes is none")
            << stripeKind << stripe(std::string(251, 'a') + "@b.c") << ""
            << "renewal";
        QTest::newRow("stripe: no @") << stripeKind << stripe("ada.example.com") << ""
                                      << "renewal";
        QTest::newRow("stripe: @ first") << stripeKind << stripe("@example.com") << ""
                                         << "renewal";
        QTest::newRow("stripe: @ last") << stripeKind << stripe("ada@") << ""
                                        << "renewal";
        QTest::newRow("stripe: a space inside") << stripeKind << stripe("ada @example.com") << ""
                                                << "renewal";
        QTest::newRow("paddle: data.customer.email, when included")
            << static_cast<int>(rd::ProviderKind::Paddle)
            << QString::fromStdString(rdtest::replaceAll(rdtest::fixtureFile("paddle/renewal.json"),
                   R"("customer_id": "ctm_01hv6y1jedq4p1n0yqn5ba3ky4",)",
                   R"("customer_id": "ctm_01hv6y1jedq4p1n0yqn5ba3ky4", "customer": {"id": )"
                   R"("ctm_01hv6y1jedq4p1n0yqn5ba3ky4", "email": "Pat@Example.org"},)"))
            << "pat@example.org"
            << "renewal";
        QTest::newRow("paddle: none in a webhook")
            << static_cast<int>(rd::ProviderKind::Paddle) << fixture("paddle/renewal.json") << ""
            << "renewal";
        QTest::newRow("chargebee: content.customer.email")
            << static_cast<int>(rd::ProviderKind::Chargebee)
            << QString::fromStdString(rdtest::replaceAll(
                   rdtest::fixtureFile("chargebee/renewal_payment_succeeded.json"),
                   R"("content": {)",
                   R"("content": {"customer": {"id": "c1", "email": "Kim@Example.net"},)"))
            << "kim@example.net"
            << "renewal";
        QTest::newRow("recurly: account.email")
            << static_cast<int>(rd::ProviderKind::Recurly) << fixture("recurly/renewal.json")
            << "billing@acme.example"
            << "renewal";
        QTest::newRow("lemonsqueezy: data.attributes.user_email")
            << static_cast<int>(rd::ProviderKind::LemonSqueezy)
            << fixture("lemonsqueezy/renewal_needs_snapshot.json") << "ada@acme.example"
            << "needs_snapshot";
        QTest::newRow("lemonsqueezy: an invalid payload's address is read too")
            << static_cast<int>(rd::ProviderKind::LemonSqueezy)
            << fixture("lemonsqueezy/malformed_missing_subscription_id.json") << "ada@acme.example"
            << "invalid";
    }

    void adaptersReadTheCustomersEmail()
    {
        QFETCH(int, kind);
        QFETCH(QString, body);
        QFETCH(QString, email);
        QFETCH(QString, outcome);
        const auto n
            = rd::normalizePayload(static_cast<rd::ProviderKind>(kind), "key", body.toStdString());
        QCOMPARE(QString::fromStdString(rd::toString(n.outcome)), outcome);
        QCOMPARE(QString::fromStdString(n.customerEmail), email);
        const auto json = rd::toJson(n);
        QCOMPARE(json.contains("customerEmail"), !email.isEmpty());
    }

    /// The demo's "subscription not found": the id of a subscription the desk does not know,
    /// which only the case and its delivery carry, is found (#42 item 1), and `renewalctl find`
    /// lists both as JSON, each with its kind, id and label; nothing found exits 3 with [].
    void findsWhatOnlyACaseAndItsDeliveryCarry()
    {
        rd::WebhookIngestor ingestor(m_db->conninfo());
        const auto r = ingestor.ingest("stripe-main", rdtest::stripeRenewalOf("unknown"));
        QCOMPARE(outcomeName(r.outcome), outcomeName(rd::IngestOutcome::Rejected));
        QVERIFY(r.caseId);
        QCOMPARE(QString::fromStdString(rdtest::text(*m_db,
                     "SELECT error_code FROM reconciliation_cases WHERE id = "
                         + std::to_string(*r.caseId))),
            u"subscription_not_found"_qs);

        const auto found = ctl({"find", "  sub_unknown ", "--json"});
        QVERIFY2(found.exitCode == 0, found.err.constData());
        const QJsonArray hits = jsonArray(found.out);
        QCOMPARE(hits.size(), 2);
        const QJsonObject kase = hits[0].toObject();
        QCOMPARE(kase["kind"].toString(), u"case"_qs);
        QCOMPARE(kase["id"].toInteger(), *r.caseId);
        QCOMPARE(kase["matchedBy"].toString(), u"provider_id"_qs);
        QCOMPARE(kase["providerKey"].toString(), u"stripe-main"_qs);
        QCOMPARE(kase["providerSubscriptionId"].toString(), u"sub_unknown"_qs);
        QVERIFY2(kase["label"].toString().startsWith(
                     u"Case %1 · subscription not found · open"_qs.arg(*r.caseId)),
            qPrintable(kase["label"].toString()));
        const QJsonObject delivery = hits[1].toObject();
        QCOMPARE(delivery["kind"].toString(), u"delivery"_qs);
        QCOMPARE(delivery["id"].toInteger(), r.inboxId);
        QCOMPARE(delivery["eventId"].toString(), u"evt_unknown"_qs);
        QVERIFY2(delivery["label"].toString().startsWith(
                     u"Inbox delivery %1 · rejected · event evt_unknown"_qs.arg(r.inboxId)),
            qPrintable(delivery["label"].toString()));

        // Words for people without --json, one line each.
        const auto text = ctl({"find", "sub_unknown"});
        QCOMPARE(text.exitCode, 0);
        QCOMPARE(text.out.count('\n'), 2);
        QVERIFY(text.out.contains("(found by provider_id)"));

        // The case by its number, as the desk reads "case N".
        const auto byNumber = ctl({"find", u"case %1"_qs.arg(*r.caseId), "--json"});
        QCOMPARE(byNumber.exitCode, 0);
        QCOMPARE(jsonArray(byNumber.out).size(), 1);

        const auto none = ctl({"find", "sub_nobody", "--json"});
        QCOMPARE(none.exitCode, 3);
        QCOMPARE(none.out.trimmed(), QByteArray("[]"));
        QVERIFY2(none.err.contains("nothing has the id"), none.err.constData());

        const auto empty = ctl({"find", "  ", "--json"});
        QCOMPARE(empty.exitCode, 65);
        QVERIFY2(empty.err.contains("TEXT: nothing to find"), empty.err.constData());
        const auto twoLines = ctl({"find", "sub_a\nsub_b"});
        QCOMPARE(twoLines.exitCode, 65);
        QVERIFY2(twoLines.err.contains("no line breaks"), twoLines.err.constData());
        const auto badLimit = ctl({"find", "sub_unknown", "--limit", "0"});
        QCOMPARE(badLimit.exitCode, 64);
    }

    /// The demo's own "subscription not found" case, as the walkthrough met it: its
    /// subscription id lists the case and the delivery it came in.
    void theDemosSubscriptionNotFoundCase()
    {
        rdtest::TestDatabase demo("find_demo");
        const auto made = rdtest::runProgram(rdtest::ctl(), rdtest::withDb(demo, {"demo"}));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const std::string sub = rdtest::text(demo,
            "SELECT provider_subscription_id FROM reconciliation_cases WHERE error_code = "
            "'subscription_not_found' ORDER BY id LIMIT 1");
        const std::string caseId = rdtest::text(demo,
            "SELECT id FROM reconciliation_cases WHERE error_code = 'subscription_not_found' "
            "ORDER BY id LIMIT 1");
        QVERIFY(sub != "<null>");
        const auto found = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(demo, {"find", QString::fromStdString(sub), "--json"}));
        QVERIFY2(found.exitCode == 0, found.err.constData());
        QStringList kinds;
        for (const auto &h : jsonArray(found.out))
            kinds << h.toObject()["kind"].toString() + u':'
                    + QString::number(h.toObject()["id"].toInteger());
        QVERIFY2(kinds.contains(u"case:"_qs + QString::fromStdString(caseId)),
            qPrintable(kinds.join(u", "_qs)));
        QVERIFY2(kinds.filter(u"delivery:"_qs).size() >= 1, qPrintable(kinds.join(u", "_qs)));

        // The demo's Stripe invoices carry their customer's e-mail: support can try it there.
        const std::string email = rdtest::text(demo,
            "SELECT b ->> 'customer_email' FROM (SELECT convert_from(raw_body, 'UTF8')::jsonb "
            "-> 'data' -> 'object' AS b FROM webhook_inbox WHERE provider_key = 'stripe-main' "
            "AND outcome = 'applied' ORDER BY id LIMIT 1) x");
        QVERIFY2(email.find("@example.com") != std::string::npos, email.c_str());
        const auto byEmail = rdtest::runProgram(
            rdtest::ctl(), rdtest::withDb(demo, {"find", QString::fromStdString(email), "--json"}));
        QVERIFY2(byEmail.exitCode == 0, (email + ": " + byEmail.err.toStdString()).c_str());
        QStringList emailKinds;
        for (const auto &h : jsonArray(byEmail.out))
            emailKinds << h.toObject()["kind"].toString();
        QVERIFY2(emailKinds.contains(u"subscription"_qs) && emailKinds.contains(u"renewal"_qs)
                && emailKinds.contains(u"delivery"_qs),
            qPrintable(emailKinds.join(u", "_qs)));
    }

    /// The address is kept as its HMAC-SHA256 under the database's key, in the normalized
    /// event, and nowhere in clear outside the body; Find anything finds the subscription, its
    /// renewal and the delivery by it, typed in any case, also after the purge forgot the body;
    /// `inbox erase --email` removes the body and the hash, and then nothing is found.
    void aCustomerIsFoundByEmailAfterRetentionUntilErased()
    {
        rdtest::importSubscriptions(m_db->conninfo(),
            rdtest::subscriptionLine(
                "stripe-main", "sub_mail", "active", "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z")
                + "\n");
        rd::WebhookIngestor ingestor(m_db->conninfo());
        const auto applied = ingestor.ingest("stripe-main", stripeRenewalTo("mail", kAddress));
        QCOMPARE(outcomeName(applied.outcome), outcomeName(rd::IngestOutcome::Applied));
        // Another customer's delivery, which no search by the address may list.
        ingestor.ingest("stripe-main", stripeRenewalTo("other", "someone@else.example"));

        const QString hmac = expectedHmac(kStored);
        const std::string id = std::to_string(applied.inboxId);
        QCOMPARE(
            QString::fromStdString(rdtest::text(*m_db,
                "SELECT normalized->>'customerEmailHmac' FROM webhook_inbox WHERE id = " + id)),
            hmac);
        QCOMPARE(rdtest::scalar(*m_db,
                     "SELECT count(*) FROM webhook_inbox WHERE normalized ? 'customerEmail'"),
            0LL);
        // The address in clear nowhere but in the body (bytea: a row's text shows it as hex).
        {
            auto conn = m_db->connect();
            pqxx::nontransaction tx(*conn);
            for (const auto &t : tx.exec("SELECT c.oid::regclass::text FROM pg_class c JOIN "
                                         "pg_namespace n ON n.oid = c.relnamespace WHERE "
                                         "n.nspname = 'public' AND c.relkind = 'r'")) {
                const std::string table = t[0].as<std::string>();
                const auto hits = tx.exec1("SELECT count(*) FROM " + table
                                        + " x WHERE lower(x::text) LIKE '%ada.lovelace%'")[0]
                                      .as<long long>();
                QVERIFY2(hits == 0, (table + " holds the address in clear").c_str());
            }
            QVERIFY(tx.exec1("SELECT position(convert_to('Ada.Lovelace', 'UTF8') in raw_body) > 0 "
                             "FROM webhook_inbox WHERE id = "
                          + id)[0]
                        .as<bool>());
        }

        const auto kinds = [](const QJsonArray &hits) {
            QStringList out;
            for (const auto &h : hits)
                out << h.toObject()["kind"].toString() + u':'
                        + h.toObject()["matchedBy"].toString();
            return out;
        };
        const QStringList everything {"subscription:email", "renewal:email", "delivery:email"};
        const auto before = ctl({"find", "  ADA.lovelace@example.com", "--json"});
        QVERIFY2(before.exitCode == 0, before.err.constData());
        QCOMPARE(kinds(jsonArray(before.out)), everything);
        QCOMPARE(jsonArray(before.out)[2].toObject()["id"].toInteger(), applied.inboxId);

        // The retention forgets the body; the hash stays in the normalized event.
        const auto purge = ctl({"inbox", "purge", "--older-than", "0"});
        QVERIFY2(purge.exitCode == 0, purge.err.constData());
        QCOMPARE(
            rdtest::scalar(*m_db,
                "SELECT count(*) FROM webhook_inbox WHERE raw_body IS NOT NULL AND id = " + id),
            0LL);
        const auto after = ctl({"find", QString::fromStdString(kAddress), "--json"});
        QVERIFY2(after.exitCode == 0, after.err.constData());
        QCOMPARE(kinds(jsonArray(after.out)), everything);

        // Erasure by e-mail: names one of the two, never both; an operator's request.
        QCOMPARE(ctl({"inbox", "erase", "--request", "T-1"}).exitCode, 64);
        QCOMPARE(ctl({"inbox", "erase", "--request", "T-1", "--email", "a@b.c", "--subscription",
                         "sub_mail"})
                     .exitCode,
            64);
        const auto notAnAddress
            = ctl({"inbox", "erase", "--request", "T-1", "--email", "ada", "--json"});
        QCOMPARE(notAnAddress.exitCode, 65);
        QVERIFY2(notAnAddress.err.contains("--email: not an e-mail address"),
            notAnAddress.err.constData());
        const auto erase = ctl({"inbox", "erase", "--email", QString::fromStdString(kAddress),
            "--request", "DSR-7", "--json"});
        QVERIFY2(erase.exitCode == 0, erase.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(erase.out).object();
        QCOMPARE(report["customerEmailHashes"].toInteger(), 1);
        QCOMPARE(report["removed"].toInteger(), 0); // the purge took the body already
        QCOMPARE(report["alreadyRemoved"].toInteger(), 1);
        QCOMPARE(rdtest::scalar(*m_db,
                     "SELECT count(*) FROM webhook_inbox WHERE normalized->>'customerEmailHmac' = '"
                         + hmac.toStdString() + "'"),
            0LL);
        QCOMPARE(rdtest::scalar(*m_db,
                     "SELECT count(*) FROM webhook_inbox_removals WHERE kind = 'erasure' AND "
                     "request = 'DSR-7' AND customer_email_hashes = 1 AND "
                     "provider_subscription_id IS NULL"),
            1LL);
        const auto gone = ctl({"find", QString::fromStdString(kAddress), "--json"});
        QCOMPARE(gone.exitCode, 3);
        QCOMPARE(gone.out.trimmed(), QByteArray("[]"));
        // The other customer's hash stays.
        QCOMPARE(rdtest::scalar(*m_db,
                     "SELECT count(*) FROM webhook_inbox WHERE normalized ? 'customerEmailHmac'"),
            1LL);
    }

    /// An erasure by e-mail of a body still kept removes it with the hash.
    void anErasureByEmailRemovesTheBody()
    {
        rd::WebhookIngestor ingestor(m_db->conninfo());
        const auto r = ingestor.ingest("stripe-main", stripeRenewalTo("kept", kAddress));
        const auto erase = ctl({"inbox", "erase", "--email", QString::fromStdString(kStored),
            "--request", "DSR-8", "--json"});
        QVERIFY2(erase.exitCode == 0, erase.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(erase.out).object();
        QCOMPARE(report["removed"].toInteger(), 1);
        QCOMPARE(report["customerEmailHashes"].toInteger(), 1);
        QCOMPARE(rdtest::scalar(*m_db,
                     "SELECT count(*) FROM webhook_inbox WHERE raw_body IS NULL AND NOT normalized "
                     "? 'customerEmailHmac' AND id = "
                         + std::to_string(r.inboxId)),
            1LL);
    }

    /// Nobody but the owner reads the key: not the viewer, the ingest role nor an operator.
    /// A viewer may search (hash an address), an operator erase, and nobody else either.
    void onlyTheOwnerReadsTheKey_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("viewer") << "viewer";
        QTest::newRow("ingest") << "ingest";
        QTest::newRow("operator") << "operator";
    }

    void onlyTheOwnerReadsTheKey()
    {
        QFETCH(QString, kind);
        pqxx::connection c(rdtest::loginAs(*m_db, kind.toStdString(), kind.toStdString()));
        {
            pqxx::nontransaction tx(c);
            QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege,
                tx.exec("SELECT inner_pad, outer_pad FROM public.customer_email_key"));
        }
        {
            pqxx::nontransaction tx(c);
            QCOMPARE(QString::fromStdString(
                         tx.exec1("SELECT public.rd_customer_email_hmac($$" + kAddress + "$$)")[0]
                             .as<std::string>()),
                expectedHmac(kStored));
            tx.exec("SELECT * FROM public.find_anything('sub_x', 10)");
        }
        if (kind != u"operator") {
            pqxx::nontransaction tx(c);
            QVERIFY_THROWS_EXCEPTION(pqxx::insufficient_privilege,
                tx.exec("SELECT public.erase_customer_email('a@b.c', 'x')"));
        }
    }
};

QTEST_MAIN(TestFindAnything)
#include "tst_findanything.moc"
