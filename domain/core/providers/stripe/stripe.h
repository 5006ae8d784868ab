#pragma once

// Stripe: invoices, in two shapes (before and after API 2025-03-31, "basil").

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/providers/provider.h"

namespace rd::providers {

class Stripe final : public ProviderDefinition
{
public:
    // adapter.cpp
    NormalizeResult normalize(std::string_view providerKey, std::string_view rawBody,
        const nlohmann::json &body) const override;
    bool derivesEventIds() const override { return false; }
    // customer_email.cpp
    std::string customerEmail(const nlohmann::json &body) const override;
    std::string_view listItemsKey() const override { return "data"; }
    nlohmann::json parseListed(std::string_view text) const override;
    bool listSaysMoreFollows(const nlohmann::json &page) const override;
    const nlohmann::json &unwrapListed(
        const nlohmann::json &item, std::string &path) const override;
    NormalizeResult classifyListed(adapters::DeliveryIds &ids, const nlohmann::json &object,
        const std::string &path) const override;

    // signature.cpp
    SignatureScheme signatureScheme() const override;
    std::variant<SignedHeader, std::string> parseSignature(std::string_view value) const override;
    std::string signatureFor(std::string_view rawBody, const WebhookCredentials &credentials,
        std::chrono::system_clock::time_point now) const override;

    // paging.cpp
    ListApi listApi() const override;
    std::vector<ListRequest> listRequests(const ListRange &range, int pageSize) const override;
    NextPage nextListPage(const nlohmann::json &page) const override;

    // snapshot.cpp
    ProviderSnapshot readSnapshot(
        const std::string &providerKey, const nlohmann::json &subscription) const override;
    bool isOwnSubscriptionObject(const nlohmann::json &obj) const override;

    // demo.cpp
    void demoIdentify(
        demo::Sub &s, demo::Random &r, const demo::IdentityBases &bases) const override;
    void demoChargeIds(demo::Charge &c, demo::Random &r, long long &invoiceNumber) const override;
    std::string demoPayload(const demo::Sub &s, const demo::Charge &c, const Period &term,
        demo::Random &r) const override;
    DemoTraits demoTraits() const override;
    std::string demoEventId(demo::Random &r) const override;
    std::vector<std::string> demoAlsoSent(
        const demo::Sub &s, const demo::Charge &c, demo::Random &r) const override;
    std::vector<std::string> demoMoneyBack(const demo::Sub &s, const demo::Charge &c,
        const std::string &renewalPayload, const demo::MoneyBack &story,
        demo::Random &r) const override;
    std::vector<demo::Sent> demoPaymentTrouble(const demo::Sub &s, const demo::Charge &c,
        const demo::Dunning &dunning, demo::Random &r) const override;
    std::vector<std::pair<std::string, std::string>> demoStatementPages(
        const std::vector<std::string> &payloads) const override;
};

// Shared by the parts of the Stripe folder.

/// A Stripe invoice; `basil` selects its shape (see adapter.cpp). `ids` gets the subscription
/// and invoice ids as they are read; `path` is the invoice's JSON path for messages.
NormalizeResult classifyStripeInvoice(adapters::DeliveryIds &ids, const nlohmann::json &invoice,
    const std::string &path, bool basil, const adapters::FallbackTime &fallbackPaidAt);
/// money_back.cpp: whether an event type is a refund's, a dispute's or a credit note's, and
/// what it moves (NotARenewal for those that move nothing).
bool isStripeMoneyBackEvent(std::string_view type);
NormalizeResult classifyStripeMoneyBack(
    const nlohmann::json &body, const std::string &type, Timestamp eventTime);
/// A listed refund or dispute (a statement's /v1/refunds or /v1/disputes page): its movements,
/// with no event to date a failure by. `ids` gets the object's id.
NormalizeResult classifyStripeListedMoneyBack(
    adapters::DeliveryIds &ids, const nlohmann::json &object, const std::string &path);
/// The renewal invoice's charge and payment intent, in both API shapes: what a later refund
/// names it by.
std::vector<std::string> stripePaymentRefs(const nlohmann::json &invoice, const std::string &path);
/// Basil or not from the invoice's own fields, for invoices that come without an api_version.
bool stripeInvoiceIsBasil(const nlohmann::json &invoice, const std::string &path);
/// Basil or not from an event's api_version (>= 2025-03-31).
bool stripeEventIsBasil(const nlohmann::json &event);
/// The subscription an invoice of the given shape belongs to, if any.
std::optional<std::string> stripeInvoiceSubscription(
    const nlohmann::json &invoice, const std::string &path, bool basil);
/// payment_trouble.cpp (#41): whether an event type tells of a failed payment or of the
/// subscription's standing, and what it tells. `ids` gets the subscription and invoice ids.
bool isStripePaymentTroubleEvent(std::string_view type);
NormalizeResult classifyStripePaymentTrouble(
    adapters::DeliveryIds &ids, const nlohmann::json &body, const std::string &type);
} // namespace rd::providers
