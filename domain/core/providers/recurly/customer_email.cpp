// Recurly's customer e-mail (#42): the fetched invoice (or subscription) carries its account
// (account.email).

#include "domain/core/providers/recurly/recurly.h"

#include "domain/core/adapters/adapter_support.h"

namespace rd::providers {

std::string Recurly::customerEmail(const nlohmann::json &body) const
{
    return adapters::stringAt(body, {"account", "email"});
}

} // namespace rd::providers
