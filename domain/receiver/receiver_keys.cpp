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
        if (keys.kinds.count(key) == 0)
            throw SetupError("secrets file " + secretsPath + " names provider key '" + key
                + "', which is not registered (renewalctl providers add " + key + " --kind KIND)");
    }
    return keys;
}

} // namespace rd
