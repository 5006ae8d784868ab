#include "domain/receiver/receiver_config.h"

#include "domain/core/errors.h"

#include <charconv>

namespace rd {

ListenAddress parseListenAddress(const std::string &text)
{
    const auto colon = text.rfind(':');
    if (colon == std::string::npos)
        throw InputError("--listen", "'" + text + "' is not HOST:PORT");
    ListenAddress a;
    a.host = text.substr(0, colon);
    if (a.host.size() >= 2 && a.host.front() == '[' && a.host.back() == ']')
        a.host = a.host.substr(1, a.host.size() - 2);
    else if (a.host.find(':') != std::string::npos)
        throw InputError(
            "--listen", "'" + text + "': write an IPv6 address in brackets, [::1]:8080");
    if (a.host.empty())
        a.host = "0.0.0.0";
    const std::string port = text.substr(colon + 1);
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (port.empty() || ec != std::errc() || end != port.data() + port.size() || value > 65535)
        throw InputError("--listen", "'" + text + "': the port must be a number from 0 to 65535");
    a.port = static_cast<std::uint16_t>(value);
    return a;
}

} // namespace rd
