#pragma once

// The receiver's own HTTPS (`--tls-cert`/`--tls-key`): one server context for every listen
// address. Terminating TLS in a reverse proxy needs none of this.

#include <boost/asio/ssl/context.hpp>

#include <optional>
#include <string>

namespace rd {

/// The server context for the PEM certificate chain and key, TLS 1.2 and later; std::nullopt
/// when neither is given. Throws SetupError when only one is given or either cannot be used.
std::optional<boost::asio::ssl::context> serverTlsContext(
    const std::string &certPath, const std::string &keyPath);

} // namespace rd
