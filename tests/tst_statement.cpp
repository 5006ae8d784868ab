// readStatement: providers' list outputs, classified by the webhook adapters' own code.

#include "domain/core/adapters/normalization.h"
#include "domain/core/adapters/provider_kinds.h"
#include "domain/core/errors.h"
#include "domain/core/providers/provider.h"
#include "domain/core/renewal_event.h"
#include "domain/core/sha256.h"
#include "domain/core/statement.h"
#include "domain/core/statement_pages.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <optional>
#include <string>
#include <vector>

namespace {

constexpr std::string_view kKey = "main";

QByteArray readFixture(const QString &relative)
{
    QFile f(QStringLiteral(RD_FIXTURES_DIR "/") + relative);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(relative));
    return f.readAll();
}

rd::ProviderKind kindOf(const QString &provider)
{
    const auto kind = rd::providerKindFromString(provider.toStdString());
    if (!kind)
        qFatal("unknown provider %s", qPrintable(provider));
    return *kind;
}

// Statement files from fixtures/statements/<provider>/<name>, named by their file name.
std::vector<rd::StatementFile> statementFiles(const QString &provider, const QStringList &names)
{
    std::vector<rd::StatementFile> files;
    for (const auto &name : names)
        files.push_back({name.toStdString(),
            readFixture(QStringLiteral("statements/%1/%2").arg(provider, name)).toStdString()});
    return files;
}

// One line per entry, "<file>#<index> <objectId> <outcome>/<reason>", and one per file,
// "<file>: <objects> objects[, more follows]".
QStringList summary(const rd::Statement &statement)
{
    QStringList lines;
    for (const auto &f : statement.files)
        lines << QStringLiteral("%1: %2 objects%3")
                     .arg(QString::fromStdString(f.name))
                     .arg(f.objects)
                     .arg(f.saysMoreFollows ? ", more follows" : "");
    for (const auto &e : statement.entries)
        lines << QStringLiteral("%1#%2 %3 %4/%5")
                     .arg(QString::fromStdString(e.file))
                     .arg(e.index)
                     .arg(QString::fromStdString(e.objectId),
                         QString::fromStdString(toString(e.normalization.outcome)),
                         QString::fromStdString(e.normalization.reason));
    return lines;
}

// The statement, or std::nullopt with the error that refused it in `error`: a test that
// expects a statement fails with that error rather than aborting the whole run.
std::optional<rd::Statement> tryRead(
    rd::ProviderKind kind, const std::vector<rd::StatementFile> &files, std::string &error)
{
    try {
        return rd::readStatement(kind, kKey, files);
    } catch (const rd::InputError &e) {
        error = e.what();
        return std::nullopt;
    }
}

// The error readStatement throws, or a failure naming what it returned instead.
rd::InputError readError(
    const QString &provider, const std::vector<rd::StatementFile> &files, bool &threw)
{
    threw = false;
    try {
        const auto statement = rd::readStatement(kindOf(provider), kKey, files);
        qWarning() << "no error; read:" << summary(statement);
    } catch (const rd::InputError &e) {
        threw = true;
        return e;
    }
    return rd::InputError({}, {});
}

// The webhook fixture's object wrapped in a one-page list in the provider's shape. Recurly's
// body is the invoice and is spliced as text, so its decimal amounts keep their text.
std::string wrappedInListPage(const QString &provider, const QByteArray &webhookBody)
{
    const std::string raw = webhookBody.toStdString();
    if (provider == "recurly")
        return R"({"object":"list","has_more":false,"next":null,"data":[)" + raw + "]}";
    const auto body = nlohmann::json::parse(raw);
    if (provider == "stripe")
        return nlohmann::json {{"object", "list"}, {"url", "/v1/invoices"}, {"has_more", false},
            {"data", {body["data"]["object"]}}}
            .dump();
    if (provider == "paddle")
        return nlohmann::json {{"data", {body["data"]}},
            {"meta", {{"pagination", {{"per_page", 30}, {"has_more", false}}}}}}
            .dump();
    if (provider == "chargebee")
        return nlohmann::json {{"list", {{{"invoice", body["content"]["invoice"]}}}}}.dump();
    return nlohmann::json {
        {"meta", {{"page", {{"currentPage", 1}, {"lastPage", 1}}}}}, {"data", {body["data"]}}}
        .dump();
}

// The money back object of a webhook fixture, at `pick`: "data" (Paddle's adjustment, Lemon
// Squeezy's invoice), "content.transaction" (Chargebee), "transactions[0]" (Recurly's credit
// invoice's refund transaction, as GET /transactions lists it); `patch` merged into it (RFC
// 7396) when not empty.
nlohmann::json moneyBackObject(const QString &fixture, const QString &pick, const QString &patch)
{
    auto object = nlohmann::json::parse(readFixture(fixture).toStdString());
    for (const auto &step : pick.split('.')) {
        const auto at = step.indexOf('[');
        object = nlohmann::json(object.at(step.left(at).toStdString()));
        if (at >= 0)
            object = nlohmann::json(object.at(step.mid(at + 1).chopped(1).toUInt()));
    }
    if (!patch.isEmpty())
        object.merge_patch(nlohmann::json::parse(patch.toStdString()));
    return object;
}

// `objects` on the last page of the kind's money back list, as its API returns it (#40):
// Paddle's GET /adjustments, Chargebee's GET /api/v2/transactions (each {"transaction": ...}),
// Recurly's GET /transactions, Lemon Squeezy's GET /v1/subscription-invoices.
std::string moneyBackPage(const QString &provider, const nlohmann::json &object)
{
    if (provider == "paddle")
        return nlohmann::json {{"data", {object}},
            {"meta",
                {{"pagination",
                    {{"per_page", 30},
                        {"next",
                            "https://api.paddle.com/adjustments?after="
                                + object["id"].get<std::string>()},
                        {"has_more", false}, {"estimated_total", 1}}}}}}
            .dump();
    if (provider == "chargebee")
        return nlohmann::json {{"list", {{{"transaction", object}}}}}.dump();
    if (provider == "recurly")
        return nlohmann::json {
            {"object", "list"}, {"has_more", false}, {"next", nullptr}, {"data", {object}}}
            .dump();
    return nlohmann::json {
        {"meta", {{"page", {{"currentPage", 1}, {"lastPage", 1}}}}}, {"data", {object}}}
        .dump();
}

// Movements as "key kind amount currency occurredAt ref,ref[ cumulative]; ...".
QString movementsText(const std::vector<rd::MoneyMovement> &movements)
{
    QStringList out;
    for (const auto &m : movements) {
        QStringList refs;
        for (const auto &r : m.renewalRefs)
            refs << QString::fromStdString(r);
        out << QStringLiteral("%1 %2 %3 %4 %5 %6%7")
                   .arg(QString::fromStdString(m.movementKey),
                       QString::fromStdString(std::string(rd::toString(m.kind))))
                   .arg(m.amountMinor)
                   .arg(QString::fromStdString(m.currency),
                       QString::fromStdString(rd::formatRfc3339(m.occurredAt)), refs.join(','),
                       m.cumulativeMinor ? QStringLiteral(" cumulative") : QString());
    }
    return out.join(QStringLiteral("; "));
}

} // namespace

// The refusal checkPagesAgainstManifest throws, or "" when it accepts.
std::string manifestRefusal(rd::ProviderKind kind, const rd::PagesManifest &manifest,
    const std::vector<rd::StatementFile> &pages)
{
    try {
        rd::checkPagesAgainstManifest(manifest, rd::readStatement(kind, kKey, pages), kKey);
    } catch (const rd::InputError &e) {
        return e.what();
    }
    return {};
}

rd::PagesManifest manifestOf(rd::ProviderKind kind, const std::vector<rd::StatementFile> &pages)
{
    const auto m = rd::readPagesManifest(
        {"manifest.json", rd::pagesManifestJson(kind, kKey, "2026-01-01", "2026-01-31", pages)});
    if (!m)
        qFatal("the manifest written is not read as one");
    return *m;
}

class TestStatement : public QObject
{
    Q_OBJECT

private slots:
    // The manifest `statement fetch --save` writes proves its pages (#39): each one present with
    // its hash, none extra, the fetch complete. A page missing or altered is refused by name.
    void manifestProvesThePages_data()
    {
        QTest::addColumn<QString>("provider");
        for (const char *p : {"stripe", "paddle", "chargebee", "recurly", "lemonsqueezy"})
            QTest::newRow(p) << QString::fromLatin1(p);
    }
    void manifestProvesThePages()
    {
        QFETCH(QString, provider);
        const auto kind = kindOf(provider);
        const auto files = statementFiles(provider, {"page1.json", "page2.json"});
        const auto manifest = manifestOf(kind, files);
        QCOMPARE(manifest.pages.size(), std::size_t(2));
        QVERIFY(!manifest.pages[0].request);
        QVERIFY(manifest.pages[1].request);
        QCOMPARE(manifest.pages[1].sha256, rd::sha256Hex(files[1].bytes));
        QCOMPARE(manifestRefusal(kind, manifest, files), std::string());

        // Page 2 of 2 alone: it says none follow, and only the manifest shows page 1 missing.
        auto refused = manifestRefusal(kind, manifest, {files[1]});
        QVERIFY2(refused.find("page page1.json is missing") != std::string::npos, refused.c_str());
        auto altered = files;
        altered[0].bytes += " ";
        refused = manifestRefusal(kind, manifest, altered);
        QVERIFY2(refused.find("page page1.json was altered") != std::string::npos, refused.c_str());
        auto extra = files;
        extra.push_back({"page9.json", files[0].bytes + "\n"}); // the same objects, other bytes
        refused = manifestRefusal(kind, manifest, extra);
        QVERIFY2(refused.find("page9.json is not a page the manifest lists") != std::string::npos,
            refused.c_str());
        auto partial = manifest;
        partial.complete = false;
        refused = manifestRefusal(kind, partial, files);
        QVERIFY2(refused.find("\"complete\": true") != std::string::npos, refused.c_str());
    }

    // Pages 1 and 3 of 3 where the pages carry their chain (Paddle's meta.pagination.next,
    // Chargebee's next_offset, Recurly's next): refused against the whole manifest (page 2
    // missing), and against a manifest that leaves page 2 out (the chain breaks, naming the
    // link page 1 gives).
    void aGapInTheChainIsRefused_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("link"); // page 1's link to page 2, as the fixture has it
        QTest::addColumn<QString>("other"); // the middle page's link to page 3
        QTest::newRow("paddle") << "paddle"
                                << "after=txn_01hv9prora000000000000000"
                                << "after=txn_01hv9middle00000000000000";
        QTest::newRow("chargebee") << "chargebee"
                                   << R"(\"1050\"])"
                                   << R"(\"1049\"])";
        QTest::newRow("recurly") << "recurly"
                                 << "cursor=qx6prefund01"
                                 << "cursor=qx6pmiddle01";
    }
    void aGapInTheChainIsRefused()
    {
        QFETCH(QString, provider);
        QFETCH(QString, link);
        QFETCH(QString, other);
        const auto kind = kindOf(provider);
        const auto files = statementFiles(provider, {"page1.json", "page2.json"});
        std::string middle = files[0].bytes;
        const auto at = middle.find(link.toStdString());
        QVERIFY(at != std::string::npos);
        middle.replace(at, link.size(), other.toStdString());
        const std::vector<rd::StatementFile> pages {{"page-0001.json", files[0].bytes},
            {"page-0002.json", middle}, {"page-0003.json", files[1].bytes}};
        const auto manifest = manifestOf(kind, pages);
        QCOMPARE(manifestRefusal(kind, manifest, pages), std::string());

        const std::vector<rd::StatementFile> gap {pages[0], pages[2]};
        auto refused = manifestRefusal(kind, manifest, gap);
        QVERIFY2(
            refused.find("page page-0002.json is missing") != std::string::npos, refused.c_str());
        auto cut = manifest;
        cut.pages.erase(cut.pages.begin() + 1);
        refused = manifestRefusal(kind, cut, gap);
        QVERIFY2(refused.find("the chain breaks after page-0001.json") != std::string::npos,
            refused.c_str());
        QVERIFY2(refused.find(*manifest.pages[1].request + "\" is missing") != std::string::npos,
            refused.c_str());
    }

    void multiPage_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QStringList>("expected");
        // Stripe's and Paddle's lists hold invoices / transactions only: refunds are credit
        // notes, charges and adjustments, other lists. Stripe: page 1 is pre-basil, page 2
        // basil, told apart by the invoices' own fields.
        QTest::newRow("stripe")
            << "stripe"
            << QStringList {"page1.json: 3 objects, more follows", "page2.json: 4 objects",
                   "page1.json#0 in_1QxRenew0001 renewal/renewal",
                   "page1.json#1 in_1QxFirst0001 not_a_renewal/first_invoice",
                   "page1.json#2 in_1QxProra0001 not_a_renewal/proration",
                   "page2.json#0 in_1QxRenew0002 renewal/renewal",
                   "page2.json#1 in_1QxOpen0001 not_a_renewal/unpaid",
                   "page2.json#2 in_1QxManual001 not_a_renewal/manual_invoice",
                   "page2.json#3 in_1QxMetered01 needs_snapshot/missing_period"};
        QTest::newRow("paddle")
            << "paddle"
            << QStringList {"page1.json: 3 objects, more follows", "page2.json: 3 objects",
                   "page1.json#0 txn_01hv8wptq8987qeep44cyrewp9 renewal/renewal",
                   "page1.json#1 txn_01hv7first0000000000000000 not_a_renewal/first_invoice",
                   "page1.json#2 txn_01hv9prora000000000000000 not_a_renewal/proration",
                   "page2.json#0 txn_01hv9pastdue0000000000000 not_a_renewal/unpaid",
                   "page2.json#1 txn_01hv9charge00000000000000 not_a_renewal/manual_invoice",
                   "page2.json#2 txn_01hv9nocapture000000000000b renewal/renewal"};
        // Invoice 1050 is the webhook fixture a mid-term change: without content.subscription
        // a list cannot tell, so it reads as a renewal (the core's contiguity rule refuses its
        // period later; see providers/chargebee/adapter.cpp).
        QTest::newRow("chargebee")
            << "chargebee"
            << QStringList {"page1.json: 3 objects, more follows", "page2.json: 3 objects",
                   "page1.json#0 1044 renewal/renewal",
                   "page1.json#1 1001 not_a_renewal/first_invoice",
                   "page1.json#2 1050 renewal/renewal", "page2.json#0 1052 not_a_renewal/unpaid",
                   "page2.json#1 1051 not_a_renewal/manual_invoice",
                   "page2.json#2 1046 renewal/renewal"};
        QTest::newRow("recurly")
            << "recurly"
            << QStringList {"page1.json: 4 objects, more follows", "page2.json: 3 objects",
                   "page1.json#0 qx6pel8cxbcm renewal/renewal",
                   "page1.json#1 qx6pfirst001 not_a_renewal/first_invoice",
                   "page1.json#2 qx6pprora001 not_a_renewal/proration",
                   "page1.json#3 qx6prefund01 not_a_renewal/refund",
                   "page2.json#0 qx6ppastdue1 not_a_renewal/unpaid",
                   "page2.json#1 qx6pprepay01 not_a_renewal/other_billing_reason",
                   "page2.json#2 qx6pkwd00002 renewal/renewal"};
        QTest::newRow("lemonsqueezy")
            << "lemonsqueezy"
            << QStringList {"page1.json: 3 objects, more follows", "page2.json: 3 objects",
                   "page1.json#0 3051 needs_snapshot/missing_period",
                   "page1.json#1 2990 not_a_renewal/first_invoice",
                   "page1.json#2 3060 not_a_renewal/proration",
                   "page2.json#0 3061 not_a_renewal/unpaid",
                   // Refunded since it was paid: the renewal still, its refund beside it.
                   "page2.json#1 3059 needs_snapshot/missing_period",
                   "page2.json#2 3052 needs_snapshot/missing_period"};
    }
    void multiPage()
    {
        QFETCH(QString, provider);
        QFETCH(QStringList, expected);
        const auto files = statementFiles(provider, {"page1.json", "page2.json"});
        std::string error;
        const auto read = tryRead(kindOf(provider), files, error);
        QVERIFY2(read, error.c_str());
        const rd::Statement &statement = *read;
        QCOMPARE(summary(statement), expected);
        QVERIFY(statement.kind == kindOf(provider));
        for (const auto &e : statement.entries) {
            // The statement's own delivery id: the object's hash, never derived from a body.
            QCOMPARE(e.normalization.providerEventId, "statement:" + e.objectSha256);
            QVERIFY(!e.normalization.eventIdDerived);
            if (e.normalization.event) {
                QCOMPARE(e.normalization.event->providerEventId, "statement:" + e.objectSha256);
                QCOMPARE(e.normalization.event->providerKey, std::string(kKey));
                QCOMPARE(e.normalization.event->providerRenewalKey, e.objectId);
            }
        }
        // The order files are given in changes neither the entries' set nor the identity.
        const std::vector<rd::StatementFile> reversed {files[1], files[0]};
        const auto again = tryRead(kindOf(provider), reversed, error);
        QVERIFY2(again, error.c_str());
        QCOMPARE(rd::statementDigest(*again), rd::statementDigest(statement));
        QCOMPARE(again->entries.size(), statement.entries.size());
        // Given a page twice, each object is kept once.
        const std::vector<rd::StatementFile> twice {files[0], files[1], files[0]};
        const auto once = tryRead(kindOf(provider), twice, error);
        QVERIFY2(once, error.c_str());
        QCOMPARE(once->entries.size(), statement.entries.size());
    }

    void objectHashIsTheCanonicalDump()
    {
        // Key order and whitespace do not change an object's hash (nor, hence, its id).
        const std::string a = R"({"object":"list","has_more":false,"data":[)"
            + nlohmann::json::parse(
                readFixture("stripe/unpaid.json").toStdString())["data"]["object"]
                  .dump(4)
            + "]}";
        const auto parsed = nlohmann::json::parse(a);
        const std::vector<rd::StatementFile> files {{"a.json", a}};
        std::string error;
        const auto statement = tryRead(rd::ProviderKind::Stripe, files, error);
        QVERIFY2(statement, error.c_str());
        QCOMPARE(statement->entries.size(), std::size_t {1});
        QCOMPARE(statement->entries[0].objectSha256, rd::sha256Hex(parsed["data"][0].dump()));
        QCOMPARE(statement->files[0].sha256, rd::sha256Hex(a));
        QCOMPARE(statement->files[0].bytes, std::uint64_t {a.size()});
    }

    void partialIsRefused_data()
    {
        QTest::addColumn<QString>("provider");
        for (const char *p : {"stripe", "paddle", "chargebee", "recurly", "lemonsqueezy"})
            QTest::newRow(p) << p;
    }
    void partialIsRefused()
    {
        QFETCH(QString, provider);
        bool threw = false;
        const auto e = readError(provider, statementFiles(provider, {"page1.json"}), threw);
        QVERIFY(threw);
        QCOMPARE(e.field(), std::string("statement"));
        QVERIFY2(
            e.message().find("page1.json says more pages follow") != std::string::npos, e.what());
        QVERIFY2(e.message().find("last page is missing") != std::string::npos, e.what());
        // JSON lines do not complete a paged statement: they carry no pagination.
        auto withLines = statementFiles(provider, {"page1.json", "lines.jsonl"});
        readError(provider, withLines, threw);
        QVERIFY(threw);
    }

    void jsonLines_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("stripe") << "stripe"
                                << QStringList {"lines.jsonl: 3 objects",
                                       "lines.jsonl#0 in_1QxRenew0001 renewal/renewal",
                                       "lines.jsonl#1 in_1QxRenew0005 renewal/renewal",
                                       "lines.jsonl#2 in_1QxOpen0001 not_a_renewal/unpaid"};
        QTest::newRow("paddle") << "paddle"
                                << QStringList {"lines.jsonl: 2 objects",
                                       "lines.jsonl#0 txn_01hv8wptq8987qeep44cyrewp9 "
                                       "renewal/renewal",
                                       "lines.jsonl#1 txn_01hv9jpy00000000000000000a "
                                       "renewal/renewal"};
        // The first line is {"invoice": ...} as listed, the second the bare invoice.
        QTest::newRow("chargebee")
            << "chargebee"
            << QStringList {"lines.jsonl: 2 objects", "lines.jsonl#0 1044 renewal/renewal",
                   "lines.jsonl#1 1045 renewal/renewal"};
        QTest::newRow("recurly") << "recurly"
                                 << QStringList {"lines.jsonl: 2 objects",
                                        "lines.jsonl#0 qx6pel8cxbcm renewal/renewal",
                                        "lines.jsonl#1 qx6pkwd00001 renewal/renewal"};
        QTest::newRow("lemonsqueezy") << "lemonsqueezy"
                                      << QStringList {"lines.jsonl: 2 objects",
                                             "lines.jsonl#0 3051 needs_snapshot/missing_period",
                                             "lines.jsonl#1 3059 needs_snapshot/missing_period"};
    }
    void jsonLines()
    {
        QFETCH(QString, provider);
        QFETCH(QStringList, expected);
        std::string error;
        const auto statement
            = tryRead(kindOf(provider), statementFiles(provider, {"lines.jsonl"}), error);
        QVERIFY2(statement, error.c_str());
        QCOMPARE(summary(*statement), expected);
    }

    void contradictionIsRefused_data() { partialIsRefused_data(); }
    void contradictionIsRefused()
    {
        QFETCH(QString, provider);
        bool threw = false;
        const auto e = readError(provider,
            statementFiles(provider, {"page1.json", "page2.json", "contradicts_page1.json"}),
            threw);
        QVERIFY(threw);
        QCOMPARE(e.field(), std::string("statement"));
        QVERIFY2(e.message().find("page1.json (object 0)") != std::string::npos, e.what());
        QVERIFY2(
            e.message().find("contradicts_page1.json object 0") != std::string::npos, e.what());
        QVERIFY2(e.message().find("contradicts itself") != std::string::npos, e.what());
    }

    void malformedObjectIsNamed_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("field");
        QTest::newRow("stripe") << "stripe"
                                << "malformed.json object 1: data[1].lines.data[0].period.end";
        QTest::newRow("paddle") << "paddle"
                                << "malformed.json object 1: data[1].billing_period.ends_at";
        QTest::newRow("chargebee")
            << "chargebee"
            << "malformed.json object 1: list[1].invoice.line_items[0].date_to";
        QTest::newRow("recurly") << "recurly"
                                 << "malformed.json object 1: data[1].paid";
        QTest::newRow("lemonsqueezy") << "lemonsqueezy"
                                      << "malformed.json object 1: data[1].attributes.total";
    }
    // An object the reader refuses is kept as a finding naming where and why (#39, item 15):
    // the file's other objects are read all the same.
    void malformedObjectIsNamed()
    {
        QFETCH(QString, provider);
        QFETCH(QString, field);
        std::string error;
        const auto read
            = tryRead(kindOf(provider), statementFiles(provider, {"malformed.json"}), error);
        QVERIFY2(read, error.c_str());
        std::size_t unreadable = 0;
        for (const auto &e : read->entries) {
            if (!e.unreadable)
                continue;
            ++unreadable;
            QCOMPARE(e.index, std::size_t {1});
            QCOMPARE(QString::fromStdString(e.unreadable->where), field);
            QVERIFY(!e.unreadable->problem.empty());
            QVERIFY(e.normalization.outcome == rd::NormalizeOutcome::Invalid);
            QVERIFY(!e.normalization.event);
            QCOMPARE(e.normalization.providerEventId, "statement:" + e.objectSha256);
            // Filed under the id the object names (each fixture's object 1 has one).
            QVERIFY2(
                !e.objectId.empty() && e.objectId.rfind("sha256:", 0) != 0, e.objectId.c_str());
        }
        QCOMPARE(unreadable, std::size_t {1});
        QVERIFY(read->entries.size() > 1);
    }

    // Which objects are findings and which refuse the statement: one odd object among
    // readable ones is a finding, under the id it names or its hash; a statement none of whose
    // objects can be read, or with more unreadable objects than kMaxUnreadableObjects, is
    // refused (the kind is then likelier wrong than the objects odd).
    void unreadableObjectsAreFindings()
    {
        const std::string renewal = nlohmann::json::parse(
            readFixture("stripe/renewal_basil.json").toStdString())["data"]["object"]
                                        .dump();
        const std::string disagree = nlohmann::json::parse(
            readFixture("stripe/malformed_parent_and_subscription_disagree.json")
                .toStdString())["data"]["object"]
                                         .dump();
        const auto page = [](const std::string &objects) {
            return R"({"object":"list","has_more":false,"data":[)" + objects + "]}";
        };
        std::string error;
        // The invoice naming two subscriptions, beside a renewal: the renewal is read, the
        // invoice is a finding under its own id, naming why.
        const auto both = tryRead(
            rd::ProviderKind::Stripe, {{"p.json", page(renewal + "," + disagree + ",7")}}, error);
        QVERIFY2(both, error.c_str());
        QCOMPARE(both->entries.size(), std::size_t {3});
        QVERIFY(!both->entries[0].unreadable);
        QVERIFY(both->entries[0].normalization.outcome == rd::NormalizeOutcome::Renewal);
        QVERIFY(both->entries[1].unreadable);
        QCOMPARE(
            both->entries[1].objectId, nlohmann::json::parse(disagree)["id"].get<std::string>());
        QVERIFY2(both->entries[1].unreadable->problem.find("the invoice contradicts itself")
                != std::string::npos,
            both->entries[1].unreadable->problem.c_str());
        QCOMPARE(both->entries[1].unreadable->where, std::string("p.json object 1: data[1]"));
        // A listed 7 names no id: it is filed under its hash.
        QVERIFY(both->entries[2].unreadable);
        QCOMPARE(both->entries[2].objectId, "sha256:" + rd::sha256Hex("7"));
        QCOMPARE(both->entries[2].unreadable->where, std::string("p.json object 2: data[2]"));

        // A broken JSON line among readable ones: a finding under the line's hash.
        const auto lines = tryRead(rd::ProviderKind::Stripe,
            {{"l.jsonl", renewal + "\n{broken\n" + disagree + "\n"}}, error);
        QVERIFY2(lines, error.c_str());
        QCOMPARE(lines->entries.size(), std::size_t {3});
        QVERIFY(lines->entries[1].unreadable);
        QCOMPARE(
            lines->entries[1].unreadable->where, std::string("l.jsonl object 1 (line 2): body"));
        QCOMPARE(lines->entries[1].objectId, "sha256:" + rd::sha256Hex("{broken"));

        // Nothing readable at all: refused, naming the first object and the kind.
        bool threw = false;
        const auto none = readError("stripe", {{"p.json", page(disagree + ",7")}}, threw);
        QVERIFY(threw);
        QCOMPARE(none.field(), std::string("p.json object 0: data[0]"));
        QVERIFY2(none.message().find("no object of the statement could be read as a stripe "
                                     "object")
                != std::string::npos,
            none.what());

        // More unreadable objects than an import keeps as cases: refused.
        std::string many = renewal;
        for (std::size_t i = 0; i <= rd::kMaxUnreadableObjects; ++i)
            many += "," + std::to_string(i);
        const auto flood = readError("stripe", {{"p.json", page(many)}}, threw);
        QVERIFY(threw);
        QCOMPARE(flood.field(), std::string("statement"));
        QVERIFY2(
            flood.message().find("51 objects cannot be read, more than the 50") == 0, flood.what());
        // At the bound, it reads.
        many = renewal;
        for (std::size_t i = 0; i < rd::kMaxUnreadableObjects; ++i)
            many += "," + std::to_string(i);
        QVERIFY2(tryRead(rd::ProviderKind::Stripe, {{"p.json", page(many)}}, error), error.c_str());
    }

    // #39, 17: a page of another kind under this kind's key says that it is not this kind's
    // list page (and what it lacks), not only the field it lacks.
    void anotherKindsPageSaysWhoseItIsNot()
    {
        bool threw = false;
        const auto paddle = readError("stripe",
            {{"f.json",
                R"({"data":[],"meta":{"pagination":{"per_page":30,"next":null,"has_more":false,)"
                R"("estimated_total":0}}})"}},
            threw);
        QVERIFY(threw);
        QCOMPARE(QString::fromStdString(paddle.field()), QString("f.json: object"));
        QVERIFY2(QString::fromStdString(paddle.what())
                     .endsWith(": not a stripe list page; is the provider key the one these "
                               "pages came from?"),
            paddle.what());
    }

    // The webhook path and the statement read the same object alike: every renewal fixture's
    // object, listed, gives the webhook's result but for the delivery id. Where the object lacks
    // its paid time, the webhook falls back to its event's time and the statement to the
    // object's own (`paidAt`, else the same as the webhook's).
    void webhookRenewalsReadAlike_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("paidAt");
        const QDir dir(QStringLiteral(RD_FIXTURES_DIR));
        int rows = 0;
        for (const char *p : {"stripe", "paddle", "chargebee", "recurly", "lemonsqueezy"}) {
            const auto names
                = QDir(dir.filePath(p)).entryList({"renewal*.json"}, QDir::Files, QDir::Name);
            for (const auto &name : names) {
                QString paidAt;
                if (name == "renewal_payment_succeeded_no_paid_at.json")
                    paidAt = "2026-01-01T00:00:00Z"; // the invoice's created
                if (name == "renewal_no_payments.json")
                    paidAt = "2026-01-01T00:00:02.013417Z"; // the transaction's billed_at
                QTest::newRow(qPrintable(QStringLiteral("%1/%2").arg(p, name)))
                    << p << name << paidAt;
                ++rows;
            }
        }
        if (rows < 20)
            qFatal("expected the webhook renewal fixtures, found %d", rows);
    }
    void webhookRenewalsReadAlike()
    {
        QFETCH(QString, provider);
        QFETCH(QString, file);
        QFETCH(QString, paidAt);
        const QByteArray body = readFixture(provider + "/" + file);
        const auto kind = kindOf(provider);
        rd::NormalizeResult webhook = rd::normalizePayload(kind, kKey, body.toStdString());
        QVERIFY2(webhook.outcome == rd::NormalizeOutcome::Renewal
                || webhook.outcome == rd::NormalizeOutcome::NeedsSnapshot,
            webhook.message.c_str());
        QVERIFY(webhook.event);

        const std::vector<rd::StatementFile> files {
            {"page.json", wrappedInListPage(provider, body)}};
        std::string error;
        const auto statement = tryRead(kind, files, error);
        QVERIFY2(statement, error.c_str());
        QCOMPARE(statement->entries.size(), std::size_t {1});
        const rd::NormalizeResult &listed = statement->entries[0].normalization;
        QCOMPARE(rd::toString(listed.outcome), rd::toString(webhook.outcome));
        QCOMPARE(listed.reason, webhook.reason);
        QCOMPARE(listed.providerSubscriptionId, webhook.providerSubscriptionId);
        QVERIFY(listed.event);
        QCOMPARE(statement->entries[0].objectId, webhook.event->providerRenewalKey);

        rd::SuccessfulRenewalEvent expected = *webhook.event;
        expected.providerEventId = listed.event->providerEventId;
        if (!paidAt.isEmpty()) {
            QVERIFY(formatRfc3339(expected.paidAt) != paidAt.toStdString());
            expected.paidAt = rd::parseRfc3339(paidAt.toStdString()).value();
        }
        QCOMPARE(QString::fromStdString(toJson(*listed.event).dump()),
            QString::fromStdString(toJson(expected).dump()));
    }

    // #40: each kind's money back, as its list pages hold it, gives the movements its webhook
    // gives for the same object: the same keys, kinds, amounts, currencies, dates and renewal
    // refs (Recurly's listed refund names no renewal invoice: its refs are the payment it
    // refunds and its credit invoice). An object that moves no money is no movement. Lemon
    // Squeezy's listed invoice is the renewal, with its running total refunded beside it.
    void listedMoneyBack_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("fixture"); // a webhook fixture holding the object
        QTest::addColumn<QString>("pick"); // where in it (moneyBackObject)
        QTest::addColumn<QString>("patch"); // merged into the object; "" for the object as it is
        QTest::addColumn<QString>("objectId");
        QTest::addColumn<QString>("outcome"); // outcome/reason
        QTest::addColumn<QString>("movements"); // movementsText
        // Paddle: adjustments (PaddleHQ/paddle-node-sdk's adjustment mocks' shape).
        QTest::newRow("paddle refund approved")
            << "paddle"
            << "paddle/adjustment_refund_approved.json"
            << "data"
            << ""
            << "adj_01hvaadjrefund0000000000000"
            << "money_movement/refund"
            << "adj_01hvaadjrefund0000000000000 refund 1200 USD 2026-01-06T08:30:00.981231Z "
               "txn_01hv8wptq8987qeep44cyrewp9";
        QTest::newRow("paddle chargeback")
            << "paddle"
            << "paddle/adjustment_chargeback.json"
            << "data"
            << ""
            << "adj_01hvaadjchargeback000000000"
            << "money_movement/dispute"
            << "txn_01hv8wptq8987qeep44cyrewp9 chargeback 2400 USD 2026-01-20T12:00:00.118832Z "
               "txn_01hv8wptq8987qeep44cyrewp9";
        QTest::newRow("paddle chargeback, reversed")
            << "paddle"
            << "paddle/adjustment_chargeback_reversed.json"
            << "data"
            << ""
            << "adj_01hvaadjchargeback000000000"
            << "money_movement/dispute"
            << "txn_01hv8wptq8987qeep44cyrewp9 chargeback 2400 USD 2026-01-20T12:00:00.118832Z "
               "txn_01hv8wptq8987qeep44cyrewp9; txn_01hv8wptq8987qeep44cyrewp9 "
               "chargeback_reversal 2400 USD 2026-02-15T09:00:00.901245Z "
               "txn_01hv8wptq8987qeep44cyrewp9";
        QTest::newRow("paddle chargeback_reverse")
            << "paddle"
            << "paddle/adjustment_chargeback_reverse.json"
            << "data"
            << ""
            << "adj_01hvaadjcbreverse0000000000"
            << "money_movement/dispute"
            << "txn_01hv8wptq8987qeep44cyrewp9 chargeback_reversal 2400 USD "
               "2026-02-15T09:00:00.733211Z txn_01hv8wptq8987qeep44cyrewp9";
        QTest::newRow("paddle refund pending approval moves nothing")
            << "paddle"
            << "paddle/refund_adjustment.json"
            << "data"
            << ""
            << "adj_01hv9adjust00000000000000"
            << "not_a_renewal/refund"
            << "";
        QTest::newRow("paddle refund rejected moves nothing")
            << "paddle"
            << "paddle/adjustment_refund_rejected.json"
            << "data"
            << ""
            << "adj_01hvaadjrefund0000000000000"
            << "not_a_renewal/refund"
            << "";
        QTest::newRow("paddle credit moves no cash") << "paddle"
                                                     << "paddle/adjustment_credit.json"
                                                     << "data"
                                                     << ""
                                                     << "adj_01hvaadjcredit0000000000000"
                                                     << "not_a_renewal/credit_note"
                                                     << "";
        // Chargebee: transactions (chargebee-node types/resources/Transaction.d.ts' fields).
        QTest::newRow("chargebee refund")
            << "chargebee"
            << "chargebee/refund_payment_refunded.json"
            << "content.transaction"
            << ""
            << "txn_AzZcn2RefundTx01"
            << "money_movement/refund"
            << "txn_AzZcn2RefundTx01 refund 1000 USD 2026-01-12T10:00:00Z 1044";
        QTest::newRow("chargebee refund failed")
            << "chargebee"
            << "chargebee/refund_transaction_failed.json"
            << "content.transaction"
            << ""
            << "txn_AzZcn2RefundTx02"
            << "money_movement/refund"
            << "txn_AzZcn2RefundTx02 refund 700 USD 2026-01-12T10:10:00Z 1044; "
               "txn_AzZcn2RefundTx02 refund_reversal 700 USD 2026-01-13T10:00:00Z 1044";
        QTest::newRow("chargebee payment_reversal")
            << "chargebee"
            << "chargebee/chargeback_payment_reversal.json"
            << "content.transaction"
            << ""
            << "txn_AzZcn2ReversalTx1"
            << "money_movement/dispute"
            << "txn_AzZcn2ReversalTx1 chargeback 2900 USD 2026-01-16T10:00:00Z 1044";
        QTest::newRow("chargebee payment moves nothing back")
            << "chargebee"
            << "chargebee/payment_transaction_created.json"
            << "content.transaction"
            << ""
            << "txn_AzZTZgTr8a2Lw1d98"
            << "not_a_renewal/other_event_type"
            << "";
        // Recurly: refund transactions (recurly-client-python openapi/api.yaml, Transaction).
        QTest::newRow("recurly refund")
            << "recurly"
            << "recurly/refund_credit_invoice_refunded.json"
            << "transactions[0]"
            << ""
            << "qx6ptxnref01"
            << "money_movement/refund"
            << "qx6ptxnref01 refund 500 USD 2026-01-10T09:00:00Z qx6ptxnpay01,qx6prefund02";
        QTest::newRow("recurly refund declined")
            << "recurly"
            << "recurly/refund_credit_invoice_declined.json"
            << "transactions[0]"
            << ""
            << "qx6ptxnref02"
            << "money_movement/refund"
            << "qx6ptxnref02 refund 300 USD 2026-01-11T09:00:00Z qx6ptxnpay01,qx6prefund03; "
               "qx6ptxnref02 refund_reversal 300 USD 2026-01-11T09:05:00Z "
               "qx6ptxnpay01,qx6prefund03";
        QTest::newRow("recurly purchase moves nothing back")
            << "recurly"
            << "recurly/refund_credit_invoice_refunded.json"
            << "transactions[0]"
            << R"({"id": "qx6ptxnpay01", "type": "purchase", "original_transaction_id": null,
                   "invoice": {"id": "qx6pel8cxbcm", "number": "1206", "type": "charge",
                   "state": "paid"}})"
            << "qx6ptxnpay01"
            << "not_a_renewal/other_event_type"
            << "";
        // Lemon Squeezy: subscription invoices (Pay's subscription_payment_refunded fixture).
        QTest::newRow("lemonsqueezy refunded in full")
            << "lemonsqueezy"
            << "lemonsqueezy/refund.json"
            << "data"
            << ""
            << "3051"
            << "needs_snapshot/missing_period"
            << "3051/refunded/999 refund 999 USD 2026-01-09T12:00:00Z 3051 cumulative";
        QTest::newRow("lemonsqueezy partly refunded")
            << "lemonsqueezy"
            << "lemonsqueezy/refund_partial.json"
            << "data"
            << ""
            << "3051"
            << "needs_snapshot/missing_period"
            << "3051/refunded/400 refund 400 USD 2026-01-05T08:00:00Z 3051 cumulative";
        QTest::newRow("lemonsqueezy paid, nothing refunded")
            << "lemonsqueezy"
            << "lemonsqueezy/renewal_needs_snapshot.json"
            << "data"
            << R"({"attributes": {"refunded_amount": 0, "refunded_amount_usd": 0}})"
            << "3051"
            << "needs_snapshot/missing_period"
            << "";
        QTest::newRow("lemonsqueezy first invoice refunded pays back no renewal")
            << "lemonsqueezy"
            << "lemonsqueezy/first_invoice_initial.json"
            << "data"
            << R"({"attributes": {"status": "refunded", "refunded": true,
                   "refunded_at": "2026-01-03T00:00:00.000000Z", "refunded_amount": 999}})"
            << "2990"
            << "not_a_renewal/first_invoice"
            << "";
    }
    void listedMoneyBack()
    {
        QFETCH(QString, provider);
        QFETCH(QString, fixture);
        QFETCH(QString, pick);
        QFETCH(QString, patch);
        QFETCH(QString, objectId);
        QFETCH(QString, outcome);
        QFETCH(QString, movements);
        const auto kind = kindOf(provider);
        const auto object = moneyBackObject(fixture, pick, patch);
        std::string error;
        const auto statement
            = tryRead(kind, {{"page.json", moneyBackPage(provider, object)}}, error);
        QVERIFY2(statement, error.c_str());
        QCOMPARE(statement->entries.size(), std::size_t {1});
        const rd::StatementEntry &entry = statement->entries[0];
        QVERIFY(!entry.unreadable);
        QCOMPARE(QString::fromStdString(entry.objectId), objectId);
        const rd::NormalizeResult &listed = entry.normalization;
        QCOMPARE(
            QString::fromStdString(rd::toString(listed.outcome) + "/" + listed.reason), outcome);
        QCOMPARE(movementsText(listed.movements), movements);
        QCOMPARE(listed.providerEventId, "statement:" + entry.objectSha256);
        // Lemon Squeezy's renewal keeps its event beside its money back.
        QCOMPARE(listed.event.has_value(), outcome.startsWith("needs_snapshot"));
        if (listed.event)
            QCOMPARE(QString::fromStdString(listed.event->providerRenewalKey), objectId);
        if (!patch.isEmpty())
            return;

        // The webhook that carries the same object moves the same money. Recurly's carries its
        // credit invoice, which names the renewal: the same movements but for their refs.
        const auto webhook = rd::normalizePayload(kind, kKey, readFixture(fixture).toStdString());
        QCOMPARE(webhook.movements.size(), listed.movements.size());
        for (std::size_t i = 0; i < listed.movements.size(); ++i) {
            rd::MoneyMovement expected = webhook.movements[i];
            if (provider == "recurly") {
                QCOMPARE(expected.renewalRefs, std::vector<std::string> {"qx6pel8cxbcm"});
                expected.renewalRefs = listed.movements[i].renewalRefs;
            }
            QCOMPARE(QString::fromStdString(toJson(listed.movements[i]).dump()),
                QString::fromStdString(toJson(expected).dump()));
        }
    }

    // #40: each kind asks for its money back list after its renewals' (Lemon Squeezy: its one
    // list holds both), filtered to cover the range where the API lets it.
    void moneyBackListsAreAsked_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("renewals"); // the first list's path
        QTest::addColumn<QString>("moneyBack"); // the money back list's path
        QTest::addColumn<QStringList>("query"); // name=value pairs its request holds
        // The range: January 2026, created from 35 days before.
        QTest::newRow("paddle") << "paddle"
                                << "/transactions"
                                << "/adjustments"
                                << QStringList {"action=refund,chargeback,chargeback_reverse",
                                       "per_page=30"};
        QTest::newRow("chargebee")
            << "chargebee"
            << "/api/v2/invoices"
            << "/api/v2/transactions"
            << QStringList {"limit=100", R"(type[in]=["refund","payment_reversal"])",
                   "date[between]=[1764201600,1769904000]"};
        QTest::newRow("recurly") << "recurly"
                                 << "/invoices"
                                 << "/transactions"
                                 << QStringList {"limit=200", "type=refund",
                                        "begin_time=2025-11-27T00:00:00Z",
                                        "end_time=2026-02-01T00:00:00Z"};
        QTest::newRow("lemonsqueezy")
            << "lemonsqueezy"
            << "/v1/subscription-invoices"
            << "/v1/subscription-invoices" << QStringList {"page[number]=1", "page[size]=100"};
    }
    void moneyBackListsAreAsked()
    {
        QFETCH(QString, provider);
        QFETCH(QString, renewals);
        QFETCH(QString, moneyBack);
        QFETCH(QStringList, query);
        const auto kind = kindOf(provider);
        const auto &definition = rd::providerDefinition(kind);
        const auto at = [](const char *text) { return rd::parseRfc3339(text).value(); };
        const rd::ListRange range {
            at("2026-01-01T00:00:00Z"), at("2026-02-01T00:00:00Z"), at("2025-11-27T00:00:00Z")};
        const auto lists = definition.listRequests(range, definition.listApi().maxPageSize);
        QVERIFY(!lists.empty());
        QCOMPARE(QString::fromStdString(lists.front().path), renewals);
        const rd::ListRequest *found = nullptr;
        for (const auto &list : lists) {
            if (!list.moneyBack)
                continue;
            QVERIFY2(!found, "one money back list");
            found = &list;
        }
        QVERIFY(found);
        QCOMPARE(QString::fromStdString(found->path), moneyBack);
        QCOMPARE(found == &lists.front(), renewals == moneyBack);
        QStringList asked;
        for (const auto &[name, value] : found->query)
            asked << QString::fromStdString(name + "=" + value);
        for (const auto &pair : query)
            QVERIFY2(asked.contains(pair), qPrintable(pair + " not in " + asked.join('&')));
        // A statement holding that list may say a movement it lacks is not in it.
        QVERIFY(
            rd::listsEveryMoneyBackList(kind, {renewals.toStdString(), moneyBack.toStdString()}));
        if (renewals != moneyBack)
            QVERIFY(!rd::listsEveryMoneyBackList(kind, {renewals.toStdString()}));
    }

    // #39, 15: a listed invoice carrying both parent and subscription is read when the two
    // agree (both null, or the same subscription; renewal_parent_and_subscription.json in
    // webhookRenewalsReadAlike), and refused naming both when they do not.
    void invoicesWithBothShapesKeys()
    {
        std::string error;
        const auto bothNull = tryRead(rd::ProviderKind::Stripe,
            {{"page.json",
                wrappedInListPage("stripe",
                    readFixture("stripe/manual_invoice_parent_and_subscription_null.json"))}},
            error);
        QVERIFY2(bothNull, error.c_str());
        QCOMPARE(bothNull->entries.size(), std::size_t {1});
        QCOMPARE(bothNull->entries[0].normalization.reason, std::string("manual_invoice"));
        const auto disagree = tryRead(rd::ProviderKind::Stripe,
            {{"page.json",
                wrappedInListPage("stripe",
                    readFixture("stripe/malformed_parent_and_subscription_disagree.json"))}},
            error);
        QVERIFY(!disagree);
        QVERIFY2(error.find("names subscription sub_1QxOther0001 in subscription and "
                            "sub_1QxSub0001 in parent.subscription_details: the invoice "
                            "contradicts itself")
                != std::string::npos,
            error.c_str());
    }

    // Unreadable input of every kind is an InputError naming the file; nothing else escapes.
    void badFilesAreInputErrors_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("field");
        const QByteArray deep = QByteArray(100, '[') + QByteArray(100, ']');
        QTest::newRow("empty") << "stripe" << QByteArray("  \n") << "f.json";
        QTest::newRow("not json") << "stripe" << QByteArray("{\"object\": ") << "f.json: body";
        QTest::newRow("too deep") << "stripe" << deep << "f.json: body";
        QTest::newRow("array") << "stripe" << QByteArray("[1,2]") << "f.json object 0: $";
        QTest::newRow("number overflow")
            << "paddle" << QByteArray("{\"data\": [1e999]}") << "f.json: body";
        QTest::newRow("recurly number overflow")
            << "recurly" << QByteArray("{\"data\": [1e999]}") << "f.json: body";
        QTest::newRow("data not an array")
            << "stripe" << QByteArray(R"({"object":"list","has_more":false,"data":{}})")
            << "f.json: data";
        QTest::newRow("has_more missing")
            << "stripe" << QByteArray(R"({"object":"list","data":[]})") << "f.json: has_more";
        QTest::newRow("not a list object")
            << "recurly" << QByteArray(R"({"object":"invoices","has_more":false,"data":[]})")
            << "f.json: object";
        QTest::newRow("paddle pagination missing")
            << "paddle" << QByteArray(R"({"data":[],"meta":{}})") << "f.json: meta.pagination";
        QTest::newRow("listed object not an object")
            << "stripe" << QByteArray(R"({"object":"list","has_more":false,"data":[7]})")
            << "f.json object 0: data[0]";
        QTest::newRow("stripe shape unknown")
            << "stripe"
            << QByteArray(R"({"object":"list","has_more":false,"data":[{"object":"invoice"}]})")
            << "f.json object 0: data[0]";
        QTest::newRow("json line broken, the only object")
            << "chargebee" << QByteArray("\n{broken\n") << "f.json: body";
        QTest::newRow("page among json lines")
            << "chargebee" << QByteArray("{\"list\": []}\n{\"list\": []}\n")
            << "f.json object 0 (line 1)";
        QTest::newRow("invalid utf-8")
            << "lemonsqueezy" << QByteArray("{\"data\": [\"\xff\"]}") << "f.json: body";
    }
    void badFilesAreInputErrors()
    {
        QFETCH(QString, provider);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, field);
        bool threw = false;
        const auto e = readError(provider, {{"f.json", bytes.toStdString()}}, threw);
        QVERIFY(threw);
        QCOMPARE(QString::fromStdString(e.field()), field);
    }

    // Mutated statements (cut short, bytes changed, brackets and quotes inserted) read or are
    // refused with an InputError: no other exception, no crash.
    void mutatedFilesNeverEscape_data() { partialIsRefused_data(); }
    void mutatedFilesNeverEscape()
    {
        QFETCH(QString, provider);
        const auto originals
            = statementFiles(provider, {"page1.json", "page2.json", "lines.jsonl"});
        std::uint32_t seed = 2027;
        const auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
        int read = 0;
        int refused = 0;
        for (int round = 0; round < 400; ++round) {
            auto files = originals;
            auto &bytes = files[next() % files.size()].bytes;
            const std::size_t at = next() % bytes.size();
            switch (next() % 4) {
            case 0:
                bytes.resize(at);
                break;
            case 1:
                bytes[at] = static_cast<char>(next() & 0xff);
                break;
            case 2:
                bytes.insert(at, 1, "[{\"\n:,"[next() % 7]);
                break;
            default:
                bytes.erase(at, 1 + next() % 16);
                break;
            }
            try {
                (void)rd::readStatement(kindOf(provider), kKey, files);
                ++read;
            } catch (const rd::InputError &) {
                ++refused;
            } catch (const std::exception &e) {
                QFAIL(qPrintable(QStringLiteral("round %1: %2").arg(round).arg(e.what())));
            }
        }
        QVERIFY(refused > 0 && read > 0);
        qInfo("%d mutated statements read, %d refused", read, refused);
    }

    void argumentsAreChecked()
    {
        const std::vector<rd::StatementFile> none;
        QVERIFY_THROWS_EXCEPTION(
            rd::InputError, rd::readStatement(rd::ProviderKind::Stripe, kKey, none));
        const std::vector<rd::StatementFile> one {{"f.json", "{}"}};
        QVERIFY_THROWS_EXCEPTION(
            rd::InputError, rd::readStatement(rd::ProviderKind::Stripe, "", one));
        QVERIFY_THROWS_EXCEPTION(
            rd::InputError, rd::readStatement(static_cast<rd::ProviderKind>(99), kKey, one));
    }

    // 100,000 invoices in 1,000 pages of 100 (Stripe's largest page): read in linear time. The
    // bound is loose (a shared machine); quadratic work would miss it by far.
    // Many pages and objects read whole and in order (speed is measured by
    // bench/statement-bench.sh, not here).
    void largeStatement()
    {
        auto invoice = nlohmann::json::parse(
            readFixture("stripe/renewal_pre_basil.json").toStdString())["data"]["object"];
        std::vector<rd::StatementFile> files;
        for (int page = 0; page < 100; ++page) {
            nlohmann::json data = nlohmann::json::array();
            for (int i = 0; i < 100; ++i) {
                const std::string n = std::to_string(page * 100 + i);
                invoice["id"] = "in_large" + n;
                invoice["subscription"] = "sub_large" + n;
                data.push_back(invoice);
            }
            const nlohmann::json doc {
                {"object", "list"}, {"has_more", page < 99}, {"data", std::move(data)}};
            files.push_back({"page" + std::to_string(page) + ".json", doc.dump()});
        }
        std::string error;
        const auto statement = tryRead(rd::ProviderKind::Stripe, files, error);
        QVERIFY2(statement, error.c_str());
        QCOMPARE(statement->entries.size(), std::size_t {10000});
        QCOMPARE(statement->entries.back().objectId, std::string("in_large9999"));
        QCOMPARE(
            rd::toString(statement->entries.back().normalization.outcome), std::string("renewal"));
    }
};

QTEST_GUILESS_MAIN(TestStatement)
#include "tst_statement.moc"
