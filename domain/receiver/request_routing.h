#pragma once

// Which handler a request goes to, decided from its method, target and the provider keys in
// force: a pure function, no I/O, so that every path, method and key is tested as data
// (tst_receiver_routing) without a socket. The signature check and the database come after.

#include "domain/core/adapters/provider_kinds.h"
#include "domain/core/webhook_signature.h"
#include "domain/receiver/receiver_answers.h"

#include <boost/beast/http/verb.hpp>

#include <string>
#include <string_view>

namespace rd {

struct ReceiverKeys;

enum class Handler {
    Health, ///< GET or HEAD /healthz: the database is asked
    Metrics, ///< GET /metrics
    Delivery, ///< POST /webhooks/{key} of a key both registered and in the secrets file
    Refusal, ///< answered at once with `answer`
};

struct Route
{
    Handler handler = Handler::Refusal;
    Answer answer; ///< Refusal: the fixed answer
    std::string providerKey; ///< Delivery
    ProviderKind kind {}; ///< Delivery
    const WebhookCredentials *credentials = nullptr; ///< Delivery: into the keys given
};

/// The route of `method` on `target` (its query, if any, ignored). A key is looked up before
/// the method is checked, as before the split: a GET of an unknown key is a 404, of a known
/// one a 405. The Route's credentials point into `keys`, which must outlive it.
Route routeRequest(
    boost::beast::http::verb method, std::string_view target, const ReceiverKeys &keys);

} // namespace rd
