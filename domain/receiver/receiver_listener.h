#pragma once

// The receiver's listening sockets: each --listen address resolved, bound with SO_REUSEPORT
// (several receivers may share a port; the kernel spreads connections among them) and
// accepted from until it is closed. What becomes of an accepted connection is the caller's.

#include "domain/receiver/receiver_config.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <functional>
#include <memory>

namespace rd {

struct Listener
{
    std::unique_ptr<boost::asio::ip::tcp::acceptor> acceptor;
    ListenAddress bound; ///< the address actually bound (port 0 resolved)
};

/// Binds and listens on `address`. Throws SetupError naming the address and what failed.
Listener bindListener(boost::asio::io_context &ioc, const ListenAddress &address);

/// Accepts on `acceptor` until it is closed, each connection on a strand of its own, handing
/// it to `onAccepted`. `acceptor` and `onAccepted`'s captures must outlive the io_context's run.
void acceptConnections(boost::asio::io_context &ioc, boost::asio::ip::tcp::acceptor &acceptor,
    std::function<void(boost::asio::ip::tcp::socket)> onAccepted);

} // namespace rd
