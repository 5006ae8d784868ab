#include "domain/receiver/request_routing.h"

#include "domain/receiver/receiver_keys.h"

namespace rd {

namespace http = boost::beast::http;

namespace {

Route refusal(Answer answer)
{
    Route r;
    r.handler = Handler::Refusal;
    r.answer = std::move(answer);
    return r;
}

} // namespace

Route routeRequest(http::verb method, std::string_view target, const ReceiverKeys &keys)
{
    const std::string_view path = target.substr(0, target.find('?'));
    if (path == "/healthz") {
        if (method != http::verb::get && method != http::verb::head)
            return refusal(methodNotAllowed("GET"));
        return {Handler::Health, {}, {}, {}, nullptr};
    }
    if (path == "/metrics") {
        if (method != http::verb::get)
            return refusal(methodNotAllowed("GET"));
        return {Handler::Metrics, {}, {}, {}, nullptr};
    }
    constexpr std::string_view kPrefix = "/webhooks/";
    if (path.substr(0, kPrefix.size()) != kPrefix)
        return refusal(notFound());
    std::string key(path.substr(kPrefix.size()));
    const auto kind = keys.kinds.find(key);
    const auto credentials = keys.secrets.find(key);
    if (key.empty() || kind == keys.kinds.end() || credentials == keys.secrets.end())
        return refusal(unknownProviderKey());
    if (method != http::verb::post)
        return refusal(methodNotAllowed("POST"));
    return {Handler::Delivery, {}, std::move(key), kind->second, &credentials->second};
}

} // namespace rd
