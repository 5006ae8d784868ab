// A made-up provider kind for provider-kind-parts-selftest.sh, which compiles it once with every
// part of ProviderDefinition and once without each (-DOMIT_<part>): a kind that lacks a part
// must not build. Not part of any target.

#include "domain/core/providers/provider.h"

#include "domain/core/providers/demo_support.h"

using namespace rd;

class Planted final : public ProviderDefinition
{
public:
#ifndef OMIT_normalize
    NormalizeResult normalize(
        std::string_view, std::string_view, const nlohmann::json &) const override
    {
        return {};
    }
#endif
#ifndef OMIT_derivesEventIds
    bool derivesEventIds() const override
    {
        return false;
    }
#endif
#ifndef OMIT_customerEmail
    std::string customerEmail(const nlohmann::json &) const override
    {
        return {};
    }
#endif
#ifndef OMIT_listItemsKey
    std::string_view listItemsKey() const override
    {
        return "data";
    }
#endif
#ifndef OMIT_parseListed
    nlohmann::json parseListed(std::string_view) const override
    {
        return {};
    }
#endif
#ifndef OMIT_listSaysMoreFollows
    bool listSaysMoreFollows(const nlohmann::json &) const override
    {
        return false;
    }
#endif
#ifndef OMIT_unwrapListed
    const nlohmann::json &unwrapListed(const nlohmann::json &item, std::string &) const override
    {
        return item;
    }
#endif
#ifndef OMIT_classifyListed
    NormalizeResult classifyListed(
        adapters::DeliveryIds &, const nlohmann::json &, const std::string &) const override
    {
        return {};
    }
#endif
#ifndef OMIT_signatureScheme
    SignatureScheme signatureScheme() const override
    {
        return {};
    }
#endif
#ifndef OMIT_parseSignature
    std::variant<SignedHeader, std::string> parseSignature(std::string_view) const override
    {
        return std::string("planted");
    }
#endif
#ifndef OMIT_signatureFor
    std::string signatureFor(std::string_view, const WebhookCredentials &,
        std::chrono::system_clock::time_point) const override
    {
        return {};
    }
#endif
#ifndef OMIT_listApi
    ListApi listApi() const override
    {
        return {};
    }
#endif
#ifndef OMIT_listRequests
    std::vector<ListRequest> listRequests(const ListRange &, int) const override
    {
        return {};
    }
#endif
#ifndef OMIT_nextListPage
    NextPage nextListPage(const nlohmann::json &) const override
    {
        return {};
    }
#endif
#ifndef OMIT_readSnapshot
    ProviderSnapshot readSnapshot(const std::string &, const nlohmann::json &) const override
    {
        return {};
    }
#endif
#ifndef OMIT_isOwnSubscriptionObject
    bool isOwnSubscriptionObject(const nlohmann::json &) const override
    {
        return false;
    }
#endif
#ifndef OMIT_demoIdentify
    void demoIdentify(demo::Sub &, demo::Random &, const demo::IdentityBases &) const override
    { }
#endif
#ifndef OMIT_demoChargeIds
    void demoChargeIds(demo::Charge &, demo::Random &, long long &) const override
    { }
#endif
#ifndef OMIT_demoPayload
    std::string demoPayload(
        const demo::Sub &, const demo::Charge &, const Period &, demo::Random &) const override
    {
        return {};
    }
#endif
#ifndef OMIT_demoTraits
    DemoTraits demoTraits() const override
    {
        return {};
    }
#endif
#ifndef OMIT_demoEventId
    std::string demoEventId(demo::Random &) const override
    {
        return {};
    }
#endif
#ifndef OMIT_demoAlsoSent
    std::vector<std::string> demoAlsoSent(
        const demo::Sub &, const demo::Charge &, demo::Random &) const override
    {
        return {};
    }
#endif
#ifndef OMIT_demoMoneyBack
    std::vector<std::string> demoMoneyBack(const demo::Sub &, const demo::Charge &,
        const std::string &, const demo::MoneyBack &, demo::Random &) const override
    {
        return {};
    }
#endif
#ifndef OMIT_demoPaymentTrouble
    std::vector<demo::Sent> demoPaymentTrouble(const demo::Sub &, const demo::Charge &,
        const demo::Dunning &, demo::Random &) const override
    {
        return {};
    }
#endif
#ifndef OMIT_demoStatementPages
    std::vector<std::pair<std::string, std::string>> demoStatementPages(
        const std::vector<std::string> &) const override
    {
        return {};
    }
#endif
};

// As the table of kinds holds its instances (domain/core/adapters/provider_kinds.cpp).
constexpr Planted kPlanted;
const ProviderDefinition &kRow = kPlanted;
