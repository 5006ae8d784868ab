#include "domain/receiver/receiver_tls.h"

#include "domain/core/errors.h"

#include <boost/system/error_code.hpp>

namespace rd {

namespace ssl = boost::asio::ssl;

std::optional<ssl::context> serverTlsContext(
    const std::string &certPath, const std::string &keyPath)
{
    if (certPath.empty() && keyPath.empty())
        return std::nullopt;
    if (certPath.empty() || keyPath.empty())
        throw SetupError("TLS needs both --tls-cert and --tls-key");
    std::optional<ssl::context> tls(std::in_place, ssl::context::tls_server);
    tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2
        | ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    boost::system::error_code ec;
    tls->use_certificate_chain_file(certPath, ec);
    if (ec)
        throw SetupError("--tls-cert " + certPath + ": " + ec.message());
    tls->use_private_key_file(keyPath, ssl::context::pem, ec);
    if (ec)
        throw SetupError("--tls-key " + keyPath + ": " + ec.message());
    return tls;
}

} // namespace rd
