#pragma once

// Statement fetch: a provider's list of paid invoices or transactions for a range of UTC days,
// read page by page from its API (libcurl), each page kept exactly as received for
// `renewalctl statement import`, which classifies and checks them (a page saying that more
// follows without its next page is refused there as partial; here every page is followed).
//
// No database, no Qt. The API key travels only in a request header or as the basic-auth user;
// it is never logged, never in an error, and the URLs logged carry no secret.

#include "domain/core/adapters/provider_kinds.h"
#include "domain/core/statement.h"
#include "domain/core/timestamp.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

/// One page of a provider's list, in the order fetched: `name` is "stripe-0001.json" (the
/// kind's name and the page's 1-based number), `bytes` the response body as received. A
/// statement file as readStatement takes it: fetched pages are imported as they are.
using FetchedPage = StatementFile;

struct FetchRequest
{
    ProviderKind kind = ProviderKind::Stripe;
    /// "https://api.stripe.com"; empty: defaultApiBase(kind). https, or http to this machine
    /// (a local test server: a literal 127.0.0.0/8 address, [::1] or localhost; never a name
    /// that merely starts with "127."); no user, query or fragment. A path is kept as a prefix.
    std::string apiBase;
    std::string apiKey;
    /// The UTC days [from, to], inclusive, each given as its midnight (00:00:00Z): the range
    /// asked for is the instants from `from` up to, not including, `to` + 24 h.
    Timestamp from;
    Timestamp to;
};

/// How far before `from` the Stripe and Recurly lists ask for invoices *created*: both filter
/// by creation only, and an invoice paid in the range may have been created weeks earlier
/// and paid by a later retry (Stripe's Smart Retries: 8 tries within 2 weeks recommended, a
/// policy of up to 2 months possible; Recurly's dunning is set per site). 35 days covers a
/// monthly invoice paid by a retry before the next one is created; a longer retry policy
/// needs FetchOptions::createdLookback. The import keeps only the covered days.
inline constexpr std::chrono::hours kCreatedLookback {35 * 24};

struct FetchOptions
{
    /// Objects asked for per page; 0 (or more than the provider allows): the provider's
    /// maximum (Stripe 100, Paddle 30, Chargebee 100, Recurly 200, Lemon Squeezy 100).
    int pageSize = 0;
    /// See kCreatedLookback (Stripe and Recurly only).
    std::chrono::hours createdLookback = kCreatedLookback;
    /// The longest wait before a retry: a longer Retry-After is cut to this, and so is the
    /// exponential backoff used when a 429 or 5xx says nothing.
    std::chrono::seconds maxRetryWait {60};
    /// Retries of one request after a 429 before FetchError "rate_limited".
    int maxRateLimitRetries = 5;
    /// Retries of one request after a 5xx or a failed connection before FetchError.
    int maxServerErrorRetries = 3;
    /// The first backoff; each further retry of the same request waits twice as long.
    std::chrono::milliseconds backoffBase {1000};
    std::chrono::seconds connectTimeout {15};
    /// The whole of one request, body included.
    std::chrono::seconds requestTimeout {120};
    /// A larger response body is refused (FetchError "too_large"): its transfer is cut off
    /// there, never held whole first.
    std::size_t maxPageBytes = 64 * 1024 * 1024;
    /// Every page held together, in bytes (all of them are handed back at once): the transfer
    /// that would pass it is cut off (FetchError "too_many_bytes").
    std::size_t maxTotalBytes = 256 * 1024 * 1024;
    /// A list that would need more pages is refused before asking for the next one
    /// (FetchError "too_many_pages").
    std::size_t maxPages = 10000;
    /// The whole fetch, retries and their waits included, measured on the steady clock from
    /// the call: no request runs past it and no wait is begun that would end past it
    /// (FetchError "deadline").
    std::chrono::milliseconds deadline {std::chrono::minutes(15)};
    /// One line per request and per wait (URL, status, bytes; never the key). May be empty.
    std::function<void(const std::string &)> log;
    /// How a wait before a retry is spent; empty: std::this_thread::sleep_for. Tests count.
    std::function<void(std::chrono::milliseconds)> sleep;
    /// The clock a Retry-After HTTP-date is measured from; empty: Timestamp::now.
    std::function<Timestamp()> now;
};

/// Why a fetch stopped. what() is a fixed sentence saying the reason itself (no URL, no body,
/// no key; at most a status or a bound), safe to print anywhere; details() (the URL, which never
/// carries the key, the HTTP status, an excerpt of the body with the key blanked) is for the log.
///   bad_request     the request itself is unusable (no key, a bad api base, a bad range)
///   http_401/http_403  the API key was refused
///   http_NNN        any other 3xx/4xx answer (NNN: the status)
///   http_5xx        5xx answers after maxServerErrorRetries retries
///   rate_limited    429 answers after maxRateLimitRetries retries
///   unreachable     no answer (DNS, connection, timeout) after maxServerErrorRetries retries
///   tls_failed      the TLS handshake or the certificate check failed (not retried)
///   bad_page        a 2xx body that is not the provider's list (not JSON, no cursor, a
///                   page that would repeat)
///   foreign_next    the provider's next link points at another origin than the api base
///   too_large       a body over maxPageBytes
///   too_many_bytes  the pages together over maxTotalBytes
///   too_many_pages  more than maxPages pages
///   deadline        the fetch would run past options.deadline
class FetchError : public std::runtime_error
{
public:
    FetchError(
        std::string code, const std::string &message, std::string details, int httpStatus = 0);
    const std::string &code() const { return m_code; }
    const std::string &details() const { return m_details; }
    /// The last HTTP status received; 0 when none (no answer, or a request never sent).
    int httpStatus() const { return m_httpStatus; }

private:
    std::string m_code;
    std::string m_details;
    int m_httpStatus;
};

/// The provider's production API: "https://api.stripe.com", "https://api.paddle.com",
/// "https://v3.recurly.com", "https://api.lemonsqueezy.com"; nullopt for Chargebee, whose API
/// lives on each site's own host (https://SITE.chargebee.com) and must be given.
std::optional<std::string_view> defaultApiBase(ProviderKind kind);

/// Every page of `request.kind`'s list for the range, in order. Throws FetchError; bad_request
/// (nothing was sent) for an api base whose plain http:// goes elsewhere than this machine.
std::vector<FetchedPage> fetchStatementPages(
    const FetchRequest &request, const FetchOptions &options = {});

/// How long a Retry-After value asks to wait, measured from `now`: delay-seconds ("120") or
/// an HTTP-date ("Wed, 21 Oct 2026 07:28:00 GMT"; a date already past: zero). nullopt for
/// anything else.
std::optional<std::chrono::milliseconds> parseRetryAfter(std::string_view value, Timestamp now);

} // namespace rd
