#include "domain/fetch/statement_fetch.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/providers/provider.h"

#include <curl/curl.h>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <thread>
#include <utility>

// What each provider is asked, and how its next page is found, is the kind's own pure code
// (domain/core/providers/<kind>/paging.cpp, which quotes its API reference); this file is the
// HTTP transport around it: the connection, the key, retries, limits and the checks on links.
//
// Ranges err towards asking for more: the import keeps the covered days, while an object left
// out would become a false "not in statement".

namespace rd {

FetchError::FetchError(
    std::string code, const std::string &message, std::string details, int httpStatus)
    : std::runtime_error(message)
    , m_code(std::move(code))
    , m_details(std::move(details))
    , m_httpStatus(httpStatus)
{ }

namespace {

constexpr std::int64_t kMicrosPerDay = 86400LL * 1000000;

struct CurlUrl
{
    CURLU *handle = curl_url();
    ~CurlUrl() { curl_url_cleanup(handle); }
    CurlUrl() = default;
    CurlUrl(const CurlUrl &) = delete;
    CurlUrl &operator=(const CurlUrl &) = delete;

    bool set(const std::string &url)
    {
        return handle
            && curl_url_set(handle, CURLUPART_URL, url.c_str(), CURLU_NON_SUPPORT_SCHEME)
            == CURLUE_OK;
    }
    std::optional<std::string> get(CURLUPart part, unsigned flags = 0) const
    {
        char *value = nullptr;
        if (curl_url_get(handle, part, &value, flags) != CURLUE_OK || !value)
            return std::nullopt;
        std::string out(value);
        curl_free(value);
        return out;
    }
};

std::string lower(std::string s)
{
    for (char &c : s) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
    return s;
}

/// scheme://host:port, with the default port made explicit; nullopt for what is not an
/// http(s) URL with a host.
std::optional<std::string> originOf(const CurlUrl &url)
{
    const auto scheme = url.get(CURLUPART_SCHEME);
    const auto host = url.get(CURLUPART_HOST);
    const auto port = url.get(CURLUPART_PORT, CURLU_DEFAULT_PORT);
    if (!scheme || !host || !port || host->empty())
        return std::nullopt;
    const std::string s = lower(*scheme);
    if (s != "https" && s != "http")
        return std::nullopt;
    return s + "://" + lower(*host) + ":" + *port;
}

/// Whether `host`, as curl's URL parser gives it, is this machine by its address: a literal
/// IPv4 address in 127.0.0.0/8, the IPv6 loopback, or the name localhost, which curl answers
/// itself without asking DNS. A name is never judged by how it starts: 127.attacker.invalid is
/// anyone's host.
bool isLoopbackHost(const std::string &host)
{
    const std::string h = lower(host);
    if (h == "localhost")
        return true;
    if (h.size() > 2 && h.front() == '[' && h.back() == ']') {
        in6_addr v6 {};
        return inet_pton(AF_INET6, h.substr(1, h.size() - 2).c_str(), &v6) == 1
            && IN6_IS_ADDR_LOOPBACK(&v6);
    }
    // inet_pton takes only the dotted-quad form; curl's parser has already written the
    // shorter forms ("127.1", "2130706433") out as one.
    in_addr v4 {};
    return inet_pton(AF_INET, h.c_str(), &v4) == 1 && (ntohl(v4.s_addr) >> 24) == 127;
}

/// Percent-encodes everything but RFC 3986's unreserved characters.
std::string encode(std::string_view text)
{
    // Since 7.82 the handle is not used.
    char *escaped = curl_easy_escape(nullptr, text.data(), static_cast<int>(text.size()));
    if (!escaped)
        throw std::bad_alloc();
    std::string out(escaped);
    curl_free(escaped);
    return out;
}

using Query = std::vector<std::pair<std::string, std::string>>;

std::string withQuery(std::string url, const Query &query)
{
    char separator = url.find('?') == std::string::npos ? '?' : '&';
    for (const auto &[key, value] : query) {
        url += separator;
        url += encode(key) + "=" + encode(value);
        separator = '&';
    }
    return url;
}

/// A printable excerpt of a body for the log: at most 300 bytes, control characters as '?',
/// the key (should an error page echo it) blanked.
std::string excerpt(std::string body, const std::string &apiKey)
{
    if (!apiKey.empty()) {
        for (auto p = body.find(apiKey); p != std::string::npos; p = body.find(apiKey, p))
            body.replace(p, apiKey.size(), "[api key]");
    }
    if (body.size() > 300)
        body = body.substr(0, 300) + "...";
    for (char &c : body) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = '?';
    }
    return body;
}

void ensureCurlInitialized()
{
    static std::once_flag once;
    static CURLcode result = CURLE_OK;
    std::call_once(once, [] { result = curl_global_init(CURL_GLOBAL_DEFAULT); });
    if (result != CURLE_OK)
        throw FetchError("unreachable", "the HTTP client could not start",
            std::string("curl_global_init: ") + curl_easy_strerror(result));
}

using Clock = std::chrono::steady_clock;

std::string bytesText(std::size_t n)
{
    if (n % (1024 * 1024) == 0)
        return std::to_string(n / (1024 * 1024)) + " MiB";
    return std::to_string(n) + " bytes";
}

/// What may still be received for one page: the page's own bound, or what the pages together
/// have left if that is less (then passing it is the total's fault, and said so).
struct BodyCap
{
    std::size_t bytes = 0;
    bool isTotal = false;
};

[[noreturn]] void pastDeadline(const FetchOptions &options, const std::string &doing)
{
    const auto ms = options.deadline.count();
    const std::string bound
        = ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
    throw FetchError("deadline", "the fetch ran past its deadline of " + bound, doing);
}

struct Answer
{
    int status = 0;
    std::string body;
    std::optional<std::string> retryAfter;
};

/// One provider's API, over one connection that is reused between pages.
class Client
{
public:
    Client(const ListApi &api, const FetchRequest &request, const FetchOptions &options)
        : m_options(options)
        , m_apiKey(request.apiKey)
        , m_deadline(Clock::now()
              + std::chrono::duration_cast<Clock::duration>(
                  std::max(options.deadline, std::chrono::milliseconds::zero())))
    {
        ensureCurlInitialized();
        m_curl = curl_easy_init();
        if (!m_curl)
            throw FetchError("unreachable", "the HTTP client could not start", "curl_easy_init");
        const bool bearer = api.auth == ListApi::Auth::Bearer;
        if (bearer)
            m_headers = curl_slist_append(m_headers, ("Authorization: Bearer " + m_apiKey).c_str());
        m_headers = curl_slist_append(m_headers, ("Accept: " + std::string(api.accept)).c_str());

        curl_easy_setopt(m_curl, CURLOPT_HTTPHEADER, m_headers);
        if (!bearer) {
            curl_easy_setopt(m_curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
            curl_easy_setopt(m_curl, CURLOPT_USERNAME, m_apiKey.c_str());
            curl_easy_setopt(m_curl, CURLOPT_PASSWORD, "");
        }
        curl_easy_setopt(m_curl, CURLOPT_PROTOCOLS_STR, "http,https");
        // A redirect is answered as an unexpected status rather than followed with the key.
        curl_easy_setopt(m_curl, CURLOPT_FOLLOWLOCATION, 0L);
        curl_easy_setopt(m_curl, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(m_curl, CURLOPT_USERAGENT, "renewal-desk statement fetch");
        curl_easy_setopt(m_curl, CURLOPT_WRITEFUNCTION, &Client::onBody);
        curl_easy_setopt(m_curl, CURLOPT_WRITEDATA, this);
        curl_easy_setopt(m_curl, CURLOPT_HEADERFUNCTION, &Client::onHeader);
        curl_easy_setopt(m_curl, CURLOPT_HEADERDATA, this);
        // TLS: curl's defaults verify the peer and the host name; nothing here relaxes them.
    }
    ~Client()
    {
        curl_slist_free_all(m_headers);
        curl_easy_cleanup(m_curl);
    }
    Client(const Client &) = delete;
    Client &operator=(const Client &) = delete;

    /// GETs `url`, retrying 429, 5xx and lost connections as the options allow; returns a 2xx
    /// answer's body (at most `cap` bytes) or throws FetchError.
    std::string get(const std::string &url, BodyCap cap)
    {
        m_cap = cap;
        int rateLimited = 0;
        int failed = 0;
        for (;;) {
            const Answer answer = once(url);
            if (answer.status >= 200 && answer.status < 300)
                return answer.body;
            const std::string what = "GET " + url + " -> HTTP " + std::to_string(answer.status)
                + "; body: " + excerpt(answer.body, m_apiKey);
            if (answer.status == 429) {
                if (rateLimited >= m_options.maxRateLimitRetries)
                    throw FetchError("rate_limited",
                        "the provider kept refusing requests as too many (HTTP 429)",
                        what + " (after " + std::to_string(rateLimited) + " retries)", 429);
                wait(answer, rateLimited++, "HTTP 429");
                continue;
            }
            if (answer.status >= 500 && answer.status < 600) {
                if (failed >= m_options.maxServerErrorRetries)
                    throw FetchError("http_5xx",
                        "the provider's API failed (HTTP " + std::to_string(answer.status) + ")",
                        what + " (after " + std::to_string(failed) + " retries)", answer.status);
                wait(answer, failed++, "HTTP " + std::to_string(answer.status));
                continue;
            }
            if (answer.status == 401 || answer.status == 403)
                throw FetchError("http_" + std::to_string(answer.status), "the API key was refused",
                    what, answer.status);
            throw FetchError("http_" + std::to_string(answer.status),
                "the provider refused the request (HTTP " + std::to_string(answer.status) + ")",
                what, answer.status);
        }
    }

private:
    static std::size_t onBody(char *data, std::size_t size, std::size_t count, void *self)
    {
        auto *client = static_cast<Client *>(self);
        const std::size_t n = size * count;
        if (client->m_body.size() + n > client->m_cap.bytes) {
            client->m_tooLarge = true;
            return 0; // aborts the transfer
        }
        client->m_body.append(data, n);
        return n;
    }

    static std::size_t onHeader(char *data, std::size_t size, std::size_t count, void *self)
    {
        auto *client = static_cast<Client *>(self);
        const std::size_t n = size * count;
        std::string_view line(data, n);
        // A new status line (after a 100 Continue, say) starts a new header section.
        if (line.rfind("HTTP/", 0) == 0)
            client->m_retryAfter.reset();
        constexpr std::string_view kName = "retry-after:";
        if (line.size() > kName.size()
            && lower(std::string(line.substr(0, kName.size()))) == kName) {
            std::string_view value = line.substr(kName.size());
            while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
                value.remove_prefix(1);
            while (!value.empty()
                && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
                value.remove_suffix(1);
            client->m_retryAfter = std::string(value);
        }
        return n;
    }

    /// One attempt. A failed connection is retried here; any HTTP answer is returned.
    Answer once(const std::string &url)
    {
        int failed = 0;
        for (;;) {
            m_body.clear();
            m_tooLarge = false;
            m_retryAfter.reset();
            const auto left = timeLeft();
            if (left <= std::chrono::milliseconds::zero())
                pastDeadline(m_options, "before GET " + url);
            // No request outlives the deadline: its own limits are cut to what is left.
            const auto limit = [&](std::chrono::milliseconds own) {
                return static_cast<long>(std::max<long long>(1, std::min(own, left).count()));
            };
            curl_easy_setopt(m_curl, CURLOPT_CONNECTTIMEOUT_MS,
                limit(std::chrono::milliseconds(m_options.connectTimeout)));
            curl_easy_setopt(m_curl, CURLOPT_TIMEOUT_MS,
                limit(std::chrono::milliseconds(m_options.requestTimeout)));
            // A Content-Length over the cap ends the transfer before its body; a body that
            // says none is cut off by onBody as it passes the cap.
            curl_easy_setopt(m_curl, CURLOPT_MAXFILESIZE_LARGE,
                static_cast<curl_off_t>(std::min<std::size_t>(m_cap.bytes, 1ULL << 62)));
            curl_easy_setopt(m_curl, CURLOPT_URL, url.c_str());
            log("GET " + url);
            const CURLcode rc = curl_easy_perform(m_curl);
            if (rc == CURLE_OK) {
                long status = 0;
                curl_easy_getinfo(m_curl, CURLINFO_RESPONSE_CODE, &status);
                log("  HTTP " + std::to_string(status) + ", " + std::to_string(m_body.size())
                    + " bytes");
                return Answer {static_cast<int>(status), std::move(m_body), m_retryAfter};
            }
            const std::string what = "GET " + url + ": " + curl_easy_strerror(rc);
            if (m_tooLarge || rc == CURLE_FILESIZE_EXCEEDED) {
                m_body.clear();
                m_body.shrink_to_fit();
                if (m_cap.isTotal)
                    throw FetchError("too_many_bytes",
                        "the pages came to more than the " + bytesText(m_options.maxTotalBytes)
                            + " allowed",
                        what + " (cut off: the pages may hold " + bytesText(m_cap.bytes)
                            + " more)");
                throw FetchError("too_large",
                    "a page was larger than the " + bytesText(m_options.maxPageBytes) + " allowed",
                    what + " (cut off after " + bytesText(m_cap.bytes) + ")");
            }
            if (rc == CURLE_OPERATION_TIMEDOUT && timeLeft() <= std::chrono::milliseconds::zero())
                pastDeadline(m_options, what);
            if (rc == CURLE_SSL_CONNECT_ERROR || rc == CURLE_PEER_FAILED_VERIFICATION
                || rc == CURLE_SSL_CERTPROBLEM || rc == CURLE_SSL_CACERT_BADFILE
                || rc == CURLE_SSL_CIPHER || rc == CURLE_SSL_ISSUER_ERROR)
                throw FetchError(
                    "tls_failed", "the provider's TLS certificate or handshake failed", what);
            if (failed >= m_options.maxServerErrorRetries)
                throw FetchError("unreachable", "the provider's API could not be reached",
                    what + " (after " + std::to_string(failed) + " retries)");
            wait(Answer {}, failed++, curl_easy_strerror(rc));
        }
    }

    void wait(const Answer &answer, int retry, const std::string &why)
    {
        const std::chrono::milliseconds cap = m_options.maxRetryWait;
        std::optional<std::chrono::milliseconds> delay;
        std::string source = "backoff";
        if (answer.retryAfter) {
            const Timestamp now = m_options.now ? m_options.now() : Timestamp::now();
            delay = parseRetryAfter(*answer.retryAfter, now);
            if (delay)
                source = "Retry-After: " + *answer.retryAfter;
        }
        if (!delay) {
            const int doublings = std::clamp(retry, 0, 20);
            delay = m_options.backoffBase * (1LL << doublings);
        }
        delay = std::min(*delay, cap);
        // A wait that would end past the deadline cannot lead to a page in time.
        if (*delay >= timeLeft())
            pastDeadline(m_options,
                why + ": a wait of " + std::to_string(delay->count())
                    + " ms would end past the deadline");
        log("  " + why + ": waiting " + std::to_string(delay->count()) + " ms (" + source
            + ") before retry " + std::to_string(retry + 1));
        if (m_options.sleep)
            m_options.sleep(*delay);
        else
            std::this_thread::sleep_for(*delay);
    }

    std::chrono::milliseconds timeLeft() const
    {
        return std::chrono::duration_cast<std::chrono::milliseconds>(m_deadline - Clock::now());
    }

    void log(const std::string &line) const
    {
        if (m_options.log)
            m_options.log(line);
    }

    const FetchOptions &m_options;
    const std::string m_apiKey;
    const Clock::time_point m_deadline;
    BodyCap m_cap;
    CURL *m_curl = nullptr;
    curl_slist *m_headers = nullptr;
    std::string m_body;
    bool m_tooLarge = false;
    std::optional<std::string> m_retryAfter;
};

[[noreturn]] void badRequest(const std::string &message, const std::string &details)
{
    throw FetchError("bad_request", message, details);
}

/// The api base without a trailing '/', checked: https, or http to a loopback host.
std::string checkedApiBase(const ListApi &api, const FetchRequest &request)
{
    std::string base = request.apiBase;
    if (base.empty()) {
        const auto fallback = api.defaultBase;
        if (!fallback)
            badRequest("this provider needs its API base (Chargebee: https://SITE.chargebee.com)",
                toString(request.kind) + ": no default api base");
        base = std::string(*fallback);
    }
    CurlUrl url;
    const auto origin = url.set(base) ? originOf(url) : std::nullopt;
    if (!origin)
        badRequest("the API base must be an https:// URL with a host",
            "api base: (not shown: it may hold a secret)");
    if (url.get(CURLUPART_USER) || url.get(CURLUPART_PASSWORD) || url.get(CURLUPART_QUERY)
        || url.get(CURLUPART_FRAGMENT))
        badRequest("the API base must hold no user, password, query or fragment",
            "api base: (not shown: it may hold a secret)");
    if (lower(*url.get(CURLUPART_SCHEME)) == "http" && !isLoopbackHost(*url.get(CURLUPART_HOST)))
        badRequest("the API base must be https:// (http:// only to 127.0.0.0/8, [::1] or "
                   "localhost)",
            "api base: " + base);
    while (!base.empty() && base.back() == '/')
        base.pop_back();
    return base;
}

void checkRequest(const FetchRequest &request)
{
    if (request.apiKey.empty())
        badRequest("no API key for this provider", "apiKey is empty");
    for (const char c : request.apiKey) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            badRequest("the API key holds a character that cannot be sent",
                "apiKey holds a control character");
    }
    if (request.from.micros % kMicrosPerDay != 0 || request.to.micros % kMicrosPerDay != 0
        || !isStorable(request.from) || !isStorable(request.to)
        || !isStorable(Timestamp {request.to.micros + kMicrosPerDay}))
        badRequest("from and to must be UTC days (their midnights)",
            "from " + formatRfc3339(request.from) + ", to " + formatRfc3339(request.to));
    if (request.to < request.from)
        badRequest("from must not be after to",
            "from " + formatRfc3339(request.from) + ", to " + formatRfc3339(request.to));
}

/// Each list's first page's URL, with its path (the list's name in a manifest).
std::vector<std::pair<std::string, std::string>> firstUrls(const ProviderDefinition &provider,
    const std::string &base, const FetchRequest &request, const FetchOptions &options)
{
    // The provider's page size: its maximum, or less when asked.
    const int maximum = provider.listApi().maxPageSize;
    const int size = options.pageSize > 0 ? std::min(options.pageSize, maximum) : maximum;
    const Timestamp end {request.to.micros + kMicrosPerDay}; // exclusive
    const Timestamp createdFrom {request.from.micros
        - std::chrono::duration_cast<std::chrono::microseconds>(options.createdLookback).count()};
    std::vector<std::pair<std::string, std::string>> urls;
    for (const ListRequest &list : provider.listRequests({request.from, end, createdFrom}, size))
        urls.emplace_back(list.path, withQuery(base + list.path, list.query));
    return urls;
}

/// `reason` is a fixed sentence (it goes on the first line); `details`, what the page said.
[[noreturn]] void badPage(
    const std::string &url, const std::string &reason, const std::string &details = {})
{
    throw FetchError("bad_page", reason,
        "GET " + url + ": " + reason + (details.empty() ? std::string() : ": " + details));
}

/// A link the provider gave for the next page, resolved against the page it came from and
/// accepted only on the api base's origin: the key goes with every request.
std::string followLink(const std::string &link, const std::string &from, const std::string &base)
{
    CurlUrl resolved;
    CurlUrl origin;
    if (!resolved.set(from) || !origin.set(base))
        badPage(from, "the next-page link cannot be resolved");
    if (link.empty()
        || curl_url_set(resolved.handle, CURLUPART_URL, link.c_str(), CURLU_NON_SUPPORT_SCHEME)
            != CURLUE_OK)
        badPage(from, "the next-page link is not a URL");
    const auto next = resolved.get(CURLUPART_URL);
    const auto nextOrigin = originOf(resolved);
    if (!next || !nextOrigin || *nextOrigin != *originOf(origin) || resolved.get(CURLUPART_USER))
        throw FetchError("foreign_next",
            "the provider's next-page link points elsewhere than its API; not followed",
            "GET " + from + ": next link " + excerpt(link, {}) + " is not on " + *originOf(origin));
    return *next;
}

/// The URL of the page after `page`, or nullopt when it is the last. Throws bad_page when the
/// body is not the provider's list.
std::optional<std::string> nextUrl(const ProviderDefinition &provider, const nlohmann::json &page,
    const std::string &url, const std::string &first, const std::string &base)
{
    NextPage next;
    try {
        next = provider.nextListPage(page);
    } catch (const BadListPage &e) {
        // The kinds' reasons are fixed sentences ("has_more without an id on the last object").
        badPage(url, std::string("a page was not the provider's list: ") + e.what());
    }
    switch (next.kind) {
    case NextPage::Kind::None:
        return std::nullopt;
    case NextPage::Kind::FirstWithParameter:
        return withQuery(first, {{next.parameter, next.value}});
    case NextPage::Kind::Link:
        return followLink(next.value, url, base);
    }
    return std::nullopt;
}

std::string pageName(ProviderKind kind, std::size_t number)
{
    char digits[24];
    std::snprintf(digits, sizeof digits, "%04zu", number);
    return toString(kind) + "-" + digits + ".json";
}

} // namespace

std::optional<std::string_view> defaultApiBase(ProviderKind kind)
{
    const ProviderDefinition *provider = findProviderDefinition(kind);
    return provider ? provider->listApi().defaultBase : std::nullopt;
}

std::optional<std::chrono::milliseconds> parseRetryAfter(std::string_view value, Timestamp now)
{
    if (value.empty())
        return std::nullopt;
    if (std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        // Anything past a day is as good as a day: the caller caps it far lower.
        if (value.size() > 6)
            return std::chrono::milliseconds(86400LL * 1000);
        long long s = 0;
        for (const char c : value)
            s = s * 10 + (c - '0');
        return std::chrono::milliseconds(std::min(s, 86400LL) * 1000);
    }
    // IMF-fixdate (and the obsolete forms HTTP still allows); curl_getdate reads them all.
    const std::string text(value);
    if (text.find("GMT") == std::string::npos)
        return std::nullopt;
    const time_t when = curl_getdate(text.c_str(), nullptr);
    if (when == -1)
        return std::nullopt;
    const long long ms = static_cast<long long>(when) * 1000 - now.micros / 1000;
    return std::chrono::milliseconds(std::clamp(ms, 0LL, 86400LL * 1000));
}

std::vector<FetchedPage> fetchStatementPages(
    const FetchRequest &request, const FetchOptions &options)
{
    const ProviderDefinition *provider = findProviderDefinition(request.kind);
    if (!provider)
        badRequest("unknown provider kind", "kind");
    const ListApi api = provider->listApi();
    const std::string base = checkedApiBase(api, request);
    checkRequest(request);
    const auto lists = firstUrls(*provider, base, request, options);

    Client client(api, request, options);
    std::vector<FetchedPage> pages;
    std::size_t held = 0;
    std::set<std::string> requested;
    // Each list to its last page, one after the other (renewals, then money back): the pages
    // are numbered on across them, each naming its list.
    for (const auto &[list, first] : lists) {
        std::optional<std::string> url = first;
        while (url) {
            if (!requested.insert(*url).second)
                badPage(*url, "the next link repeats a page already fetched");
            if (pages.size() >= options.maxPages)
                throw FetchError("too_many_pages",
                    "the list has more than the " + std::to_string(options.maxPages)
                        + " pages allowed",
                    "more than " + std::to_string(options.maxPages) + " pages from " + first);
            const std::size_t left
                = options.maxTotalBytes > held ? options.maxTotalBytes - held : 0;
            const BodyCap cap = left < options.maxPageBytes ? BodyCap {left, true}
                                                            : BodyCap {options.maxPageBytes, false};
            std::string body = client.get(*url, cap);
            nlohmann::json page;
            try {
                page = parseUntrustedJson(body, JsonLimits {options.maxPageBytes, 64});
            } catch (const InputError &e) {
                badPage(*url, "a page was not the provider's list: not JSON it can read", e.what());
            }
            std::optional<std::string> next = nextUrl(*provider, page, *url, first, base);
            held += body.size();
            pages.push_back({pageName(request.kind, pages.size() + 1), std::move(body), list});
            url = std::move(next);
        }
    }
    return pages;
}

} // namespace rd
