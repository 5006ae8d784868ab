#pragma once

// Everything that differs per provider kind, as one abstract class: a kind is a `final`
// subclass in its own folder (domain/core/providers/<kind>/) and a row of the table of kinds
// (domain/core/adapters/provider_kinds.cpp), which holds its one instance. Every part is a pure
// virtual function, so a kind that lacks one is abstract and its instance does not compile.
// The callers (normalizePayload, readStatement, the signature check, the statement fetch, the
// snapshot reader, the demo) dispatch through the table and switch on no kind.

#include "domain/core/adapters/normalization.h"
#include "domain/core/provider_snapshot.h"
#include "domain/core/timestamp.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace rd {

struct WebhookCredentials;

namespace adapters {
struct DeliveryIds;
}

namespace demo {
class Random;
struct Sub;
struct Charge;
struct IdentityBases;
struct MoneyBack;
struct Dunning;
struct Sent;
} // namespace demo

/// How a kind's deliveries prove where they come from.
struct SignatureScheme
{
    /// The request header that carries the proof ("Stripe-Signature", "Authorization").
    std::string_view header;
    /// The proof signs a time, checked against the tolerance.
    bool timestamped = false;
    /// HTTP basic auth checked against WebhookCredentials::basicAuth, instead of an HMAC over
    /// the body checked against WebhookCredentials::secrets.
    bool basicAuth = false;
};

/// An HMAC signature header as its scheme writes it.
struct SignedHeader
{
    std::optional<std::int64_t> unixSeconds; ///< for the timestamped schemes
    std::string signedPrefix; ///< what precedes the body in the signed message
    std::vector<std::string> signatures; ///< normalized lower-case hex
};

/// How a kind's list API is reached, beside the request itself.
struct ListApi
{
    enum class Auth {
        Bearer, ///< Authorization: Bearer <key>
        BasicUser ///< HTTP basic auth: the key as the user, an empty password
    };
    /// The production API; nullopt when each account has its own host and it must be given.
    std::optional<std::string_view> defaultBase;
    /// The most objects a page may hold (and what is asked for by default).
    int maxPageSize = 100;
    Auth auth = Auth::Bearer;
    /// The Accept header every request carries (a version, for Recurly).
    std::string_view accept = "application/json";
};

/// The instants a statement fetch asks for, worked out by the fetch layer.
struct ListRange
{
    Timestamp from; ///< paid from (inclusive)
    Timestamp end; ///< paid before (exclusive)
    Timestamp createdFrom; ///< from, less the created lookback (lists that filter by creation)
};

/// A list's first page's request: a path under the api base and its query, unencoded.
struct ListRequest
{
    std::string path;
    std::vector<std::pair<std::string, std::string>> query;
    /// The list holds the kind's money back (#40): refunds, disputes, adjustments. A statement
    /// holding every page of each such list may say that a movement it lacks is not in it.
    bool moneyBack = false;
};

/// Where the page after a list page is.
struct NextPage
{
    enum class Kind {
        None, ///< that was the last page
        FirstWithParameter, ///< the first page's request with `parameter`=`value` added
        Link ///< `value` is a link the provider gave, relative to the page it came in
    };
    Kind kind = Kind::None;
    std::string parameter;
    std::string value;
};

/// What the demo's story may ask of a kind's payloads.
struct DemoTraits
{
    /// The kind's renewal payloads carry their period. Without it (Lemon Squeezy) a renewal
    /// waits for a snapshot, so the story imports the kind's subscriptions current and tells
    /// no first invoice or proration of them.
    bool renewalsCarryPeriod = true;
    /// The kind numbers its invoices: the demo's first number (times the story's scale); 0
    /// when its invoice ids are not numbers.
    long long firstInvoiceNumber = 0;
};

/// A list API answer that is not the kind's list page: what() says what is wrong.
class BadListPage : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// One provider kind. Each part is pure: no I/O, no clock (a time is passed in), no libcurl.
class ProviderDefinition
{
public:
    // The adapter, for webhooks (normalizePayload).

    /// The provider key, the verified body and that body parsed under the shared limits. May
    /// throw InputError (normalizePayload turns it into NormalizeOutcome::Invalid).
    virtual NormalizeResult normalize(std::string_view providerKey, std::string_view rawBody,
        const nlohmann::json &body) const = 0;
    /// The provider sends no delivery id: its event id is derivedEventId(rawBody), even for a
    /// body too broken to read.
    virtual bool derivesEventIds() const = 0;
    /// The customer's e-mail address where the kind's webhook body carries one (#42), as it
    /// is written there; empty when it has none. Never throws: an address of the wrong type is
    /// none. normalizePayload bounds and lower-cases it (adapters::customerEmail), and the
    /// database keeps only its keyed hash (ingest_delivery).
    virtual std::string customerEmail(const nlohmann::json &body) const = 0;

    // The adapter, for list pages (readStatement): the same object-level classification the
    // webhook envelope calls, given what a list lacks (an event's time, its api_version).

    /// The page's array of listed objects: a file whose top-level object has it is a page.
    virtual std::string_view listItemsKey() const = 0;
    /// One statement file or line as JSON (Recurly keeps decimal amounts as their text).
    virtual nlohmann::json parseListed(std::string_view text) const = 0;
    /// Whether the page says more pages follow (InputError naming the path when it cannot tell).
    virtual bool listSaysMoreFollows(const nlohmann::json &page) const = 0;
    /// The object a listed item stands for; moves `path` onto it.
    virtual const nlohmann::json &unwrapListed(
        const nlohmann::json &item, std::string &path) const = 0;
    /// The classification of one listed object; `ids` gets its subscription and object ids.
    virtual NormalizeResult classifyListed(adapters::DeliveryIds &ids, const nlohmann::json &object,
        const std::string &path) const = 0;

    // The signature scheme (webhook_signature.h).

    virtual SignatureScheme signatureScheme() const = 0;
    /// An HMAC scheme's header value parsed, or what is wrong with it. Not called for a
    /// basic-auth scheme.
    virtual std::variant<SignedHeader, std::string> parseSignature(
        std::string_view value) const = 0;
    /// The header value the provider would send with `rawBody` at `now`, signed with the first
    /// secret (or basic-auth pair); InputError when the credentials hold none.
    virtual std::string signatureFor(std::string_view rawBody,
        const WebhookCredentials &credentials, std::chrono::system_clock::time_point now) const = 0;

    // The list API's paging (domain/fetch calls these around its HTTP transport).

    virtual ListApi listApi() const = 0;
    /// The lists a statement of `range` reads, each by its first page's request, `pageSize`
    /// objects a page: the paid renewals first, then the money back (#40), each list paged by
    /// nextListPage. A list's path is its name in a manifest (statement_pages.h).
    virtual std::vector<ListRequest> listRequests(const ListRange &range, int pageSize) const = 0;
    /// Where the page after `page` is; BadListPage when `page` is not the kind's list.
    virtual NextPage nextListPage(const nlohmann::json &page) const = 0;

    // The snapshot reader (provider_snapshot.h).

    /// A snapshot from the provider's own subscription object (an object, the key not empty);
    /// InputError naming the field, or saying that the kind's objects are not mapped yet.
    virtual ProviderSnapshot readSnapshot(
        const std::string &providerKey, const nlohmann::json &subscription) const = 0;

    /// Whether `obj` has the shape of the provider's own subscription object, for a pasted
    /// object whose provider is not known (kindOfSubscriptionObject).
    virtual bool isOwnSubscriptionObject(const nlohmann::json &obj) const = 0;

    // The demo's payloads (domain/demo), written as the provider's API documents them.

    /// A demo subscription's ids and currency, in the provider's own formats.
    virtual void demoIdentify(
        demo::Sub &s, demo::Random &r, const demo::IdentityBases &bases) const = 0;
    /// A new charge's invoice and event ids; `invoiceNumber` counts this kind's numbered
    /// invoices, for the kinds that number them.
    virtual void demoChargeIds(
        demo::Charge &c, demo::Random &r, long long &invoiceNumber) const = 0;
    /// The webhook payload the provider sends for charge `c` of `s`; `term` is the
    /// subscription's current term.
    virtual std::string demoPayload(
        const demo::Sub &s, const demo::Charge &c, const Period &term, demo::Random &r) const = 0;
    virtual DemoTraits demoTraits() const = 0;
    /// A new delivery id in the kind's format; empty for the kinds whose deliveries carry
    /// none (derivesEventIds).
    virtual std::string demoEventId(demo::Random &r) const = 0;
    /// The other events the provider sends for charge `c` beside demoPayload's, each with an
    /// event id of its own (Stripe: invoice.payment_succeeded beside invoice.paid); empty for
    /// the kinds that send one.
    virtual std::vector<std::string> demoAlsoSent(
        const demo::Sub &s, const demo::Charge &c, demo::Random &r) const = 0;
    /// The events the provider sends when money of charge `c` goes back as `story` says (#40),
    /// oldest first, `renewalPayload` being the charge's demoPayload; empty for a kind whose
    /// demo tells no money back, or a charge its money back could not name.
    virtual std::vector<std::string> demoMoneyBack(const demo::Sub &s, const demo::Charge &c,
        const std::string &renewalPayload, const demo::MoneyBack &story, demo::Random &r) const = 0;
    /// The events the provider sends as it fails to collect charge `c` of `s` as `dunning`
    /// tells (#41), oldest first, each with the instant it is sent: each failed attempt (with
    /// its next attempt), the subscription's standing as it changes and, when the dunning
    /// recovers, the charge's renewal payload for the same invoice paid at dunning.end
    /// (Sent::paid). Empty for a kind whose demo tells no payment trouble.
    virtual std::vector<demo::Sent> demoPaymentTrouble(const demo::Sub &s, const demo::Charge &c,
        const demo::Dunning &dunning, demo::Random &r) const = 0;
    /// The list pages a statement fetch of the kind would get holding the objects of these
    /// payloads (demoPayload's and demoMoneyBack's), one page a list, each with its list's path
    /// (listRequests): the renewals' first, then a page of each money back list the payloads
    /// hold anything of. Nothing more follows any. Empty for the kinds whose demo writes no
    /// statement.
    virtual std::vector<std::pair<std::string, std::string>> demoStatementPages(
        const std::vector<std::string> &payloads) const = 0;

protected:
    // The table holds each kind's one instance, constant and never deleted: no virtual
    // destructor, so that the instances are constexpr and the table's order is checked at
    // compile time.
    ~ProviderDefinition() = default;
};

} // namespace rd
