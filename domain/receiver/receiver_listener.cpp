#include "domain/receiver/receiver_listener.h"

#include "domain/core/errors.h"

#include <boost/asio/strand.hpp>

#include <string>

namespace rd {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using ReusePort = net::detail::socket_option::boolean<SOL_SOCKET, SO_REUSEPORT>;

Listener bindListener(net::io_context &ioc, const ListenAddress &address)
{
    const std::string where = "--listen " + address.host + ":" + std::to_string(address.port);
    boost::system::error_code ec;
    tcp::resolver resolver(ioc);
    const auto results = resolver.resolve(address.host, std::to_string(address.port),
        tcp::resolver::passive | tcp::resolver::numeric_service, ec);
    if (ec || results.empty())
        throw SetupError(where + ": cannot resolve the host: " + ec.message());
    const tcp::endpoint endpoint = results.begin()->endpoint();
    auto acceptor = std::make_unique<tcp::acceptor>(ioc);
    const auto fail = [&](const std::string &what) {
        throw SetupError(where + ": " + what + ": " + ec.message());
    };
    acceptor->open(endpoint.protocol(), ec);
    if (ec)
        fail("cannot open a socket");
    acceptor->set_option(net::socket_base::reuse_address(true), ec);
    // Several `renewalctl serve` processes may share the port; the kernel spreads
    // connections among them.
    acceptor->set_option(ReusePort(true), ec);
    if (ec)
        fail("cannot set SO_REUSEPORT");
    acceptor->bind(endpoint, ec);
    if (ec)
        fail("cannot bind");
    acceptor->listen(net::socket_base::max_listen_connections, ec);
    if (ec)
        fail("cannot listen");
    const auto local = acceptor->local_endpoint();
    return {std::move(acceptor), {local.address().to_string(), local.port()}};
}

void acceptConnections(
    net::io_context &ioc, tcp::acceptor &acceptor, std::function<void(tcp::socket)> onAccepted)
{
    acceptor.async_accept(net::make_strand(ioc),
        [&ioc, &acceptor, onAccepted = std::move(onAccepted)](
            boost::system::error_code ec, tcp::socket socket) mutable {
            if (ec == net::error::operation_aborted || !acceptor.is_open())
                return; // stopping
            if (!ec)
                onAccepted(std::move(socket));
            acceptConnections(ioc, acceptor, std::move(onAccepted));
        });
}

} // namespace rd
