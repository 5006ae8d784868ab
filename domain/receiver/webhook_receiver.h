#pragma once

// `renewalctl serve`: providers POST their deliveries to /webhooks/{providerKey}. Each delivery
// is checked against the provider's signature scheme before anything stores it, then goes to a
// database worker that runs it through WebhookIngestor (one transaction), and is answered 200
// only after that committed. GET /healthz and GET /metrics for the operator.

#include "domain/receiver/receiver_config.h"
#include "domain/receiver/receiver_keys.h"

#include <functional>
#include <iosfwd>
#include <memory>
#include <vector>

namespace rd {

class WebhookReceiver
{
public:
    /// Called on SIGHUP for the new secrets and providers; a throw keeps the old ones.
    using KeysLoader = std::function<ReceiverKeys()>;

    /// Binds every listen address now (SO_REUSEPORT, so that several receivers can share a
    /// port). Throws SetupError when an address cannot be bound or TLS cannot be set up.
    WebhookReceiver(ReceiverConfig config, ReceiverKeys keys, KeysLoader reload, std::ostream &log);
    ~WebhookReceiver();
    WebhookReceiver(const WebhookReceiver &) = delete;
    WebhookReceiver &operator=(const WebhookReceiver &) = delete;

    /// The addresses actually bound (port 0 resolved), in --listen order.
    std::vector<ListenAddress> boundAddresses() const;

    /// Serves until SIGTERM or SIGINT (or stop()): then stops accepting, answers the deliveries
    /// already handed to the database, closes idle connections and returns.
    void run();
    /// Thread-safe: begins the same graceful stop.
    void stop();

    struct Impl; ///< the shared state of connections (webhook_receiver.cpp)

private:
    std::unique_ptr<Impl> d;
};

} // namespace rd
