#pragma once

// Chargebee: invoices, with the subscription beside them in an event.

#include "domain/core/providers/provider.h"

namespace rd::providers {

class Chargebee final : public ProviderDefinition
{
public:
    // adapter.cpp
    NormalizeResult normalize(std::string_view providerKey, std::string_view rawBody,
        const nlohmann::json &body) const override;
    bool derivesEventIds() const override { return false; }
    // customer_email.cpp
    std::string customerEmail(const nlohmann::json &body) const override;
    std::string_view listItemsKey() const override { return "list"; }
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

/// money_back.cpp: whether an event type is a refund's, a chargeback's or a credit note's, and
/// what it moves (NotARenewal for those that move nothing).
bool isChargebeeMoneyBackEvent(std::string_view type);
NormalizeResult classifyChargebeeMoneyBack(const nlohmann::json &body, const std::string &type);
/// A transaction at `path` (an event's content.transaction, or one listed by GET
/// /api/v2/transactions) as the money it moves; `source` (the event type, or "listed
/// transaction") heads its message.
NormalizeResult classifyChargebeeTransaction(
    const nlohmann::json &txn, const std::string &path, const std::string &source);
/// payment_trouble.cpp (#41): whether an event type tells of failed payments (dunning) or of
/// the subscription's standing, and what it tells. `ids` gets the subscription and invoice ids.
bool isChargebeePaymentTroubleEvent(std::string_view type);
NormalizeResult classifyChargebeePaymentTrouble(
    adapters::DeliveryIds &ids, const nlohmann::json &body, const std::string &type);
} // namespace rd::providers
