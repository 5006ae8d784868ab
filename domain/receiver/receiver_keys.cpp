#include "domain/receiver/receiver_keys.h"

#include "domain/core/errors.h"
#include "domain/store/provider_registry.h"

namespace rd {

ReceiverKeys loadReceiverKeys(const std::string &secretsPath, const std::string &conninfo)
{
    ReceiverKeys keys;
    keys.secrets = loadReceiverSecrets(secretsPath);
    for (const auto &p : listBillingProviders(conninfo))
        keys.kinds.emplace(p.key, p.kind);
    for (const auto &[key, credentials] : keys.secrets) {
        const auto kind = keys.kinds.find(key);
        if (kind == keys.kinds.end())
            throw SetupError("secrets file " + secretsPath + " names provider key '" + key
                + "', which is not registered (renewalctl providers add " + key + " --kind KIND)");
        // An entry without the list its kind is checked with would refuse every delivery:
        // refused here, where the kind is known, rather than one 4xx at a time.
        const bool basic = signsWithBasicAuth(kind->second);
        // An entry holding only an apiKey (for statement fetch) is refused the same way.
        if ((basic ? credentials.basicAuth : credentials.secrets).empty())
            throw SetupError("secrets file " + secretsPath + ": provider key '" + key + "' is a "
                + toString(kind->second) + " provider, checked with "
                + (basic ? "\"basicAuth\" (HTTP basic auth)" : "\"secrets\" (HMAC signatures)")
                + ", and has no " + (basic ? "\"basicAuth\"" : "\"secrets\"")
                + " list: every delivery would be refused"
                + (credentials.secrets.empty() && credentials.basicAuth.empty()
                        ? " (its \"apiKey\" is for statement fetch only)"
                        : ""));
    }
    return keys;
}

} // namespace rd
