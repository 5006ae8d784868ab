// Lemon Squeezy's customer e-mail (#42): a subscription invoice, a subscription or an order
// carries its customer's address as data.attributes.user_email.

#include "domain/core/providers/lemonsqueezy/lemonsqueezy.h"

#include "domain/core/adapters/adapter_support.h"

namespace rd::providers {

std::string LemonSqueezy::customerEmail(const nlohmann::json &body) const
{
    return adapters::stringAt(body, {"data", "attributes", "user_email"});
}

} // namespace rd::providers
