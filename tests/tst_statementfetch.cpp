// Statement fetch against a local HTTP server that answers as each provider's list API does:
// its own pagination, its own auth, its own parameters, checked on every request (a wrong key
// is answered 401, a wrong cursor 400). Waits are counted through the injected sleep, never
// measured on the wall clock.

#include "domain/core/timestamp.h"
#include "domain/fetch/statement_fetch.h"
#include "support/statement_api_server.h"

#include <QByteArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <QElapsedTimer>

#include <algorithm>
#include <array>
#include <chrono>
#include <mutex>
#include <thread>

using namespace std::chrono_literals;

namespace {

const std::string kKey = "sk_test_K3y_do_not_print_4242";
const rd::Timestamp kFrom = rd::makeUtc(2026, 11, 1);
const rd::Timestamp kTo = rd::makeUtc(2026, 11, 30);
const rd::Timestamp kEnd = rd::makeUtc(2026, 12, 1); // the day after `to`
const rd::Timestamp kCreatedFrom = rd::makeUtc(2026, 9, 27); // kFrom - 35 days
constexpr int kPages = 3;

std::string secondsOf(rd::Timestamp t)
{
    return std::to_string(t.micros / 1000000);
}

/// What one provider's API serves, and how it checks what it is asked. Tests switch on the
/// faults (a 429 or a 503 once before a page, a foreign next link) before fetching.
class FakeProvider
{
public:
    explicit FakeProvider(rd::ProviderKind kind) : m_kind(kind) { }

    int rateLimitBeforePage = 0; ///< answer 429 with Retry-After: 1 once before this page
    std::string retryAfter = "1";
    int failBeforePage = 0; ///< answer 503 once before this page
    std::string foreignNext; ///< page 1's next link goes to this base instead
    bool alwaysRateLimited = false;
    std::string notJsonPage; ///< served instead of page 1

    /// Every body served with status 200, in order.
    std::vector<std::string> served;
    /// What was wrong in the requests (beyond a wrong key, which is answered 401).
    QStringList problems;
    /// The money back lists asked for (#40), in order: each answered with one empty last page.
    std::vector<std::string> moneyBackAsked;

    /// The lists of refunds, disputes or adjustments each provider's reference names, read
    /// after the renewals' (Lemon Squeezy's invoices carry their refunds: none).
    static std::vector<std::string> moneyBackPaths(rd::ProviderKind kind)
    {
        std::vector<std::string> paths;
        for (const char *path : apiOf(kind).moneyBack)
            if (path)
                paths.emplace_back(path);
        return paths;
    }

    rdtest::ApiResponse answer(const rdtest::ApiRequest &r)
    {
        std::lock_guard lock(m_mutex);
        if (!authorized(r))
            return {401,
                R"({"error":{"type":"invalid_request_error","message":"Invalid API Key"}})", {}};
        if (alwaysRateLimited)
            return {429, R"({"error":"rate limited"})", {}};
        const std::string base = "http://" + r.header("host");
        const auto moneyBack = moneyBackPaths(m_kind);
        if (std::find(moneyBack.begin(), moneyBack.end(), r.path) != moneyBack.end()) {
            moneyBackAsked.push_back(r.path);
            return {200, emptyPage(r.path), {}, api().contentType};
        }
        const int page = pageAsked(r);
        if (page == 0)
            return {400, R"({"error":"bad cursor"})", {}};
        if (page == rateLimitBeforePage) {
            rateLimitBeforePage = 0;
            return {429, R"({"error":"too many requests"})", {{"Retry-After", retryAfter}}};
        }
        if (page == failBeforePage) {
            failBeforePage = 0;
            return {503, "<html>unavailable</html>", {}, "text/html"};
        }
        std::string body = page == 1 && !notJsonPage.empty() ? notJsonPage : pageBody(page, base);
        served.push_back(body);
        return {200, body, {}, api().contentType};
    }

private:
    void expect(const rdtest::ApiRequest &r, const std::string &name, const std::string &value)
    {
        if (r.param(name) != value)
            problems << QString::fromStdString(
                r.target + ": " + name + " is '" + r.param(name) + "', expected '" + value + "'");
    }

    bool authorized(const rdtest::ApiRequest &r)
    {
        if (api().basicAuth)
            return r.header("authorization")
                == "Basic " + QByteArray::fromStdString(kKey + ":").toBase64().toStdString();
        return r.header("authorization") == "Bearer " + kKey;
    }

    /// Which page the request asks for (checking its parameters on the way); 0: none.
    int pageAsked(const rdtest::ApiRequest &r)
    {
        if (r.method != "GET")
            problems << QString::fromStdString("method " + r.method);
        return (this->*api().pageAsked)(r);
    }

    int askedStripe(const rdtest::ApiRequest &r)
    {
        if (r.path != "/v1/invoices")
            problems << QString::fromStdString("path " + r.path);
        expect(r, "limit", "100");
        expect(r, "status", "paid");
        expect(r, "created[gte]", secondsOf(kCreatedFrom));
        expect(r, "created[lte]", std::to_string(kEnd.micros / 1000000 - 1));
        return cursorPage(r.param("starting_after"), {"", "in_1b", "in_2b"});
    }

    int askedPaddle(const rdtest::ApiRequest &r)
    {
        if (r.path != "/transactions")
            problems << QString::fromStdString("path " + r.path);
        expect(r, "origin", "subscription_recurring");
        expect(r, "status", "completed");
        expect(r, "billed_at[GTE]", rd::formatRfc3339(kFrom));
        expect(r, "billed_at[LT]", rd::formatRfc3339(kEnd));
        expect(r, "per_page", "30");
        return cursorPage(r.param("after"), {"", "txn_1b", "txn_2b"});
    }

    int askedChargebee(const rdtest::ApiRequest &r)
    {
        if (r.path != "/api/v2/invoices")
            problems << QString::fromStdString("path " + r.path);
        expect(r, "limit", "100");
        expect(r, "status[is]", "paid");
        expect(r, "paid_at[between]", "[" + secondsOf(kFrom) + "," + secondsOf(kEnd) + "]");
        return cursorPage(r.param("offset"), {"", offset(1), offset(2)});
    }

    int askedRecurly(const rdtest::ApiRequest &r)
    {
        if (r.path != "/invoices")
            problems << QString::fromStdString("path " + r.path);
        if (r.header("accept") != "application/vnd.recurly.v2021-02-25+json")
            problems << QString::fromStdString("Accept " + r.header("accept"));
        expect(r, "limit", "200");
        expect(r, "begin_time", rd::formatRfc3339(kCreatedFrom));
        expect(r, "end_time", rd::formatRfc3339(kEnd));
        return cursorPage(r.param("cursor"), {"", "c1+x/=", "c2"});
    }

    int askedLemonSqueezy(const rdtest::ApiRequest &r)
    {
        if (r.path != "/v1/subscription-invoices")
            problems << QString::fromStdString("path " + r.path);
        if (r.header("accept") != "application/vnd.api+json")
            problems << QString::fromStdString("Accept " + r.header("accept"));
        expect(r, "page[size]", "100");
        return cursorPage(r.param("page[number]"), {"1", "2", "3"});
    }

    // A list's only page, empty, in the kind's shape.
    std::string emptyPage(const std::string &path) const
    {
        std::string page = api().emptyPage;
        const auto at = page.find("PATH");
        return at == std::string::npos ? page : page.replace(at, 4, path);
    }

    static std::string offset(int page)
    {
        return "[\"1764547200000\",\"" + std::to_string(page) + "\"]";
    }

    static int cursorPage(const std::string &cursor, const std::vector<std::string> &cursors)
    {
        for (std::size_t i = 0; i < cursors.size(); ++i) {
            if (cursor == cursors[i])
                return static_cast<int>(i) + 1;
        }
        return 0;
    }

    std::string nextLink(const std::string &base, const std::string &pathAndQuery, int page) const
    {
        return page == 1 && !foreignNext.empty() ? foreignNext + pathAndQuery : base + pathAndQuery;
    }

    std::string pageBody(int page, const std::string &base) const
    {
        return (this->*api().pageBody)(page, base);
    }

    std::string bodyStripe(int page, const std::string &) const
    {
        const std::string p = std::to_string(page);
        const bool more = page < kPages;
        return R"({"object":"list","url":"/v1/invoices","has_more":)"
            + std::string(more ? "true" : "false") + R"(,"data":[{"id":"in_)" + p
            + R"(a","object":"invoice","status":"paid"},{"id":"in_)" + p
            + R"(b","object":"invoice","status":"paid"}]})";
    }

    std::string bodyPaddle(int page, const std::string &base) const
    {
        const std::string p = std::to_string(page);
        const bool more = page < kPages;
        const std::string next = nextLink(base,
            "/transactions?origin=subscription_recurring&status=completed"
            "&billed_at%5BGTE%5D="
                + rd::formatRfc3339(kFrom) + "&billed_at%5BLT%5D=" + rd::formatRfc3339(kEnd)
                + "&per_page=30&after=txn_" + p + "b",
            page);
        return R"({"data":[{"id":"txn_)" + p + R"(a","status":"completed"},{"id":"txn_)" + p
            + R"(b","status":"completed"}],"meta":{"request_id":"r)" + p
            + R"(","pagination":{"per_page":30,"next":")" + next + R"(","has_more":)"
            + (more ? "true" : "false") + R"(,"estimated_total":6}}})";
    }

    std::string bodyChargebee(int page, const std::string &) const
    {
        const std::string p = std::to_string(page);
        const bool more = page < kPages;
        return R"({"list":[{"invoice":{"id":"cb_)" + p
            + R"(a","status":"paid"}},{"invoice":{"id":"cb_)" + p + R"(b","status":"paid"}}])"
            + (more ? R"(,"next_offset":"[\"1764547200000\",\")" + p + R"(\"]")" : "") + "}";
    }

    std::string bodyRecurly(int page, const std::string &) const
    {
        const std::string p = std::to_string(page);
        const bool more = page < kPages;
        const std::string cursor = page == 1 ? "c1%2Bx%2F%3D" : "c2";
        const std::string next = page == 1 && !foreignNext.empty()
            ? foreignNext + "/invoices?cursor=" + cursor
            : "/invoices?cursor=" + cursor + "&limit=200&begin_time="
                + rd::formatRfc3339(kCreatedFrom) + "&end_time=" + rd::formatRfc3339(kEnd);
        return R"({"object":"list","has_more":)" + std::string(more ? "true" : "false")
            + (more ? R"(,"next":")" + next + "\"" : std::string()) + R"(,"data":[{"id":"r)" + p
            + R"(a","object":"invoice","state":"paid"}]})";
    }

    std::string bodyLemonSqueezy(int page, const std::string &base) const
    {
        const std::string p = std::to_string(page);
        const bool more = page < kPages;
        const std::string query = "/v1/subscription-invoices?page%5Bnumber%5D=";
        std::string links = R"("first":")" + base + query + "1&page%5Bsize%5D=100\"";
        if (more)
            links += R"(,"next":")"
                + nextLink(base, query + std::to_string(page + 1) + "&page%5Bsize%5D=100", page)
                + "\"";
        return R"({"meta":{"page":{"currentPage":)" + p
            + R"(,"lastPage":3,"perPage":100}},"jsonapi":{"version":"1.0"},"links":{)" + links
            + R"(},"data":[{"type":"subscription-invoices","id":")" + p
            + R"(","attributes":{"status":"paid"}}]})";
    }

    /// Each provider's API as its reference describes it, written out here rather than asked
    /// of the code under test.
    struct ProviderApi
    {
        rd::ProviderKind kind;
        bool basicAuth; ///< the key as basic auth's user (else a bearer token)
        const char *contentType;
        int (FakeProvider::*pageAsked)(const rdtest::ApiRequest &);
        std::string (FakeProvider::*pageBody)(int page, const std::string &base) const;
        /// The money back lists (#40), each answered with one empty page (PATH: its path).
        std::array<const char *, 2> moneyBack;
        const char *emptyPage;
    };

    static const ProviderApi &apiOf(rd::ProviderKind kind)
    {
        static const char *const kListPage
            = R"({"object":"list","url":"PATH","has_more":false,"data":[]})";
        static const ProviderApi apis[] = {
            {rd::ProviderKind::Stripe, false, "application/json", &FakeProvider::askedStripe,
                &FakeProvider::bodyStripe, {"/v1/refunds", "/v1/disputes"}, kListPage},
            {rd::ProviderKind::Paddle, false, "application/json", &FakeProvider::askedPaddle,
                &FakeProvider::bodyPaddle, {"/adjustments", nullptr},
                R"({"data":[],"meta":{"request_id":"m","pagination":{"per_page":30,)"
                R"("next":"PATH?after=x","has_more":false,"estimated_total":0}}})"},
            {rd::ProviderKind::Chargebee, true, "application/json", &FakeProvider::askedChargebee,
                &FakeProvider::bodyChargebee, {"/api/v2/transactions", nullptr}, R"({"list":[]})"},
            {rd::ProviderKind::Recurly, true, "application/json", &FakeProvider::askedRecurly,
                &FakeProvider::bodyRecurly, {"/transactions", nullptr}, kListPage},
            {rd::ProviderKind::LemonSqueezy, false, "application/vnd.api+json",
                &FakeProvider::askedLemonSqueezy, &FakeProvider::bodyLemonSqueezy,
                {nullptr, nullptr}, kListPage},
        };
        for (const auto &a : apis) {
            if (a.kind == kind)
                return a;
        }
        qFatal("no fake API for provider kind %d", int(kind));
    }

    const ProviderApi &api() const { return apiOf(m_kind); }

    rd::ProviderKind m_kind;
    std::mutex m_mutex;
};

/// A provider's API on 127.0.0.1: the fake and the server answering with it.
struct Api
{
    explicit Api(rd::ProviderKind kind)
        : provider(kind), server([this](const rdtest::ApiRequest &r) { return provider.answer(r); })
    { }
    FakeProvider provider;
    rdtest::ApiServer server;
};

/// What a fetch did: the waits it asked for and the lines it logged.
struct Observed
{
    std::vector<std::chrono::milliseconds> sleeps;
    std::vector<std::string> log;

    rd::FetchOptions options()
    {
        rd::FetchOptions o;
        o.sleep = [this](std::chrono::milliseconds d) { sleeps.push_back(d); };
        o.log = [this](const std::string &line) { log.push_back(line); };
        // Distinct from every Retry-After used here, so that the source of a wait shows.
        o.backoffBase = 250ms;
        return o;
    }

    bool logMentions(const std::string &text) const
    {
        for (const auto &line : log) {
            if (line.find(text) != std::string::npos)
                return true;
        }
        return false;
    }
};

rd::FetchRequest requestFor(rd::ProviderKind kind, const std::string &base)
{
    rd::FetchRequest r;
    r.kind = kind;
    r.apiBase = base;
    r.apiKey = kKey;
    r.from = kFrom;
    r.to = kTo;
    return r;
}

/// The pages of a whole fetch: the renewals' kPages, then one a money back list.
std::size_t pagesOf(rd::ProviderKind kind)
{
    return kPages + FakeProvider::moneyBackPaths(kind).size();
}

void addProviderRows()
{
    QTest::addColumn<int>("kind");
    for (const auto &info : rd::providerKinds())
        QTest::newRow(std::string(info.name).c_str()) << static_cast<int>(info.kind);
}

/// A fetch's pages, or the FetchError it ended with.
struct Outcome
{
    std::vector<rd::FetchedPage> pages;
    std::optional<rd::FetchError> error;
};

Outcome fetch(const rd::FetchRequest &request, const rd::FetchOptions &options)
{
    try {
        return {rd::fetchStatementPages(request, options), std::nullopt};
    } catch (const rd::FetchError &e) {
        return {{}, e};
    }
}

QString describe(const Outcome &out)
{
    if (!out.error)
        return QString("%1 pages").arg(out.pages.size());
    const auto &e = *out.error;
    return QString::fromStdString(e.code() + ": " + e.what() + " [" + e.details() + "]");
}

} // namespace

class TestStatementFetch : public QObject
{
    Q_OBJECT

private slots:
    void fetchesEveryPageInOrder_data() { addProviderRows(); }
    void fetchesEveryPageInOrder()
    {
        QFETCH(int, kind);
        const auto k = static_cast<rd::ProviderKind>(kind);
        Api api(k);
        Observed seen;
        const auto out = fetch(requestFor(k, api.server.base()), seen.options());
        QVERIFY2(!out.error, qPrintable(describe(out)));
        const auto &pages = out.pages;
        QVERIFY2(api.provider.problems.isEmpty(), qPrintable(api.provider.problems.join("\n")));
        QCOMPARE(pages.size(), pagesOf(k));
        QCOMPARE(api.provider.served.size(), std::size_t(kPages));
        for (std::size_t i = 0; i < pages.size(); ++i)
            QCOMPARE(QString::fromStdString(pages[i].name),
                QString("%1-%2.json")
                    .arg(QString::fromStdString(rd::toString(k)))
                    .arg(i + 1, 4, 10, QChar('0')));
        // The renewals' pages first, each naming its list; then each money back list, whole.
        const std::string renewals = api.server.requests()[0].path;
        for (int i = 0; i < kPages; ++i) {
            QCOMPARE(pages[i].bytes, api.provider.served[i]);
            QCOMPARE(pages[i].list, renewals);
        }
        const auto moneyBack = FakeProvider::moneyBackPaths(k);
        QCOMPARE(api.provider.moneyBackAsked, moneyBack);
        for (std::size_t i = 0; i < moneyBack.size(); ++i)
            QCOMPARE(pages[kPages + i].list, moneyBack[i]);
        QCOMPARE(api.server.requests().size(), pagesOf(k));
        QVERIFY(seen.sleeps.empty());
        QVERIFY(seen.logMentions("GET " + api.server.base()));
        QVERIFY(!seen.logMentions(kKey));
    }

    void honoursRetryAfter_data() { addProviderRows(); }
    void honoursRetryAfter()
    {
        QFETCH(int, kind);
        const auto k = static_cast<rd::ProviderKind>(kind);
        Api api(k);
        api.provider.rateLimitBeforePage = 2;
        Observed seen;
        const auto out = fetch(requestFor(k, api.server.base()), seen.options());
        QVERIFY2(!out.error, qPrintable(describe(out)));
        const auto &pages = out.pages;
        QCOMPARE(pages.size(), pagesOf(k));
        QCOMPARE(api.server.requests().size(), pagesOf(k) + 1);
        // The 429's second request is the same request again.
        QCOMPARE(api.server.requests()[1].target, api.server.requests()[2].target);
        QCOMPARE(seen.sleeps, std::vector<std::chrono::milliseconds> {1000ms});
        QVERIFY2(api.provider.problems.isEmpty(), qPrintable(api.provider.problems.join("\n")));
    }

    void retryAfterIsCappedAndReadAsADate()
    {
        Api api(rd::ProviderKind::Stripe);
        api.provider.rateLimitBeforePage = 1;
        api.provider.retryAfter = "Wed, 02 Dec 2026 10:00:30 GMT";
        Observed seen;
        auto options = seen.options();
        options.now = [] { return rd::makeUtc(2026, 12, 2, 10, 0, 0); };
        QVERIFY(!fetch(requestFor(rd::ProviderKind::Stripe, api.server.base()), options).error);
        QCOMPARE(seen.sleeps, std::vector<std::chrono::milliseconds> {30000ms});

        // A Retry-After beyond the cap waits the cap.
        api.provider.rateLimitBeforePage = 1;
        api.provider.retryAfter = "3600";
        seen.sleeps.clear();
        options.maxRetryWait = 5s;
        QVERIFY(!fetch(requestFor(rd::ProviderKind::Stripe, api.server.base()), options).error);
        QCOMPARE(seen.sleeps, std::vector<std::chrono::milliseconds> {5000ms});
    }

    void parseRetryAfter()
    {
        const auto now = rd::makeUtc(2026, 12, 2, 10, 0, 0);
        QCOMPARE(rd::parseRetryAfter("1", now), std::optional(1000ms));
        QCOMPARE(rd::parseRetryAfter("0", now), std::optional(0ms));
        QCOMPARE(rd::parseRetryAfter("120", now), std::optional(120000ms));
        QCOMPARE(rd::parseRetryAfter("99999999999999999999", now), std::optional(86400000ms));
        QCOMPARE(rd::parseRetryAfter("Wed, 02 Dec 2026 10:01:00 GMT", now), std::optional(60000ms));
        QCOMPARE(rd::parseRetryAfter("Wed, 02 Dec 2026 09:00:00 GMT", now), std::optional(0ms));
        QCOMPARE(rd::parseRetryAfter("", now), std::nullopt);
        QCOMPARE(rd::parseRetryAfter("-1", now), std::nullopt);
        QCOMPARE(rd::parseRetryAfter("1.5", now), std::nullopt);
        QCOMPARE(rd::parseRetryAfter("soon", now), std::nullopt);
    }

    void rateLimitedToTheEnd()
    {
        Api api(rd::ProviderKind::Paddle);
        api.provider.alwaysRateLimited = true;
        Observed seen;
        auto options = seen.options();
        options.maxRateLimitRetries = 4;
        options.maxRetryWait = 1s;
        const auto out = fetch(requestFor(rd::ProviderKind::Paddle, api.server.base()), options);
        QVERIFY2(out.error, "a provider answering only 429 gave pages");
        const rd::FetchError &e = *out.error;
        QCOMPARE(QString::fromStdString(e.code()), QString("rate_limited"));
        QCOMPARE(e.httpStatus(), 429);
        // No Retry-After: exponential backoff from 250 ms, capped at 1 s.
        QCOMPARE(
            seen.sleeps, (std::vector<std::chrono::milliseconds> {250ms, 500ms, 1000ms, 1000ms}));
        QCOMPARE(api.server.requests().size(), std::size_t(5));
    }

    void serverErrorThenSuccess_data() { addProviderRows(); }
    void serverErrorThenSuccess()
    {
        QFETCH(int, kind);
        const auto k = static_cast<rd::ProviderKind>(kind);
        Api api(k);
        api.provider.failBeforePage = 2;
        Observed seen;
        const auto out = fetch(requestFor(k, api.server.base()), seen.options());
        QVERIFY2(!out.error, qPrintable(describe(out)));
        const auto &pages = out.pages;
        QCOMPARE(pages.size(), pagesOf(k));
        QCOMPARE(pages[1].bytes, api.provider.served[1]);
        QCOMPARE(seen.sleeps, std::vector<std::chrono::milliseconds> {250ms});
        QCOMPARE(api.server.requests().size(), pagesOf(k) + 1);
    }

    void refusedKey_data() { addProviderRows(); }
    void refusedKey()
    {
        QFETCH(int, kind);
        const auto k = static_cast<rd::ProviderKind>(kind);
        Api api(k);
        Observed seen;
        auto request = requestFor(k, api.server.base());
        request.apiKey = "sk_live_the_wrong_one_77";
        const auto out = fetch(request, seen.options());
        QVERIFY2(out.error, "a refused key gave pages");
        const rd::FetchError &e = *out.error;
        QCOMPARE(QString::fromStdString(e.code()), QString("http_401"));
        QCOMPARE(QString::fromUtf8(e.what()), QString("the API key was refused"));
        QCOMPARE(e.httpStatus(), 401);
        QVERIFY2(e.details().find(api.server.base()) != std::string::npos, e.details().c_str());
        for (const std::string &text : {std::string(e.what()), e.details()})
            QVERIFY2(text.find(request.apiKey) == std::string::npos, text.c_str());
        QVERIFY(!seen.logMentions(request.apiKey));
        QVERIFY(seen.sleeps.empty());
        QCOMPARE(api.server.requests().size(), std::size_t(1));
    }

    void nextLinkToAnotherOriginIsRefused_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("paddle") << static_cast<int>(rd::ProviderKind::Paddle);
        QTest::newRow("recurly") << static_cast<int>(rd::ProviderKind::Recurly);
        QTest::newRow("lemonsqueezy") << static_cast<int>(rd::ProviderKind::LemonSqueezy);
    }
    void nextLinkToAnotherOriginIsRefused()
    {
        QFETCH(int, kind);
        const auto k = static_cast<rd::ProviderKind>(kind);
        Api elsewhere(k);
        const rdtest::ApiServer &other = elsewhere.server;
        Api api(k);
        api.provider.foreignNext = other.base(); // same host, another port: another origin
        Observed seen;
        const auto out = fetch(requestFor(k, api.server.base()), seen.options());
        QVERIFY2(out.error, "a next link to another origin was followed");
        const rd::FetchError &e = *out.error;
        QCOMPARE(QString::fromStdString(e.code()), QString("foreign_next"));
        QVERIFY2(e.details().find(other.base()) != std::string::npos, e.details().c_str());
        QCOMPARE(api.server.requests().size(), std::size_t(1));
        QCOMPARE(other.requests().size(), std::size_t(0));
    }

    void pagesThatAreNotTheList_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("code");
        const auto stripe = static_cast<int>(rd::ProviderKind::Stripe);
        const auto paddle = static_cast<int>(rd::ProviderKind::Paddle);
        const auto chargebee = static_cast<int>(rd::ProviderKind::Chargebee);
        const auto lemon = static_cast<int>(rd::ProviderKind::LemonSqueezy);
        QTest::newRow("not JSON") << stripe << "<html>login</html>"
                                  << "bad_page";
        QTest::newRow("no data") << stripe << R"({"object":"list","has_more":false})"
                                 << "bad_page";
        QTest::newRow("has_more not a boolean")
            << stripe << R"({"object":"list","has_more":"yes","data":[]})"
            << "bad_page";
        QTest::newRow("has_more, no objects")
            << stripe << R"({"object":"list","has_more":true,"data":[]})"
            << "bad_page";
        QTest::newRow("paddle without pagination") << paddle << R"({"data":[]})"
                                                   << "bad_page";
        QTest::newRow("paddle has_more without next")
            << paddle << R"({"data":[],"meta":{"pagination":{"has_more":true}}})"
            << "bad_page";
        QTest::newRow("chargebee numeric offset") << chargebee << R"({"list":[],"next_offset":12})"
                                                  << "bad_page";
        QTest::newRow("lemon next not a string") << lemon << R"({"data":[],"links":{"next":7}})"
                                                 << "bad_page";
        QTest::newRow("lemon next repeats the page")
            << lemon
            << R"({"data":[],"links":{"next":"/v1/subscription-invoices?page%5Bnumber%5D=1&page%5Bsize%5D=100"}})"
            << "bad_page";
        QTest::newRow("lemon next to another scheme")
            << lemon << R"({"data":[],"links":{"next":"ftp://127.0.0.1/x"}})"
            << "foreign_next";
    }
    void pagesThatAreNotTheList()
    {
        QFETCH(int, kind);
        QFETCH(QString, body);
        QFETCH(QString, code);
        const auto k = static_cast<rd::ProviderKind>(kind);
        Api api(k);
        api.provider.notJsonPage = body.toStdString();
        Observed seen;
        const auto out = fetch(requestFor(k, api.server.base()), seen.options());
        QVERIFY2(out.error, "a page that is not the list was accepted");
        const rd::FetchError &e = *out.error;
        QCOMPARE(QString::fromStdString(e.code()), code);
        QCOMPARE(api.server.requests().size(), std::size_t(1));
    }

    void aPageTooLargeIsRefused()
    {
        Api api(rd::ProviderKind::Stripe);
        Observed seen;
        auto options = seen.options();
        options.maxPageBytes = 64;
        const auto out = fetch(requestFor(rd::ProviderKind::Stripe, api.server.base()), options);
        QVERIFY2(out.error, "a page over the limit was accepted");
        const rd::FetchError &e = *out.error;
        QCOMPARE(QString::fromStdString(e.code()), QString("too_large"));
        QVERIFY(seen.sleeps.empty());
    }

    void unreachable()
    {
        std::string base;
        {
            rdtest::ApiServer gone(
                [](const rdtest::ApiRequest &) { return rdtest::ApiResponse {}; });
            base = gone.base();
        }
        Observed seen;
        auto options = seen.options();
        options.maxServerErrorRetries = 2;
        const auto out = fetch(requestFor(rd::ProviderKind::Recurly, base), options);
        QVERIFY2(out.error, "pages from a closed port");
        const rd::FetchError &e = *out.error;
        QCOMPARE(QString::fromStdString(e.code()), QString("unreachable"));
        QCOMPARE(e.httpStatus(), 0);
        QCOMPARE(seen.sleeps, (std::vector<std::chrono::milliseconds> {250ms, 500ms}));
    }

    void anUntrustedCertificateIsRefused()
    {
        // curl's defaults verify the peer: a self-signed certificate on the api base's host is
        // refused before any request, and not retried.
        QTemporaryDir dir;
        const QString cert = dir.filePath("cert.pem"), key = dir.filePath("key.pem");
        QProcess make;
        make.setProcessChannelMode(QProcess::MergedChannels);
        make.start("openssl",
            {"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out",
                cert});
        QVERIFY(make.waitForFinished(60000));
        QVERIFY2(make.exitCode() == 0, make.readAll().constData());
        std::uint16_t port = 0;
        {
            Api gone(rd::ProviderKind::Stripe);
            port = gone.server.port();
        }
        QProcess tls;
        tls.setProcessChannelMode(QProcess::MergedChannels);
        tls.start("openssl",
            {"s_server", "-accept", QString("127.0.0.1:%1").arg(port), "-cert", cert, "-key", key,
                "-www"});
        QByteArray said;
        for (int i = 0; i < 100 && !said.contains("ACCEPT"); ++i) {
            tls.waitForReadyRead(100);
            said += tls.readAll();
        }
        QVERIFY2(said.contains("ACCEPT"), said.constData());
        Observed seen;
        const auto out = fetch(
            requestFor(rd::ProviderKind::Stripe, "https://127.0.0.1:" + std::to_string(port)),
            seen.options());
        tls.kill();
        tls.waitForFinished();
        QVERIFY2(out.error, "a self-signed certificate was trusted");
        QCOMPARE(QString::fromStdString(out.error->code()), QString("tls_failed"));
        QVERIFY(seen.sleeps.empty());
    }

    void requestsThatCannotBeSent_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("key");
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        const auto stripe = static_cast<int>(rd::ProviderKind::Stripe);
        const qint64 from = kFrom.micros;
        const qint64 to = kTo.micros;
        const QString key = QString::fromStdString(kKey);
        QTest::newRow("no key") << stripe << "http://127.0.0.1:9"
                                << "" << from << to;
        QTest::newRow("key with a line break") << stripe << "http://127.0.0.1:9"
                                               << "sk\r\nX-Evil: 1" << from << to;
        QTest::newRow("http to another host")
            << stripe << "http://api.stripe.com" << key << from << to;
        QTest::newRow("user in the base")
            << stripe << "https://user:pw@api.stripe.com" << key << from << to;
        QTest::newRow("query in the base")
            << stripe << "https://api.stripe.com/?x=1" << key << from << to;
        QTest::newRow("not a URL") << stripe << "api.stripe.com" << key << from << to;
        QTest::newRow("ftp") << stripe << "ftp://127.0.0.1" << key << from << to;
        QTest::newRow("chargebee without a base")
            << static_cast<int>(rd::ProviderKind::Chargebee) << "" << key << from << to;
        QTest::newRow("from not a midnight")
            << stripe << "http://127.0.0.1:9" << key << from + 1000000 << to;
        QTest::newRow("to before from") << stripe << "http://127.0.0.1:9" << key << to << from;
        // Plain http goes only to this machine by its address: a name is anyone's.
        QTest::newRow("http to a name starting 127.")
            << stripe << "http://127.attacker.invalid" << key << from << to;
        QTest::newRow("http to 127.0.0.1.a-name")
            << stripe << "http://127.0.0.1.attacker.invalid:8080" << key << from << to;
        QTest::newRow("http to localhost.a-name")
            << stripe << "http://localhost.attacker.invalid" << key << from << to;
        QTest::newRow("http to IPv4-mapped IPv6")
            << stripe << "http://[::ffff:7f00:1]" << key << from << to;
        QTest::newRow("http to 128.0.0.1") << stripe << "http://128.0.0.1" << key << from << to;
    }
    void requestsThatCannotBeSent()
    {
        QFETCH(int, kind);
        QFETCH(QString, base);
        QFETCH(QString, key);
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        rd::FetchRequest r;
        r.kind = static_cast<rd::ProviderKind>(kind);
        r.apiBase = base.toStdString();
        r.apiKey = key.toStdString();
        r.from = rd::Timestamp {from};
        r.to = rd::Timestamp {to};
        Observed seen;
        const auto out = fetch(r, seen.options());
        QVERIFY2(out.error, "accepted");
        const rd::FetchError &e = *out.error;
        QCOMPARE(QString::fromStdString(e.code()), QString("bad_request"));
        QVERIFY2(QString::fromUtf8(e.what()).indexOf("pw") < 0, e.what());
        QVERIFY2(e.details().find("pw@") == std::string::npos, e.details().c_str());
        QVERIFY(seen.log.empty());
    }

    // The loopback addresses plain http may go to: a literal 127.0.0.0/8 address (the other
    // tests use 127.0.0.1), localhost, and [::1], where nothing listens here: the fetch is
    // attempted, not refused.
    void loopbackByAddressIsAccepted()
    {
        Api api(rd::ProviderKind::Stripe);
        Observed seen;
        auto options = seen.options();
        const auto out = fetch(requestFor(rd::ProviderKind::Stripe,
                                   "http://localhost:" + std::to_string(api.server.port())),
            options);
        QVERIFY2(!out.error, qPrintable(describe(out)));
        QCOMPARE(out.pages.size(), pagesOf(rd::ProviderKind::Stripe));

        options.maxServerErrorRetries = 0;
        for (const std::string base : {"http://[::1]:9", "http://127.255.0.9:9"}) {
            const auto tried = fetch(requestFor(rd::ProviderKind::Stripe, base), options);
            QVERIFY(tried.error);
            QCOMPARE(QString::fromStdString(tried.error->code()), QString("unreachable"));
        }
    }

    // An endless has_more list stops at whichever bound it passes first, each with its own
    // code and its bound in the message; the total bound holds before the pages' own.
    void endlessPagesStopAtTheirBounds_data()
    {
        QTest::addColumn<QString>("bound");
        QTest::addColumn<int>("filler");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("pages") << "pages" << 10 << "too_many_pages"
                               << "the list has more than the 5 pages allowed";
        QTest::newRow("bytes") << "bytes" << 1000 << "too_many_bytes"
                               << "the pages came to more than the 10240 bytes allowed";
        QTest::newRow("one page over the total")
            << "bytes" << 50 * 1000 * 1000 << "too_many_bytes"
            << "the pages came to more than the 10240 bytes allowed";
        QTest::newRow("deadline") << "deadline" << 10 << "deadline"
                                  << "the fetch ran past its deadline of 1 s";
    }
    void endlessPagesStopAtTheirBounds()
    {
        QFETCH(QString, bound);
        QFETCH(int, filler);
        QFETCH(QString, code);
        QFETCH(QString, message);
        rdtest::ApiServer api([filler](const rdtest::ApiRequest &r) {
            return rdtest::endlessStripePage(r, static_cast<std::size_t>(filler));
        });
        Observed seen;
        auto options = seen.options();
        options.log = {};
        if (bound == "pages")
            options.maxPages = 5;
        if (bound == "bytes")
            options.maxTotalBytes = 10 * 1024;
        if (bound == "deadline") {
            options.maxPages = 100000000;
            options.deadline = 1s;
        }
        QElapsedTimer timer;
        timer.start();
        const auto out = fetch(requestFor(rd::ProviderKind::Stripe, api.base()), options);
        QVERIFY2(out.error, "an endless list ended");
        QCOMPARE(QString::fromStdString(out.error->code()), code);
        QCOMPARE(QString::fromUtf8(out.error->what()), message);
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
        const std::size_t asked = api.requests().size();
        if (bound == "pages")
            QCOMPARE(asked, std::size_t(5));
        if (bound == "bytes" && filler == 1000)
            QVERIFY2(asked >= 9 && asked <= 11, qPrintable(QString::number(asked)));
        if (bound == "bytes" && filler > 1000)
            QCOMPARE(asked, std::size_t(1));
    }

    // One answer that does not come in time, and one wait that would end past the deadline:
    // neither is sat out.
    void theDeadlineCutsRequestsAndWaits()
    {
        rdtest::ApiServer slow([](const rdtest::ApiRequest &r) {
            std::this_thread::sleep_for(3s);
            return rdtest::endlessStripePage(r, 1);
        });
        Observed seen;
        auto options = seen.options();
        options.deadline = 500ms;
        QElapsedTimer timer;
        timer.start();
        auto out = fetch(requestFor(rd::ProviderKind::Stripe, slow.base()), options);
        QVERIFY2(out.error, "a slow answer past the deadline was taken");
        QCOMPARE(QString::fromStdString(out.error->code()), QString("deadline"));
        QVERIFY2(timer.elapsed() < 2500, qPrintable(QString::number(timer.elapsed())));

        Api api(rd::ProviderKind::Stripe);
        api.provider.alwaysRateLimited = true;
        options.deadline = 10s;
        options.maxRetryWait = 60s;
        options.backoffBase = 20s;
        out = fetch(requestFor(rd::ProviderKind::Stripe, api.server.base()), options);
        QVERIFY2(out.error, "pages from an API answering only 429");
        QCOMPARE(QString::fromStdString(out.error->code()), QString("deadline"));
        QVERIFY(seen.sleeps.empty());
        QCOMPARE(api.server.requests().size(), std::size_t(1));
    }

    // The reason is the message itself (the first line the command prints), not only in the
    // details.
    void theReasonIsTheMessage()
    {
        Api lemon(rd::ProviderKind::LemonSqueezy);
        lemon.provider.notJsonPage
            = R"({"data":[],"links":{"next":"/v1/subscription-invoices?page%5Bnumber%5D=1&page%5Bsize%5D=100"}})";
        Observed seen;
        auto out = fetch(
            requestFor(rd::ProviderKind::LemonSqueezy, lemon.server.base()), seen.options());
        QVERIFY(out.error);
        QCOMPARE(QString::fromUtf8(out.error->what()),
            QString("the next link repeats a page already fetched"));

        Api stripe(rd::ProviderKind::Stripe);
        stripe.provider.notJsonPage = R"({"object":"list","has_more":true,"data":[]})";
        out = fetch(requestFor(rd::ProviderKind::Stripe, stripe.server.base()), seen.options());
        QVERIFY(out.error);
        QCOMPARE(QString::fromUtf8(out.error->what()),
            QString("a page was not the provider's list: has_more without an id on the last "
                    "object"));

        rdtest::ApiServer missing([](const rdtest::ApiRequest &) {
            return rdtest::ApiResponse {404, "{}", {}};
        });
        out = fetch(requestFor(rd::ProviderKind::Stripe, missing.base()), seen.options());
        QVERIFY(out.error);
        QCOMPARE(QString::fromStdString(out.error->code()), QString("http_404"));
        QCOMPARE(QString::fromUtf8(out.error->what()),
            QString("the provider refused the request (HTTP 404)"));
    }

    void defaultApiBases()
    {
        QCOMPARE(rd::defaultApiBase(rd::ProviderKind::Stripe),
            std::optional<std::string_view>("https://api.stripe.com"));
        QCOMPARE(rd::defaultApiBase(rd::ProviderKind::Chargebee), std::nullopt);
        for (const auto &info : rd::providerKinds()) {
            if (const auto base = rd::defaultApiBase(info.kind))
                QVERIFY(base->rfind("https://", 0) == 0);
        }
    }
};

QTEST_APPLESS_MAIN(TestStatementFetch)
#include "tst_statementfetch.moc"
