#pragma once

// Paddle Billing: transactions.

#include "domain/core/providers/provider.h"

namespace rd::providers {

class Paddle final : public ProviderDefinition
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

/// money_back.cpp: an adjustment at `path` (the data of adjustment.created / adjustment.updated,
/// or one listed by GET /adjustments) as the money it moves, or NotARenewal for one that moves
/// none; `source` (the event type, or "listed adjustment") heads its message.
NormalizeResult classifyPaddleAdjustment(
    const nlohmann::json &adjustment, const std::string &path, const std::string &source);
/// payment_trouble.cpp (#41): whether an event type tells of failed payments or of the
/// subscription's standing, and what it tells. `ids` gets the subscription and transaction ids.
bool isPaddlePaymentTroubleEvent(std::string_view type);
NormalizeResult classifyPaddlePaymentTrouble(
    adapters::DeliveryIds &ids, const nlohmann::json &body, const std::string &type);
} // namespace rd::providers
