#pragma once

// Recurly (API v3): invoices, whose amounts are decimals in major units.

#include "domain/core/providers/provider.h"

namespace rd::providers {

class Recurly final : public ProviderDefinition
{
public:
    // adapter.cpp
    NormalizeResult normalize(std::string_view providerKey, std::string_view rawBody,
        const nlohmann::json &body) const override;
    bool derivesEventIds() const override { return true; }
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

// Shared by the parts of the Recurly folder (adapter.cpp).

/// The decimal amount `key` of `obj` in minor units of `currency`, exactly (InputError naming
/// the path).
std::int64_t requireRecurlyMajorUnits(
    const nlohmann::json &obj, std::string_view path, const char *key, const std::string &currency);
/// An invoice's line items (a list object's data, or an array) and their path.
std::pair<const nlohmann::json *, std::string> recurlyLineItems(
    const nlohmann::json &invoice, const std::string &path);
/// Whether the invoice is a credit invoice (type credit, or a refund, credit, write-off or
/// termination origin).
bool isRecurlyCreditInvoice(const nlohmann::json &invoice, const std::string &path);
/// money_back.cpp: a credit invoice as the cash it refunded (its refund transactions), or
/// NotARenewal for one that refunded none (a credit to the account).
NormalizeResult classifyRecurlyCreditInvoice(
    adapters::DeliveryIds &ids, const nlohmann::json &invoice, const std::string &path);
/// money_back.cpp: a transaction listed by GET /transactions (type refund) as the cash it
/// refunded, or NotARenewal for one of another type. `ids` gets its id.
NormalizeResult classifyRecurlyListedTransaction(
    adapters::DeliveryIds &ids, const nlohmann::json &txn, const std::string &path);
/// The successful purchase and capture transactions of a renewal invoice (transactions[]):
/// what a refund listed on its own names it by (original_transaction_id).
std::vector<std::string> recurlyPaymentRefs(const nlohmann::json &invoice, const std::string &path);
/// payment_trouble.cpp (#41): whether the invoice is a renewal invoice in dunning or failed
/// (state past_due or failed), and its failed attempts and standing. `ids` gets the
/// subscription and invoice ids.
bool isRecurlyTroubledInvoice(const nlohmann::json &invoice, const std::string &path);
NormalizeResult classifyRecurlyPaymentTrouble(
    adapters::DeliveryIds &ids, const nlohmann::json &invoice, const std::string &path);
} // namespace rd::providers
